import Foundation
import GRDB
import GRDBSQLite
import FleetCore

/// Builds `asset_day`: per asset and local day of the fleet time zone, distance, engine time,
/// idle time, fuel, first and last report, and trips. docs/METRICS.md defines each figure.
///
/// Cumulative meters are turned into deltas between consecutive readings, and each delta is
/// spread over the local days its interval covers in proportion to time. A delta that goes
/// backwards (a counter reset or a swapped unit) or rises faster than any asset can is not
/// summed; it is recorded in `meter_anomaly` for the data-quality tables.
public struct DailyRollup: Deriver {
    public let name = "daily-rollup"
    public init() {}

    /// Meter → asset_day column, and the fastest plausible rise per second of elapsed time.
    static let meters: [(meter: String, column: String, maxPerSecond: Double)] = [
        ("odometer", "distance_m", 70),        // 252 km/h
        ("engine_hours", "engine_s", 1.05),    // an hour meter cannot outrun the clock (5 % skew allowed)
        ("idle_hours", "idle_s", 1.05),
        ("fuel_used", "fuel_ml", 150),         // 540 L/h, above the largest haul trucks' burn
    ]

    public func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws {
        let zone = settings.zone
        let assets = Set(touched.ranges.keys).union(touched.whole).sorted()
        for asset in assets {
            var span: ClosedRange<Int64>
            if touched.whole.contains(asset) {
                guard let s = try Self.fullSpan(db, asset) else {
                    try db.execute(sql: "DELETE FROM asset_day WHERE asset_id = ?", arguments: [asset])
                    try db.execute(sql: "DELETE FROM meter_anomaly WHERE asset_id = ?", arguments: [asset])
                    continue
                }
                span = s
                try db.execute(sql: "DELETE FROM asset_day WHERE asset_id = ?", arguments: [asset])
            } else {
                span = touched.ranges[asset]!
            }
            // A reading's delta reaches back to the previous reading of the same meter and forward
            // to the next one; the earliest and latest of those over all meters bound the days.
            let before = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT MIN(prev) FROM (SELECT MAX(at) AS prev FROM meter_reading WHERE asset_id = ? AND at < ? GROUP BY meter)
                """), arguments: [asset, span.lowerBound])
            let after = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT MAX(next) FROM (SELECT MIN(at) AS next FROM meter_reading WHERE asset_id = ? AND at > ? GROUP BY meter)
                """), arguments: [asset, span.upperBound])
            // A day's GPS path starts from the last position before the day, so a position added
            // or changed at the end of the span moves the start of the day of the next position.
            let nextFix = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MIN(at) FROM position WHERE asset_id = ? AND at > ?"),
                                             arguments: [asset, span.upperBound])
            span = min(span.lowerBound, before ?? span.lowerBound)...max(span.upperBound, after ?? span.upperBound, nextFix ?? span.upperBound)
            try recompute(db, asset: asset, days: zone.day(of: span.lowerBound)...zone.day(of: span.upperBound), zone: zone)
        }
    }

    static func fullSpan(_ db: Database, _ asset: Int64) throws -> ClosedRange<Int64>? {
        let row = try Row.fetchOne(db, sql: """
            SELECT MIN(lo), MAX(hi) FROM (
                SELECT MIN(at) lo, MAX(at) hi FROM meter_reading WHERE asset_id = ?1
                UNION ALL SELECT MIN(at), MAX(at) FROM position WHERE asset_id = ?1
                UNION ALL SELECT MIN(at), MAX(at) FROM engine_event WHERE asset_id = ?1
                UNION ALL SELECT MIN(start_at), MAX(end_at) FROM trip WHERE asset_id = ?1)
            """, arguments: [asset])
        guard let lo: Int64 = row?[0], let hi: Int64 = row?[1] else { return nil }
        return lo...hi
    }

    private func recompute(_ db: Database, asset: Int64, days: ClosedRange<CivilDate>, zone: FleetZone) throws {
        var grid = DayGrid(days: days, zone: zone)
        try db.cachedStatement(sql: "DELETE FROM meter_anomaly WHERE asset_id = ? AND at >= ? AND at < ?")
            .execute(arguments: [asset, grid.windowStart, grid.windowEnd])
        for m in Self.meters {
            // Read in batches: a year of 1 Hz readings must not sit in memory at once, and the
            // anomaly writes must not interleave with an open cursor on the same table.
            var pairs: [(Reading, Reading)] = []
            var previous: Reading? = nil
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT at, value FROM meter_reading WHERE asset_id = ?1 AND meter = ?2
                  AND at >= COALESCE((SELECT MAX(at) FROM meter_reading WHERE asset_id = ?1 AND meter = ?2 AND at < ?3), ?3)
                  AND at <= COALESCE((SELECT MIN(at) FROM meter_reading WHERE asset_id = ?1 AND meter = ?2 AND at >= ?4), ?4)
                ORDER BY at
                """), arguments: [asset, m.meter, grid.windowStart, grid.windowEnd])
            var anomalies: [(Reading, Reading, String)] = []
            while let row = try cursor.next() {
                let current = Reading(at: row[0], value: row[1])
                if let p = previous { pairs.append((p, current)) }
                previous = current
                if pairs.count >= 4096 { anomalies += spread(pairs, meter: m, grid: &grid); pairs.removeAll(keepingCapacity: true) }
            }
            anomalies += spread(pairs, meter: m, grid: &grid)
            for (a, b, kind) in anomalies where b.at >= grid.windowStart && b.at < grid.windowEnd {
                try db.cachedStatement(sql: """
                    INSERT INTO meter_anomaly (asset_id, meter, at, previous_at, previous_value, value, kind) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET previous_at = excluded.previous_at, previous_value = excluded.previous_value,
                        value = excluded.value, kind = excluded.kind
                    """).execute(arguments: [asset, m.meter, b.at, a.at, a.value, b.value, kind])
            }
        }
        try fillFallbacks(db, asset: asset, grid: &grid)
        try grid.write(db, asset: asset)
    }

    struct Reading { var at: Int64; var value: Double }

    /// Adds consecutive-reading deltas to the grid and returns the ones refused.
    private func spread(_ pairs: [(Reading, Reading)], meter m: (meter: String, column: String, maxPerSecond: Double),
                        grid: inout DayGrid) -> [(Reading, Reading, String)] {
        var refused: [(Reading, Reading, String)] = []
            for (a, b) in pairs {
                let delta = b.value - a.value
                let seconds = Double(b.at - a.at) / 1000
                var anomaly: String? = nil
                if delta < 0 { anomaly = "rollback" } else if delta > m.maxPerSecond * max(seconds, 60) { anomaly = "implausible_rate" }
                if let anomaly {
                    refused.append((a, b, anomaly))
                    continue
                }
                grid.spread(delta, from: a.at, to: b.at, into: m.column)
            }
        return refused
    }

    /// Days without odometer coverage take the GPS path length, else the trips' distance; days
    /// without an hour meter take engine on/off events.
    private func fillFallbacks(_ db: Database, asset: Int64, grid: inout DayGrid) throws {
        // Every position of the window is read back (a million for a large GPX file): stepped on
        // the raw statement, as TripRun.feed does, instead of decoding a GRDB Row per position.
        let positions = try db.cachedStatement(sql: "SELECT at, lat, lon FROM position WHERE asset_id = ? AND at >= ? AND at < ? ORDER BY at")
        try positions.setArguments([asset, grid.windowStart, grid.windowEnd])
        let ps = positions.sqliteStatement
        defer { sqlite3_reset(ps) }
        // Each day's path is its own, anchored at the last position before the day (in the
        // window or looked up before it): the figure depends on that fix and the day's, not on
        // where the window starts, and the leg across midnight counts on the day it ends in.
        var last = try Row.fetchOne(db.cachedStatement(sql: "SELECT at, lat, lon FROM position WHERE asset_id = ? AND at < ? ORDER BY at DESC LIMIT 1"),
                                    arguments: [asset, grid.windowStart]).map { (at: $0[0] as Int64, lat: $0[1] as Double, lon: $0[2] as Double) }
        var path = GPSPath()
        var dayEnd = grid.windowStart
        while true {
            let rc = sqlite3_step(ps)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: positions.sql)
            }
            let at = sqlite3_column_int64(ps, 0), lat = sqlite3_column_double(ps, 1), lon = sqlite3_column_double(ps, 2)
            grid.seen(at)
            if at >= dayEnd, let i = grid.index(at) {
                dayEnd = grid.bounds[i + 1]
                path = last.map { GPSPath(anchor: $0.at, lat: $0.lat, lon: $0.lon) } ?? GPSPath()
            }
            if let metres = path.add(at: at, lat: lat, lon: lon) { grid.addGPS(metres, at: at) }
            last = (at, lat, lon)
        }
        // The first and last report of each hour are enough to find each day's first and last.
        let seen = try Row.fetchCursor(db.cachedStatement(sql: "SELECT MIN(at), MAX(at) FROM meter_reading WHERE asset_id = ? AND at >= ? AND at < ? GROUP BY at / 3600000"),
                                       arguments: [asset, grid.windowStart, grid.windowEnd])
        while let r = try seen.next() {
            grid.seen(r[0] as Int64)
            grid.seen(r[1] as Int64)
        }
        for t in try Row.fetchAll(db, sql: "SELECT start_at, distance_m, idle_s FROM trip WHERE asset_id = ? AND start_at >= ? AND start_at < ?",
                                  arguments: [asset, grid.windowStart, grid.windowEnd]) {
            grid.addTrip(at: t[0], distance: t[1], idle: t[2])
        }
        var onSince: Int64? = nil
        for e in try Row.fetchAll(db, sql: "SELECT at, state FROM engine_event WHERE asset_id = ? AND at >= ? AND at < ? ORDER BY at",
                                  arguments: [asset, grid.windowStart - 86_400_000, grid.windowEnd]) {
            let at: Int64 = e[0], state: String = e[1]
            if state == "off" {
                if let on = onSince { grid.spreadEngineEvents(from: max(on, grid.windowStart), to: at) }
                onSince = nil
            } else if onSince == nil {
                onSince = at
            }
        }
    }
}
