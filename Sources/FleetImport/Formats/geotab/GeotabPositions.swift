import Foundation
import FleetCore
import FleetWarehouse

/// `LogRecord` (the GPS log) and `DeviceStatusInfo` (the device's latest state): each one
/// position. MyGeotab gives speed in km/h, stored as m/s; `DeviceStatusInfo.bearing` is the
/// heading in degrees. Coordinates outside ±90/±180 and speeds above 500 km/h are rejected with
/// their path; a `LogRecord` at 0°, 0° is Geotab's "no fix" and is counted, not stored.
extension GeotabReader {
    func logRecord(_ f: JSONFields, _ sink: inout S) throws {
        try position(f, heading: nil, &sink)
    }

    func deviceStatusInfo(_ f: JSONFields, _ sink: inout S) throws {
        let bearing = try f.number("bearing", in: -1...360, unit: "°")
        try position(f, heading: bearing.flatMap { $0.value < 0 ? nil : $0.value }, &sink)
    }

    private func position(_ f: JSONFields, heading: Double?, _ sink: inout S) throws {
        let at = try f.requiredTime("dateTime")
        guard let lat = try f.number("latitude", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'latitude' is missing", at: f.at("latitude")) }
        guard let lon = try f.number("longitude", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'longitude' is missing", at: f.at("longitude")) }
        let speed = try f.number("speed", in: 0...500, unit: "km/h")
        let ref = try deviceRef(f)
        span.saw(at)
        if lat.value == 0, lon.value == 0 {
            tally.count("positions at 0°, 0° not stored (MyGeotab's record without a GPS fix)")
            return
        }
        let asset = try sink.asset(ref)
        try sink.load(Position(assetID: asset, at: at, lat: lat.value, lon: lon.value, speedMps: speed.map { $0.value / 3.6 }, headingDeg: heading,
                               sourceFileID: sink.sourceFileID))
    }
}
