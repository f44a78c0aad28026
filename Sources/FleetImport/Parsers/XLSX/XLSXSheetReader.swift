import Foundation

/// The rows of one worksheet, streamed: one `<row>` in memory at a time, whatever the sheet's
/// size. Cells are typed by their `t` attribute and style (`XLSXWorkbook`) and turned into the
/// text a CSV of the same data would hold:
/// - numbers as plain decimals, date-styled numbers as dates (`XLSXDates`);
/// - shared strings (`t="s"`) and inline strings (`t="inlineStr"`) as their text;
/// - booleans as `TRUE` / `FALSE`; ISO dates (`t="d"`) as written;
/// - formulas by their saved value (a formula without one is a problem: nothing to read);
/// - errors (`t="e"`, `#N/A`, `#DIV/0!`) and references to a missing shared string as problems.
/// A cell without an `r` reference follows the cell before it, a row without one the row
/// before it; a cell's reference places it, so missing cells of sparse rows stay empty.
final class XLSXSheetReader {
    struct Row {
        var number: Int
        var cells: [(column: Int, value: Result<String, CellProblem>)]
    }

    static let maxColumns = 16_384
    static let maxRows = 1_048_576

    let sheet: XLSXWorkbook.Sheet
    private let workbook: XLSXWorkbook
    private let part: XLSXPart
    private var lastRow = 0
    private var done = false

    init(_ workbook: XLSXWorkbook, sheet: XLSXWorkbook.Sheet) throws {
        self.workbook = workbook
        self.sheet = sheet
        part = try XLSXPart(workbook.archive, sheet.part, limit: XLSXWorkbook.maxSheetPart)
    }

    /// The next `<row>` with at least one cell, or nil at the end of the sheet.
    func next() throws -> Row? {
        while !done {
            switch try part.next() {
            case .eof: done = true
            case .end: continue
            case .start:
                if part.named("row") {
                    let row = try readRow()
                    if !row.cells.isEmpty { return row }
                } else if part.named("mergeCells") || part.named("sheetViews") || part.named("cols") || part.named("extLst") {
                    try part.skipElement()
                }
            }
        }
        return nil
    }

    private func readRow() throws -> Row {
        var number = lastRow + 1
        if let r = try part.attribute("r") {
            guard let n = Int(r), n >= 1, n <= Self.maxRows else { throw bad("a row numbered '\(r.prefix(20))'") }
            number = n
        }
        guard number > lastRow else { throw bad("row \(number) comes after row \(lastRow); rows must be in order") }
        lastRow = number
        var row = Row(number: number, cells: [])
        var lastColumn = -1
        let depth = part.depth
        while true {
            let e = try part.next()
            if e == .eof { throw bad("the sheet ends inside row \(number)") }
            if e == .end { if part.depth < depth { break }; continue }
            guard part.named("c") else { try part.skipElement(); continue }
            var column = lastColumn + 1
            if let ref = try part.attribute("r") {
                guard let c = Self.column(of: ref) else { throw bad("a cell referenced '\(ref.prefix(20))'") }
                column = c
            }
            guard column > lastColumn, column < Self.maxColumns else {
                throw bad("cell \(Self.letters(column))\(number) is out of order or beyond column XFD")
            }
            lastColumn = column
            let value = try readCell()
            if case .success(let s) = value, s.isEmpty { continue }
            row.cells.append((column, value))
        }
        return row
    }

    private func readCell() throws -> Result<String, CellProblem> {
        let type = try part.attribute("t") ?? "n"
        let style = try part.attribute("s").flatMap { Int($0) } ?? 0
        var value: String? = nil
        var inline: String? = nil
        var formula = false
        let depth = part.depth
        while true {
            let e = try part.next()
            if e == .eof { throw bad("the sheet ends inside a cell") }
            if e == .end { if part.depth < depth { break }; continue }
            if part.named("v") {
                part.beginText()
                try part.skipElement()
                value = part.endText()
            } else if part.named("is") || part.named("r") {
                inline = inline ?? ""
            } else if part.named("t") {
                part.beginText()
                try part.skipElement()
                inline = (inline ?? "") + part.endText()
            } else {
                if part.named("f") { formula = true }
                try part.skipElement()  // rPh, rPr, extLst: not the value
            }
        }
        switch type {
        case "inlineStr": return .success(inline ?? value ?? "")
        case "s":
            guard let v = value else { return .success("") }
            guard let i = Int(v.trimmingCharacters(in: .whitespaces)), i >= 0, i < workbook.sharedStrings.count else {
                return .failure(CellProblem("refers to shared string #\(v.prefix(20)), which the workbook does not have (\(workbook.sharedStrings.count) shared strings); the workbook is damaged"))
            }
            return .success(workbook.sharedStrings[i])
        case "str": return .success(value ?? "")
        case "b":
            switch value?.trimmingCharacters(in: .whitespaces) {
            case "1"?: return .success("TRUE")
            case "0"?: return .success("FALSE")
            case nil: return .success("")
            case let v?: return .failure(CellProblem("holds '\(v.prefix(20))' as a boolean, which is neither 0 nor 1"))
            }
        case "e": return .failure(CellProblem("holds the spreadsheet error \(value ?? "?"); correct the formula or clear the cell"))
        case "d": return .success(value ?? "")
        case "n":
            guard let v = value, !v.isEmpty else {
                return formula ? .failure(CellProblem("holds a formula without a saved value; open the workbook in Excel or LibreOffice, let it calculate and save it")) : .success("")
            }
            let isDate = style >= 0 && style < workbook.dateStyles.count && workbook.dateStyles[style]
            if isDate {
                guard let d = Double(v) else { return .failure(CellProblem("holds '\(v.prefix(30))', which is not a number")) }
                return XLSXDates.text(serial: d, date1904: workbook.date1904)
            }
            guard let n = XLSXDates.number(v) else { return .failure(CellProblem("holds '\(v.prefix(30))', which is not a number")) }
            return .success(n)
        default:
            return .failure(CellProblem("has the unknown cell type '\(type.prefix(20))'"))
        }
    }

    private func bad(_ what: String) -> XLSXError {
        XLSXError(.badXML, "line \(part.line): \(what)", part: sheet.part)
    }

    /// `C14` → 2 (0-based column); nil for anything that is not a cell reference.
    static func column(of ref: String) -> Int? {
        var n = 0, letters = 0
        for c in ref.utf8 {
            if c >= 0x41, c <= 0x5A { n = n * 26 + Int(c - 0x40) } else if c >= 0x61, c <= 0x7A { n = n * 26 + Int(c - 0x60) } else { break }
            letters += 1
            if letters > 3 { return nil }
        }
        guard letters > 0, ref.utf8.dropFirst(letters).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return n - 1
    }

    /// 2 → `C`.
    static func letters(_ column: Int) -> String {
        var n = column + 1, s = ""
        while n > 0 {
            let r = (n - 1) % 26
            s = String(UnicodeScalar(UInt8(65 + r))) + s
            n = (n - 1) / 26
        }
        return s
    }
}
