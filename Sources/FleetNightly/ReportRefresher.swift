import Foundation
import FleetCore
import FleetWarehouse
import FleetReports

/// Writes the nightly run's reports and says which were written and which failed.
///
/// WHY a protocol, as for `FileImportRunner`: reports go through C libraries too
/// (libxlsxwriter, SQLite), and a signal in the job's own process after the night's files were
/// imported and archived would end the run without its summary, `nightly-last-run.json` or the
/// ledger's close. The `fleetkit` command injects a refresher that writes them in a child
/// process and turns the child's death into a recorded report failure (exit 1); FleetNightly
/// only sees this protocol. Library tests use `InProcessReportRefresher`.
public protocol ReportRefresher {
    /// `touched`: the months (YYYY-MM) the night's files changed, refreshed beside the configured
    /// periods (`NightlyJob.refreshReports`).
    /// - throws: only when the warehouse cannot be read at all (the run then exits 2).
    func refresh(_ job: NightlyJob, warehouse: Warehouse, today: CivilDate, touched: [String]) throws -> ReportRefresh
}

/// The files written and the reports (or formats) that were not, as a child can send them back.
public struct ReportRefresh: Codable, Sendable, Equatable {
    public var files: [String]
    public var failures: [ReportFailure]
    /// Reports written but partial, each with its reasons (`report_mode: strict` fails on them).
    public var partial: [String]
    public init(files: [String], failures: [ReportFailure], partial: [String] = []) {
        self.files = files
        self.failures = failures
        self.partial = partial
    }
}

/// Writes the reports in the calling process.
public struct InProcessReportRefresher: ReportRefresher {
    public init() {}
    public func refresh(_ job: NightlyJob, warehouse: Warehouse, today: CivilDate, touched: [String]) throws -> ReportRefresh {
        try job.refreshReports(warehouse, today: today, touched: touched)
    }
}
