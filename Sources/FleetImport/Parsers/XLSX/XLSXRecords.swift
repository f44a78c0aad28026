import Foundation
import FleetCore

/// A worksheet as the records a CSV of it would give (`RecordSource`), so every CSV format
/// reads `.xlsx` through the row loop it already has.
///
/// The header is the first row with a cell. Merged cells (`<mergeCells>`, listed after the
/// rows) are read first, for the header only:
/// - a merge that starts in the header row and spans rows below it makes the header that many
///   rows deep; each column's name is then the distinct texts of its header cells, top to
///   bottom, joined by a space, a merged cell's text counting for every column it covers
///   (`Fuel` over `Litres` and `Cost` gives `Fuel Litres`, `Fuel Cost`);
/// - in a one-row header a merged cell's text names its first column only, as Excel stores it.
/// In data rows a merged cell's value is in its first cell only (the others are empty), as in
/// Excel. Each record's fields are placed by column (A is field 0); its line is the sheet's row
/// number, its raw text the row as a CSV line would be.
final class XLSXRecords: RecordSource {
    let delimiter = UInt8(ascii: ",")
    let sheet: XLSXWorkbook.Sheet
    private let reader: XLSXSheetReader
    private var merges: [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] = []
    private var count = 0
    private var pending: XLSXSheetReader.Row?
    private(set) var cellProblems: [(column: Int, message: String)] = []

    init(url: URL, sheet name: String?) throws {
        let workbook = try XLSXWorkbook(url: url)
        sheet = try workbook.sheet(named: name)
        merges = try Self.merges(workbook, sheet)
        reader = try XLSXSheetReader(workbook, sheet: sheet)
    }

    /// `'Fuel 2026'!C14`: a sheet name other than letters, digits and `_` is quoted, as Excel writes it.
    func location(line: Int, column: Int?) -> String {
        let plain = sheet.name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" } && !sheet.name.isEmpty
        let name = plain ? sheet.name : "'" + sheet.name.replacingOccurrences(of: "'", with: "''") + "'"
        guard let column else { return "\(name)!\(line):\(line)" }
        return "\(name)!\(XLSXSheetReader.letters(column))\(line)"
    }

    func next() throws -> CSVRecord? {
        cellProblems = []
        guard let row = try pending ?? reader.next() else { return nil }
        pending = nil
        count += 1
        if count == 1 { return try header(row) }
        return record(row)
    }

    private func record(_ row: XLSXSheetReader.Row) -> CSVRecord {
        var fields = [String](repeating: "", count: (row.cells.last?.column ?? -1) + 1)
        for cell in row.cells {
            switch cell.value {
            case .success(let s): fields[cell.column] = s
            case .failure(let p): cellProblems.append((cell.column, p.message))
            }
        }
        return CSVRecord(number: count, line: row.number, fields: fields, raw: Self.raw(fields))
    }

    private func header(_ first: XLSXSheetReader.Row) throws -> CSVRecord {
        let depth = merges.filter { $0.rows.lowerBound == first.number }.map { $0.rows.count }.max() ?? 1
        guard depth > 1 else { return record(first) }
        // Rows of the header, by row number; absent rows are empty.
        var rows: [Int: [Int: String]] = [:]
        // A header cell that cannot be read leaves its column unnamed; the problem stays with
        // the header record (`cellProblems`) so a missing column's error can name the cell.
        var problems: [(column: Int, message: String)] = []
        var width = 0
        var row: XLSXSheetReader.Row? = first
        while let r = row, r.number < first.number + depth {
            var texts: [Int: String] = [:]
            for c in r.cells {
                switch c.value {
                case .success(let s): texts[c.column] = texts[c.column] ?? s
                case .failure(let p): problems.append((c.column, "row \(r.number): \(p.message)"))
                }
            }
            rows[r.number] = texts
            width = max(width, (r.cells.last?.column ?? -1) + 1)
            row = try reader.next()
        }
        pending = row
        for m in merges where m.rows.lowerBound >= first.number && m.rows.lowerBound < first.number + depth { width = max(width, m.columns.upperBound + 1) }
        var fields: [String] = []
        for c in 0..<width {
            var parts: [String] = []
            for r in first.number..<(first.number + depth) {
                var text = rows[r]?[c]
                if let m = merges.first(where: { $0.rows.contains(r) && $0.columns.contains(c) }) {
                    text = rows[m.rows.lowerBound]?[m.columns.lowerBound]
                }
                if let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty, !parts.contains(t) { parts.append(t) }
            }
            fields.append(parts.joined(separator: " "))
        }
        cellProblems = problems
        return CSVRecord(number: 1, line: first.number, fields: fields, raw: Self.raw(fields))
    }

    /// The sheet's merged ranges (`<mergeCell ref="A1:B2"/>`), read in a pass of their own
    /// because they follow the rows (`XLSXMergeScan`: markup only, no cell decoded).
    private static func merges(_ workbook: XLSXWorkbook, _ sheet: XLSXWorkbook.Sheet) throws -> [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] {
        try XLSXMergeScan.ranges(workbook.archive, sheet.part, limit: XLSXWorkbook.maxSheetPart)
    }

    /// The fields as one CSV line (quoted where needed), at most 4096 characters.
    static func raw(_ fields: [String]) -> String {
        var s = ""
        for (k, f) in fields.enumerated() {
            if k > 0 { s += "," }
            if f.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
                s += "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            } else { s += f }
            if s.count > 4096 { return String(s.prefix(4096)) }
        }
        return s
    }

    /// The first rows as CSV text (the header and what follows, up to `limit` bytes): the
    /// `head` that format detection reads, as it reads a CSV file's first bytes.
    static func head(url: URL, sheet: String?, limit: Int = 64 << 10) throws -> Data {
        let records = try XLSXRecords(url: url, sheet: sheet)
        var out = Data()
        while out.count < limit, let r = try records.next() {
            out.append(contentsOf: (raw(r.fields) + "\n").utf8)
        }
        return out.prefix(limit)
    }
}
