import Foundation
import FleetCore

/// CSV: one RFC 4180 file per table, for diffing, scripts and other tools.
///
/// Files are `<report>-<label>-<table>.csv` for each table, the data-quality table and a
/// `parameters` table (period, zone, units, currency, parameters, methods, generation time,
/// sources). Text is UTF-8 **without a byte-order mark**: a BOM helps only Excel's double-click
/// import, and Excel users get the XLSX, whereas a BOM silently renames the first column for
/// pipelines (`\u{FEFF}asset` in pandas, awk, PostgreSQL `COPY … HEADER`). Lines end in CRLF.
///
/// The header row is each column's stable `name`; values are typed by the model, never guessed:
/// numbers plain (`ValueText.plain`), money exact with the currency's minor digits (`1234.50`),
/// percent as 0–100, dates `YYYY-MM-DD`, datetimes ISO 8601 in the report zone with the offset.
/// Text goes through `CSVWriter.text`, which neutralises formula injection.
public struct CSVFormat: ReportFormat {
    public var name: String { "csv" }

    public init() {}

    public func write(_ output: ReportOutput, to directory: URL) throws -> [URL] {
        try AtomicFile.prepare(directory)
        let metadata = output.metadata
        let zone = metadata.zone
        var written: [URL] = []
        for table in output.tables + [output.dataQuality, metadata.parametersTable()] {
            let url = directory.appendingPathComponent(ReportFileName.file(metadata, table: table.name, ext: "csv"))
            try TextFileStream.produce(url) { out in try Self.write(table, zone: zone, to: out) }
            written.append(url)
        }
        return written
    }

    /// The CSV text of one table: header, rows, then the totals row when there is one. Written
    /// row by row, so a streamed table (`ReportRowStream`) is never held in memory.
    static func write(_ table: ReportTable, zone: TimeZone, to out: TextFileStream) throws {
        try out.write(CSVWriter.line(table.columns.map { CSVWriter.text($0.name) }))
        try table.forEachRow { row in try out.write(CSVWriter.line(row.map { cell($0, zone: zone) })) }
        if let totals = table.totals { try out.write(CSVWriter.line(totals.map { cell($0, zone: zone) })) }
    }

    /// The CSV text of a table whose rows are held (`rows`), for tests and small tables.
    static func render(_ table: ReportTable, zone: TimeZone) -> String {
        var out = CSVWriter.line(table.columns.map { CSVWriter.text($0.name) })
        for row in table.rows { out += CSVWriter.line(row.map { cell($0, zone: zone) }) }
        if let totals = table.totals { out += CSVWriter.line(totals.map { cell($0, zone: zone) }) }
        return out
    }

    static func cell(_ value: ReportValue, zone: TimeZone) -> String {
        switch value {
        case .null: return ""
        case let .text(s): return CSVWriter.text(s)
        case let .integer(i): return CSVWriter.number(String(i))
        case let .number(d), let .percent(d): return CSVWriter.number(ValueText.plain(d) ?? "")
        case let .money(minor, currency): return CSVWriter.number(ValueText.money(minor: minor, currency: currency))
        case let .date(d): return d.description
        case let .datetime(ms): return ZonedTime(ms, in: zone).iso
        }
    }
}

extension ReportFormat where Self == CSVFormat {
    /// CSV, one file per table.
    public static func csv() -> CSVFormat { CSVFormat() }
}
