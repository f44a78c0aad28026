import Foundation
import GRDB
import GRDBSQLite
import FleetCore

/// Builds `asset_day`: per asset and local day of the fleet time zone, distance, engine time,
/// idle time, fuel, first and last report, and trips. docs/METRICS.md defines each figure.
///
/// Cumulative meters are turned into deltas between consecutive readings, and each delta is
/// spread over the local days its interval covers in proportion to time. A delta that goes
/// backwards (a counter reset or a swapped unit) or rises faster than any asset can, allowing
/// for the meter's resolution (MeterRule), is not summed; it is recorded in `meter_anomaly`
/// for the data-quality tables.
public struct DailyRollup: ScratchDeriver {
    public let name = "daily-rollup"
    public init() {}

    public func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws {
        try refresh(db, touched: &touched, settings: settings, scratch: DeriveScratch())
    }

    /// Takes the day GPS figures trip detection left in `scratch` instead of reading those
    /// days' positions again.
    func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings, scratch: DeriveScratch) throws {
        let zone = settings.zone
        let assets = Set(touched.ranges.keys).union(touched.whole).sorted()
        for asset in assets {
            let paths = scratch.dayPaths.removeValue(forKey: asset).flatMap { $0.zone == zone.identifier ? $0 : nil }
            var span: ClosedRange<Int64>
            if touched.whole.contains(asset) {
                guard let s = try Self.fullSpan(db, asset) else {
                    try CachedQuery.execute(db, "DELETE FROM asset_day WHERE asset_id = ?") { $0.bind(asset) }
                    try CachedQuery.execute(db, "DELETE FROM meter_anomaly WHERE asset_id = ?") { $0.bind(asset) }
                    continue
                }
                span = s
                try CachedQuery.execute(db, "DELETE FROM asset_day WHERE asset_id = ?") { $0.bind(asset) }
            } else {
                span = touched.ranges[asset]!
            }
            // A reading's delta reaches back to the previous reading of the same meter and forward
            // to the next one; the earliest and latest of those over all meters bound the days.
            let (lower, upper) = (span.lowerBound, span.upperBound)
            // Per meter by index seeks (one per meter the table allows), not `GROUP BY meter` over
            // every earlier reading: that scanned the asset's whole history once per file, so each
            // weekly page of a year cost more than the last.
            let before = try CachedQuery.int64(db, Self.previousReadingSQL) { $0.bind(asset); $0.bind(lower) }
            let after = try CachedQuery.int64(db, Self.nextReadingSQL) { $0.bind(asset); $0.bind(upper) }
            // A day's GPS path starts from the last position before the day, so a position added
            // or changed at the end of the span moves the start of the day of the next position.
            let nextFix = try CachedQuery.int64(db, "SELECT MIN(at) FROM position WHERE asset_id = ? AND at > ?") { $0.bind(asset); $0.bind(upper) }
            // A catch-up step after a held value spreads over up to MeterRule.maxHoldMillis before
            // it, and a reading inside a held run moves where the run's catch-up spreads: the
            // days that far either side change too.
            let hold = MeterRule.maxHoldMillis
            span = min(span.lowerBound - hold, before ?? span.lowerBound)...max(span.upperBound + hold, after ?? span.upperBound, nextFix ?? span.upperBound)
            try recompute(db, asset: asset, days: zone.day(of: span.lowerBound)...zone.day(of: span.upperBound), zone: zone, paths: paths)
        }
    }

    /// Every value `meter_reading.meter` may hold (the table's CHECK constraint;
    /// DailyRollupTests compares the two).
    static let meters = ["odometer", "engine_hours", "idle_hours", "fuel_used", "fuel_level", "def_level"]

    /// The aggregate `fn` over one scalar subquery per meter (the asset ?1's reading of that
    /// meter picked by `inner` and `comparison` against ?2), one index seek each. Meters the
    /// asset has no reading of give NULL, which the aggregate skips. Why not a recursive CTE
    /// listing the asset's meters: SQLite builds a temporary b-tree for the CTE's queue on
    /// every run, which cost about twice the seeks themselves, twice per asset and file
    /// (BENCHMARKS.md, round 4).
    static func perMeter(_ fn: String, _ inner: String, _ comparison: String) -> String {
        "SELECT \(fn)(x) FROM (" + meters.map {
            "SELECT (SELECT \(inner)(at) FROM meter_reading WHERE asset_id = ?1 AND meter = '\($0)' AND at \(comparison) ?2) AS x"
        }.joined(separator: " UNION ALL ") + ")"
    }
    /// The earliest of the asset's (?1) per-meter last readings before ?2.
    static let previousReadingSQL = perMeter("MIN", "MAX", "<")
    /// The latest of the asset's (?1) per-meter first readings after ?2.
    static let nextReadingSQL = perMeter("MAX", "MIN", ">")

    static func fullSpan(_ db: Database, _ asset: Int64) throws -> ClosedRange<Int64>? {
        let q = try CachedQuery(db, """
            SELECT MIN(lo), MAX(hi) FROM (
                SELECT MIN(at) lo, MAX(at) hi FROM meter_reading WHERE asset_id = ?1
                UNION ALL SELECT MIN(at), MAX(at) FROM position WHERE asset_id = ?1
                UNION ALL SELECT MIN(at), MAX(at) FROM engine_event WHERE asset_id = ?1
                UNION ALL SELECT MIN(start_at), MAX(end_at) FROM trip WHERE asset_id = ?1)
            """) { $0.bind(asset) }
        defer { q.reset() }
        guard try q.step(), let lo = q.optionalInt64(0), let hi = q.optionalInt64(1) else { return nil }
        return lo...hi
    }

    private func recompute(_ db: Database, asset: Int64, days: ClosedRange<CivilDate>, zone: FleetZone, paths: DayPaths?) throws {
        var grid = DayGrid(days: days, zone: zone)
        let (windowStart, windowEnd) = (grid.windowStart, grid.windowEnd)
        try CachedQuery.execute(db, "DELETE FROM meter_anomaly WHERE asset_id = ? AND at >= ? AND at < ?") {
            $0.bind(asset); $0.bind(windowStart); $0.bind(windowEnd)
        }
        for m in MeterRule.all {
            // Read in batches: a year of 1 Hz readings must not sit in memory at once, and the
            // anomaly writes must not interleave with an open cursor on the same table.
            var pairs: [(Reading, Reading, Int64)] = []
            var previous: Reading? = nil
            // The first reading of the run of equal values ending with `previous` (a held value).
            var heldSince: Int64 = 0
            // Stepped raw: every reading of the window is read back, and a GRDB Row per reading
            // cost more than the arithmetic.
            let cursor = try CachedQuery(db, """
                SELECT at, value FROM meter_reading WHERE asset_id = ?1 AND meter = ?2
                  AND at >= COALESCE((SELECT MAX(at) FROM meter_reading WHERE asset_id = ?1 AND meter = ?2 AND at < ?3), ?3)
                  AND at <= COALESCE((SELECT MIN(at) FROM meter_reading WHERE asset_id = ?1 AND meter = ?2 AND at >= ?4), ?4)
                ORDER BY at
                """) {
                // A catch-up step reaches back over its held run (at most MeterRule.maxHoldMillis):
                // read from a reading that far before the window, and up to one that far after it,
                // so every step spread into the window's days, and where its held run began, is seen.
                $0.bind(asset); $0.bind(m.meter); $0.bind(windowStart - MeterRule.maxHoldMillis); $0.bind(windowEnd + MeterRule.maxHoldMillis)
            }
            defer { cursor.reset() }
            var anomalies: [(Reading, Reading, String)] = []
            while try cursor.step() {
                let current = Reading(at: cursor.int64(0), value: cursor.double(1))
                if let p = previous {
                    pairs.append((p, current, heldSince))
                    if current.value != p.value { heldSince = current.at }
                } else {
                    heldSince = current.at
                }
                previous = current
                if pairs.count >= 4096 { anomalies += spread(pairs, meter: m, grid: &grid); pairs.removeAll(keepingCapacity: true) }
            }
            anomalies += spread(pairs, meter: m, grid: &grid)
            cursor.reset()
            for (a, b, kind) in anomalies where b.at >= grid.windowStart && b.at < grid.windowEnd {
                try CachedQuery.execute(db, """
                    INSERT INTO meter_anomaly (asset_id, meter, at, previous_at, previous_value, value, kind) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET previous_at = excluded.previous_at, previous_value = excluded.previous_value,
                        value = excluded.value, kind = excluded.kind
                    """) { $0.bind(asset); $0.bind(m.meter); $0.bind(b.at); $0.bind(a.at); $0.bind(a.value); $0.bind(b.value); $0.bind(kind) }
            }
        }
        try fillFallbacks(db, asset: asset, grid: &grid, paths: paths)
        try grid.write(db, asset: asset)
    }

    struct Reading { var at: Int64; var value: Double }

    /// Adds consecutive-reading deltas to the grid and returns the ones refused.
    /// A catch-up after a held value is spread over the held interval (`MeterRule.judge`).
    private func spread(_ pairs: [(Reading, Reading, Int64)], meter m: MeterRule, grid: inout DayGrid) -> [(Reading, Reading, String)] {
        var refused: [(Reading, Reading, String)] = []
            for (a, b, heldSince) in pairs {
                let step = m.judge(from: (a.at, a.value), to: (b.at, b.value), heldSince: heldSince)
                if let anomaly = step.anomaly {
                    refused.append((a, b, anomaly))
                    continue
                }
                grid.spread(b.value - a.value, from: step.from, to: b.at, into: m.column)
            }
        return refused
    }

    /// Days without odometer coverage take the GPS path length, else the trips' distance; days
    /// without an hour meter take engine on/off events.
    private func fillFallbacks(_ db: Database, asset: Int64, grid: inout DayGrid, paths: DayPaths?) throws {
        let (windowStart, windowEnd) = (grid.windowStart, grid.windowEnd)
        // The days trip detection already summed (DayPaths) are taken as they are; only the
        // days of the window outside its cover are read here.
        var (coveredStart, coveredEnd) = (windowEnd, windowEnd)
        if let paths {
            let lo = max(windowStart, paths.coverStart), hi = min(windowEnd, paths.coverEnd)
            let days = paths.days.filter { $0.start >= lo && $0.start < hi }
            // Only when its days are the grid's days; otherwise (never expected) read them all.
            if lo < hi, grid.bounds.contains(lo), grid.bounds.contains(hi), days.allSatisfy({ grid.isDayStart($0.start) }) {
                (coveredStart, coveredEnd) = (lo, hi)
                for day in days { grid.addPathDay(day) }
            }
        }
        try addPositions(db, asset: asset, from: windowStart, to: coveredStart, grid: &grid)
        try addPositions(db, asset: asset, from: coveredEnd, to: windowEnd, grid: &grid)
        // The first and last report of each hour are enough to find each day's first and last.
        let seen = try CachedQuery(db, "SELECT MIN(at), MAX(at) FROM meter_reading WHERE asset_id = ? AND at >= ? AND at < ? GROUP BY at / 3600000") {
            $0.bind(asset); $0.bind(windowStart); $0.bind(windowEnd)
        }
        defer { seen.reset() }
        while try seen.step() {
            grid.seen(seen.int64(0))
            grid.seen(seen.int64(1))
        }
        let trips = try CachedQuery(db, "SELECT start_at, distance_m, idle_s FROM trip WHERE asset_id = ? AND start_at >= ? AND start_at < ?") {
            $0.bind(asset); $0.bind(windowStart); $0.bind(windowEnd)
        }
        defer { trips.reset() }
        while try trips.step() {
            grid.addTrip(at: trips.int64(0), distance: trips.optionalDouble(1), idle: trips.optionalDouble(2))
        }
        var onSince: Int64? = nil
        let events = try CachedQuery(db, "SELECT at, state = 'off' FROM engine_event WHERE asset_id = ? AND at >= ? AND at < ? ORDER BY at") {
            $0.bind(asset); $0.bind(windowStart - 86_400_000); $0.bind(windowEnd)
        }
        defer { events.reset() }
        while try events.step() {
            let at = events.int64(0)
            if events.int64(1) != 0 {
                if let on = onSince { grid.spreadEngineEvents(from: max(on, grid.windowStart), to: at) }
                onSince = nil
            } else if onSince == nil {
                onSince = at
            }
        }
    }

    /// The GPS figures of the days in `from..<to` (day starts of the grid) from the positions.
    private func addPositions(_ db: Database, asset: Int64, from: Int64, to: Int64, grid: inout DayGrid) throws {
        guard from < to else { return }
        // Each day's path is its own, anchored at the last position before the day (in the
        // range or looked up before it): the figure depends on that fix and the day's, not on
        // where the window starts, and the leg across midnight counts on the day it ends in.
        var last: (at: Int64, lat: Double, lon: Double, cos: Double)? = nil
        do {
            let q = try CachedQuery(db, "SELECT at, lat, lon FROM position WHERE asset_id = ? AND at < ? ORDER BY at DESC LIMIT 1") {
                $0.bind(asset); $0.bind(from)
            }
            defer { q.reset() }
            if try q.step() { last = (q.int64(0), q.double(1), q.double(2), Double.nan) }
        }
        // Every position of the range is read back (a million for a large GPX file): stepped on
        // the raw statement, as TripRun.feed does, instead of decoding a GRDB Row per position.
        let positions = try CachedQuery(db, "SELECT at, lat, lon FROM position WHERE asset_id = ? AND at >= ? AND at < ? ORDER BY at") {
            $0.bind(asset); $0.bind(from); $0.bind(to)
        }
        defer { positions.reset() }
        var path = GPSPath()
        var dayEnd = from
        while try positions.step() {
            let at = positions.int64(0), lat = positions.double(1), lon = positions.double(2)
            var c = Double.nan  // Geo.cosLat(lat), computed only if a distance needs it
            grid.seen(at)
            if at >= dayEnd, let i = grid.index(at) {
                dayEnd = grid.bounds[i + 1]
                path = last.map { GPSPath(anchor: $0.at, lat: $0.lat, lon: $0.lon, cos: $0.cos.isNaN ? Geo.cosLat($0.lat) : $0.cos) } ?? GPSPath()
            }
            if let metres = path.add(at: at, lat: lat, lon: lon, cos: &c, probe: .none) { grid.addGPS(metres, at: at) }
            last = (at, lat, lon, c)
        }
    }
}
