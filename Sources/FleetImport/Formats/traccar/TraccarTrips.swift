import Foundation
import FleetCore
import FleetWarehouse

/// Trip report rows (`/api/reports/trips`, Traccar's `ReportTrips` / `TripReportItem`) as `trip`
/// rows with source `traccar` (keyed by asset, start and source, so a re-saved report updates
/// them in place); summary report rows (`/api/reports/summary`) are counted, not stored.
///
/// Units as Traccar writes them (openapi.yaml `ReportTrips`; ReportUtils.calculateTrip):
/// `startTime`/`endTime` are the fix times of the trip's first and last positions; `distance`
/// is metres; `maxSpeed` and `averageSpeed` knots (stored max in m/s); `duration` and
/// `idleTime` milliseconds (`duration` = endTime − startTime; `idleTime` stored as idle seconds);
/// `startLat`/`startLon`/`endLat`/`endLon` degrees. `startOdometer`/`endOdometer` are the
/// device's odometer, or Traccar's own resettable `totalDistance` when the odometer is 0, so
/// they are checked, not stored as meter readings: an `endOdometer` below `startOdometer` is a
/// `meter_rollback` reject (Traccar's distance is their difference). `driverName`,
/// `driverUniqueId`, `spentFuel` and the addresses are not read.
extension TraccarReader {
    func trip(_ f: JSONFields, _ sink: inout S) throws {
        let id = try Self.deviceID(f, "deviceId")
        let start = try TraccarTime.required(f, "startTime"), end = try TraccarTime.required(f, "endTime")
        guard end >= start else { throw JSONRowError(.badValue, "the trip ends before it starts", at: f.at("endTime")) }
        let distance = try f.number("distance", in: 0...5e6, unit: "m")
        let maxSpeed = try f.number("maxSpeed", in: 0...300, unit: "knots")
        _ = try f.number("averageSpeed", in: 0...300, unit: "knots")
        let idle = try f.number("idleTime", in: 0...(Double(end - start) + 1000), unit: "ms")
        if let d = try f.number("duration", in: 0...3.2e10, unit: "ms"), abs(d.value - Double(end - start)) > 1000 {
            tally.count("trips whose duration is not endTime − startTime in milliseconds; the times were used")
        }
        if let a = try f.number("startOdometer", in: 0...2e10, unit: "m"), let b = try f.number("endOdometer", in: 0...2e10, unit: "m"), b.value < a.value {
            throw JSONRowError(.meterRollback, "endOdometer \(b.raw) m is below startOdometer \(a.raw) m: the odometer went down during the trip, so its distance cannot be trusted",
                               at: f.at("endOdometer"))
        }
        let (startLat, startLon) = try point(f, "startLat", "startLon")
        let (endLat, endLon) = try point(f, "endLat", "endLon")
        let asset = try sink.asset(Self.ref(id))
        try sink.load(Trip(assetID: asset, startAt: start, endAt: end, startLat: startLat, startLon: startLon, endLat: endLat, endLon: endLon,
                           distanceM: distance?.value, durationS: Double(end - start) / 1000, idleS: idle.map { $0.value / 1000 },
                           maxSpeedMps: maxSpeed.map { $0.value * Self.mpsPerKnot }, source: "traccar", sourceFileID: sink.sourceFileID))
    }

    /// A summary row holds period totals (distance, engine hours, fuel) that FleetKit derives from
    /// positions and meters itself: its device is checked and the row counted.
    func summary(_ f: JSONFields) throws {
        _ = try Self.deviceID(f, "deviceId")
        tally.count("summary report rows read, not stored (period totals; FleetKit derives its own from positions and meters)")
    }

    /// A coordinate pair, nil when absent or at 0°, 0° (Traccar's default for no position).
    private func point(_ f: JSONFields, _ latKey: String, _ lonKey: String) throws(JSONRowError) -> (Double?, Double?) {
        guard let lat = try f.number(latKey, in: -90...90, unit: "°"), let lon = try f.number(lonKey, in: -180...180, unit: "°"),
              !(lat.value == 0 && lon.value == 0) else { return (nil, nil) }
        return (lat.value, lon.value)
    }
}
