import FleetCore
import FleetWarehouse

/// The local days each driver drove each vehicle of a report, with what shows it: the evidence
/// the driver-qualification rules judge (docs/METRICS.md, "Driver qualification").
///
/// A driver drove a vehicle on a local day when that day has a DVIR of the vehicle they signed,
/// a trip of the vehicle attributed to them (by its start), an assignment of them to the
/// vehicle covering the day on which the vehicle operated (the operated-day rule), or an HOS
/// `driving` duty-status interval (49 CFR 395.8) covering part of the day. Only the report's
/// vehicles and the days of its period count; an HOS interval naming no vehicle counts, under
/// `unnamedVehicle`, in a report of the whole fleet.
struct DrivingDays {
    /// driver → asset → day → what shows the driver drove the asset that day.
    var days: [Int64: [Int64: [CivilDate: [String]]]] = [:]
    /// The unit of each asset key: the report's vehicles, and `unnamedVehicle` when it counts.
    var units: [Int64: String] = [:]

    /// The asset key of HOS driving that names no vehicle (no asset has id 0).
    static let unnamedVehicle: Int64 = 0

    static func fetch(_ reader: any WarehouseReader, _ request: ReportRequest, units: [Int64: String], operated: [Int64: Set<CivilDate>]) throws -> DrivingDays {
        var out = DrivingDays()
        out.units = units
        if request.assets?.isEmpty ?? true { out.units[unnamedVehicle] = "no vehicle named (HOS)" }
        func note(_ driver: Int64, _ asset: Int64, _ day: CivilDate, _ what: String) {
            guard out.units[asset] != nil, day >= request.period.from, day <= request.period.to else { return }
            out.days[driver, default: [:]][asset, default: [:]][day, default: []].append(what)
        }
        // Each day's evidence is in time order (then record order), on both engines.
        let period: [WarehouseArgument] = [.instant(request.start), .instant(request.end)]
        try reader.forEach("SELECT driver_id, asset_id, signed_at, source_key FROM dvir WHERE driver_id IS NOT NULL AND signed_at >= ? AND signed_at < ? ORDER BY signed_at, id",
                           period) { r in
            note(try r[0], try r[1], request.zone.day(of: try r[2]), "DVIR \(DVIRChain.dvirLabel(try r[3]))")
        }
        try reader.forEach("SELECT driver_id, asset_id, start_at FROM trip WHERE driver_id IS NOT NULL AND start_at >= ? AND start_at < ? ORDER BY start_at, id",
                           period) { r in
            let start: Int64 = try r[2]
            note(try r[0], try r[1], request.zone.day(of: start), "trip \(ZonedTime(start, in: request.zone.timeZone).display)")
        }
        try reader.forEach("SELECT driver_id, asset_id, start_at, end_at FROM assignment WHERE start_at < ? AND (end_at IS NULL OR end_at > ?) ORDER BY id",
                           [.instant(request.end), .instant(request.start)]) { r in
            let driver: Int64 = try r[0], asset: Int64 = try r[1], start: Int64 = try r[2], end: Int64? = try r[3]
            for day in operated[asset] ?? [] where start < request.zone.start(of: day.adding(days: 1)) && (end.map { $0 > request.zone.start(of: day) } ?? true) {
                note(driver, asset, day, "assigned, vehicle operated")
            }
        }
        // A driving interval counts on each local day from its start to just before its end; one
        // still open (no end) on its start day only. Yard moves and personal conveyance are
        // their own statuses, not driving. A warehouse opened read-only before v14-hos-logs has
        // no such table: no HOS evidence.
        // An open interval (no end) reaches its start's millisecond: `start_at >= ?` says
        // `start_at + 1 > ?` without arithmetic on a time, which PostgreSQL's timestamptz refuses.
        guard try reader.tableExists("hos_log") else { return out }
        try reader.forEach("""
            SELECT driver_id, asset_id, start_at, end_at FROM hos_log
            WHERE status = 'driving' AND start_at < ?1 AND (end_at > ?2 OR (end_at IS NULL AND start_at >= ?2)) ORDER BY start_at, id
            """, [.instant(request.end), .instant(request.start)]) { r in
            let driver: Int64 = try r[0], start: Int64 = try r[2], end: Int64? = try r[3]
            let asset: Int64 = (try r[1] as Int64?) ?? unnamedVehicle
            var day = max(request.zone.day(of: start), request.period.from)
            let last = min(request.zone.day(of: max(start, (end ?? start + 1) - 1)), request.period.to)
            let what = "HOS driving from \(ZonedTime(start, in: request.zone.timeZone).display)"
            while day <= last {
                note(driver, asset, day, what)
                day = day.adding(days: 1)
            }
        }
        return out
    }

    /// The evidence text of some days: up to `limit` days listed, the rest counted.
    static func evidence(_ days: [(key: CivilDate, value: [String])], limit: Int = 10) -> String {
        days.prefix(limit).map { "\($0.key) " + $0.value.joined(separator: ", ") }.joined(separator: "; ")
            + (days.count > limit ? "; … \(days.count - limit) more day(s)" : "")
    }
}
