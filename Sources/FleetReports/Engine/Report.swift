import GRDB
import FleetCore
import FleetWarehouse

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
    /// The kinds of data the figures rest on: a period starting before one of them is partial
    /// and the headlines resting on it are left out (`ReportDataKind`).
    static var needs: [ReportDataNeed] { get }
    init()
    func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput
}

extension Report {
    public static var needs: [ReportDataNeed] { [] }
}

/// A report written on the read boundary (`WarehouseReader`): its SQL is written once and its
/// engine differences go through `SQLDialect`, so it runs on an SQLite warehouse and on a
/// PostgreSQL one alike (docs/ARCHITECTURE.md "Engine boundary"). On SQLite it reads through
/// the same GRDB transaction as every other report.
public protocol PortableReport: Report {
    func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput
}

extension PortableReport {
    public func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput { try run(SQLiteReader(db), request) }
}

/// Every report, in the order `report all` writes them.
public enum ReportRegistry {
    public static let all: [any Report.Type] = [SummaryReport.self, CostReport.self, UtilizationReport.self, MaintenanceDueReport.self,
                                                 DVIRComplianceReport.self, TripsReport.self, FuelExceptionsReport.self]

    public static func named(_ name: String) -> (any Report.Type)? { all.first { $0.name == name } }

    /// The reports that run on PostgreSQL as on SQLite (`PortableReport`), in `all`'s order.
    public static var portable: [any Report.Type] { all.filter { $0 is any PortableReport.Type } }

    /// The name progress, failures and `--json` give the index page written beside the reports.
    public static let indexName = "index"
}
