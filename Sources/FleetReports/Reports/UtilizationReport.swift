import GRDB
import FleetCore

/// For managers: how much each asset worked against a named target. Utilization is engine
/// hours divided by the asset's target hours for the days it was available (target hours per
/// week × available days / 7), where the target comes from the asset, else 40 h
/// (docs/METRICS.md, "Utilization").
public struct UtilizationReport: Report {
    public static let name = "utilization"
    public static let title = "Utilization"
    public static let summary = "Per asset: days operated of days available, engine, idle and working hours, idle ratio, distance, utilization against target hours"
    public init() {}

    static let defaultTargetHoursPerWeek = 40.0

    public func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput {
        let assets = try AssetInfo.fetchAll(db, request)
        let usage = try AssetUsage.fetch(db, request)
        var rows: [[ReportValue]] = []
        var fleet = AssetUsage(), fleetTarget = 0.0, fleetAvailable = 0
        var chart: [(String, Double)] = []
        // Days after the data ends (not imported yet, or still to come) are not available days:
        // counting them would make a quarter that is one third over look a third as busy.
        let through = ReportCompleteness.coveredThrough(request, dataThrough: try ReportCompleteness.dataThrough(db, request))
        let lastAvailable = min(request.period.to, through ?? request.asOf)
        var fleetMeasured = false, fleetEngineKnown = false, fleetIdleKnown = false, fleetDistanceKnown = false
        for a in assets {
            let window = try Row.fetchOne(db, sql: "SELECT in_service_date, retired_date FROM asset WHERE id = ?", arguments: [a.id])
            let from = max(request.period.from, (window?[0] as String?).flatMap { CivilDate($0) } ?? request.period.from)
            let to = min(lastAvailable, (window?[1] as String?).flatMap { CivilDate($0) } ?? lastAvailable)
            let available = max(to.daysSinceEpoch - from.daysSinceEpoch + 1, 0)
            guard available > 0 else { continue }
            // A single snapshot is not a day of nothing: its use is unknown, like no telematics.
            let u = usage[a.id].flatMap { $0.measured ? $0 : nil }
            let target = a.targetHoursPerWeek ?? Self.defaultTargetHoursPerWeek
            let targetHours = target * Double(available) / 7
            let engineH = u.flatMap { $0.engineKnown ? $0.engineS / 3600 : nil }, idleH = u.flatMap { $0.idleKnown ? $0.idleS / 3600 : nil }
            let utilization = engineH.map { targetHours > 0 ? $0 / targetHours * 100 : 0 }
            let fuelPerHour: ReportValue = a.kind == "equipment" && (engineH ?? 0) > 0 && (u?.fuelML ?? 0) > 0
                ? .number(request.volume(u!.fuelML) / (u!.engineS / 3600)) : .null
            rows.append([.text(a.unit), .text(a.kind), .text(a.group ?? ""), .integer(Int64(available)), u.map { .integer(Int64($0.daysOperated)) } ?? .null,
                         engineH.map { .number($0) } ?? .null, idleH.map { .number($0) } ?? .null,
                         engineH.flatMap { e in idleH.map { .number(max(e - $0, 0)) } } ?? .null,
                         engineH.flatMap { e in e > 0 ? idleH.map { .percent($0 / e * 100) } : nil } ?? .null,
                         u.flatMap { $0.distanceKnown ? .number(request.distance($0.distanceM)) : nil } ?? .null,
                         .number(target), .number(targetHours), utilization.map { .percent($0) } ?? .null, fuelPerHour])
            if let u {
                fleet = fleet + u
                fleetMeasured = true
                fleetEngineKnown = fleetEngineKnown || u.engineKnown
                fleetIdleKnown = fleetIdleKnown || u.idleKnown
                fleetDistanceKnown = fleetDistanceKnown || u.distanceKnown
                // Target hours of assets whose engine time is unknown would dilute the fleet figure.
                if engineH != nil {
                    fleetTarget += targetHours
                    chart.append((a.unit, utilization ?? 0))
                }
            }
            fleetAvailable += available
        }
        let unmeasured = assets.filter { usage[$0.id].map { !$0.measured } ?? false }.map(\.unit)
        let fleetUtilization = fleetTarget > 0 ? fleet.engineS / 3600 / fleetTarget * 100 : nil
        let table = ReportTable(
            name: "by_asset", title: "Utilization by asset",
            columns: [ReportColumn("unit", "Unit", .text), ReportColumn("kind", "Kind", .text), ReportColumn("group", "Group", .text),
                      ReportColumn("days_available", "Days available", .integer), ReportColumn("days_operated", "Days operated", .integer),
                      ReportColumn("engine_hours", "Engine hours", .duration, unit: "h"), ReportColumn("idle_hours", "Idle hours", .duration, unit: "h"),
                      ReportColumn("working_hours", "Working hours", .duration, unit: "h"), ReportColumn("idle_ratio", "Idle ratio", .percent, unit: "%"),
                      ReportColumn("distance", "Distance", .distance, unit: request.distanceUnit),
                      ReportColumn("target_hours_per_week", "Target h/week", .decimal, unit: "h"), ReportColumn("target_hours", "Target hours", .duration, unit: "h"),
                      ReportColumn("utilization", "Utilization", .percent, unit: "%"),
                      ReportColumn("fuel_per_engine_hour", "Fuel per engine hour", .decimal, unit: "\(request.volumeUnit)/h")],
            rows: rows,
            totals: [.text("Fleet"), .null, .null, .integer(Int64(fleetAvailable)), fleetMeasured ? .integer(Int64(fleet.daysOperated)) : .null,
                     fleetEngineKnown ? .number(fleet.engineS / 3600) : .null, fleetIdleKnown ? .number(fleet.idleS / 3600) : .null,
                     fleetEngineKnown && fleetIdleKnown ? .number(max(fleet.engineS - fleet.idleS, 0) / 3600) : .null,
                     fleetIdleKnown && fleet.engineS > 0 ? .percent(fleet.idleS / fleet.engineS * 100) : .null,
                     fleetDistanceKnown ? .number(request.distance(fleet.distanceM)) : .null,
                     .null, .number(fleetTarget), fleetUtilization.map { .percent($0) } ?? .null, .null],
            note: "Utilization = engine hours ÷ (target hours per week × days available ÷ 7). Assets without telematics in the period, or with a single reading (which measures no interval), show no hours: unknown, not zero.")
        var bars = ReportChart(kind: .bar, title: "Utilization by asset (% of target hours)", categories: chart.map(\.0),
                               series: [(name: "utilization", values: chart.map { ($0.1 * 10).rounded() / 10 })], valueLabel: "%")
        (bars.target, bars.targetLabel) = (100, "target")
        let sources = try ReportSource.fetch(db, union: [
            "SELECT DISTINCT source_file_id FROM meter_reading WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM position WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM engine_event WHERE at >= ?1 AND at < ?2",
        ], arguments: [request.start, request.end])
        var quality = DataQuality()
        let silent = assets.filter { usage[$0.id] == nil }.map(\.unit)
        quality.add("Assets with no telematics in the period (no hours shown)", silent.count, silent.isEmpty ? "none" : silent.prefix(20).joined(separator: ", "))
        quality.add("Assets whose use is unknown: telematics without a measured interval (no hours shown)", unmeasured.count,
                    unmeasured.isEmpty ? "none" : unmeasured.prefix(20).joined(separator: ", ") + (unmeasured.count > 20 ? ", …" : "")
                        + "; a single reading (one snapshot, one fix) measures no hours or distance")
        let gps = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset_day WHERE day >= ? AND day <= ? AND distance_method != 'odometer'",
                                   arguments: [request.period.from.description, request.period.to.description]) ?? 0
        quality.add("Asset-days whose distance is from GPS or trips, not an odometer", gps, gps == 0 ? "none" : "GPS path length with parked jitter filtered")
        try quality.addCommon(db, request, sources: sources)
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("denominator", "target hours per week of the asset, else \(Int(Self.defaultTargetHoursPerWeek)) h"),
                         ("operated_day", "distance > 0.5 km or engine > 6 min"), ("assets", request.assets?.joined(separator: ",") ?? "all")],
            methods: ["Engine, idle hours and distance are sums of the daily rollup over the period's local days.",
                      "Days available are the period's days between the asset's in-service and retirement dates, up to \(through.map { "\($0)" } ?? "today") (the data's end, or the period's end when the data reaches within \(ReportCompleteness.quietDays) days of it): later days are not counted.",
                      "Idle ratio = idle hours ÷ engine hours; working hours = engine − idle hours."],
            // A total that is unknown is left out (the summary then shows it as unknown), never 0.
            headlines: (fleetEngineKnown ? [ReportHeadline("engine_hours", (fleet.engineS / 36).rounded() / 100, .hours)] : [])
                + (fleetDistanceKnown ? [ReportHeadline("distance", (request.distance(fleet.distanceM) * 10).rounded() / 10, .distance)] : [])
                + (fleetIdleKnown ? [ReportHeadline("idle_hours", (fleet.idleS / 36).rounded() / 100, .hours)] : [])
                + (fleetUtilization.map { [ReportHeadline("utilization", ($0 * 10).rounded() / 10, .percent)] } ?? []),
            generatedAt: request.generatedAt, sources: sources)
        return ReportOutput(metadata: metadata, tables: [table], charts: chart.isEmpty ? [] : [bars], dataQuality: quality.table)
    }
}
