import ArgumentParser
import Foundation
import FleetKit
import FleetNightly

/// `fleetkit nightly-reports`: the report writer of `fleetkit nightly` (ChildProcessReportRefresher).
///
/// Hidden from help: only the nightly job runs it. It writes the configured reports for the
/// configured periods, as the job would in its own process, and answers one `ReportRefresh` as
/// JSON on stdout. If a C library crashes while a report is written, only this process dies:
/// the job records the failure and closes its run normally.
struct NightlyReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly-reports",
        abstract: "Write the nightly job's reports and answer which were written (internal).",
        shouldDisplay: false)

    @Option(help: "The nightly configuration.")
    var config: String
    @Option(help: "The run's day, YYYY-MM-DD.")
    var asOf: String
    @Option(help: "The months the night's files changed, YYYY-MM, comma-separated: refreshed beside the configured periods.")
    var touched: String?

    func run() throws {
        // If the job dies, nobody reads the answer: stop too.
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            AtomicWrite.removeTemporaries()
            _exit(Exit.couldNotRun.rawValue)
        }
        Interruption.install(describe: { "interrupted by \($0): the report in progress was not written" })
        guard let today = CivilDate(asOf) else { throw ValidationError("--as-of '\(asOf)' is not a date; write YYYY-MM-DD.") }
        do {
            let config = try NightlyConfig.load(self.config)
            let refreshed = try NightlyJob(config: config).refreshReports(try Warehouse(path: config.warehouse), today: today,
                                                                           touched: touched?.split(separator: ",").map(String.init) ?? [])
            Console.json(try JSONEncoder().encode(refreshed), newline: true)
        } catch {
            Console.err("error: \(error)")
            throw Exit.couldNotRun
        }
    }
}
