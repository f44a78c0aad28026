import Foundation
import FleetCore
import FleetWarehouse

/// Locations: a `/v1/vehicle_locations` vehicle's `current_location`, and each
/// `vehicle_location` of a v2/v3 history (`/v3/vehicle_locations/{id}`), which names its
/// `vehicle`. Each becomes one position, and its odometer and engine hours meter readings.
///
/// Units, from Motive's documentation:
/// - `lat`, `lon`: decimal degrees; outside ±90/±180 the record is rejected.
/// - `bearing`: degrees, 0–360.
/// - `located_at`: RFC 3339; "All times are in UTC, unless a time zone is specified in an HTTP
///   header" (developer.keeptruckin.com, Time Zone), and an offset in the text is honoured.
/// - `speed` (mph or km/h) and `odometer` (miles or km): in the unit system `metric_units`
///   states (developer-docs.gomotive.com/reference/system-of-units); without it they are not
///   stored and a note says how many were left out.
/// - `engine_hours`: hours in either system.
/// - `true_odometer` and `true_engine_hours` are Motive's corrected readings ("it is always
///   recommended to pull the true_odometer readings", the v3 vehicle_locations reference): read
///   in preference to `odometer` and `engine_hours` when present.
/// - `fuel` has no documented unit in the location history and is not stored (counted).
///
/// Checks against the vehicle's latest earlier reading in the file: an odometer that goes down,
/// or engine hours that rise faster than the clock (more than the elapsed time plus 0.1 h of
/// resolution), reject the record with the two readings named.
extension MotiveReader {
    func vehicleLocation(_ f: JSONFields, _ sink: inout S) throws -> MotiveLastReading.Update? {
        guard let v = try f.object("vehicle") else {
            throw JSONRowError(.unknownAsset, "the vehicle_location names no 'vehicle'; it cannot be attributed to a vehicle", at: f.at("vehicle"))
        }
        let ref = try vehicleRef(v)
        let asset = try sink.asset(ref)
        return try location(f, asset: asset, metric: try v.bool("metric_units") ?? f.bool("metric_units"), &sink)
    }

    static var mile: Double { 1609.344 }

    func location(_ f: JSONFields, asset: Int64, metric: Bool?, _ sink: inout S) throws -> MotiveLastReading.Update {
        let at = try f.requiredTime("located_at")
        guard let lat = try f.number("lat", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'lat' is missing", at: f.at("lat")) }
        guard let lon = try f.number("lon", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'lon' is missing", at: f.at("lon")) }
        let bearing = try f.number("bearing", in: 0...360, unit: "°")
        let distanceUnit = metric == true ? "km" : "mi"
        let speed = try f.number("speed", in: 0...(metric == true ? 400 : 250), unit: metric == true ? "km/h" : "mph")
        let odometerKey = f.has("true_odometer") ? "true_odometer" : "odometer"
        let odometer = try f.number(odometerKey, in: 0...2_000_000, unit: distanceUnit)
        let hoursKey = f.has("true_engine_hours") ? "true_engine_hours" : "engine_hours"
        let hours = try f.number(hoursKey, in: 0...1_000_000, unit: "h")
        if f.has("fuel") { tally.count("location fuel values not stored (the location history documents no unit for 'fuel')") }

        var speedMps: Double? = nil
        var odometerM: Double? = nil
        if let metric {
            speedMps = speed.map { metric ? $0.value / 3.6 : $0.value * 0.44704 }
            odometerM = odometer.map { metric ? $0.value * 1000 : $0.value * Self.mile }
        } else if speed != nil || odometer != nil {
            tally.count("locations whose speed and odometer were not stored: the response does not state its unit system (no 'metric_units' on the vehicle); save it with the X-Metric-Units header and a response whose vehicle carries metric_units, or from /v3/vehicle_locations")
        }
        let engineS = hours.map { $0.value * 3600 }

        let previous = last[asset]
        if let p = previous, at > p.at {
            if let o = odometerM, let po = p.odometerM, o < po {
                throw JSONRowError(MotiveReason.meterRollback, "'\(odometerKey)' went down to \(odometer?.raw ?? "") \(distanceUnit) at \(Timestamp.iso(at)) from \(Self.show(po, metric)) \(distanceUnit) at \(Timestamp.iso(p.at)); a cumulative odometer cannot run backwards (a swapped device or a reset: check the vehicle in Motive)",
                                   at: f.at(odometerKey))
            }
            if let h = engineS, let ph = p.engineS {
                let elapsed = Double(at - p.at) / 1000
                if h - ph > elapsed + 360 {
                    throw JSONRowError(MotiveReason.meterTooFast, "'\(hoursKey)' rose \(Self.hours(h - ph)) h in \(Self.hours(elapsed)) h of clock time (from \(Self.hours(ph)) h at \(Timestamp.iso(p.at)) to \(hours?.raw ?? "") h at \(Timestamp.iso(at))); engine hours cannot run faster than the clock",
                                       at: f.at(hoursKey))
                }
            }
        }
        try sink.load(Position(assetID: asset, at: at, lat: lat.value, lon: lon.value, speedMps: speedMps, headingDeg: bearing?.value, sourceFileID: sink.sourceFileID))
        if let o = odometerM, let raw = odometer {
            try sink.load(MeterReading(assetID: asset, meter: "odometer", at: at, value: o, rawValue: raw.raw, rawUnit: distanceUnit, sourceFileID: sink.sourceFileID))
        }
        if let h = engineS, let raw = hours {
            try sink.load(MeterReading(assetID: asset, meter: "engine_hours", at: at, value: h, rawValue: raw.raw, rawUnit: "h", sourceFileID: sink.sourceFileID))
        }
        // The latest reading stays the reference; an earlier record (out of order) is loaded
        // without moving it.
        guard let p = previous, at <= p.at else {
            return .init(asset: asset, reading: MotiveLastReading(at: at, odometerM: odometerM ?? previous?.odometerM, engineS: engineS ?? previous?.engineS))
        }
        tally.count("locations not later than the vehicle's record before them in the file, stored at their own time without the meter checks")
        return .init(asset: asset, reading: p)
    }

    private static func show(_ metres: Double, _ metric: Bool?) -> String {
        String(format: "%.1f", metric == true ? metres / 1000 : metres / mile)
    }

    private static func hours(_ seconds: Double) -> String { String(format: "%.2f", seconds / 3600) }
}
