import GRDB
import FleetCore

/// One report. One file per report; the file name, type name and CLI name are the same word.
///
/// A report reads the warehouse inside one read transaction (a consistent snapshot even while
/// an import writes) and returns tables; it never formats or writes files: renderers do.
public protocol Report: Sendable {
    /// The CLI name: `fleetkit report cost`.
    static var name: String { get }
    static var title: String { get }
    /// One line for `fleetkit report --help`.
    static var summary: String { get }
    init()
    func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput
}

/// Every report, in the order `report all` writes them.
public enum ReportRegistry {
    public static let all: [any Report.Type] = [SummaryReport.self, CostReport.self, UtilizationReport.self, MaintenanceDueReport.self,
                                                 DVIRComplianceReport.self, TripsReport.self]

    public static func named(_ name: String) -> (any Report.Type)? { all.first { $0.name == name } }

    /// The name progress, failures and `--json` give the index page written beside the reports.
    public static let indexName = "index"
}
