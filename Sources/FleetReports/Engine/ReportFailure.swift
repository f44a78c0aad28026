/// A report, or one format of it, that could not be written while the others were
/// (`ReportWriter.Written.failures`): what failed, and why, in words an operator can act on.
public struct ReportFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The report's CLI name (`cost`), or `index`.
    public var report: String
    /// The format that failed (`xlsx`); nil when the report itself could not be computed.
    public var format: String?
    public var reason: String

    public init(report: String, format: String?, reason: String) {
        self.report = report
        self.format = format
        self.reason = reason
    }

    public var description: String {
        "the \(report) report" + (format.map { " (\($0))" } ?? "") + " was not written: \(reason)"
    }
}
