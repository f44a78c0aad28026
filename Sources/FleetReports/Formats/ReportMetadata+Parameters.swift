import Foundation
import FleetCore

/// The "what this report is" block as tables, so every renderer shows the same facts in the
/// same order: period, zone, units, currency, named parameters, methods, generation time and the
/// source files (docs/METRICS.md, "Report output conventions": every report says what it is).
extension ReportMetadata {
    /// `section, name, value` rows. A source is `source, <path>, <sha256>`: the pair an auditor
    /// checks with `sha256sum`; the source's id and format are in `sourcesTable` (XLSX, HTML) and
    /// in JSON `sources`. XLSX leaves sources out here and shows `sourcesTable` instead.
    func parametersTable(includingSources: Bool = true) -> ReportTable {
        var rows: [[ReportValue]] = []
        func add(_ section: String, _ name: String, _ value: String) { rows.append([.text(section), .text(name), .text(value)]) }
        add("report", "report", report)
        add("report", "title", title)
        add("report", "status", statusText)
        for reason in partial { add("partial", "reason", reason) }
        add("period", "from", period.from.description)
        add("period", "to", period.to.description)
        add("period", "label", period.label)
        add("report", "time_zone", timeZone)
        add("report", "units", units.rawValue)
        add("report", "currency", currency)
        for (name, value) in parameters { add("parameter", name, value) }
        for (i, method) in methods.enumerated() { add("method", String(i + 1), method) }
        add("report", "data_through", dataThrough?.description ?? "")
        add("report", "generated_at", generatedAtText)
        for source in sources where includingSources { add("source", source.path, source.sha256) }
        return ReportTable(name: "parameters", title: "Parameters", columns: [
            ReportColumn("section", "Section", .text),
            ReportColumn("name", "Name", .text),
            ReportColumn("value", "Value", .text),
        ], rows: rows)
    }

    var sourcesTable: ReportTable {
        ReportTable(name: "sources", title: "Sources", columns: [
            ReportColumn("id", "Id", .integer),
            ReportColumn("path", "Path", .text),
            ReportColumn("format", "Format", .text),
            ReportColumn("sha256", "SHA-256", .text),
        ], rows: sources.map { [.integer($0.id), .text($0.path), .text($0.format), .text($0.sha256)] })
    }

    var zone: TimeZone { ZonedTime.zone(timeZone) }

    /// `complete`, or `partial` with how many reasons: the first thing a reader of any format sees.
    var statusText: String { partial.isEmpty ? "complete" : "partial" }

    /// The header line: `PARTIAL: reason; reason`, or `complete`.
    var statusLine: String { partial.isEmpty ? "complete" : "PARTIAL: " + partial.joined(separator: "; ") }

    /// `2026-10-31`, or a sentence when the warehouse has no dated data.
    var dataThroughText: String { dataThrough?.description ?? "no dated data" }

    /// ISO 8601 in the report zone with its offset.
    var generatedAtText: String { ZonedTime(generatedAt, in: zone).iso }

    /// `metric (km, L)` / `US (mi, gal)`: what the unit system means for the columns.
    var unitsText: String {
        switch units {
        case .metric: return "metric (km, L)"
        case .us: return "US customary (mi, US gal)"
        }
    }
}
