import Foundation
import FleetCore
import FleetWarehouse

/// Preventive-maintenance intervals (`service-schedules.csv`): how often each service is due,
/// by calendar (days, months), distance and engine hours, with the "due soon" warning before
/// each. The maintenance-due report measures these from the last maintenance record of the
/// same service type; whichever interval is reached first makes the service due.
///
/// A row applies to one asset (`unit_number` or `vin`), to an asset group (`asset_group`), or,
/// with both empty, to the whole fleet. Its natural key is that scope plus the service type
/// (`unit:T-01|oil_change`, `group:Pickups|oil_change`, `fleet|oil_change`), so a re-export with
/// a changed interval updates the schedule in place.
public struct ServiceSchedulesImporter: Importer {
    public static let format = "service-schedules"
    public static let summary = "Preventive-maintenance intervals per asset, group or fleet: days, months, km/mi, engine hours and due-soon thresholds (CSV)"
    public static let example = "service-schedules.csv"

    static let columns: [String: [String]] = [
        "unit_number": AssetsImporter.columns["unit_number"]! + ["vehicle", "vehicle_name", "asset", "equipment"],
        "vin": ["vehicle_vin", "vehicle_identification_number"],
        "asset_group": ["group", "vehicle_group", "fleet_group", "equipment_group"],
        "service_type": ["service", "service_task", "service_task_name", "task", "maintenance_type", "service_name"],
        "every_days": ["interval_days", "days_interval"],
        "every_months": ["interval_months", "months_interval"],
        "every_km": ["interval_km", "every_kilometres", "every_kilometers"],
        "every_mi": ["every_miles", "interval_mi", "interval_miles"],
        "every_distance": ["interval_distance", "distance_interval"],
        "distance_unit": ["distance_units", "interval_distance_unit"],
        "every_engine_hours": ["every_hours", "every_hrs", "every_engine_hrs", "interval_hours", "interval_engine_hours", "hours_interval"],
        "soon_days": ["due_soon_days", "days_due_soon", "soon_threshold_days"],
        "soon_km": ["due_soon_km"],
        "soon_mi": ["due_soon_mi", "due_soon_miles", "soon_miles"],
        "soon_distance": ["due_soon_distance"],
        "soon_engine_hours": ["soon_hours", "soon_hrs", "due_soon_hours", "due_soon_engine_hours"],
    ]
    static let required = ["service_type"]
    static let intervalColumns = ["every_days", "every_months", "every_km", "every_mi", "every_distance", "every_engine_hours"]

    public init() {}

    /// A service type with an interval column: service history has a date instead.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        intervalColumns
            .map { CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required + [$0]) }
            .max() ?? .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try rows.forEach(into: &sink) { row, sink in
            let serviceType = try MaintenanceImporter.serviceType(row, "service_type")
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")
            let group = row.text("asset_group")
            let asset = unit.map { "unit \($0)" } ?? vin.map { "VIN \($0)" }
            if let asset, let group {
                throw RowError(.badValue, "the row names both \(asset) and asset_group '\(group)'; a schedule applies to one asset, one group, or (both empty) the whole fleet: split it into two rows")
            }
            var s = ServiceSchedule(sourceKey: "", assetGroup: group, serviceType: serviceType, sourceFileID: sink.sourceFileID)
            s.everyDays = try row.int("every_days", min: 1, max: 3660)
            s.everyMonths = try row.int("every_months", min: 1, max: 120)
            s.everyM = try row.metres(km: "every_km", mi: "every_mi", value: "every_distance", unit: "distance_unit")
            s.everyEngineS = try row.double("every_engine_hours", min: 0, max: 100_000).map { $0 * Units.secondsPerHour }
            s.soonDays = try row.int("soon_days", min: 0, max: 3660)
            s.soonM = try row.metres(km: "soon_km", mi: "soon_mi", value: "soon_distance", unit: "distance_unit")
            s.soonEngineS = try row.double("soon_engine_hours", min: 0, max: 100_000).map { $0 * Units.secondsPerHour }
            try Self.check(s)

            let scope = unit.map { "unit:\($0)" } ?? vin.map { "vin:\($0)" } ?? group.map { "group:\($0)" } ?? "fleet"
            s.sourceKey = scope + "|" + serviceType
            try row.unique(s.sourceKey, "the \(serviceType) schedule for \(asset ?? group.map { "group \($0)" } ?? "the whole fleet")")
            if unit != nil || vin != nil { s.assetID = try sink.asset(AssetRef(vin: vin, unitNumber: unit)) }
            try sink.load(s)
        }
    }

    /// A schedule needs an interval; a due-soon threshold needs an interval on the same meter,
    /// and must be shorter than it, or the service would be "due soon" from the day it is done.
    static func check(_ s: ServiceSchedule) throws {
        guard s.everyDays != nil || s.everyMonths != nil || s.everyM != nil || s.everyEngineS != nil else {
            throw RowError(.missingField, "the \(s.serviceType) schedule has no interval: fill at least one of every_days, every_months, every_km (or every_mi) and every_engine_hours")
        }
        if s.everyM == 0 { throw RowError(.outOfRange, "the distance interval is 0; leave it empty when the service is not due by distance") }
        if s.everyEngineS == 0 { throw RowError(.outOfRange, "'every_engine_hours' is 0; leave it empty when the service is not due by engine hours") }
        if let soon = s.soonDays {
            guard let shortest = s.everyDays ?? s.everyMonths.map({ $0 * 28 }) else {
                throw RowError(.badValue, "'soon_days' is \(soon) but the schedule has no every_days or every_months interval for it to warn before")
            }
            if soon >= shortest {
                throw RowError(.outOfRange, "'soon_days' is \(soon), not shorter than the interval (\(s.everyDays.map { "every_days \($0)" } ?? "every_months \(s.everyMonths!), at least \(shortest) days")); make the warning shorter than the interval")
            }
        }
        if let soon = s.soonM {
            guard let every = s.everyM else {
                throw RowError(.badValue, "a due-soon distance is given but the schedule has no distance interval (every_km or every_mi) for it to warn before")
            }
            if soon >= every {
                throw RowError(.outOfRange, "the due-soon distance (\(Self.distance(soon))) is not shorter than the distance interval (\(Self.distance(every))); make the warning shorter than the interval")
            }
        }
        if let soon = s.soonEngineS {
            guard let every = s.everyEngineS else {
                throw RowError(.badValue, "'soon_engine_hours' is given but the schedule has no every_engine_hours interval for it to warn before")
            }
            if soon >= every {
                throw RowError(.outOfRange, "'soon_engine_hours' is \(Self.number(soon / 3600)), not shorter than every_engine_hours \(Self.number(every / 3600)); make the warning shorter than the interval")
            }
        }
    }

    /// A distance for a message, in both units, since the row may have given either.
    static func distance(_ metres: Double) -> String {
        "\(number(metres / Units.metresPerKilometre)) km = \(number(metres / Units.metresPerMile)) mi"
    }

    static func number(_ d: Double) -> String {
        let r = (d * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)
    }
}
