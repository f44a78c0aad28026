import Foundation
import FleetCore
import FleetWarehouse

/// `Position` rows (`/api/positions`, `/api/reports/route`): one GPS fix each, plus the
/// device's counters and ignition at that moment.
///
/// Units are Traccar's own (openapi.yaml `Position`, and `Position.java` in traccar/traccar):
/// `speed` is in knots (stored as m/s, × 1852/3600), `altitude` in metres, `course` in degrees;
/// `fixTime` is when the fix was taken, `deviceTime` when the device recorded the message.
///
/// - The fix is stored at `fixTime` only when it is one: a row with `valid: false` (the device
///   had no GPS fix) or `outdated: true` (a message without a location, to which Traccar's
///   OutdatedHandler copied the last known fix, or 1980-01-06 when there was none) is counted in
///   a note, never stored as a position. A fix at exactly 0°, 0° is counted the same way.
/// - Coordinates outside ±90/±180, a speed outside 0…300 knots, or a missing or unreadable
///   `fixTime` reject the row with its path.
/// - The attributes are read from every row, fix or not, at `deviceTime` (`TraccarMeters`):
///   `odometer` (metres, `KEY_ODOMETER`) → the `odometer` meter, `hours` (milliseconds of engine
///   time, as Traccar's EngineHoursHandler accumulates it) → `engine_hours` in seconds,
///   `ignition` → an `engine_event` when it changes. A counter that goes down is a reject.
///   `totalDistance` (Traccar's own GPS distance, resettable from its UI) and `fuel` (litres or
///   percent depending on the tracker, as Position.java says) are counted, not stored.
extension TraccarReader {
    /// Knots to metres per second: a knot is 1852 m per hour.
    static var mpsPerKnot: Double { 1852.0 / 3600.0 }

    func position(_ f: JSONFields, _ sink: inout S) throws {
        let id = try Self.deviceID(f, "deviceId")
        let fixAt = try TraccarTime.required(f, "fixTime")
        let deviceAt = try TraccarTime.time(f, "deviceTime") ?? fixAt
        guard let lat = try f.number("latitude", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'latitude' is missing", at: f.at("latitude")) }
        guard let lon = try f.number("longitude", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'longitude' is missing", at: f.at("longitude")) }
        let speed = try f.number("speed", in: 0...300, unit: "knots")
        let course = try f.number("course", in: 0...360, unit: "°")
        let altitude = try f.number("altitude", in: -1000...100_000, unit: "m")
        let valid = try f.bool("valid") ?? true
        let outdated = try f.bool("outdated") ?? false
        let readings = try TraccarMeters.readings(f)

        let asset = try sink.asset(Self.ref(id))
        if !valid {
            tally.count("positions with valid: false not stored as positions (the tracker had no GPS fix; their odometer, hours and ignition were read)")
        } else if outdated {
            tally.count("positions with outdated: true not stored as positions (a message without a location, carrying the last known fix; their odometer, hours and ignition were read)")
        } else if lat.value == 0, lon.value == 0 {
            tally.count("positions at 0°, 0° not stored (a tracker's fix before it has one)")
        } else {
            try sink.load(Position(assetID: asset, at: fixAt, lat: lat.value, lon: lon.value, speedMps: speed.map { $0.value * Self.mpsPerKnot },
                                   headingDeg: course?.value, altM: altitude?.value, sourceFileID: sink.sourceFileID))
        }
        try meters.load(readings, device: id, asset: asset, at: deviceAt, row: f, into: &sink)
    }
}
