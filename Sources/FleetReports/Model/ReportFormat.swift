import Foundation

/// An output format (CSV, XLSX, HTML, JSON), GRDB `DumpFormat`-style: a protocol plus static
/// factories, so call sites read `format: .xlsx()`.
public protocol ReportFormat: Sendable {
    /// The `--format` name.
    var name: String { get }
    /// Writes the report under `directory` and returns the files written. Writes go to a
    /// temporary file first and are renamed into place, so a reader never sees half a file.
    func write(_ output: ReportOutput, to directory: URL) throws -> [URL]
}
