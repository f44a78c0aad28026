import FleetCore
import FleetWarehouse

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
    static func schedules(_ reader: any WarehouseReader, for asset: AssetInfo, assetGroup: String?) throws -> [Schedule] {
        var best: [String: (rank: Int, schedule: Schedule)] = [:]
        try reader.forEach("""
            SELECT id, service_type, asset_id, asset_group, every_days, every_months, every_m, every_engine_s, soon_days, soon_m, soon_engine_s
            FROM service_schedule WHERE asset_id = ? OR asset_group = ? OR (asset_id IS NULL AND asset_group IS NULL) ORDER BY id
            """, [.integer(asset.id), assetGroup.map(WarehouseArgument.text) ?? .null]) { r in
            let group: String? = try r[3]
            let rank = (try r[2] as Int64?) != nil ? 0 : group != nil ? 1 : 2
            let scope = rank == 0 ? "unit" : rank == 1 ? "group \(group!)" : "fleet"
            let s = Schedule(id: try r[0], serviceType: try r[1], scope: scope, everyDays: try r[4], everyMonths: try r[5], everyM: try r[6], everyEngineS: try r[7],
                             soonDays: try r[8], soonM: try r[9], soonEngineS: try r[10])
            if let b = best[s.serviceType], b.rank <= rank { return }
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
    /// reported something in the window). Records at the same instant are told apart by the
    /// later record (the higher id) or the larger odometer, so both engines pick the same one.
    static func fetch(_ reader: any WarehouseReader, asset: Int64, asOfEnd: Int64, asOf: CivilDate) throws -> MeterState {
        let end = WarehouseArgument.instant(asOfEnd)
        func latest(_ meter: String) throws -> Double? {
            try reader.value("SELECT value FROM meter_reading WHERE asset_id = ? AND meter = ? AND at < ? ORDER BY at DESC LIMIT 1",
                             [.integer(asset), .text(meter), end], as: Double.self)
        }
        var state = MeterState(odometerM: try latest("odometer"), engineS: try latest("engine_hours"))
        // No telematics odometer: the last odometer written on a service or fuel record.
        if state.odometerM == nil {
            state.odometerM = try reader.value("""
                SELECT odometer_m FROM (
                    SELECT performed_at AS at, odometer_m FROM maintenance_record WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND performed_at < ?2
                    UNION ALL SELECT at, odometer_m FROM fuel_purchase WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND at < ?2
                    UNION ALL SELECT signed_at, odometer_m FROM dvir WHERE asset_id = ?1 AND odometer_m IS NOT NULL AND signed_at < ?2) AS recorded
                ORDER BY at DESC, odometer_m DESC LIMIT 1
                """, [.integer(asset), end], as: Double.self)
        }
        if state.engineS == nil {
            state.engineS = try reader.value("SELECT engine_s FROM maintenance_record WHERE asset_id = ? AND engine_s IS NOT NULL AND performed_at < ? ORDER BY performed_at DESC, id DESC LIMIT 1",
                                             [.integer(asset), end], as: Double.self)
        }
        if let row = try reader.all("SELECT COUNT(*), SUM(distance_m), SUM(engine_s) FROM asset_day WHERE asset_id = ? AND day > ? AND day <= ?",
                                    [.integer(asset), .text(asOf.adding(days: -30).description), .text(asOf.description)], { $0 }).first,
           (try row[0] as Int) > 0 {
            state.distancePerDay = (try row[1] as Double?).map { $0 / 30 }
            state.engineSPerDay = (try row[2] as Double?).map { $0 / 30 }
        }
        return state
    }
}
