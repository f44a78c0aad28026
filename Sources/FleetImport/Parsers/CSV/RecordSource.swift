import Foundation
import FleetCore

/// Where a CSV format's records come from: a CSV file (`CSVReader`) or a worksheet of an
/// `.xlsx` workbook (`XLSXRecords`). The row loops (`CSVRows`, `OBDLogRows`) read either the
/// same way; only locations differ (`line 14`, `Sheet1!C14`).
protocol RecordSource {
    /// The delimiter the numbers' convention follows (`DecimalNumber.Convention.forDelimiter`).
    var delimiter: UInt8 { get }
    mutating func next() throws -> CSVRecord?
    /// Where a record (and, when known, one of its columns, 0-based) is, as a reject names it.
    func location(line: Int, column: Int?) -> String
    /// The cells of the record last returned whose value could not be read, with why.
    var cellProblems: [(column: Int, message: String)] { get }
}

extension CSVReader: RecordSource {
    func location(line: Int, column: Int?) -> String { "line \(line)" }
    var cellProblems: [(column: Int, message: String)] { [] }
}
