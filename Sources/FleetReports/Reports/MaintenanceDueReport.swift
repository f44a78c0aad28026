import Foundation
import FleetCore
import FleetWarehouse

/// The shop's list: for each asset and service schedule, when it was last done, when it is next
/// due by date, distance and engine hours (whichever comes first), what is left, the status and
/// a forecast date; then the open fault codes, and PM compliance for services done in the
/// period. Status is as of the end of the period (docs/METRICS.md, "Maintenance due").
/// Portable: it runs on SQLite and PostgreSQL alike.
public struct MaintenanceDueReport: PortableReport {
    public static let name = "maintenance-due"
    public static let title = "Maintenance due"
    public static let summary = "Per asset and schedule: last done, next due by each meter (first reached wins), status, forecast; open fault codes; PM compliance"
    public init() {}

    /// The service-status columns, declared once; meters in SI, shown in the requested units.
    static func dueColumns(_ request: ReportRequest, asOf: CivilDate) -> [TableColumn<MaintenanceDue>] {
        [.text("unit", "Unit") { $0.asset.unit }, .text("service", "Service") { $0.schedule.serviceType }, .text("schedule", "Schedule", role: .note) { $0.schedule.scope },
         .text("status", "Status") { $0.status.replacingOccurrences(of: "_", with: " ") }, .date("last_done", "Last done") { $0.lastDone?.day },
         .distance("last_odometer", "Odometer then", request, total: .none) { $0.lastDone?.odometerM },
         .hours("last_engine_hours", "Hours then", total: .none) { $0.lastDone?.engineS },
         .date("due_date", "Due by date") { $0.dueDay }, .distance("due_odometer", "Due at odometer", request, total: .none) { $0.dueOdometerM },
         .hours("due_engine_hours", "Due at hours", total: .none) { $0.dueEngineS },
         .distance("odometer", "Odometer now", request, total: .none) { $0.currentOdometerM },
         .hours("engine_hours", "Hours now", total: .none) { $0.currentEngineS },
         .integer("days_left", "Days left") { $0.dueDay.map { $0.daysSinceEpoch - asOf.daysSinceEpoch } },
         .distance("distance_left", "Distance left", request, total: .none) { d in d.dueOdometerM.flatMap { due in d.currentOdometerM.map { due - $0 } } },
         .hours("hours_left", "Hours left", total: .none) { d in d.dueEngineS.flatMap { due in d.currentEngineS.map { due - $0 } } },
         .text("first_reached", "First reached") { $0.firstReached ?? "" }, .date("forecast", "Forecast due") { $0.forecast }]
    }

    /// The open fault codes, one per asset and code, from the grouped `dtc_event` query.
    static func faultColumns() -> [TableColumn<OpenFault>] { [
        .text("unit", "Unit") { $0.unit }, .text("code", "Code") { $0.code }, .text("system", "System") { $0.system },
        .integer("spn", "SPN") { $0.spn }, .integer("fmi", "FMI") { $0.fmi }, .text("description", "Description", role: .note) { $0.description ?? "" },
        .datetime("first_seen", "First seen") { $0.firstSeen }, .datetime("last_seen", "Last seen") { $0.lastSeen }, .integer("times", "Times seen") { $0.times },
    ] }

    /// One asset's open fault code: the code's fields as last reported, and when it was seen.
    struct OpenFault {
        var unit: String, code: String, system: String, spn: Int?, fmi: Int?, description: String?
        var firstSeen: Int64, lastSeen: Int64, times: Int
    }

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        let asOf = request.period.to
        let asOfEnd = request.end
        var dues: [MaintenanceDue] = []
        for asset in try AssetInfo.fetchAll(reader, request) {
            let inService = try reader.value("SELECT in_service_date FROM asset WHERE id = ?", [.integer(asset.id)], as: String.self).flatMap { CivilDate($0) }
            let meters = try MeterState.fetch(reader, asset: asset.id, asOfEnd: asOfEnd, asOf: asOf)
            for s in try MaintenanceDue.schedules(reader, for: asset, assetGroup: asset.group) {
                // A distance-only schedule does not apply to a machine without an odometer, nor an
                // hours-only schedule to a vehicle without an hour meter.
                if s.everyDays == nil, s.everyMonths == nil {
                    if s.everyM != nil, s.everyEngineS == nil, asset.kind == "equipment", meters.odometerM == nil { continue }
                    if s.everyEngineS != nil, s.everyM == nil, meters.engineS == nil { continue }
                }
                dues.append(try evaluate(reader, asset: asset, schedule: s, meters: meters, inService: inService, asOf: asOf, asOfEnd: asOfEnd, zone: request.zone))
            }
        }
        let order = ["overdue": 0, "due_soon": 1, "unknown": 2, "ok": 3]
        dues.sort { (order[$0.status]!, $0.forecast ?? asOf, $0.asset.unit, $0.schedule.serviceType)
            < (order[$1.status]!, $1.forecast ?? asOf, $1.asset.unit, $1.schedule.serviceType) }
        var dueTable = TableBuilder(name: "due", title: "Service status by asset and schedule", columns: Self.dueColumns(request, asOf: asOf))
        for d in dues { try dueTable.add(d) }

        // The code's system, SPN, FMI and description are those of its latest open event (one
        // per asset, code and instant: the table's unique key), the same row on both engines;
        // a bare column beside MIN and MAX would be whichever row SQLite met last.
        let filter = request.assetFilter()
        let unit = "COALESCE(a.unit_number, a.vin, a.pin, 'asset #' || a.id)"
        let dtcs = try reader.all("""
            SELECT \(unit), d.code, d.system, d.spn, d.fmi, d.description, g.first_at, g.last_at, g.times
            FROM (SELECT d.asset_id, d.code, MIN(d.at) AS first_at, MAX(d.at) AS last_at, COUNT(*) AS times
                  FROM dtc_event d JOIN asset a ON a.id = d.asset_id
                  WHERE d.at < ? AND d.cleared_at IS NULL AND COALESCE(d.mil_on, 1) = 1 AND \(filter.sql)
                  GROUP BY d.asset_id, d.code) g
            JOIN dtc_event d ON d.asset_id = g.asset_id AND d.code = g.code AND d.at = g.last_at
            JOIN asset a ON a.id = g.asset_id
            ORDER BY \(reader.dialect.ascending(unit, text: true)), \(reader.dialect.ascending("d.code", text: true))
            """, [.instant(asOfEnd)] + filter.arguments.map(WarehouseArgument.text)) {
            OpenFault(unit: try $0[0], code: try $0[1], system: try $0[2], spn: try $0[3], fmi: try $0[4], description: try $0[5],
                      firstSeen: try $0[6], lastSeen: try $0[7], times: try $0[8])
        }
        var dtcTable = TableBuilder(name: "open_faults", title: "Open fault codes (MIL on, not cleared)", columns: Self.faultColumns())
        for r in dtcs { try dtcTable.add(r) }

        let compliance = try PMCompliance.compute(reader, request)
        let complianceTable = compliance.table(note: "A service is late when it was done more than 10 % of its interval past the due point of any of its meters.")

        let overdue = dues.filter { $0.status == "overdue" }.count, soon = dues.filter { $0.status == "due_soon" }.count
        var quality = DataQuality()
        let unknown = dues.filter { $0.status == "unknown" }
        quality.add("Schedules with no meter or date to judge them by", unknown.count,
                    unknown.isEmpty ? "none" : unknown.prefix(10).map { "\($0.asset.unit) \($0.schedule.serviceType)" }.joined(separator: ", "))
        let never = dues.filter { $0.lastDone == nil }
        quality.add("Services never recorded (counted from the in-service date)", never.count,
                    never.isEmpty ? "none" : never.prefix(10).map { "\($0.asset.unit) \($0.schedule.serviceType)" }.joined(separator: ", ") + (never.count > 10 ? ", …" : ""))
        // The meter window's start is computed here: an instant minus milliseconds is a number
        // on SQLite and an error on PostgreSQL's timestamptz.
        let sources = try ReportSource.fetch(reader, union: [
            "SELECT DISTINCT source_file_id FROM maintenance_record WHERE performed_at < ?1",
            "SELECT DISTINCT source_file_id FROM service_schedule",
            "SELECT DISTINCT source_file_id FROM meter_reading WHERE at < ?1 AND at >= ?2",
            "SELECT DISTINCT source_file_id FROM dtc_event WHERE at < ?1",
        ], arguments: [.instant(asOfEnd), .instant(asOfEnd - 31 * 86_400_000)])
        try quality.addCommon(reader, request, sources: sources)

        let chartDues = dues.filter { $0.status != "ok" && $0.forecast != nil }.prefix(25)
        let chart = ReportChart(kind: .timeline, title: "Overdue and due soon: days until the forecast due date",
                                categories: chartDues.map { "\($0.asset.unit) \($0.schedule.serviceType)" },
                                series: [(name: "days until due", values: chartDues.map { Double($0.forecast!.daysSinceEpoch - asOf.daysSinceEpoch) })],
                                valueLabel: "days")
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("as_of", asOf.description), ("assets", request.assets?.joined(separator: ",") ?? "all"), ("late_threshold", "10% of the interval")],
            methods: ["Next due by each meter = last service + interval (days, calendar months, distance, engine hours); the first reached wins.",
                      "Due soon = within the schedule's due-soon window on any meter; overdue = past due on any meter.",
                      "Forecast = the day the first meter is reached at the average use per day over the last 30 days (calendar due dates as they are).",
                      "Current meters are the latest telematics readings, else the latest odometer on a service, fuel or inspection record."],
            headlines: [.count("overdue", Double(overdue)), .count("due_soon", Double(soon)), .count("open_faults", Double(dtcs.count))]
                + (compliance.total("on_time").number.map { [ReportHeadline("pm_compliance", $0, .percent)] } ?? []),
            generatedAt: request.generatedAt, sources: sources)
        return ReportOutput(metadata: metadata, tables: [dueTable.table(note: "As of \(asOf) (the end of the period). Negative values left are overdue. Never-done services count from the in-service date and a zero meter."),
                                                              dtcTable.table(), complianceTable], charts: chartDues.isEmpty ? [] : [chart], dataQuality: quality.table)
    }

    private func evaluate(_ reader: any WarehouseReader, asset: AssetInfo, schedule s: MaintenanceDue.Schedule, meters: MeterState, inService: CivilDate?,
                          asOf: CivilDate, asOfEnd: Int64, zone: FleetZone) throws -> MaintenanceDue {
        var d = MaintenanceDue(asset: asset, schedule: s, status: "unknown")
        if let r = try reader.all("""
            SELECT performed_at, odometer_m, engine_s FROM maintenance_record WHERE asset_id = ? AND service_type = ? AND performed_at < ?
            ORDER BY performed_at DESC, id DESC LIMIT 1
            """, [.integer(asset.id), .text(s.serviceType), .instant(asOfEnd)], { $0 }).first {
            d.lastDone = (zone.day(of: try r[0] as Int64), try r[1], try r[2])
        }
        d.baselineDay = d.lastDone?.day ?? inService
        d.currentOdometerM = meters.odometerM
        d.currentEngineS = meters.engineS
        if let base = d.baselineDay {
            if let days = s.everyDays { d.dueDay = base.adding(days: days) }
            if let months = s.everyMonths { d.dueDay = min(d.dueDay ?? base.adding(months: months), base.adding(months: months)) }
        }
        if let every = s.everyM { d.dueOdometerM = (d.lastDone?.odometerM ?? (d.lastDone == nil ? 0 : nil)).map { $0 + every } }
        if let every = s.everyEngineS { d.dueEngineS = (d.lastDone?.engineS ?? (d.lastDone == nil ? 0 : nil)).map { $0 + every } }

        // When each due point is reached: the calendar as is, meters at recent use per day.
        var reach: [(String, CivilDate?, Bool, Bool)] = []   // (meter, day reached, overdue, soon)
        if let due = d.dueDay {
            let left = due.daysSinceEpoch - asOf.daysSinceEpoch
            reach.append(("date", due, left < 0, left <= (s.soonDays ?? 0)))
        }
        if let due = d.dueOdometerM, let now = d.currentOdometerM {
            let left = due - now
            let day = meters.distancePerDay.flatMap { $0 > 0 ? asOf.adding(days: Int((max(left, 0) / $0).rounded(.up))) : nil }
            reach.append(("distance", left < 0 ? asOf : day, left < 0, left <= (s.soonM ?? 0)))
        }
        if let due = d.dueEngineS, let now = d.currentEngineS {
            let left = due - now
            let day = meters.engineSPerDay.flatMap { $0 > 0 ? asOf.adding(days: Int((max(left, 0) / $0).rounded(.up))) : nil }
            reach.append(("engine_hours", left < 0 ? asOf : day, left < 0, left <= (s.soonEngineS ?? 0)))
        }
        guard !reach.isEmpty else { return d }
        d.status = reach.contains { $0.2 } ? "overdue" : reach.contains { $0.3 } ? "due_soon" : "ok"
        if let first = reach.filter({ $0.1 != nil }).min(by: { $0.1! < $1.1! }) {
            d.forecast = first.1
            d.firstReached = first.0
        } else if let overdue = reach.first(where: { $0.2 }) {
            d.firstReached = overdue.0
        }
        return d
    }
}
