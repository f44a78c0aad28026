import GRDB
import FleetCore

/// The fleet dashboard: one page of headline figures from the other reports, over the same
/// snapshot, each with the report that explains it.
public struct SummaryReport: Report {
    public static let name = "summary"
    public static let title = "Fleet summary"
    public static let summary = "Assets, active assets, utilization, maintenance due and overdue, open defects, DVIR violations, fuel and total spend"
    public init() {}

    public func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput {
        try run(db, request, reusing: [:])
    }

    /// The summary from the other reports' outputs when they were just computed over the same
    /// snapshot (`report all`: `reusing` is keyed by report name), so they are not run twice.
    public func run(_ db: Database, _ request: ReportRequest, reusing done: [String: ReportOutput]) throws -> ReportOutput {
        let cost = try done[CostReport.name] ?? CostReport().run(db, request)
        let utilization = try done[UtilizationReport.name] ?? UtilizationReport().run(db, request)
        let maintenance = try done[MaintenanceDueReport.name] ?? MaintenanceDueReport().run(db, request)
        let dvir = try done[DVIRComplianceReport.name] ?? DVIRComplianceReport().run(db, request)
        func headline(_ o: ReportOutput, _ key: String) -> ReportHeadline? { o.metadata.headlines.first { $0.name == key } }
        func total(_ o: ReportOutput, _ key: String) -> Double? { headline(o, key)?.value }
        let assets = try AssetInfo.fetchAll(db, request)
        let usage = try AssetUsage.fetch(db, request)
        // Active assets are counted among those whose use is known: an asset without telematics,
        // or with one snapshot that measures nothing, is unknown, not inactive (docs/METRICS.md).
        let known = assets.filter { usage[$0.id]?.measured ?? false }
        let active = known.filter { usage[$0.id]!.daysOperated > 0 }.count
        let unknown = assets.count - known.count
        let openDefects = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id
            WHERE d.safety_critical = 1 AND COALESCE(d.created_at, v.signed_at) < ?1 AND (d.resolved_at IS NULL OR d.resolved_at >= ?1)
            """, arguments: [request.end]) ?? 0
        let cur = request.currency
        let digits = Money.minorDigits(cur)
        func money(_ v: Double?) -> ReportValue { v.map { .money(minor: Int64(($0 * pow10(digits)).rounded()), currency: cur) } ?? .null }
        // The page that explains a figure, named from the report's registry name.
        func page(_ report: any Report.Type) -> ReportValue { .text("\(report.name)-\(request.period.label).\(ReportFormats.pageFormat)") }
        let distance = total(utilization, "distance")
        let spend = total(cost, "total") ?? 0
        let rows: [[ReportValue]] = [
            [.text("Assets"), .integer(Int64(assets.count)), .text(""), .text("\(assets.filter { $0.kind != "equipment" }.count) vehicles and trailers, \(assets.filter { $0.kind == "equipment" }.count) machines"), .text("")],
            [.text("Active assets"), known.isEmpty ? .null : .integer(Int64(active)), .text(""),
             .text("operated on at least one day" + (unknown > 0 ? "; use unknown for \(unknown) of \(assets.count) assets (see data quality)" : "")),
             page(UtilizationReport.self)],
            [.text("Active share"), known.isEmpty ? .null : .percent(Double(active) / Double(known.count) * 100), .text("%"),
             .text(unknown > 0 ? "active ÷ assets whose use is known" : "active ÷ assets"), page(UtilizationReport.self)],
            [.text("Utilization"), total(utilization, "utilization").map { .percent($0) } ?? .null, .text("%"), .text("engine hours ÷ target hours"), page(UtilizationReport.self)],
            [.text("Engine hours"), total(utilization, "engine_hours").map { .number($0) } ?? .null, .text("h"), .text(""), page(UtilizationReport.self)],
            [.text("Distance"), distance.map { .number($0) } ?? .null, .text(request.distanceUnit), .text(""), page(UtilizationReport.self)],
            [.text("Maintenance overdue"), .integer(Int64(total(maintenance, "overdue") ?? 0)), .text(""), .text("asset × schedule pairs past due"), page(MaintenanceDueReport.self)],
            [.text("Maintenance due soon"), .integer(Int64(total(maintenance, "due_soon") ?? 0)), .text(""), .text("within the due-soon window"), page(MaintenanceDueReport.self)],
            [.text("Open safety defects"), .integer(Int64(openDefects)), .text(""), .text("not certified repaired at the end of the period"), page(DVIRComplianceReport.self)],
            [.text("DVIR violation days"), .integer(Int64(total(dvir, "violations") ?? 0)), .text(""), .text("driven with an uncertified safety defect"), page(DVIRComplianceReport.self)],
            [.text("Fuel spend"), money(total(cost, "fuel") ?? 0), .text(cur), .text(""), page(CostReport.self)],
            [.text("Total spend"), money(spend), .text(cur), .text("fuel, maintenance, repairs and other costs"), page(CostReport.self)],
            [.text("Cost per \(request.distanceUnit)"), (distance ?? 0) > 0 ? money(spend / distance!) : .null, .text("\(cur)/\(request.distanceUnit)"), .text("total spend ÷ distance"), page(CostReport.self)],
        ]
        let table = ReportTable(name: "dashboard", title: "Fleet at a glance",
                                columns: [ReportColumn("metric", "Metric", .text), ReportColumn("value", "Value", .decimal), ReportColumn("unit", "Unit", .text),
                                          ReportColumn("meaning", "Meaning", .text), ReportColumn("report", "Details in", .text, isFileLink: true)],
                                rows: rows)
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

extension ReportValue {
    var textValue: String? {
        if case let .text(s) = self { return s }
        return nil
    }
}
