import Foundation

/// One report in one format that `ReportWriter.write` has just finished: written (`files`) or
/// failed (`failure`). WHY: `report all` over a long period runs for minutes; the command line
/// shows progress and prints each file as it is written, not all at the end, and `--json`
/// names every file with its report and format.
public struct ReportStep: Sendable, Equatable {
    /// The report's CLI name (`cost`), or `index`.
    public var report: String
    /// The format (`xlsx`); nil when the report itself could not be computed, so none of its
    /// formats was written.
    public var format: String?
    /// The files written for this report and format (a CSV report may write several).
    public var files: [URL]
    /// Why it was not written; nil when it was.
    public var failure: ReportFailure?

    public init(report: String, format: String?, files: [URL], failure: ReportFailure? = nil) {
        self.report = report
        self.format = format
        self.files = files
        self.failure = failure
    }
}
