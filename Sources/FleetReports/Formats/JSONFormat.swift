import Foundation
import FleetCore

/// JSON: the report's tables for pipelines, one file `<report>-<label>.json` of this shape (docs/METRICS.md, "Format details"):
///
///     {"report", "period": {"from", "to", "label"},
///      "parameters": {…named parameters…, "time_zone", "units", "currency"},
///      "totals": {…}, "tables": [{"name", "title", "columns": [{"name", "type", "unit"}],
///      "rows": [[…]], "totals": […]}], "data_quality": {table}, "sources": [{"id", "path",
///      "format", "sha256"}], "generated_at", "data_through",
///      "partial": true|false, "partial_reasons": […]}
///
/// Numbers are JSON numbers in the output units (percent 0–100); money is an exact decimal
/// literal from minor units (`1234.50`); dates are `"YYYY-MM-DD"`; datetimes are ISO 8601 strings
/// in the report zone with the offset. A table's `totals` key is present only when it has a
/// totals row; a column without a unit has `"unit": null`. Keys are sorted and the layout fixed,
/// so two runs over the same data differ only in `generated_at`. The file is written in chunks
/// and table rows are walked while writing (`JSONValue.rows`), so memory does not grow with rows.
public struct JSONFormat: ReportFormat {
    public var name: String { "json" }

    public init() {}

    public func write(_ output: ReportOutput, to directory: URL) throws -> [URL] {
        try AtomicFile.prepare(directory)
        let url = directory.appendingPathComponent(ReportFileName.file(output.metadata, ext: "json"))
        try TextFileStream.produce(url) { file in try Self.document(output).write(to: file) }
        return [url]
    }

    static func document(_ output: ReportOutput) -> JSONValue {
        let m = output.metadata
        let zone = m.zone
        // Named parameters are strings as given; the three fixed keys win over a parameter of the same name.
        var parameters: [String: JSONValue] = [:]
        for (name, value) in m.parameters { parameters[name] = .string(value) }
        parameters["time_zone"] = .string(m.timeZone)
        parameters["units"] = .string(m.units.rawValue)
        parameters["currency"] = .string(m.currency)
        var totals: [String: JSONValue] = [:]
        for (name, value) in m.totals { totals[name] = number(value) }
        return .object([
            "report": .string(m.report),
            "period": .object(["from": .string(m.period.from.description), "to": .string(m.period.to.description), "label": .string(m.period.label)]),
            "parameters": .object(parameters),
            "totals": .object(totals),
            "tables": .array(output.tables.map { table($0, zone: zone) }),
            "data_quality": table(output.dataQuality, zone: zone),
            "sources": .array(m.sources.map {
                .object(["id": .number(String($0.id)), "path": .string($0.path), "format": .string($0.format), "sha256": .string($0.sha256)])
            }),
            "generated_at": .string(m.generatedAtText),
            "data_through": m.dataThrough.map { .string($0.description) } ?? .null,
            "partial": .bool(m.isPartial),
            "partial_reasons": .array(m.partial.map(JSONValue.string)),
        ])
    }

    static func table(_ t: ReportTable, zone: TimeZone) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(t.name),
            "title": .string(t.title),
            "columns": .array(t.columns.map {
                .object(["name": .string($0.name), "type": .string($0.type.rawValue), "unit": $0.unit.map(JSONValue.string) ?? .null])
            }),
            "rows": .rows(JSONRows(t, zone: zone)),
        ]
        if let totals = t.totals { members["totals"] = .array(totals.map { value($0, zone: zone) }) }
        return .object(members)
    }

    static func value(_ v: ReportValue, zone: TimeZone) -> JSONValue {
        switch v {
        case .null: return .null
        case let .text(s): return .string(s)
        case let .integer(i): return .number(String(i))
        case let .number(d), let .percent(d): return number(d)
        case let .money(minor, currency): return .number(ValueText.money(minor: minor, currency: currency))
        case let .date(d): return .string(d.description)
        case let .datetime(ms): return .string(ZonedTime(ms, in: zone).iso)
        }
    }

    /// NaN and infinities are not JSON numbers; they become null.
    static func number(_ d: Double) -> JSONValue {
        ValueText.plain(d).map(JSONValue.number) ?? .null
    }
}

extension ReportFormat where Self == JSONFormat {
    /// JSON, one file per report.
    public static func json() -> JSONFormat { JSONFormat() }
}
