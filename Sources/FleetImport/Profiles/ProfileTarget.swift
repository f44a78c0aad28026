import Foundation

/// What a mapping profile loads (docs/FORMATS.md, "Mapping profiles"): the warehouse record its
/// rows become, and the fields a column may be mapped to, each of one kind. The kind says which
/// units fit the field (`ProfileUnit`), so a volume in km or a distance in gallons is refused
/// when the profile is read, not found in a report.
public enum ProfileTarget: String, Sendable, CaseIterable {
    case fuelPurchases = "fuel_purchases"
    case expenses
    case meterReadings = "meter_readings"
    case positions
    case maintenanceRecords = "maintenance_records"
    case assets
    case drivers
    case dvirs
    /// Figures a source reports per period (`vendor_total`): a portal's daily report, an IFTA
    /// summary, a statement's monthly volume. Shown beside FleetKit's own, never added to them.
    case periodTotals = "period_totals"

    /// What a field holds, and so which unit (if any) its column takes.
    public enum Kind: String, Sendable {
        case text, identifier, vin, currency
        case date, time, datetime
        case money, price
        /// A plain number with no unit (a model year, hours per week).
        case number
        case distance, volume, duration, speed
        case latitude, longitude, heading
    }

    /// Time fields every target shares: a `datetime` column, or `date` with an optional `time`.
    static let timeFields: [String: Kind] = ["datetime": .datetime, "date": .date, "time": .time]
    /// Asset fields every target of `ProfileRecord` shares. Without one, the file's asset is
    /// `--asset` or its folder. A licence plate names the asset that master data gave that plate
    /// (`AssetsImporter` links it as an identifier), in either import order.
    static let assetFields: [String: Kind] = ["unit_number": .identifier, "vin": .vin, "license_plate": .identifier]

    /// Whether the target's rows are read by its native format (`MaintenanceImporter`,
    /// `AssetsImporter`, `DriversImporter`, `DVIRImporter`) after the profile has put each mapped
    /// cell in that format's column and shape (`ProfileNativeRows`): one set of row rules and
    /// natural keys, so a record read either way is one row.
    public var readsNatively: Bool { [.maintenanceRecords, .assets, .drivers, .dvirs].contains(self) }

    /// The fields of the target and their kinds.
    public var fields: [String: Kind] {
        var own: [String: Kind]
        switch self {
        case .fuelPurchases:
            own = ["transaction_id": .identifier, "card_number": .identifier, "vehicle_description": .text,
                   "merchant": .text, "merchant_city": .text, "merchant_state": .text, "merchant_country": .text,
                   "fuel_grade": .text, "product_code": .text, "volume": .volume, "unit_price": .price,
                   "total": .money, "currency": .currency, "odometer": .distance]
        case .expenses:
            own = ["expense_id": .identifier, "invoice_number": .identifier, "category": .text, "amount": .money,
                   "currency": .currency, "vendor": .text, "description": .text, "vehicle_name": .text]
        case .meterReadings:
            own = ["odometer": .distance, "engine_hours": .duration, "fuel_used": .volume]
        case .positions:
            own = ["latitude": .latitude, "longitude": .longitude, "speed": .speed, "heading": .heading, "altitude": .distance]
        case .maintenanceRecords, .assets, .drivers, .dvirs:
            return ProfileNativeRows.fields(of: self)
        case .periodTotals:
            // One local day (`date`) or a period of local days (`period_start`, `period_end`,
            // both inclusive): never a clock time, a total covers whole days.
            own = Self.periodMeasures.merging(["date": .date, "period_start": .date, "period_end": .date, "jurisdiction": .text,
                                               "fuel_type": .text, "source": .identifier, "reported_at": .datetime]) { a, _ in a }
            return own.merging(Self.assetFields) { a, _ in a }
        }
        return own.merging(Self.timeFields) { a, _ in a }.merging(Self.assetFields) { a, _ in a }
    }

    /// The measure fields of `period_totals`, named as `VendorTotal.measures`, each taking a unit.
    static let periodMeasures: [String: Kind] = ["distance": .distance, "engine_hours": .duration, "idle_hours": .duration,
                                                 "fuel_used": .volume, "fuel_purchased": .volume]

    /// Fields a profile must map (besides a time: `datetime` or `date`); for meter readings, at
    /// least one meter instead.
    public var required: [String] {
        switch self {
        case .fuelPurchases: return ["total"]
        case .expenses: return ["category", "amount"]
        case .meterReadings, .periodTotals: return []
        case .positions: return ["latitude", "longitude"]
        case .maintenanceRecords: return ["service_type", "performed_at"]
        case .assets: return ["unit_number"]
        case .drivers: return ["employee_id"]
        case .dvirs: return ["dvir_id", "type", "signed_at", "safety_status"]
        }
    }

    /// The warehouse table the rows go to (for rejects and previews).
    var table: String {
        switch self {
        case .fuelPurchases: return "fuel_purchase"
        case .expenses: return "expense"
        case .meterReadings: return "meter_reading"
        case .positions: return "position"
        case .maintenanceRecords: return "maintenance_record"
        case .assets: return "asset"
        case .drivers: return "driver"
        case .dvirs: return "dvir"
        case .periodTotals: return "vendor_total"
        }
    }

    /// Whether the rows need an asset: a reading or a fix of no vehicle means nothing, while a
    /// cost of no vehicle is still a cost (shown unassigned).
    var needsAsset: Bool { self == .meterReadings || self == .positions || self == .periodTotals }
}
