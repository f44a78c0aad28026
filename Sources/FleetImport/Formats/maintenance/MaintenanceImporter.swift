import Foundation
import FleetCore
import FleetWarehouse

/// Service history (`maintenance.csv`): what was done to which asset, when, at which meter
/// reading, by whom and for how much. The maintenance-due report starts every interval from the
/// last of these records, and the cost report counts their cost.
///
/// A row's natural key is its work-order line (`wo:<work_order>|<service_type>`), because a
/// shop's work order is the document a re-export repeats and one work order often covers
/// several services. Without a work order the key is the asset, the service and the local day
/// it was performed (`unit:T-01|oil_change|2026-10-03`). Only completed services are records:
/// an open or cancelled work order is rejected with its status rather than counted.
public struct MaintenanceImporter: Importer {
    public static let format = "maintenance"
    public static let summary = "Service history: completed services and work-order lines per asset, with odometer, engine hours, vendor and cost (CSV)"
    public static let example = "maintenance.csv"

    static let columns: [String: [String]] = [
        "unit_number": AssetsImporter.columns["unit_number"]! + ["vehicle", "vehicle_name", "asset", "equipment"],
        "vin": ["vehicle_vin", "vehicle_identification_number"],
        "service_type": ["service", "service_task", "service_task_name", "task", "maintenance_type", "service_name", "work_type"],
        "performed_at": ["performed_on", "performed", "service_date", "date", "completed_at", "completed_on", "completion_date", "date_completed"],
        "status": ["work_order_status", "wo_status", "service_status"],
        "odometer": ["odometer_reading", "odo", "meter", "meter_value", "meter_reading", "mileage"],
        "odometer_unit": ["odometer_units", "meter_unit", "distance_unit", "mileage_unit"],
        "odometer_km": ["odometer_kms", "odometer_kilometres", "odometer_kilometers"],
        "odometer_mi": ["odometer_miles", "mileage_mi"],
        "engine_hours": ["hours", "engine_hrs", "hour_meter", "hour_meter_reading", "hours_reading", "operating_hours", "smr"],
        "cost": ["amount", "total", "total_cost", "cost_total", "grand_total", "invoice_total"],
        "currency": ["currency_code"],
        "vendor": ["vendor_name", "shop", "service_provider", "repair_shop"],
        "work_order": ["work_order_number", "work_order_no", "wo", "wo_number", "wo_no", "repair_order", "ro_number"],
        "notes": ["note", "comments", "comment", "remarks", "description"],
    ]
    static let required = ["unit_number", "service_type", "performed_at"]

    static let statuses: [String: [String]] = [
        "completed": ["complete", "done", "closed", "finished", "performed", "resolved"],
        "open": ["scheduled", "planned", "pending", "in progress", "in_progress", "on hold", "waiting for parts"],
        "cancelled": ["canceled", "void", "voided"],
    ]

    public init() {}

    /// A service type plus the day it was done is what tells service history from the asset list
    /// and from schedules (which have intervals instead of a date).
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: required)
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: Self.required)
        try Self.load(&rows, into: &sink)
    }

    /// The rows of `maintenance.csv`, or of a file a profile put in its columns (`ProfileNativeRows`).
    static func load(_ rows: inout CSVRows, into sink: inout some RecordSink) throws {
        let input = rows.input
        var assumed = AssumedCurrency()
        rows.salvage = { row in
            guard row.text("cost") != nil else { return nil }
            let currency = (try? row.currencyCode()) ?? row.currency
            let key = row.text("work_order").flatMap { wo in (try? Self.serviceType(row, "service_type")).map { "wo:\(wo)|\($0)" } }
            return RejectedRow(table: "maintenance_record", key: key, amountMinor: try? row.money("cost", currency: currency), currency: currency,
                               at: try? row.timestamp("performed_at"))
        }
        try rows.forEach(into: &sink) { row, sink in
            if let status = try row.choice("status", Self.statuses), status != "completed" {
                let todo = status == "cancelled" ? "a cancelled work order was not performed; leave it out of the export"
                    : "import the row again once the work is completed"
                throw RowError(.badValue, "'status' is '\(row.text("status")!)': only completed services are maintenance records; \(todo)")
            }
            let serviceType = try Self.serviceType(row, "service_type")
            let performedAt = try row.requiredTimestamp("performed_at")
            let unit = row.text("unit_number")
            let vin = try row.vin("vin")
            guard unit != nil || vin != nil else {
                throw RowError(.missingField, "the row names no asset: fill 'unit_number' (or 'vin')")
            }
            let odometer = try row.metres(km: "odometer_km", mi: "odometer_mi", value: "odometer", unit: "odometer_unit")
            if let m = odometer, m > Self.maxOdometerMetres {
                throw RowError(.outOfRange, "the odometer reads \(Int(m / 1000)) km, more than any vehicle drives (\(Int(Self.maxOdometerMetres / 1000)) km); check the value and its unit")
            }
            let engineSeconds = try row.double("engine_hours", min: 0, max: 1_000_000).map { $0 * Units.secondsPerHour }
            let currency = try row.currencyCode()
            let cost = try row.money("cost", currency: currency)
            let day = row.zone.day(of: performedAt)
            let workOrder = row.text("work_order")
            let key = workOrder.map { "wo:\($0)|\(serviceType)" }
                ?? "\(unit.map { "unit:\($0)" } ?? "vin:\(vin!)")|\(serviceType)|\(day)"
            try row.unique(key, workOrder.map { "\(serviceType) on work order \($0)" }
                ?? "\(serviceType) on \(unit.map { "unit \($0)" } ?? "VIN \(vin!)") on \(day)")
            let assetID = try sink.asset(AssetRef(vin: vin, unitNumber: unit))
            try sink.load(MaintenanceRecord(sourceKey: key, assetID: assetID, serviceType: serviceType, performedAt: performedAt,
                                            odometerM: odometer, engineS: engineSeconds, costMinor: cost,
                                            currency: cost == nil ? nil : currency, currencyAssumed: cost != nil && AssumedCurrency.isAssumed(row),
                                            vendor: row.text("vendor"), workOrder: workOrder, notes: row.text("notes"), sourceFileID: sink.sourceFileID))
            if cost != nil { assumed.count(row) }
        }
        assumed.note(into: &sink, base: input.currency)
    }

    /// Ten million kilometres: past this an odometer value is a typo or a wrong unit.
    static let maxOdometerMetres = 1e10

    /// The service type as a key that maintenance records and service schedules share, so that a
    /// schedule for "Oil Change" finds the records of "oil change" and "OIL-CHANGE": lower case,
    /// every run of other characters than letters and digits one '_' ("Oil Change" → oil_change).
    static func serviceType(_ row: Row, _ column: String) throws -> String {
        let text = try row.required(column)
        let key = normaliseServiceType(text)
        guard !key.isEmpty else {
            throw RowError(.badValue, "'\(column)' is '\(text)', which has no letters or digits; name the service, e.g. Oil Change")
        }
        return key
    }

    static func normaliseServiceType(_ text: String) -> String {
        var out = ""
        var gap = false
        for c in text.lowercased() {
            if c.isLetter || c.isNumber {
                if gap, !out.isEmpty { out.append("_") }
                out.append(c)
                gap = false
            } else {
                gap = true
            }
        }
        return out
    }
}
