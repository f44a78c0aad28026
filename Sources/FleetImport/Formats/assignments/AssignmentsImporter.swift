import Foundation
import FleetCore
import FleetWarehouse

/// Which driver had which asset when (`assignments.csv`): trips and DVIRs without a driver of
/// their own are attributed through these periods.
///
/// The natural key is (driver, asset, start): a re-export that closes an open assignment, or
/// corrects its end, updates the stored period in place. A driver or asset that master data has
/// not defined yet is created and flagged `auto_created`, so the files may arrive in any order.
public struct AssignmentsImporter: Importer {
    public static let format = "assignments"
    public static let summary = "Driver-to-asset assignments: employee id, unit number, start and optional end (CSV)"
    public static let example = "assignments.csv"

    static let columns: [String: [String]] = [
        "employee_id": DriversImporter.columns["employee_id"]!,
        "driver_name": ["name", "driver", "employee_name", "full_name"],
        "unit_number": AssetsImporter.columns["unit_number"]! + ["vehicle", "vehicle_name", "asset", "equipment"],
        "vin": ["vehicle_vin", "vehicle_identification_number"],
        "start_at": ["start", "starts_at", "start_date", "start_time", "assigned_at", "assigned_on", "assigned_from",
                     "assignment_start", "from", "valid_from", "effective_from"],
        "end_at": ["end", "ends_at", "end_date", "end_time", "unassigned_at", "unassigned_on", "assigned_until",
                   "assignment_end", "until", "to", "valid_to", "valid_until", "effective_to"],
        "status": ["assignment_status"],
    ]
    static let required = ["employee_id", "unit_number", "start_at"]

    static let statuses: [String: [String]] = [
        "active": ["current", "open", "assigned"],
        "completed": ["complete", "ended", "closed", "finished", "past"],
        "cancelled": ["canceled", "void"],
    ]

    public init() {}

    /// A driver, a vehicle and a start together: no other format has all three.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required)
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try rows.forEach(into: &sink) { row, sink in
            guard let employeeID = row.text("employee_id") else {
                throw RowError(.missingField, "'employee_id' is empty; an assignment names its driver by employee id")
            }
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")
            guard unit != nil || vin != nil else {
                throw RowError(.missingField, "the row names no asset: fill 'unit_number' (or 'vin')")
            }
            let start = try row.requiredTimestamp("start_at")
            let end = try Self.end(row)
            if let end, end <= start {
                throw RowError(.badValue, "end_at '\(row.text("end_at")!)' is not after start_at '\(row.text("start_at")!)'; correct the dates, or leave end_at empty for an assignment that is still open")
            }
            let status = try row.choice("status", Self.statuses)
            let asset = unit.map { "unit \($0)" } ?? "VIN \(vin!)"
            try row.unique("\(employeeID)|\(asset)|\(start)", "driver \(employeeID) on \(asset) from \(row.text("start_at")!)")
            let driverID = try sink.driver(DriverRef(employeeID: employeeID, name: row.text("driver_name")))
            let assetID = try sink.asset(AssetRef(vin: vin, unitNumber: unit))
            try sink.load(Assignment(driverID: driverID, assetID: assetID, startAt: start, endAt: end, status: status,
                                     sourceFileID: sink.sourceFileID))
        }
    }

    /// The end of the assignment, exclusive. A bare date is the last day of the assignment
    /// ("until 2026-10-31" includes the 31st), so it ends at the next local midnight. The
    /// `9999-12-31` that HR systems write for "no end" means the assignment is open.
    static func end(_ row: Row) throws -> Int64? {
        guard let text = row.text("end_at") else { return nil }
        guard let day = CivilDate(text) else { return try row.timestamp("end_at") }
        if day == CivilDate(year: 9999, month: 12, day: 31) { return nil }
        let end = row.zone.start(of: day.adding(days: 1))
        guard Timestamp.plausible.contains(end) else {
            throw RowError(.outOfRange, "'end_at' is '\(text)', outside the years 1971–2200; leave it empty for an assignment that is still open")
        }
        return end
    }
}
