import Foundation
import FleetCore

/// Profiles for the targets a native format reads (maintenance records, assets, drivers, DVIRs
/// with their defects): the profile puts each mapped cell into that format's column, in the
/// shape the format reads (ISO dates, plain decimals with '.', distances in km or mi, hours),
/// and the format's own row rules then load it (`MaintenanceImporter.load` and the others). The
/// natural keys, the rejects and "later state wins" are therefore the format's, and a record
/// read through a profile and through the native file is one row.
enum ProfileNativeRows {
    /// The fields of each target: the native format's column names, with the kind that says
    /// which unit (if any) a column takes. A measured field takes any unit of its kind and is
    /// converted to the native column's (`column(for:)`).
    static func fields(of target: ProfileTarget) -> [String: ProfileTarget.Kind] {
        switch target {
        case .maintenanceRecords:
            return ["unit_number": .identifier, "vin": .vin, "service_type": .text, "performed_at": .datetime, "status": .text,
                    "odometer": .distance, "engine_hours": .duration, "cost": .money, "currency": .currency, "vendor": .text,
                    "work_order": .identifier, "notes": .text]
        case .assets:
            return ["unit_number": .identifier, "kind": .text, "name": .text, "vin": .vin, "pin": .identifier, "make": .text,
                    "model": .text, "year": .number, "fuel_type": .text, "license_plate": .identifier, "cost_center": .text,
                    "department": .text, "asset_group": .text, "in_service_date": .date, "retired_date": .date,
                    "acquisition_cost": .money, "currency": .currency, "target_hours_per_week": .number, "tank_capacity": .volume,
                    "cdl_class": .text, "samsara_id": .identifier, "deere_principal_id": .identifier, "deere_equipment_id": .identifier,
                    "vendor_serial": .identifier, "telematics_id": .identifier, "geotab_id": .identifier, "traccar_id": .identifier,
                    "motive_id": .identifier]
        case .drivers:
            return ["employee_id": .identifier, "name": .text, "first_name": .text, "last_name": .text, "license_number": .identifier,
                    "license_state": .text, "license_expiry": .date, "license_class": .text, "medical_expiry": .date, "status": .text,
                    "phone": .text, "email": .text, "samsara_id": .identifier]
        case .dvirs:
            return ["dvir_id": .identifier, "unit_number": .identifier, "vin": .vin, "driver_id": .identifier, "driver_name": .text,
                    "type": .text, "started_at": .datetime, "signed_at": .datetime, "safety_status": .text, "odometer": .distance,
                    "location": .text, "mechanic_name": .text, "mechanic_signed_at": .datetime, "mechanic_notes": .text,
                    "reviewed_at": .datetime, "reviewed_by": .text, "trailer": .identifier, "updated_at": .datetime,
                    "defect_id": .identifier, "component": .text, "defect_type": .text, "comment": .text, "safety_critical": .text,
                    "defect_created_at": .datetime, "resolved_at": .datetime, "resolved_by": .text, "certification": .text]
        case .fuelPurchases, .expenses, .meterReadings, .positions, .periodTotals:
            return [:]
        }
    }

    /// A field with a vehicle to name, one of which each row of these targets needs.
    static func assetKeys(of target: ProfileTarget) -> [String] {
        target == .maintenanceRecords || target == .dvirs ? ["unit_number", "vin"] : []
    }

    /// The native column a mapped field becomes, and the factor from SI to that column's unit.
    /// A distance keeps its raw number in `odometer_km` or `odometer_mi` when that is its unit
    /// (so nothing is rounded through metres); any other distance unit goes to km.
    static func column(for c: Profile.Column) -> (name: String, fromSI: Double?) {
        switch (c.kind, c.field) {
        case (.distance, _):
            if c.unit?.factor == Units.metresPerMile { return (c.field + "_mi", nil) }
            return (c.field + "_km", c.unit?.factor == Units.metresPerKilometre ? nil : 1 / Units.metresPerKilometre)
        case (.duration, _):
            return (c.field, c.unit?.factor == Units.secondsPerHour ? nil : 1 / Units.secondsPerHour)
        case (.volume, "tank_capacity"):
            return ("tank_capacity_l", c.unit?.factor == Units.millilitresPerLitre ? nil : 1 / Units.millilitresPerLitre)
        default:
            return (c.field, nil)
        }
    }

    /// The native column table of a profile: each mapped field's native column, with the file's
    /// header as its one spelling (constants under their own header, `Profile.Column.constant`).
    static func columns(_ profile: Profile) -> [String: [String]] {
        Dictionary(profile.columns.map { (column(for: $0).name, [$0.header]) }) { a, _ in a }
    }
}
