import Foundation
import FleetKit
import FleetNightly

/// Writes the nightly run's reports in a child process, `fleetkit nightly-reports`, so that a
/// crash while a report is written (a signal in libxlsxwriter or SQLite, a Swift trap, the
/// out-of-memory killer) is a recorded report failure (exit 1) instead of the end of a run whose
/// files were already imported and archived. The child is this same binary (`/proc/self/exe`).
///
/// Swift's crash backtracer is turned off in the child: a backtracer it starts can keep the
/// output pipe open after the child died (ChildProcessImportRunner handles that for its
/// long-lived worker); here the plain signal death is what the job needs to see, and the
/// library's own message still reaches the log on the inherited stderr.
struct ChildProcessReportRefresher: ReportRefresher {
    let configPath: String
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    func refresh(_ job: NightlyJob, warehouse: Warehouse, today: CivilDate, touched: [String]) throws -> ReportRefresh {
        guard !job.config.reportsToRefresh.isEmpty, !job.config.formats.isEmpty else { return ReportRefresh(files: [], failures: []) }
        let p = Process()
        p.executableURL = executable
        p.arguments = ["nightly-reports", "--config", configPath, "--as-of", today.description] + (touched.isEmpty ? [] : ["--touched", touched.joined(separator: ",")])
        p.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            return ReportRefresh(files: [], failures: [ReportFailure(report: "all", format: nil, reason:
                "the report writer process could not be started (\(error.localizedDescription)); no report was written this run; check the process limit (ulimit -u) and memory")])
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationReason == .uncaughtSignal {
            let name = ChildProcessImportRunner.signalName(p.terminationStatus)
            let why = p.terminationStatus == SIGKILL
                ? "was killed (\(name)), most likely by the kernel's out-of-memory killer (see `dmesg`) or an operator"
                : "crashed (\(name)); this is a bug in FleetKit or a library it uses: report it"
            return ReportRefresh(files: [], failures: [ReportFailure(report: "all", format: nil, reason:
                "the report writer \(why) while writing the reports; those written before it are in place and the others were not written this run (the night's imports are not affected). Run `fleetkit report` for the period to see which report fails")])
        }
        let line = data.split(separator: 10).last.map { Data($0) } ?? Data()
        guard let refreshed = try? JSONDecoder().decode(ReportRefresh.self, from: line) else {
            return ReportRefresh(files: [], failures: [ReportFailure(report: "all", format: nil, reason:
                "the report writer exited with status \(p.terminationStatus) without saying what it wrote (its error is in the log above); run `fleetkit report` for the period to see why")])
        }
        return refreshed
    }
}
