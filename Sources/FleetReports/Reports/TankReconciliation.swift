import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// Tank reconciliation per bulk tank and period (docs/METRICS.md "Bulk fuel"): what was
/// delivered, less what was dispensed, less what the tank's level rose by (dip at the end less
/// dip at the start), should be near zero. A positive variance is fuel delivered that neither
/// left through the pump's records nor stayed in the tank (a leak, theft, a dispense not
/// recorded, an over-billed delivery); a negative one is fuel dispensed that was never
/// delivered on record. A question, like every fuel exception: nothing leaves a total.
struct TankReconciliation {
    enum Status: String { case within, over, under, cannotJudge = "cannot_judge" }

    struct Line {
        var tank: String
        var deliveries: Int
        var deliveredMl: Double
        var dispenses: Int
        var dispensedMl: Double
        /// The tank's level by its dips: the last at or before the period's start, and the last
        /// before its end.
        var levelStartMl: Double?
        var levelEndMl: Double?
        /// Dispenses of the period no tank average priced (`TankCosting`), not in the cost report.
        var unpriced: Int

        var levelChangeMl: Double? {
            guard let a = levelStartMl, let b = levelEndMl else { return nil }
            return b - a
        }
        var varianceMl: Double? { levelChangeMl.map { deliveredMl - dispensedMl - $0 } }
        /// Meters at the pump and on the delivery truck, and a dip, each read to a fraction of a
        /// percent: the band is a share of the fuel that moved (delivered plus dispensed).
        var toleranceMl: Double { TankReconciliation.tolerance * (deliveredMl + dispensedMl) }
        var status: Status {
            guard let v = varianceMl else { return .cannotJudge }
            return v > toleranceMl ? .over : v < -toleranceMl ? .under : .within
        }
        var note: String {
            var parts: [String] = []
            if levelStartMl == nil || levelEndMl == nil {
                parts.append("no dip reading \(levelStartMl == nil ? "at or before the start" : "before the end"): level change unknown")
            }
            if unpriced > 0 { parts.append("\(unpriced) dispenses not priced (no delivery before them, or no exchange rate)") }
            return parts.isEmpty ? "level from dips at both ends" : parts.joined(separator: "; ")
        }
    }

    /// 1 % of the fuel that moved through the tank in the period.
    static let tolerance = 0.01

    var lines: [Line] = []

    /// Every tank with a delivery, a dispense or a dip in the period. Tanks are not assets, so
    /// the request's asset filter does not narrow them.
    static func compute(_ db: Database, _ request: ReportRequest) throws -> TankReconciliation {
        guard try db.tableExists("fuel_dispense") else { return TankReconciliation() }
        let range: StatementArguments = [request.start, request.end]
        let tanks = try String.fetchAll(db, sql: """
            SELECT tank FROM tank_delivery WHERE at >= ?1 AND at < ?2 UNION SELECT tank FROM fuel_dispense WHERE at >= ?1 AND at < ?2
            UNION SELECT tank FROM tank_dip WHERE at >= ?1 AND at < ?2 ORDER BY 1
            """, arguments: range)
        var out = TankReconciliation()
        for tank in tanks {
            let args: StatementArguments = [tank, request.start, request.end]
            let d = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(volume_ml), 0) FROM tank_delivery WHERE tank = ?1 AND at >= ?2 AND at < ?3", arguments: args)!
            let p = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(volume_ml), 0), COALESCE(SUM(cost_minor IS NULL), 0) FROM fuel_dispense WHERE tank = ?1 AND at >= ?2 AND at < ?3
                """, arguments: args)!
            let start = try Double.fetchOne(db, sql: "SELECT level_ml FROM tank_dip WHERE tank = ? AND at <= ? ORDER BY at DESC LIMIT 1", arguments: [tank, request.start])
            let end = try Double.fetchOne(db, sql: "SELECT level_ml FROM tank_dip WHERE tank = ? AND at < ? ORDER BY at DESC LIMIT 1", arguments: [tank, request.end])
            out.lines.append(Line(tank: tank, deliveries: d[0], deliveredMl: d[1], dispenses: p[0], dispensedMl: p[1],
                                  levelStartMl: start, levelEndMl: end, unpriced: p[2]))
        }
        return out
    }
}
