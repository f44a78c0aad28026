import GRDB
import FleetCore

/// Checks a warehouse against every invariant (`fleetkit verify`, and the nightly job after its
/// imports): the audit of its own figures that a fleet tool owes the people who sign them.
///
/// The read-only checks share one read snapshot, so an import committing meanwhile cannot make
/// two of them disagree; the checks that re-derive rows run afterwards in one write transaction
/// that is always rolled back. Nothing is ever changed.
public struct Verifier: Sendable {
    public let checks: [any WarehouseCheck]

    /// The checks of the warehouse layer; FleetReports adds the report-level ones.
    public static let warehouseChecks: [any WarehouseCheck] = [
        TripInvariantCheck(), TripDayTotalsCheck(), MeterMonotonyCheck(), AssetIdentityCheck(), RederiveSampleCheck(),
    ]

    public init(checks: [any WarehouseCheck] = Verifier.warehouseChecks) {
        self.checks = checks
    }

    public func run(_ warehouse: Warehouse, context: VerifyContext) throws -> VerifyResult {
        var results: [String: VerifyResult.Check] = [:]
        let clock = ContinuousClock()
        func run(_ check: any WarehouseCheck, _ db: Database) throws {
            var findings = FindingList(check: check.name, limit: context.listLimit)
            let start = clock.now
            var examined = 0
            do { examined = try check.run(db, context, &findings) } catch let overflow as Checked.Overflow {
                // A sum too large to add exactly is a failure of the data the check reads: said
                // as a finding, so the other checks (and the nightly job) still run.
                findings.add(overflow.description, fix: "correct the implausible amount in its source file and import it again")
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            results[check.name] = VerifyResult.Check(name: check.name, rule: check.rule, examined: examined, failures: findings.count,
                                                     listed: findings.listed, seconds: (seconds * 1000).rounded() / 1000)
        }
        do {
            try warehouse.pool.read { db in
                for check in checks where !check.rewrites { try run(check, db) }
            }
            if checks.contains(where: \.rewrites) {
                try warehouse.pool.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        for check in checks where check.rewrites { try run(check, db) }
                        return .rollback
                    }
                }
            }
        } catch let e as DatabaseError {
            throw Warehouse.explain(e, path: warehouse.path, doing: "verify")
        }
        return VerifyResult(warehouse: warehouse.path, checks: checks.compactMap { results[$0.name] })
    }
}

/// What `fleetkit verify` found: per check, its rule, how much it examined, and its failures.
public struct VerifyResult: Codable, Sendable {
    public struct Check: Codable, Sendable {
        public var name: String
        public var rule: String
        public var examined: Int
        public var failures: Int
        /// The first failures (VerifyContext.listLimit); `failures` counts them all.
        public var listed: [VerifyFinding]
        public var seconds: Double
    }

    public var warehouse: String
    public var checks: [Check]
    public var failures: Int
    public var clean: Bool

    public init(warehouse: String, checks: [Check]) {
        self.warehouse = warehouse
        self.checks = checks
        failures = checks.reduce(0) { $0 + $1.failures }
        clean = failures == 0
    }
}
