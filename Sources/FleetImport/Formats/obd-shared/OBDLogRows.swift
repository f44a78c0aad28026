import Foundation
import FleetCore
import FleetWarehouse

/// The rows of a CSV app log (`car-scanner`, `torque`): the header read when opened, then each
/// row with content. What both logs do with a row that is not one is decided here once: a read
/// error fails the whole file (nothing of it is imported), an oversized or non-UTF-8 row is a
/// reject, and a blank row (separators and spaces only) is skipped.
struct OBDLogRows {
    /// The first record: the log's header.
    let header: CSVRecord
    private var reader: any RecordSource
    private let path: String

    /// Opens the log (`delimiter` nil: detected) and reads its header.
    ///
    /// - throws: `FleetError.emptyFile` for a file without a record, `FleetError.unreadable`
    ///   (re-export from `app`) when the header cannot be read.
    init(_ input: InputFile, delimiter: UInt8? = nil, app: String) throws {
        path = input.path
        do {
            reader = try RecordSources.open(input, delimiter: delimiter)
            guard let first = try reader.next() else { throw FleetError.emptyFile(file: input.path) }
            header = first
        } catch {
            throw RecordSources.unreadable(error, file: input.path, hint: "Re-export the log from \(app).") ?? error
        }
    }

    /// Where a row is, as a reject names it: `line 14`, or `Sheet1!14:14` in a workbook.
    func location(_ line: Int) -> String { reader.location(line: line, column: nil) }

    /// The next row with content, or nil at the end of the log; the rows passed over on the way
    /// are rejected or skipped as said above.
    mutating func next(into sink: inout some RecordSink) throws -> CSVRecord? {
        while true {
            let record: CSVRecord
            do {
                guard let r = try reader.next() else { return nil }
                record = r
            } catch {
                throw RecordSources.unreadable(error, file: path, hint: "Nothing of this file was imported; re-export it completely.") ?? error
            }
            if let problem = reader.cellProblems.first {
                try sink.reject(Issue(.badValue, at: reader.location(line: record.line, column: problem.column), "the cell \(problem.message)", raw: record.raw))
                continue
            }
            if record.oversized || record.hadInvalidUTF8 {
                try sink.reject(Issue(record.oversized ? .oversizedRecord : .invalidText, at: reader.location(line: record.line, column: nil),
                                      "the row is too long or not UTF-8 text", raw: record.raw))
                continue
            }
            if record.fields.allSatisfy(OBDText.isBlank) { continue }
            return record
        }
    }
}
