import Foundation
import FleetKit

/// What `fleetkit report --json` prints on stdout: one object with the files written (each with
/// its report and format), every report's headline totals as its text shows them, the reasons
/// reports are partial, the reports or formats that failed, and the exit code the run ends
/// with. WHY one object at the end: a script reads one JSON value; errors still go to stderr
/// and the exit code is the same as without `--json`.
struct ReportResult: Encodable {
    struct File: Encodable { var report: String; var format: String; var path: String }
    struct Headline: Encodable { var name: String; var value: String }
    struct Report: Encodable {
        var report: String
        var title: String
        /// True when any figure is incomplete (the reasons are in `partial_reasons`).
        var partial: Bool
        var partial_reasons: [String]
        /// Formatted as the report shows them, with unit or currency; the report's own JSON
        /// file has the numbers.
        var headlines: [Headline]
    }
    struct Partial: Encodable { var reason: String; var reports: [String] }

    /// The period's label (`2026-10`), first and last day, inclusive.
    var period: String
    var from: String
    var to: String
    var out: String
    var files: [File]
    var reports: [Report]
    var partial: [Partial]
    /// Set when `--allow-partial` accepted partial figures (exit 0 with partial reports).
    var allow_partial: Bool
    var failures: [ReportFailure]
    var exit_code: Int32

    init(period: ReportPeriod, out: URL, written: ReportWriter.Written, partial: [(reason: String, reports: [String])],
         allowPartial: Bool, exitCode: Int32) {
        self.period = period.label
        from = "\(period.from)"
        to = "\(period.to)"
        self.out = out.path
        files = written.steps.flatMap { step in step.files.map { File(report: step.report, format: step.format ?? "", path: $0.path) } }
        let headlines = Dictionary(written.headlines.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        reports = written.outputs.map { o in
            Report(report: o.metadata.report, title: o.metadata.title, partial: o.metadata.isPartial, partial_reasons: o.metadata.partial,
                   headlines: (headlines[o.metadata.report] ?? []).map { Headline(name: $0.0, value: $0.1) })
        }
        self.partial = partial.map { Partial(reason: $0.reason, reports: $0.reports) }
        allow_partial = allowPartial
        failures = written.failures
        exit_code = exitCode
    }
}
