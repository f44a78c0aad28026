import GRDB
import FleetCore

/// The master-data fields reports show and group by.
struct AssetInfo {
    var id: Int64
    var unit: String
    var name: String?
    var kind: String
    var group: String?
    var costCenter: String?
    var department: String?
    var targetHoursPerWeek: Double?
    var autoCreated: Bool

    /// Assets in unit order; an asset without a unit number shows its VIN, PIN or name.
    static func fetchAll(_ db: Database, _ request: ReportRequest) throws -> [AssetInfo] {
        let filter = request.assetFilter()
        return try Row.fetchAll(db, sql: """
            SELECT a.id, COALESCE(a.unit_number, a.vin, a.pin, a.name, 'asset #' || a.id) AS label, a.name, a.kind, a.asset_group,
                   a.cost_center, a.department, a.target_hours_per_week, a.auto_created
            FROM asset a WHERE \(filter.sql) ORDER BY label
            """, arguments: StatementArguments(filter.arguments.map { $0 as (any DatabaseValueConvertible)? })).map {
            AssetInfo(id: $0[0], unit: $0[1], name: $0[2], kind: $0[3], group: $0[4], costCenter: $0[5], department: $0[6],
                      targetHoursPerWeek: $0[7], autoCreated: $0[8])
        }
    }
}

/// An asset's use over the period, from the daily rollup.
///
/// Rollup rows can exist without measuring anything: a machine that sent one snapshot (one
/// hour-meter reading, one fix, "Running") has a day with a first report and no delta, so its
/// sums are 0 only because SQL's COALESCE made them so. `measured` and the per-figure flags keep
/// "we saw it once" apart from "it did nothing" (docs/METRICS.md, "Unknown is not zero").
struct AssetUsage {
    var distanceM = 0.0
    var engineS = 0.0
    var idleS = 0.0
    var fuelML = 0.0
    var daysOperated = 0
    /// Some day of the period measured something: an engine, idle or fuel figure, an odometer or
    /// trip distance, a GPS distance above zero, or GPS fixes at two different instants.
    var measured = true
    /// Some day of the period had an engine-time figure (hour meter or engine events).
    var engineKnown = true
    /// Some day of the period had an idle-time figure.
    var idleKnown = true
    /// Some day of the period had a distance (odometer, GPS or trips).
    var distanceKnown = true

    static func + (a: AssetUsage, b: AssetUsage) -> AssetUsage {
        AssetUsage(distanceM: a.distanceM + b.distanceM, engineS: a.engineS + b.engineS, idleS: a.idleS + b.idleS,
                   fuelML: a.fuelML + b.fuelML, daysOperated: a.daysOperated + b.daysOperated, measured: a.measured || b.measured,
                   engineKnown: a.engineKnown || b.engineKnown, idleKnown: a.idleKnown || b.idleKnown,
                   distanceKnown: a.distanceKnown || b.distanceKnown)
    }

    /// A day counts as operated when the asset moved more than 0.5 km or ran its engine more
    /// than 6 minutes that local day (docs/METRICS.md).
    static func fetch(_ db: Database, _ request: ReportRequest) throws -> [Int64: AssetUsage] {
        var out: [Int64: AssetUsage] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT asset_id, SUM(COALESCE(distance_m, 0)), SUM(COALESCE(engine_s, 0)), SUM(COALESCE(idle_s, 0)), SUM(COALESCE(fuel_ml, 0)),
                   SUM(CASE WHEN COALESCE(distance_m, 0) > 500 OR COALESCE(engine_s, 0) > 360 THEN 1 ELSE 0 END),
                   MAX(CASE WHEN engine_s IS NOT NULL OR idle_s IS NOT NULL OR fuel_ml IS NOT NULL OR distance_method IN ('odometer', 'trips')
                                 OR COALESCE(distance_m, 0) > 0 THEN 1 ELSE 0 END)
                       OR COALESCE(COUNT(distance_m) > 0 AND MAX(last_at) > MIN(first_at), 0),
                   COUNT(engine_s) > 0, COUNT(idle_s) > 0, COUNT(distance_m) > 0
            FROM asset_day WHERE day >= ? AND day <= ? GROUP BY asset_id
            """, arguments: [request.period.from.description, request.period.to.description]) {
            out[row[0]] = AssetUsage(distanceM: row[1], engineS: row[2], idleS: row[3], fuelML: row[4], daysOperated: row[5],
                                     measured: row[6], engineKnown: row[7], idleKnown: row[8], distanceKnown: row[9])
        }
        return out
    }
}
