import Foundation
import FleetCore

/// XLSX: one workbook `<report>-<label>.xlsx` for finance users, with typed cells.
///
/// Sheets: "Summary" (what the report is, the first table, headline totals), one sheet per
/// other table (named after its title), "Charts" (each chart's data and a native chart) when the
/// report has charts, "Data quality" and "Parameters" (parameters, methods, sources). Numbers are
/// numbers, money carries a currency number format, percent is stored as a fraction with a `0.0%`
/// format, dates and datetimes are real Excel dates (datetimes as wall-clock time in the report
/// zone, named in the column header, since Excel has no time zones). Each table has a bold header
/// row that is frozen, an autofilter and a bold totals row; column widths follow the content.
///
/// Text is always a string cell, never a formula, so `=HYPERLINK(…)` from an imported file
/// stays inert. A table over `constantMemoryRows` rows, or whose rows are streamed from the
/// warehouse (`ReportRowStream`), switches the workbook to libxlsxwriter's constant-memory mode,
/// which is why every sheet here is written strictly top to bottom. A text longer than a cell
/// holds is cut (`XLSXCellText`) and counted on the "Data quality" sheet instead of failing
/// the workbook.
public struct XLSXFormat: ReportFormat {
    public var name: String { "xlsx" }
    /// Above this many rows in any table, rows are streamed to disk instead of held in memory.
    public var constantMemoryRows: Int

    public init(constantMemoryRows: Int = 50_000) {
        self.constantMemoryRows = constantMemoryRows
    }

    public enum Error: Swift.Error, CustomStringConvertible {
        case tooManyRows(table: String, rows: Int)

        public var description: String {
            switch self {
            case let .tooManyRows(table, rows):
                return "the table '\(table)' has \(rows) rows, more than an Excel sheet holds (1,048,576); use --format csv for it or a shorter period"
            }
        }
    }

    static let maxRows = 1_048_576
    /// Widths come from the first rows only: measuring a million formatted cells costs more than it helps.
    static let widthSampleRows = 2_000

    public func write(_ output: ReportOutput, to directory: URL) throws -> [URL] {
        try AtomicFile.prepare(directory)
        let url = directory.appendingPathComponent(ReportFileName.file(output.metadata, ext: "xlsx"))
        let large = (output.tables + [output.dataQuality]).contains { $0.rowCount > constantMemoryRows || $0.stream != nil }
        try AtomicFile.produce(url) { temporary in try Self.build(output, path: temporary.path, constantMemory: large) }
        return [url]
    }

    static func build(_ output: ReportOutput, path: String, constantMemory: Bool) throws {
        for t in output.tables + [output.dataQuality] where t.rowCount + 32 > maxRows {
            throw Error.tooManyRows(table: t.name, rows: t.rowCount)
        }
        let m = output.metadata
        let book = try Workbook(path: path, constantMemory: constantMemory)
        try book.setProperties(title: m.title, created: m.generatedAt / 1000)
        let styles = XLSXStyles(book)
        let zone = m.zone
        var names = XLSXSheetName(reserving: ["Summary", "Charts", "Data quality", "Parameters"])

        let summary = try book.addSheet("Summary")
        let summaryHeader = try writeSummary(output, sheet: summary, styles: styles, zone: zone)
        try summary.setPrint(printSetup(m, repeatedRow: summaryHeader))
        for t in output.tables.dropFirst() {
            let sheet = try book.addSheet(names.make(t.title))
            let (end, w) = try writeTable(t, sheet: sheet, top: 0, styles: styles, zone: zone)
            try sheet.setPrint(printSetup(m, repeatedRow: 0, widths: w))
            if let note = t.note { try sheet.write(note, row: end + 1, column: 0, format: styles.note) }
            setWidths(sheet, w)
        }
        if !output.charts.isEmpty {
            let sheet = try XLSXCharts.write(output.charts, sheetName: "Charts", book: book, styles: styles)
            try sheet.setPrint(printSetup(m, repeatedRow: nil))
        }
        let quality = try book.addSheet("Data quality")
        try quality.setPrint(printSetup(m, repeatedRow: 0))
        var dataQuality = output.dataQuality
        if book.truncatedCells > 0 {
            dataQuality.rows.append([.text("Cells cut to 32,767 characters in this workbook"), .integer(Int64(book.truncatedCells)),
                                     .text("Excel holds at most 32,767 characters (UTF-16 units) in a cell; each cut cell ends in …; the CSV and JSON have the full text")])
        }
        let (end, qualityWidths) = try writeTable(dataQuality, sheet: quality, top: 0, styles: styles, zone: zone)
        let qualityNote = dataQuality.rowCount == 0 ? "Nothing to report: no rows were excluded or flagged." : dataQuality.note
        if let qualityNote { try quality.write(qualityNote, row: end + 1, column: 0, format: styles.note) }
        setWidths(quality, qualityWidths)
        let parameters = try book.addSheet("Parameters")
        try parameters.setPrint(printSetup(m, repeatedRow: 0))
        try writeParameters(m, sheet: parameters, styles: styles, zone: zone)
        try book.close()
    }

    /// Every sheet prints landscape, one page wide, with its table header repeated on each page
    /// and a footer naming the report, its period, the sheet and the page, so a loose printed
    /// page still says where it came from.
    static func printSetup(_ m: ReportMetadata, repeatedRow: Int?, widths: [Double] = []) -> Workbook.Sheet.PrintSetup {
        let rest = "&C&A&RPage &P of &N"   // centre: the sheet name; right: page n of N
        let name = "\(m.title), \(m.period.label)" + (m.isPartial ? " (partial)" : "")
        let literal = Workbook.Sheet.footerLiteral(name, limit: Workbook.Sheet.maxFooterLength - 2 - rest.count)
        var setup = Workbook.Sheet.PrintSetup(repeatedRow: repeatedRow, footer: "&L" + literal + rest)
        // A table wider than `legibleWidth` characters would print one page wide at a size no one
        // reads (the DVIR register at about 2.5 pt): it prints across as many pages as keep it
        // near full size, each repeating its first two columns (the unit and the row's key).
        let total = widths.reduce(0, +)
        if total > legibleWidth, widths.count > 2 {
            setup.pagesWide = Int((total / legibleWidth).rounded(.up))
            setup.repeatedColumns = 2
        }
        return setup
    }

    /// Characters of column width a landscape page prints at a legible size (about 7 pt and up
    /// on Letter or A4 landscape with Excel's default font).
    static let legibleWidth = 180.0

    /// Writes the summary sheet and returns the row of its table's header (the row to repeat
    /// on printed pages), or nil when the report has no table.
    @discardableResult
    private static func writeSummary(_ output: ReportOutput, sheet: Workbook.Sheet, styles: XLSXStyles, zone: TimeZone) throws -> Int? {
        let m = output.metadata
        try sheet.write(m.isPartial ? m.title + " (partial)" : m.title, row: 0, column: 0, format: styles.title)
        let block = [
            ("Period", "\(m.period.from) – \(m.period.to) (\(m.period.label))"), ("Time zone", m.timeZone),
            ("Units", m.unitsText), ("Currency", m.currency), ("Status", m.statusLine), ("Data through", m.dataThroughText),
            ("Generated at", HTMLFormat.generated(m)),
        ]
        for (i, (label, value)) in block.enumerated() {
            try sheet.write(label, row: 1 + i, column: 0, format: styles.label)
            try sheet.write(value, row: 1 + i, column: 1, format: nil)
        }
        var row = block.count + 2
        var w: [Double] = [Double(block.map(\.0.count).max() ?? 0) + 2]
        var headerRow: Int? = nil
        if let first = output.tables.first {
            try sheet.write(first.title, row: row, column: 0, format: styles.heading)
            row += 1
            if let note = first.note {
                try sheet.write(note, row: row, column: 0, format: styles.note)
                row += 1
            }
            headerRow = row
            let (end, firstWidths) = try writeTable(first, sheet: sheet, top: row, styles: styles, zone: zone)
            row = end
            w = merged(w, firstWidths)
        }
        if !m.headlines.isEmpty {
            row += 1
            try sheet.write("Headline totals", row: row, column: 0, format: styles.heading)
            for h in m.headlines {
                row += 1
                try sheet.write(HTMLFormat.humanized(h.name), row: row, column: 0, format: styles.label)
                try sheet.write(h.value, row: row, column: 1, format: styles.headline(h.unit.excelFormat(h.value, m)))
                w = merged(w, [Double(HTMLFormat.humanized(h.name).count) + 2, Double(h.text(m).count) + 3])
            }
        }
        setWidths(sheet, w)
        return headerRow
    }

    private static func writeParameters(_ m: ReportMetadata, sheet: Workbook.Sheet, styles: XLSXStyles, zone: TimeZone) throws {
        let parameters = m.parametersTable(includingSources: false)
        var (row, w) = try writeTable(parameters, sheet: sheet, top: 0, styles: styles, zone: zone)
        let sources = m.sourcesTable
        row += 1
        try sheet.write(sources.title, row: row, column: 0, format: styles.heading)
        row += 1
        if sources.rows.isEmpty {
            try sheet.write("No source files.", row: row, column: 0, format: styles.note)
        } else {
            w = merged(w, try writeTable(sources, sheet: sheet, top: row, styles: styles, zone: zone, filterAndFreeze: false).widths)
        }
        setWidths(sheet, w.map { min($0, 100) })
    }

    /// Writes the header at `top`, the rows and the totals row; returns the row after the last one
    /// and the column widths measured on the way (one walk, so a streamed table is read once).
    /// Excel allows one autofilter per sheet, so a second table on a sheet passes `filterAndFreeze: false`.
    static func writeTable(_ t: ReportTable, sheet: Workbook.Sheet, top: Int, styles: XLSXStyles, zone: TimeZone,
                           filterAndFreeze: Bool = true) throws -> (end: Int, widths: [Double]) {
        for (c, column) in t.columns.enumerated() {
            try sheet.write(headerText(column, zone: zone), row: top, column: c, format: styles.header)
        }
        var row = top + 1
        var w = headerWidths(t, zone: zone)
        try t.forEachRow { values in
            try writeRow(values, columns: t.columns, sheet: sheet, row: row, styles: styles, zone: zone, totals: false)
            if row - top <= widthSampleRows { measure(values, t, into: &w) }
            row += 1
        }
        if let totals = t.totals { measure(totals, t, into: &w) }
        if filterAndFreeze, !t.columns.isEmpty {
            try sheet.autofilter(firstRow: top, firstColumn: 0, lastRow: max(top, row - 1), lastColumn: t.columns.count - 1)
            sheet.freezePanes(row: top + 1)
        }
        if let totals = t.totals {
            try writeRow(totals, columns: t.columns, sheet: sheet, row: row, styles: styles, zone: zone, totals: true)
            row += 1
        }
        return (row, finished(w))
    }

    private static func writeRow(_ values: [ReportValue], columns: [ReportColumn], sheet: Workbook.Sheet, row: Int,
                                 styles: XLSXStyles, zone: TimeZone, totals: Bool) throws {
        for c in 0..<max(values.count, columns.count) {
            let value = c < values.count ? values[c] : .null
            let type = c < columns.count ? columns[c].type : .text
            let format = styles.cell(value, type: type, totals: totals)
            try writeCell(value, sheet: sheet, row: row, column: c, format: format, zone: zone)
        }
    }

    static func writeCell(_ value: ReportValue, sheet: Workbook.Sheet, row: Int, column: Int, format: Workbook.Format?, zone: TimeZone) throws {
        switch value {
        case .null:
            if let format { try sheet.writeBlank(row: row, column: column, format: format) }
        case let .text(s):
            // Cut to Excel's cell limit by the sheet, and counted (XLSXCellText).
            try sheet.write(s, row: row, column: column, format: format)
        case let .integer(i):
            try sheet.write(Double(i), row: row, column: column, format: format)
        case let .number(d):
            if d.isFinite { try sheet.write(d, row: row, column: column, format: format) } else { try sheet.writeBlank(row: row, column: column, format: format) }
        case let .money(minor, currency):
            // One division of exact integers: the nearest double to the decimal amount.
            try sheet.write(Double(minor) / pow(10, Double(Money.minorDigits(currency))), row: row, column: column, format: format)
        case let .percent(p):
            // Through the decimal text, so 73.4 % is stored as 0.734, not 0.7340000000000001.
            guard let plain = ValueText.plain(p), let fraction = Double(plain + "e-2") else {
                return try sheet.writeBlank(row: row, column: column, format: format)
            }
            try sheet.write(fraction, row: row, column: column, format: format)
        case let .date(d):
            guard d.year >= 1900 else { return try sheet.write(d.description, row: row, column: column, format: nil) }
            try sheet.writeDateTime(year: d.year, month: d.month, day: d.day, row: row, column: column, format: format)
        case let .datetime(ms):
            let t = ZonedTime(ms, in: zone)
            guard t.date.year >= 1900 else { return try sheet.write(t.iso, row: row, column: column, format: nil) }
            try sheet.writeDateTime(year: t.date.year, month: t.date.month, day: t.date.day, hour: t.hour, minute: t.minute,
                                    second: Double(t.second) + Double(t.millisecond) / 1000, row: row, column: column, format: format)
        }
    }

    /// `Distance (km)`; a datetime column names the zone its wall-clock times are in.
    static func headerText(_ column: ReportColumn, zone: TimeZone) -> String {
        if let unit = column.unit { return "\(column.title) (\(unit))" }
        if column.type == .datetime { return "\(column.title) (\(zone.identifier))" }
        return column.title
    }

    /// Column widths in characters from the header and the displayed values of the first
    /// `widthSampleRows` rows and the totals, capped at 60: `headerWidths`, `measure` each row,
    /// then `finished`.
    static func headerWidths(_ t: ReportTable, zone: TimeZone) -> [Double] {
        t.columns.map { Double(min(headerText($0, zone: zone).count, 24)) }
    }

    static func measure(_ values: [ReportValue], _ t: ReportTable, into w: inout [Double]) {
        for (c, v) in values.enumerated() where c < w.count {
            w[c] = max(w[c], Double(displayLength(v, type: t.columns[c].type)))
        }
    }

    static func finished(_ w: [Double]) -> [Double] { w.map { min(60, max(6, $0 + 2)) } }

    static func displayLength(_ v: ReportValue, type: ReportColumnType) -> Int {
        switch v {
        case .null: return 0
        case let .text(s): return s.split(separator: "\n").map(\.count).max() ?? 0
        case let .integer(i): return ValueText.group(String(i)).count
        case let .number(d): return (type == .rate ? ValueText.rate(d) : ValueText.grouped(d, places: type.places)).count
        case let .money(minor, currency): return ValueText.group(ValueText.money(minor: minor, currency: currency)).count + 4
        case let .percent(p): return ValueText.grouped(p, places: max(1, type.places)).count + 1
        case .date: return 10
        case .datetime: return 16
        }
    }

    /// The wider of two width lists, column by column.
    static func merged(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<max(a.count, b.count)).map { max($0 < a.count ? a[$0] : 0, $0 < b.count ? b[$0] : 0) }
    }

    static func setWidths(_ sheet: Workbook.Sheet, _ widths: [Double]) {
        for (c, w) in widths.enumerated() where w > 0 { sheet.setColumn(c, width: w) }
    }
}

extension ReportFormat where Self == XLSXFormat {
    /// XLSX, one workbook per report.
    public static func xlsx() -> XLSXFormat { XLSXFormat() }
}
