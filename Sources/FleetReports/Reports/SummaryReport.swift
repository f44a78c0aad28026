import FleetCore
import FleetWarehouse

/// The fleet dashboard: one page of headline figures from the other reports, over the same
/// snapshot, each with the report that explains it. Portable: the reports it repeats run on
/// SQLite and PostgreSQL alike, and so does its one query of its own.
public struct SummaryReport: PortableReport {
    public static let name = "summary"
    public static let title = "Fleet summary"
    public static let summary = "Assets, active assets, utilization, maintenance due and overdue, open defects, DVIR violations, fuel and total spend"
    public static let needs = [ReportDataNeed(.fuel, headlines: ["fuel", "total"]), ReportDataNeed(.dvir, headlines: ["open_defects"]), ReportDataNeed(.telematics, headlines: ["utilization", "active_assets"])]
    public init() {}

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        try run(reader, request, reusing: [:])
    }

    /// The summary from the other reports' outputs when they were just computed over the same
    /// snapshot (`report all`: `reusing` is keyed by report name), so they are not run twice.
    public func run(_ reader: any WarehouseReader, _ request: ReportRequest, reusing done: [String: ReportOutput]) throws -> ReportOutput {
        let cost = try done[CostReport.name] ?? CostReport().run(reader, request)
        let utilization = try done[UtilizationReport.name] ?? UtilizationReport().run(reader, request)
        let maintenance = try done[MaintenanceDueReport.name] ?? MaintenanceDueReport().run(reader, request)
        let dvir = try done[DVIRComplianceReport.name] ?? DVIRComplianceReport().run(reader, request)
        func headline(_ o: ReportOutput, _ key: String) -> ReportHeadline? { o.metadata.headlines.first { $0.name == key } }
        func total(_ o: ReportOutput, _ key: String) -> Double? { headline(o, key)?.value }
        let assets = try AssetInfo.fetchAll(reader, request)
        let usage = try AssetUsage.fetch(reader, request)
        // Active assets are counted among those whose use is known: an asset without telematics,
        // or with one snapshot that measures nothing, is unknown, not inactive (docs/METRICS.md).
        let known = assets.filter { usage[$0.id]?.measured ?? false }
        let active = known.filter { usage[$0.id]!.daysOperated > 0 }.count
        let unknown = assets.count - known.count
        let openDefects = try reader.value("""
            SELECT COUNT(*) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id
            WHERE d.safety_critical = 1 AND COALESCE(d.created_at, v.signed_at) < ?1 AND (d.resolved_at IS NULL OR d.resolved_at >= ?1)
            """, [.instant(request.end)], as: Int.self) ?? 0
        let cur = request.currency
        let digits = Money.minorDigits(cur)
        // A figure too large for minor units (a ratio over a tiny distance) is unknown, never a trap.
        func money(_ v: Double?) -> ReportValue { v.flatMap { Checked.int64($0 * pow10(digits)) }.map { .money(minor: $0, currency: cur) } ?? .null }
        let distance = total(utilization, "distance")
        let spend = total(cost, "total") ?? 0
        // A figure taken from another report's headline shows the value and unit it was declared with there.
        func figure(_ metric: String, _ o: ReportOutput, _ key: String, _ unit: HeadlineUnit, _ meaning: String = "",
                    orZero: Bool = false) -> Figure {
            let v = total(o, key) ?? (orZero ? 0 : nil)
            let value: ReportValue = v.map { v in
                switch unit {
                case .money: return money(v)
                case .percent: return .percent(v)
                case .count: return Checked.int64(v).map(ReportValue.integer) ?? .null
                case .distance, .hours: return .number(v)
                }
            } ?? .null
            return Figure(metric: metric, value: value, unit: unit.symbol(o.metadata), meaning: meaning, report: ReportRegistry.named(o.metadata.report))
        }
        let figures: [Figure] = [
            Figure(metric: "Assets", value: .integer(Int64(assets.count)), unit: "",
                   meaning: "\(assets.filter { $0.kind != "equipment" }.count) vehicles and trailers, \(assets.filter { $0.kind == "equipment" }.count) machines", report: nil),
            Figure(metric: "Active assets", value: known.isEmpty ? .null : .integer(Int64(active)), unit: "",
                   meaning: "operated on at least one day" + (unknown > 0 ? "; use unknown for \(unknown) of \(assets.count) assets (see data quality)" : ""),
                   report: UtilizationReport.self),
            Figure(metric: "Active share", value: known.isEmpty ? .null : .percent(Double(active) / Double(known.count) * 100), unit: HeadlineUnit.percent.symbol(utilization.metadata),
                   meaning: unknown > 0 ? "active ÷ assets whose use is known" : "active ÷ assets", report: UtilizationReport.self),
            figure("Utilization", utilization, "utilization", .percent, "engine hours ÷ target hours"),
            figure("Engine hours", utilization, "engine_hours", .hours),
            figure("Distance", utilization, "distance", .distance),
            figure("Maintenance overdue", maintenance, "overdue", .count, "asset × schedule pairs past due", orZero: true),
            figure("Maintenance due soon", maintenance, "due_soon", .count, "within the due-soon window", orZero: true),
            Figure(metric: "Open safety defects", value: .integer(Int64(openDefects)), unit: "", meaning: "not certified repaired at the end of the period",
                   report: DVIRComplianceReport.self),
            figure("DVIR violation days", dvir, "violations", .count, "driven with an uncertified safety defect", orZero: true),
            figure("Fuel spend", cost, "fuel", .money, orZero: true),
            figure("Total spend", cost, "total", .money, "fuel, maintenance, repairs and other costs", orZero: true),
            Figure(metric: "Cost per \(request.distanceUnit)", value: (distance ?? 0) > 0 ? money(spend / distance!) : .null,
                   unit: "\(cur)/\(request.distanceUnit)", meaning: "total spend ÷ distance", report: CostReport.self),
        ]
        let columns: [TableColumn<Figure>] = [
            .text("metric", "Metric") { $0.metric },
            // Each figure has its own kind (a count, a share, money): the cell keeps it.
            TableColumn(ReportColumn("value", "Value", .decimal), role: .measure) { $0.value },
            .text("unit", "Unit") { $0.unit }, .text("meaning", "Meaning", role: .note) { $0.meaning },
            .text("report", "Details in", role: .note, isFileLink: true) { f -> String? in
                f.report.map { "\($0.name)-\(request.period.label).\(ReportFormats.pageFormat)" } ?? ""
            },
        ]
        var dashboard = TableBuilder(name: "dashboard", title: "Fleet at a glance", columns: columns)
        for f in figures { try dashboard.add(f) }
        let table = dashboard.table()
        var quality = DataQuality()
        for o in [cost, utilization, maintenance, dvir] {
            for row in o.dataQuality.rows where row[1] != .integer(0) {
                quality.add("\(o.metadata.title): " + (row[0].textValue ?? ""), Int(row[1].number ?? 0), row[2].textValue ?? "")
            }
        }
        var seen = Set<Int64>()
        let sources = (cost.metadata.sources + utilization.metadata.sources + maintenance.metadata.sources + dvir.metadata.sources)
            .filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: cur,
            parameters: [("assets", request.assets?.joined(separator: ",") ?? "all"), ("dvir_policy", request.dvirPolicy.rawValue)],
            methods: ["Each figure is the headline total of the report named beside it, over the same snapshot of the warehouse."],
            headlines: [.count("assets", Double(assets.count))] + (known.isEmpty ? [] : [.count("active_assets", Double(active))])
                + [.count("overdue", total(maintenance, "overdue") ?? 0), .count("due_soon", total(maintenance, "due_soon") ?? 0),
                   .count("open_defects", Double(openDefects)), ReportHeadline("fuel", total(cost, "fuel") ?? 0, .money), ReportHeadline("total", spend, .money)]
                + (headline(utilization, "utilization").map { [$0] } ?? []),
            generatedAt: request.generatedAt, sources: sources)
        var output = ReportOutput(metadata: metadata, tables: [table], charts: Array(cost.charts.prefix(1)) + utilization.charts, dataQuality: quality.table)
        // The summary repeats these reports' figures, so it is partial whenever one of them is.
        for part in [cost, utilization, maintenance, dvir] {
            for reason in part.metadata.partial where !output.metadata.partial.contains(reason) { output.metadata.partial.append(reason) }
        }
        return output
    }
}

/// One line of the dashboard: a figure, its unit, what it means, and the report that explains it.
struct Figure {
    var metric: String
    var value: ReportValue
    var unit: String
    var meaning: String
    var report: (any Report.Type)?
}

extension ReportValue {
    var textValue: String? {
        if case let .text(s) = self { return s }
        return nil
    }
}
