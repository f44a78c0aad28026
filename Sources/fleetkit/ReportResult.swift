import Foundation
import FleetKit

/// What `fleetkit report --json` prints on stdout: one object with the files written (each with
/// its report and format), every report's headline totals as numbers with their unit, the reasons
/// reports are partial, the reports or formats that failed, and the exit code the run ends
/// with. WHY one object at the end: a script reads one JSON value; errors still go to stderr
/// and the exit code is the same as without `--json`.
struct ReportResult: Encodable {
    struct File: Encodable { var report: String; var format: String; var path: String }
    /// A headline figure: `value` a number a script can compare (money in the report currency's
    /// units, distance in km or mi, hours, percent 0–100, counts), `unit` what it is in (`USD`,
    /// `km`, `mi`, `h`, `%`, `count`), and `text` as the report prints it (`$63,674.83`).
    struct Headline: Encodable { var name: String; var value: Double; var unit: String; var text: String }
    struct Report: Encodable {
        var report: String
        var title: String
        /// True when any figure is incomplete (the reasons are in `partial_reasons`).
        var partial: Bool
        var partial_reasons: [String]
        /// Every headline the report knows; an unknown one is left out, never 0.
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
        reports = written.outputs.map { o in
            Report(report: o.metadata.report, title: o.metadata.title, partial: o.metadata.isPartial, partial_reasons: o.metadata.partial,
                   headlines: o.metadata.headlines.map { h in
                       let symbol = h.unit.symbol(o.metadata)
                       return Headline(name: h.name, value: h.value, unit: symbol.isEmpty ? "count" : symbol, text: h.text(o.metadata))
                   })
        }
        self.partial = partial.map { Partial(reason: $0.reason, reports: $0.reports) }
        allow_partial = allowPartial
        failures = written.failures
        exit_code = exitCode
    }
}
