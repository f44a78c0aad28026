import GRDB
import FleetCore
import FleetWarehouse

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
    static func fetchAll(_ db: Database, _ request: ReportRequest) throws -> [AssetInfo] { try fetchAll(SQLiteReader(db), request) }

    static func fetchAll(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> [AssetInfo] {
        let filter = request.assetFilter()
        let label = "COALESCE(a.unit_number, a.vin, a.pin, a.name, 'asset #' || a.id)"
        return try reader.all("""
            SELECT a.id, \(label), a.name, a.kind, a.asset_group,
                   a.cost_center, a.department, a.target_hours_per_week, a.auto_created
            FROM asset a WHERE \(filter.sql) ORDER BY \(reader.dialect.ascending(label, text: true))
            """, filter.arguments.map(WarehouseArgument.text)) {
            AssetInfo(id: try $0[0], unit: try $0[1], name: try $0[2], kind: try $0[3], group: try $0[4], costCenter: try $0[5], department: try $0[6],
                      targetHoursPerWeek: try $0[7], autoCreated: try $0[8])
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
    static func fetch(_ db: Database, _ request: ReportRequest) throws -> [Int64: AssetUsage] { try fetch(SQLiteReader(db), request) }

    /// The "measured" flag is one truth value of an integer and a comparison, so it is written
    /// `CASE WHEN … THEN 1 ELSE 0 END`, which both engines read alike (`WarehouseReader`).
    static func fetch(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> [Int64: AssetUsage] {
        var out: [Int64: AssetUsage] = [:]
        try reader.forEach("""
            SELECT asset_id, SUM(COALESCE(distance_m, 0)), SUM(COALESCE(engine_s, 0)), SUM(COALESCE(idle_s, 0)), SUM(COALESCE(fuel_ml, 0)),
                   SUM(CASE WHEN COALESCE(distance_m, 0) > 500 OR COALESCE(engine_s, 0) > 360 THEN 1 ELSE 0 END),
                   CASE WHEN MAX(CASE WHEN engine_s IS NOT NULL OR idle_s IS NOT NULL OR fuel_ml IS NOT NULL OR distance_method IN ('odometer', 'trips')
                                          OR COALESCE(distance_m, 0) > 0 THEN 1 ELSE 0 END) = 1
                             OR (COUNT(distance_m) > 0 AND MAX(last_at) > MIN(first_at)) THEN 1 ELSE 0 END,
                   COUNT(engine_s) > 0, COUNT(idle_s) > 0, COUNT(distance_m) > 0
            FROM asset_day WHERE day >= ? AND day <= ? GROUP BY asset_id
            """, [.text(request.period.from.description), .text(request.period.to.description)]) { row in
            out[try row[0]] = AssetUsage(distanceM: try row[1], engineS: try row[2], idleS: try row[3], fuelML: try row[4], daysOperated: try row[5],
                                         measured: try row[6], engineKnown: try row[7], idleKnown: try row[8], distanceKnown: try row[9])
        }
        return out
    }
}
