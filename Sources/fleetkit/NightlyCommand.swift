import ArgumentParser
import Foundation
import FleetKit
import FleetNightly

struct NightlyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract: "The unattended batch job: import what is new in the inbox, archive or quarantine each file, refresh the reports.",
        discussion: "Exit codes: 0 all well; 1 rows were rejected or files quarantined; 2 configuration, warehouse or lock failure. docs/OPERATIONS.md has the config and cron/systemd examples.")

    @Option(help: "The YAML configuration (docs/OPERATIONS.md).")
    var config: String
    @Flag(help: "Print the run summary as JSON on stdout.")
    var json = false
    @Option(help: "Treat this local day as today (backfills and tests), YYYY-MM-DD.")
    var asOf: String?
    @Option(help: "Seconds one file's import may take before it is stopped and the file quarantined (default 3600).")
    var fileTimeLimit: Double = 3600

    func validate() throws {
        if let asOf, CivilDate(asOf) == nil { throw ValidationError("--as-of '\(asOf)' is not a date; write YYYY-MM-DD.") }
        guard fileTimeLimit > 0, fileTimeLimit.isFinite else { throw ValidationError("--file-time-limit must be a number of seconds above 0.") }
    }

    func run() throws {
        let summary: NightlyJob.Summary
        do {
            let config = try NightlyConfig.load(self.config)
            var now = Date()
            if let asOf, let day = CivilDate(asOf), let zone = FleetZone(identifier: config.timezone) {
                now = Date(timeIntervalSince1970: Double(zone.start(of: day) + 12 * 3_600_000) / 1000)   // noon that day
            }
            // Files are imported in a child process: a crash costs that file, not the run.
            let runner = ChildProcessImportRunner(timeLimit: fileTimeLimit)
            // Reports are written in a child process too: a crash there is a recorded failure.
            summary = try NightlyJob(config: config, now: now).run(command: (["fleetkit"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
                                                                   runner: { _ in runner }, reports: ChildProcessReportRefresher(configPath: self.config))
        } catch {
            Console.err("error: \(error)")
            throw Exit.couldNotRun
        }
        // Warnings go to stderr in both modes, so cron mails them even when stdout is JSON.
        for warning in summary.warnings { Console.err(warning) }
        if json {
            try writeJSON(summary)
        } else {
            for f in summary.files {
                switch f.action {
                case "archived":
                    let o = f.outcome!
                    Console.out(o.status == .unchanged ? "unchanged   \(f.path): already imported; archived" :
                            "imported    \(f.path) [\(o.format ?? "?")]: \(o.loaded) loaded, \(o.updated) updated, \(o.unchanged) unchanged, \(o.rejected) rejected")
                    if let warning = f.warning { Console.out("            \(warning)") }
                case "quarantined":
                    var reason = f.reason ?? ""
                    if reason.hasPrefix(f.path + ": ") { reason.removeFirst(f.path.count + 2) }
                    Console.err("quarantined \(f.path): \(reason)")
                    Console.err("            see \(f.destination ?? "").reason.txt")
                default:
                    Console.out("skipped     \(f.path): \(f.reason ?? "")")
                }
            }
            if !summary.report_failures.isEmpty { fflush(nil) }
            for f in summary.report_failures { Console.err("error: \(f); the other reports were written") }
            if let e = summary.verify_error { Console.err("error: verify could not run: \(e); the imports stand") }
            for c in summary.verify?.checks ?? [] where c.failures > 0 {
                Console.err("error: verify \(c.name): \(c.failures) failures (`fleetkit verify` lists them); the imports stand")
                for f in c.listed.prefix(5) {
                    Console.err("    " + [f.asset, f.day, f.trip.map { "trip \($0)" }].compactMap { $0 }.joined(separator: " ") + ": \(f.what)")
                }
            }
            let t = summary.totals
            Console.out("run #\(summary.run_id ?? 0) as of \(summary.as_of): \(t.files) files (\(t.imported) imported, \(t.unchanged_files) unchanged, \(summary.quarantined) quarantined, \(summary.skipped) skipped); rows \(t.loaded) loaded, \(t.updated) updated, \(t.rejected) rejected; \(summary.reports.count) report files refreshed; "
                        + (summary.verify.map { $0.clean ? "verify clean" : "verify: \($0.failures) failures" } ?? "verify could not run"))
        }
        if summary.exit_code != 0 { throw ExitCode(summary.exit_code) }
    }
}
