import Foundation
import FleetCore
import FleetWarehouse

/// The row loop every CSV importer shares: header matching with aliases, required columns,
/// duplicate keys, and the conversion of row errors into rejects with line and raw text.
struct CSVRows {
    let input: InputFile
    let format: String
    let header: CSVHeader
    /// How a lone `1,234` reads in this file: comma-delimited files group thousands with ','.
    /// Settable for rows a profile has rewritten into plain '.' decimals (`ProfileNativeRows`).
    var convention: DecimalNumber.Convention
    private var reader: any RecordSource
    private var headerCount: Int
    private var headerLine = 1
    /// The header's fields as the file spells them.
    private(set) var headerNames: [String] = []
    /// The columns the format reads (by index), where a cell's problem rejects its row.
    private var knownColumns: Set<Int> = []
    private let seenKeys = KeyLedger()
    private let choices = ChoiceMemo()
    /// What a money format can still read of a row it rejects (`RejectedRow`): kept with the
    /// reject so a later load of the same key resolves it.
    var salvage: ((Row) -> RejectedRow?)?
    /// A profile's cells every row gains after the file's own (`Profile.constants`).
    private var constants: [String] = []
    /// A profile's footer and totals rows (`Profile.skips`): skipped and counted in one note.
    var skipRow: (([String]) -> Bool)?
    /// Puts a row's cells in the shape its format reads (`ProfileNativeRows.rewriter`) before
    /// the row is made; a `RowError` it throws rejects the row with its raw text.
    var rewrite: ((inout CSVRecord) throws -> Void)?

    /// - throws: `FleetError.unreadable` when the header lacks a required column.
    init(_ input: InputFile, format: String, columns: [String: [String]], required: [String]) throws {
        try self.init(input, format: format, required: required) { _ in columns }
    }

    /// The row loop of a file read with a profile: `preamble` records above the header are not
    /// read, and each `constants` cell is added to every row under its header.
    init(_ input: InputFile, format: String, columns: [String: [String]], preamble: Int, constants: [(header: String, value: String)]) throws {
        try self.init(input, format: format, required: [], preamble: preamble, extraHeader: constants.map(\.header)) { _ in columns }
        self.constants = constants.map(\.value)
    }

    /// A format whose column names carry data (`units_per_USD`) derives its column table from the
    /// header it is given, so the file is opened and its header read once.
    init(_ input: InputFile, format: String, required: [String], preamble: Int = 0, extraHeader: [String] = [],
         columnsFor: ([String]) throws -> [String: [String]]) throws {
        self.input = input
        var columns: [String: [String]] = [:]
        var headerProblems: [(column: Int, message: String)] = []
        self.format = format
        do {
            reader = try RecordSources.open(input)
            for _ in 0..<preamble where try reader.next() == nil { throw FleetError.emptyFile(file: input.path) }
            guard let first = try reader.next() else { throw FleetError.emptyFile(file: input.path) }
            headerProblems = reader.cellProblems
            columns = try columnsFor(first.fields)
            header = CSVHeader(first.fields + extraHeader, aliases: columns)
            headerCount = first.fields.count
            headerLine = first.line
            headerNames = first.fields
        } catch {
            throw RecordSources.unreadable(error, file: input.path, hint: "Re-export the file; FleetKit reads RFC 4180 CSV in UTF-8 or UTF-16.") ?? error
        }
        convention = DecimalNumber.Convention.forDelimiter(reader.delimiter)
        knownColumns = Set(columns.keys.compactMap { header.index($0) })
        let missing = required.filter { header.index($0) == nil }
        if !missing.isEmpty {
            let wanted = missing.map { c in ([c] + (columns[c] ?? [])).joined(separator: " / ") }.joined(separator: "; ")
            // A header cell that could not be read (a spreadsheet error value) is likely the
            // missing name: say which cell, so the fix is in the right place.
            let unread = headerProblems.map { "\(reader.location(line: headerLine, column: $0.column)) could not be read (\($0.message))" }
            let cells = unread.isEmpty ? "" : "; the header cell " + unread.joined(separator: ", ")
            throw FleetError.unreadable(file: input.path, location: reader.location(line: headerLine, column: nil), reason: "the \(format) header lacks required column(s): \(wanted)\(cells)",
                                        hint: "Rename the columns (docs/FORMATS.md lists the accepted names), or pass --format if this is another format.")
        }
        if let dup = header.duplicates.first {
            throw FleetError.unreadable(file: input.path, location: reader.location(line: headerLine, column: nil), reason: "two columns both mean '\(dup)'",
                                        hint: "Remove one of them so the value to use is not ambiguous.")
        }
    }

    /// Calls `body` for each record; a `RowError` it throws becomes a reject at that line.
    mutating func forEach<S: RecordSink>(into sink: inout S, _ body: (inout Row, inout S) throws -> Void) throws {
        // One note for all of them (`NoteLedger`): a header of 520,000 unknown columns is one line.
        for name in header.unknown {
            sink.note("columns not part of the \(format) format, ignored", example: name)
        }
        while true {
            let record: CSVRecord
            do {
                guard let r = try reader.next() else { break }
                record = r
            } catch {
                throw RecordSources.unreadable(error, file: input.path, hint: "Nothing of this file was imported; re-export it completely and import it again.") ?? error
            }
            let location = reader.location(line: record.line, column: nil)
            if record.oversized {
                try sink.reject(Issue(.oversizedRecord, at: location, "the record is longer than \(CSVReader.defaultMaxRecordBytes) bytes; it is probably not \(format) data", raw: record.raw))
                continue
            }
            if record.hadInvalidUTF8 {
                try sink.reject(Issue(.invalidText, at: location, "the row has bytes that are not valid UTF-8; re-export the file as UTF-8", raw: record.raw))
                continue
            }
            if record.fields.count > headerCount, record.fields[headerCount...].contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                try sink.reject(Issue(.shortRecord, at: location, "the row has \(record.fields.count) fields but the header has \(headerCount); an unquoted delimiter inside a value would shift the columns, so the row is not guessed at", raw: record.raw))
                continue
            }
            // A cell whose value could not be read (a spreadsheet error, a missing shared
            // string) rejects the row when the format reads its column; other columns are ignored anyway.
            if let problem = reader.cellProblems.first(where: { knownColumns.contains($0.column) }) {
                let name = headerNames.indices.contains(problem.column) ? "'\(headerNames[problem.column])' " : ""
                try sink.reject(Issue(.badValue, at: reader.location(line: record.line, column: problem.column), "the cell \(name)\(problem.message)", raw: record.raw))
                continue
            }
            if record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            if let skipRow, skipRow(record.fields) {
                sink.note("rows skipped by the profile's skip rows (not data: totals, footers)", example: "\(location): \(QuotedText.cut(record.raw, limit: 60))")
                continue
            }
            var shaped = record
            if !constants.isEmpty {
                shaped.fields += Array(repeating: "", count: max(0, headerCount - shaped.fields.count)) + constants
            }
            if let rewrite {
                do { try rewrite(&shaped) } catch let e as RowError {
                    try sink.reject(e.issue(at: reader.location(line: record.line, column: column(named: e.message)), raw: record.raw))
                    continue
                }
            }
            var row = Row(record: shaped, header: header, convention: convention, zone: input.zone, currency: input.currency, seenKeys: seenKeys, choices: choices)
            do {
                try sink.atomically { sink in try body(&row, &sink) }
            } catch let e as RowError {
                try sink.reject(e.issue(at: reader.location(line: record.line, column: column(named: e.message)), raw: record.raw).with(salvage?(row)))
            }
        }
    }

    /// The column a row error is about: the first quoted column name in its message that the
    /// header has (accessors write `'litres' is …`); nil when it names none.
    private func column(named message: String) -> Int? {
        let pieces = message.split(separator: "'", omittingEmptySubsequences: false)
        var k = 1
        while k < pieces.count {
            // A constant's cell (past the file's own) is no place in the file to point at.
            if let i = header.index(String(pieces[k])), i < headerCount { return i }
            // A profile's row errors name the file's own header text, which is an alias here.
            let name = CSVHeader.normalise(String(pieces[k]))
            if let i = headerNames.firstIndex(where: { CSVHeader.normalise($0) == name }) { return i }
            k += 2
        }
        return nil
    }

}
