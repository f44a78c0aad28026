import FleetCore
import FleetWarehouse

/// For managers: how much each asset worked against a named target. Utilization is engine
/// hours divided by the asset's target hours for the days it was available (target hours per
/// week × available days / 7), where the target comes from the asset, else 40 h
/// (docs/METRICS.md, "Utilization"). Portable: it runs on SQLite and PostgreSQL alike.
public struct UtilizationReport: PortableReport {
    public static let name = "utilization"
    public static let title = "Utilization"
    public static let summary = "Per asset: days operated of days available, engine, idle and working hours, idle ratio, distance, utilization against target hours"
    public static let needs = [ReportDataNeed(.telematics)]
    public init() {}

    static let defaultTargetHoursPerWeek = 40.0

    /// One asset's line: what it was available for and what it measured.
    struct Line {
        var asset: AssetInfo
        var available: Int
        /// Nil: no telematics, or a single reading (its use is unknown, not zero).
        var usage: AssetUsage?
        var target: Double
        var targetHours: Double
        var fuelPerHour: Double?

        var engineS: Double? { usage.flatMap { $0.engineKnown ? $0.engineS : nil } }
        var idleS: Double? { usage.flatMap { $0.idleKnown ? $0.idleS : nil } }
        var utilization: Double? { engineS.map { targetHours > 0 ? $0 / 3600 / targetHours * 100 : 0 } }
    }

    /// The columns, declared once: totals are sums of the asset rows, the ratios are ratios of
    /// those sums over the assets where both sides are known.
    static func columns(_ request: ReportRequest) -> [TableColumn<Line>] {
        [.text("unit", "Unit", total: .label("Fleet")) { $0.asset.unit }, .text("kind", "Kind") { $0.asset.kind },
         .text("group", "Group") { $0.asset.group ?? "" },
         .integer("days_available", "Days available", total: .sum) { $0.available },
         .integer("days_operated", "Days operated", total: .sumOfKnown) { $0.usage?.daysOperated },
         .hours("engine_hours", "Engine hours", total: .sumOfKnown) { $0.engineS },
         .hours("idle_hours", "Idle hours", total: .sumOfKnown) { $0.idleS },
         .hours("working_hours", "Working hours", total: .sumOfKnown) { l in l.engineS.flatMap { e in l.idleS.map { max(e - $0, 0) } } },
         .percent("idle_ratio", "Idle ratio", total: .ratio(of: "idle_hours", to: "engine_hours", scale: 100)) { l in
             l.engineS.flatMap { e in e > 0 ? l.idleS.map { $0 / e * 100 } : nil }
         },
         .distance("distance", "Distance", request, total: .sumOfKnown) { $0.usage.flatMap { $0.distanceKnown ? $0.distanceM : nil } },
         .decimal("target_hours_per_week", "Target h/week", unit: "h") { $0.target },
         // Target hours of assets whose engine time is unknown would dilute the fleet figure:
         // the total counts the assets whose engine time is known, as utilization does.
         TableColumn(ReportColumn("target_hours", "Target hours", .duration, unit: "h"), role: .measure, total: .sumWhereKnown("engine_hours")) {
             .number($0.targetHours)
         },
         .percent("utilization", "Utilization", total: .ratio(of: "engine_hours", to: "target_hours", scale: 100)) { $0.utilization },
         .decimal("fuel_per_engine_hour", "Fuel per engine hour", unit: "\(request.volumeUnit)/h") { $0.fuelPerHour }]
    }

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        let assets = try AssetInfo.fetchAll(reader, request)
        let usage = try AssetUsage.fetch(reader, request)
        var table = TableBuilder(name: "by_asset", title: "Utilization by asset", columns: Self.columns(request))
        var chart: [(String, Double)] = []
        // Days after the data ends (not imported yet, or still to come) are not available days:
        // counting them would make a quarter that is one third over look a third as busy.
        let through = ReportCompleteness.coveredThrough(request, dataThrough: try ReportCompleteness.dataThrough(reader, request))
        let lastAvailable = min(request.period.to, through ?? request.asOf)
        for a in assets {
            let window = try reader.all("SELECT in_service_date, retired_date FROM asset WHERE id = ?", [.integer(a.id)]) { (try $0[0] as String?, try $0[1] as String?) }.first
            let from = max(request.period.from, window?.0.flatMap { CivilDate($0) } ?? request.period.from)
            let to = min(lastAvailable, window?.1.flatMap { CivilDate($0) } ?? lastAvailable)
            let available = max(to.daysSinceEpoch - from.daysSinceEpoch + 1, 0)
            guard available > 0 else { continue }
            // A single snapshot is not a day of nothing: its use is unknown, like no telematics.
            let u = usage[a.id].flatMap { $0.measured ? $0 : nil }
            let target = a.targetHoursPerWeek ?? Self.defaultTargetHoursPerWeek
            var line = Line(asset: a, available: available, usage: u, target: target, targetHours: target * Double(available) / 7)
            if a.kind == "equipment", let engineS = line.engineS, engineS > 0, let u, u.fuelML > 0 { line.fuelPerHour = request.volume(u.fuelML) / (engineS / 3600) }
            try table.add(line)
            if let utilization = line.utilization { chart.append((a.unit, utilization)) }
        }
        let unmeasured = assets.filter { usage[$0.id].map { !$0.measured } ?? false }.map(\.unit)
        var bars = ReportChart(kind: .bar, title: "Utilization by asset (% of target hours)", categories: chart.map(\.0),
                               series: [(name: "utilization", values: chart.map { ($0.1 * 10).rounded() / 10 })], valueLabel: "%")
        (bars.target, bars.targetLabel) = (100, "target")
        let sources = try ReportSource.fetch(reader, union: [
            "SELECT DISTINCT source_file_id FROM meter_reading WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM position WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM engine_event WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM vendor_total WHERE start_at >= ?1 AND end_at <= ?2",
        ], arguments: [.instant(request.start), .instant(request.end)])
        var quality = DataQuality()
        let silent = assets.filter { usage[$0.id] == nil }.map(\.unit)
        quality.add("Assets with no telematics in the period (no hours shown)", silent.count, silent.isEmpty ? "none" : silent.prefix(20).joined(separator: ", "))
        quality.add("Assets whose use is unknown: telematics without a measured interval (no hours shown)", unmeasured.count,
                    unmeasured.isEmpty ? "none" : unmeasured.prefix(20).joined(separator: ", ") + (unmeasured.count > 20 ? ", …" : "")
                        + "; a single reading (one snapshot, one fix) measures no hours or distance")
        let gps = try reader.value("SELECT COUNT(*) FROM asset_day WHERE day >= ? AND day <= ? AND distance_method != 'odometer'",
                               [.text(request.period.from.description), .text(request.period.to.description)], as: Int.self) ?? 0
        quality.add("Asset-days whose distance is from GPS or trips, not an odometer", gps, gps == 0 ? "none" : "GPS path length with parked jitter filtered")
        let note = "Utilization = engine hours ÷ (target hours per week × days available ÷ 7). Assets without telematics in the period, or with a single reading (which measures no interval), show no hours: unknown, not zero."
        // Vendor totals beside FleetKit's figures (never added to them): a table only when there are any.
        let vendor = try VendorTotalComparison.compute(reader, request, assets: assets)
        var tables = [table.table(note: note)]
        if !vendor.lines.isEmpty {
            var comparison = TableBuilder(name: "vendor_totals", title: "Vendor totals beside FleetKit's figures", columns: VendorTotalComparison.columns(request))
            for line in vendor.lines { try comparison.add(line) }
            tables.append(comparison.table(note: VendorTotalComparison.tableNote, totalsRow: false))
            let missing = vendor.lines.filter { $0.fleetKit == nil }
            quality.add("Vendor totals FleetKit has no figure for (no difference shown)", missing.count,
                        missing.isEmpty ? "none" : Set(missing.map { $0.asset.unit }).sorted().prefix(20).joined(separator: ", "))
        }
        try quality.addCommon(reader, request, sources: sources)
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("denominator", "target hours per week of the asset, else \(Int(Self.defaultTargetHoursPerWeek)) h"),
                         ("operated_day", "distance > 0.5 km or engine > 6 min"), ("assets", request.assets?.joined(separator: ",") ?? "all")],
            methods: ["Engine, idle hours and distance are sums of the daily rollup over the period's local days.",
                      "Days available are the period's days between the asset's in-service and retirement dates, up to \(through.map { "\($0)" } ?? "today") (the data's end, or the period's end when the data reaches within \(ReportCompleteness.quietDays) days of it): later days are not counted.",
                      "Idle ratio = idle hours ÷ engine hours; working hours = engine − idle hours."]
                + (vendor.lines.isEmpty ? [] : ["Vendor totals (docs/METRICS.md \"Vendor period totals\") are shown beside FleetKit's figures for the same local days and never added to them."]),
            // A total that is unknown is left out (the summary then shows it as unknown), never 0.
            headlines: [table.headline("engine_hours", rounded: 2), table.headline("distance", rounded: 1), table.headline("idle_hours", rounded: 2),
                        table.headline("utilization", rounded: 1)].compactMap { $0 },
            generatedAt: request.generatedAt, sources: sources)
        return ReportOutput(metadata: metadata, tables: tables, charts: chart.isEmpty ? [] : [bars], dataQuality: quality.table)
    }
}
