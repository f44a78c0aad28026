import ArgumentParser
import Foundation
import FleetKit
import FleetNightly

struct NightlyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract: "The unattended batch job: import what is new in the inbox, archive or quarantine each file, refresh the reports.",
        discussion: "Exit codes: 0 all well; 1 rows were rejected or files quarantined (or a report is partial with report_mode: strict); 2 configuration, warehouse or lock failure; 130/143 interrupted by SIGINT/SIGTERM. docs/OPERATIONS.md has the config and cron/systemd examples.")

    @Option(help: "The YAML configuration (docs/OPERATIONS.md).", completion: .file(extensions: ["yml", "yaml"]))
    var config: String?
    @Option(help: ArgumentHelp("Write an annotated starter configuration to this path (never overwriting a file), create its inbox folder, and exit.",
                               valueName: "path"))
    var initConfig: String?
    @Flag(help: "Print the run summary as one line of JSON on stdout (JSON Lines: append it to a .jsonl log).")
    var json = false
    @Option(help: "Treat this local day as today (backfills and tests), YYYY-MM-DD.")
    var asOf: String?
    @Option(help: "Seconds one file's import may take before it is stopped and the file quarantined (default 3600).")
    var fileTimeLimit: Double = 3600
    @OptionGroup var output: OutputOptions

    func validate() throws {
        switch (config, initConfig) {
        case (nil, nil): throw ValidationError("Missing --config PATH (or --init-config PATH to write a starter configuration).")
        case (.some, .some): throw ValidationError("--config and --init-config cannot be used together.")
        default: break
        }
        if let asOf, CivilDate(asOf) == nil { throw ValidationError("--as-of '\(asOf)' is not a date; write YYYY-MM-DD.") }
        guard fileTimeLimit > 0, fileTimeLimit.isFinite else { throw ValidationError("--file-time-limit must be a number of seconds above 0.") }
    }

    func run() throws {
        if let initConfig {
            do {
                try NightlyConfigTemplate.write(to: initConfig)
                _ = try NightlyConfig.load(initConfig)   // the template must validate where it was written
            } catch { throw fail(error) }
            Console.out("wrote \(initConfig); edit it, then run: fleetkit nightly --config \(initConfig)")
            return
        }
        let summary: NightlyJob.Summary
        var strict = false
        do {
            let config = try NightlyConfig.load(self.config!)
            strict = config.reportMode == .strict
            // The report writers take the mode of their files from FLEETKIT_REPORT_MODE (one rule
            // for `report` and `nightly`); the config's setting, already checked, overrides it.
            if let mode = config.reportFileMode { setenv("FLEETKIT_REPORT_MODE", mode, 1) }
            var now = Date()
            if let asOf, let day = CivilDate(asOf), let zone = FleetZone(identifier: config.timezone) {
                now = Date(timeIntervalSince1970: Double(zone.start(of: day) + 12 * 3_600_000) / 1000)   // noon that day
            }
            // Files are imported in a child process: a crash costs that file, not the run.
            let child = ChildProcessImportRunner(timeLimit: fileTimeLimit)
            let meter = ProgressMeter(mode: output.progress, label: "nightly")
            defer { meter.stop() }
            let runner = ProgressImportRunner(inner: child, meter: meter, perFile: !json && !output.quiet)
            Interruption.install(describe: { signal in
                let now = meter.snapshot
                return Interruption.line(signal: signal, what: "imported and committed in this run", snapshot: now,
                                         current: now.current.map { $0 + " (it stays in the inbox)" },
                                         resume: "Reports not refreshed yet keep their previous contents (each file is replaced whole). Run the same nightly command again to finish: committed files still in the inbox are archived as unchanged.")
            }, cleanup: { child.stop() })
            // Reports are written in a child process too: a crash there is a recorded failure.
            summary = try NightlyJob(config: config, now: now).run(command: (["fleetkit"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
                                                                   runner: { _ in runner }, reports: ChildProcessReportRefresher(configPath: self.config!))
        } catch {
            Console.err("error: \(error)")
            throw Exit.couldNotRun
        }
        // Warnings go to stderr in both modes, so cron mails them even when stdout is JSON.
        for warning in summary.warnings { Console.err(warning) }
        if json {
            // One line a run: the cron job appends them to a .jsonl log (docs/OPERATIONS.md, "cron").
            try writeJSONLine(summary)
        } else {
            // --quiet: only what needs a person (quarantined files, report errors) on stderr.
            let quiet = output.quiet
            for f in summary.files {
                switch f.action {
                case "archived" where quiet, "skipped" where quiet: continue
                case "archived":
                    // Its line was printed when it committed (ProgressImportRunner); a note here.
                    if let warning = f.warning { Console.out("warning     \(f.path): \(warning)") }
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
            if strict {
                for p in summary.partial_reports { Console.err("error: partial report (report_mode: strict): \(p)") }
            }
            let t = summary.totals
            if !quiet { Console.out("run #\(summary.run_id ?? 0) as of \(summary.as_of): \(t.files) files (\(t.imported) imported, \(t.unchanged_files) unchanged, \(summary.quarantined) quarantined, \(summary.skipped) skipped); rows \(t.loaded) loaded, \(t.updated) updated, \(t.rejected) rejected; \(summary.reports.count) report files refreshed; "
                                    + (summary.verify.map { $0.clean ? "verify clean" : "verify: \($0.failures) failures" } ?? "verify could not run")) }
        }
        if summary.exit_code != 0 { throw ExitCode(summary.exit_code) }
    }
}
