import GRDB
import FleetCore

/// Trip detection fed with a file's positions while they load, so that the derivation after
/// the load does not read them back: for a 1 M-point GPX file, stepping through the stored
/// positions again was most of the 0.25 s derivation left on the loading thread.
///
/// Exact, or not used. Trip detection over the warehouse after the load starts from the end
/// of the last stored trip safely before the file (`TripDetection.start`) and steps through
/// every stored position and signal after it. A stream gives the same run only if it starts
/// in that state and then sees exactly those facts, so it is begun (before the file's first
/// row is stored) only when:
/// - the asset has no stored position at or after the file's first point, so that the stored
///   positions after the starting point are the ones before the file, read here, and then the
///   file's;
/// - it has no engine event or OBD RPM/speed sample after the starting point, so that there is
///   nothing to interleave, and no odometer or engine-hours reading after it, so that no GPS gap
///   can be bridged by the meters (GapEvidence: a bridge needs a reading after the gap).
///
/// Its run is used (`result`) only if, once the file is loaded, the file's positions came in
/// strictly increasing time, every one was stored as a new row in a batch (the sink stops the
/// asset's stream otherwise, `WarehouseSink.load(contentsOf:)`), and the span the file touched, the starting point, the rules and
/// the zone are the recompute's. Otherwise trip detection reads the positions back, as
/// without it. A test imports files both ways and compares `trip` and `asset_day`.
///
/// `add` runs on a thread of its own (`TripFeed`) while the loading thread stores the same
/// positions: the value is handed over whole and only one thread uses it at a time.
public struct TripStream: @unchecked Sendable {
    public let asset: Int64
    let firstAt: Int64, from: Int64
    let rules: TripRules, zone: FleetZone
    private var run: TripRun
    private var days: DayPathTracker?
    private var paths: DayPaths?
    /// The last position added, and how many.
    public private(set) var lastAt = Int64.min, count = 0
    /// False once a position came out of order (or the run failed): the stream is then unusable.
    public private(set) var usable = true
    private var finished = false

    /// Begins a stream for `asset`'s positions from `firstAt` on, or returns nil when the
    /// warehouse does not allow an exact one (see the type's comment). Call it before storing
    /// any of the file's positions.
    public init?(_ db: Database, asset: Int64, firstAt: Int64, settings: DeriveSettings) throws {
        let later = try CachedQuery.int64(db, "SELECT 1 FROM position WHERE asset_id = ? AND at >= ? LIMIT 1") {
            $0.bind(asset); $0.bind(firstAt)
        }
        guard later == nil else { return nil }
        var run = TripRun(rules: settings.trips)
        run.zone = settings.zone
        let from = try TripDetection.start(db, asset: asset, lower: firstAt, run: &run)
        let signal = try CachedQuery(db, TripRun.signalsSQL) { $0.bind(asset); $0.bind(from) }
        defer { signal.reset() }
        guard try !signal.step(), try !Self.hasMeters(db, asset: asset, after: from) else { return nil }
        // The stored positions between the starting point and the file (none are later).
        var days = run.dayTracker(from: from)
        guard try run.step(db, asset: asset, from: from, days: &days) == nil else { return nil }
        (self.asset, self.firstAt, self.from, self.rules, self.zone) = (asset, firstAt, from, settings.trips, settings.zone)
        (self.run, self.days) = (run, days)
    }

    /// The file's next position, in the order the file gives them.
    public mutating func add(_ p: Position) {
        guard usable, !finished else { return }
        guard p.assetID == asset, p.at > lastAt, count > 0 || p.at == firstAt else { usable = false; return }
        // The run can only stop, or throw, where it meets a stored trip after the file (`onTrip`),
        // and there is none. Should it do either, the stream is not used: trip detection then
        // reads the positions back, so nothing is lost but time.
        do {
            if try run.stream(at: p.at, lat: p.lat, lon: p.lon, speed: p.speedMps, days: &days) { usable = false }
        } catch {
            usable = false
        }
        lastAt = p.at
        count += 1
    }

    /// Ends the run after the file's last position.
    public mutating func finish() {
        guard usable, !finished else { return }
        finished = true
        do { paths = try run.end(days: &days) } catch { usable = false }
    }

    /// The trips and day GPS figures, when this stream is exactly the recompute of `span` from
    /// `from` with these rules and zone, and still no signal follows `from` (none was loaded
    /// with the file).
    func result(_ db: Database, span: ClosedRange<Int64>, from: Int64, rules: TripRules,
                zone: FleetZone?) throws -> (trips: [TripRun.Found], paths: DayPaths?)? {
        guard usable, finished, count > 0, span == firstAt...lastAt, from == self.from, rules == self.rules,
              let zone, zone.identifier == self.zone.identifier else { return nil }
        let signal = try CachedQuery(db, TripRun.signalsSQL) { $0.bind(asset); $0.bind(from) }
        defer { signal.reset() }
        return try signal.step() || Self.hasMeters(db, asset: asset, after: from) ? nil : (run.trips, paths)
    }

    /// Whether the asset has an odometer or engine-hours reading after `from`.
    static func hasMeters(_ db: Database, asset: Int64, after from: Int64) throws -> Bool {
        try CachedQuery.int64(db, "SELECT 1 FROM meter_reading WHERE asset_id = ? AND meter IN ('odometer', 'engine_hours') AND at > ? LIMIT 1") {
            $0.bind(asset); $0.bind(from)
        } != nil
    }
}
