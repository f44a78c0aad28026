import Foundation
import GRDB
import FleetCore

/// The cost of fuel dispensed from a bulk tank: the tank's moving weighted-average cost at the
/// dispense (docs/METRICS.md, "Bulk fuel"), written to `fuel_dispense.cost_minor`,
/// `cost_currency` and `cost_state`.
///
/// The rule, per tank, over its deliveries and dispenses in time order (at the same instant
/// deliveries first; ties broken by `source_key`, so the order never depends on the import):
/// - book stock `Q` starts at 0 and the average `A` (minor units per millilitre) is unknown;
/// - a delivery of `q` mL costing `c`: when `Q > 0` and `A` is known, `A = (Q·A + c) / (Q + q)`;
///   when `Q ≤ 0` (no stock, or a tank that ran negative on the books), `A = c / q`: the
///   delivery restarts the average; when `Q > 0` and `A` is unknown, `A` stays unknown. Then
///   `Q = Q + q`;
/// - a dispense of `v` mL costs `v·A` rounded half-to-even to a minor unit, and `Q = Q − v`.
///   With `A` unknown it is not costed: `unknown_tank` when the warehouse holds no delivery
///   into the tank at all, `before_delivery` when the tank had no delivery yet, `no_rate` when
///   a delivery in another currency had no rate;
/// - the tank's currency is its earliest delivery's; a delivery in another currency is
///   converted into it on its local day (`CurrencyConverter`); with no rate in force its cost is
///   unknown, so `A` is unknown until a delivery restarts it.
///
/// A dispense is costed from the whole history of its tank, so a late delivery, a corrected one
/// or a forgotten file reprices every later dispense of the tank. It is recomputed whenever a
/// file touches one of the tank's rows (a derivation step, run in the file's transaction before
/// the closed months are compared), and a change to a closed month's figures is a restatement
/// (`MonthEnd`), never silent.
public struct TankCosting: Deriver {
    public var name: String { "tank costs" }
    public init() {}

    /// The tables whose rows belong to a tank.
    public static let tables: Set<String> = ["tank_delivery", "tank_dip", "fuel_dispense"]

    public static func isTankRecord<R: LoadableRecord>(_ type: R.Type) -> Bool { tables.contains(R.table) }

    /// The tank a record belongs to, nil for a record of another table.
    public static func tank<R: LoadableRecord>(of record: R) -> String? {
        switch record {
        case let d as TankDelivery: return d.tank
        case let d as FuelDispense: return d.tank
        case let d as TankDip: return d.tank
        default: return nil
        }
    }

    public static func allTanks(_ db: Database) throws -> [String] {
        guard try db.tableExists("fuel_dispense") else { return [] }
        return try String.fetchAll(db, sql: "SELECT tank FROM tank_delivery UNION SELECT tank FROM fuel_dispense ORDER BY 1")
    }

    /// Every tank is recomputed when any is touched: a stored dispense moved to another tank by a
    /// correction leaves its old tank's costs to reprice too, and a tank's history is small
    /// beside a month of telematics.
    public func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws {
        guard !touched.tanks.isEmpty || touched.rates else { return }
        let base = try WarehouseSettings.load(db).currency
        for tank in try Self.allTanks(db) { try Self.recompute(db, tank: tank, zone: settings.zone, base: base) }
    }

    /// The state of a dispense's cost.
    public enum State: String, Sendable {
        case priced, beforeDelivery = "before_delivery", noRate = "no_rate", unknownTank = "unknown_tank"
    }

    /// Recomputes the costs of `tank`'s dispenses; writes only those that changed.
    public static func recompute(_ db: Database, tank: String, zone: FleetZone, base: String) throws {
        let currency = try String.fetchOne(db, sql: "SELECT currency FROM tank_delivery WHERE tank = ? ORDER BY at, source_key LIMIT 1", arguments: [tank])
        let converter = try currency.map { try CurrencyConverter(db, base: base, target: $0) }
        var stock = 0.0
        var average: Double? = nil
        var unknown = currency == nil ? State.unknownTank : State.beforeDelivery
        var updates: [(id: Int64, minor: Int64?, currency: String?, state: State)] = []
        let events = try Row.fetchCursor(db, sql: """
            SELECT 0 AS kind, id, at, source_key, volume_ml, cost_minor, currency FROM tank_delivery WHERE tank = ?1
            UNION ALL
            SELECT 1, id, at, source_key, volume_ml, NULL, NULL FROM fuel_dispense WHERE tank = ?1
            ORDER BY at, kind, source_key
            """, arguments: [tank])
        while let row = try events.next() {
            let kind: Int = row[0], id: Int64 = row[1], at: Int64 = row[2], volume: Double = row[4]
            if kind == 0 {
                let minor: Int64 = row[5], from: String = row[6]
                var cost: Double? = Double(minor)
                if let converter, from != converter.target {
                    cost = try converter.convert(minor: minor, currency: from, on: zone.day(of: at)).map(Double.init)
                }
                if let cost {
                    if stock <= 0 { average = cost / volume } else if let a = average { average = (stock * a + cost) / (stock + volume) }
                } else if stock <= 0 || average != nil {
                    average = nil
                    unknown = .noRate
                }
                stock += volume
            } else {
                if let a = average {
                    let minor = try Self.minor(volume * a, tank: tank)
                    updates.append((id, minor, currency, .priced))
                } else {
                    updates.append((id, nil, nil, unknown))
                }
                stock -= volume
            }
        }
        let statement = try db.cachedStatement(sql: """
            UPDATE fuel_dispense SET cost_minor = ?2, cost_currency = ?3, cost_state = ?4
            WHERE id = ?1 AND (cost_minor IS NOT ?2 OR cost_currency IS NOT ?3 OR cost_state IS NOT ?4)
            """)
        for u in updates { try statement.execute(arguments: [u.id, u.minor, u.currency, u.state.rawValue]) }
    }

    /// `value` rounded half-to-even to a whole minor unit; an amount no Int64 holds (a volume or
    /// cost the importers refuse, in a warehouse written some other way) is an error, not a trap.
    static func minor(_ value: Double, tank: String) throws -> Int64 {
        let r = value.rounded(.toNearestOrEven)
        guard r.isFinite, abs(r) < 9.0e18 else { throw Checked.Overflow(what: "the cost of a dispense from tank \(tank)") }
        return Int64(r)
    }
}
