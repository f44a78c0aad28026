import GRDB
import FleetCore

/// Where one asset stands against one service schedule on the as-of date.
struct MaintenanceDue {
    var asset: AssetInfo
    var schedule: Schedule
    var lastDone: (day: CivilDate, odometerM: Double?, engineS: Double?)?
    /// The baseline the next due point counts from: the last service, else the in-service date.
    var baselineDay: CivilDate?
    var currentOdometerM: Double?
    var currentEngineS: Double?
    var dueDay: CivilDate?
    var dueOdometerM: Double?
    var dueEngineS: Double?
    var status: String          // overdue | due_soon | ok | unknown
    var forecast: CivilDate?
    /// Which meter is reached first: date, distance or engine_hours.
    var firstReached: String?

    struct Schedule {
        var id: Int64
        var serviceType: String
        var scope: String
        var everyDays: Int?, everyMonths: Int?, everyM: Double?, everyEngineS: Double?
        var soonDays: Int?, soonM: Double?, soonEngineS: Double?
    }

    /// The schedules that apply to an asset: per service type, the asset's own schedule beats its
    /// group's, which beats the fleet-wide one.
    static func schedules(_ db: Database, for asset: AssetInfo, assetGroup: String?) throws -> [Schedule] {
        var best: [String: (rank: Int, schedule: Schedule)] = [:]
        for r in try Row.fetchAll(db, sql: """
            SELECT id, service_type, asset_id, asset_group, every_days, every_months, every_m, every_engine_s, soon_days, soon_m, soon_engine_s
            FROM service_schedule WHERE asset_id = ? OR asset_group = ? OR (asset_id IS NULL AND asset_group IS NULL) ORDER BY id
            """, arguments: [asset.id, assetGroup]) {
            let rank = (r[2] as Int64?) != nil ? 0 : (r[3] as String?) != nil ? 1 : 2
            let scope = rank == 0 ? "unit" : rank == 1 ? "group \(r[3] as String)" : "fleet"
            let s = Schedule(id: r[0], serviceType: r[1], scope: scope, everyDays: r[4], everyMonths: r[5], everyM: r[6], everyEngineS: r[7],
                             soonDays: r[8], soonM: r[9], soonEngineS: r[10])
            if let b = best[s.serviceType], b.rank <= rank { continue }
            // Engine-hour schedules apply to assets with an hour meter; distance ones to vehicles.
            best[s.serviceType] = (rank, s)
        }
        return best.values.map(\.schedule).sorted { $0.serviceType < $1.serviceType }
    }
}

/// An asset's meters as of a day, and its recent usage per day.
struct MeterState {
    var odometerM: Double?
    var engineS: Double?
    var distancePerDay: Double?
    var engineSPerDay: Double?

    /// Latest readings at or before the end of `asOf`; usage per day is the average over the 30
    /// local days ending on `asOf` (days without data count as zero use only when the asset
    /// reported something in the window).
    static func fetch(_ db: Database, asset: Int64, asOfEnd: Int64, asOf: CivilDate) throws -> MeterState {
        func latest(_ meter: String) throws -> Double? {
            try Double.fetchOne(db, sql: "SELECT value FROM meter_reading WHERE asset_id = ? AND meter = ? AND at < ? ORDER BY at DESC LIMIT 1",
                                arguments: [asset, meter, asOfEnd])
        }
        var state = MeterState(odometerM: try latest("odometer"), engineS: try latest("engine_hours"))
        // No telematics odometer: the last odometer written on a service or fuel record.
        if state.odometerM == nil {
            state.odometerM = try Double.fetchOne(db, sql: """
                SELECT odometer_m FROM (
                    SELECT performed_at AS at, odometer_m FROM maintenance_record WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND performed_at < ?2
                    UNION ALL SELECT at, odometer_m FROM fuel_purchase WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND at < ?2
                    UNION ALL SELECT signed_at, odometer_m FROM dvir WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND signed_at < ?2)
                ORDER BY at DESC LIMIT 1
                """, arguments: [asset, asOfEnd])
        }
        if state.engineS == nil {
            state.engineS = try Double.fetchOne(db, sql: "SELECT engine_s FROM maintenance_record WHERE asset_id = ? AND engine_s IS NOT NULL AND performed_at < ? ORDER BY performed_at DESC LIMIT 1",
                                                arguments: [asset, asOfEnd])
        }
        if let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), SUM(distance_m), SUM(engine_s) FROM asset_day WHERE asset_id = ? AND day > ? AND day <= ?",
                                      arguments: [asset, asOf.adding(days: -30).description, asOf.description]), (row[0] as Int) > 0 {
            state.distancePerDay = (row[1] as Double?).map { $0 / 30 }
            state.engineSPerDay = (row[2] as Double?).map { $0 / 30 }
        }
        return state
    }
}
