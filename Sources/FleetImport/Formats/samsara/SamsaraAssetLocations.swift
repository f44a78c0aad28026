import Foundation
import FleetCore
import FleetWarehouse

/// `/assets/location-and-speed/stream`: one fix per record, `{asset: {id}, happenedAtTime,
/// location: {latitude, longitude, headingDegrees, accuracyMeters}, speed:
/// {gpsSpeedMetersPerSecond, ecuSpeedMetersPerSecond}}`, stored as a `position`.
///
/// Why GPS speed first: the position is a GPS fix, and its speed belongs with it; the ECU
/// speed (wheel speed) is the fallback when the GPS gives none. The asset id is linked as a
/// vehicle id unless a trailer or machine already holds it (`anyAsset`). The record is loaded in
/// its own savepoint (`SamsaraReader.located`), so a rejected fix leaves no asset behind.
extension SamsaraReader {
    func assetLocation(_ f: JSONFields, _ sink: inout S) throws {
        guard let assetNode = try f.object("asset") else { throw JSONRowError(.unknownAsset, "the fix names no asset", at: f.at("asset")) }
        let ref = try vehicleRef(assetNode)
        let at = try f.requiredTime("happenedAtTime")
        guard let l = try f.object("location") else { throw JSONRowError(.missingField, "'location' is missing", at: f.at("location")) }
        guard let lat = try l.number("latitude", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'latitude' is missing", at: l.at("latitude")) }
        guard let lon = try l.number("longitude", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'longitude' is missing", at: l.at("longitude")) }
        let heading = try l.number("headingDegrees", in: 0...360, unit: "°")
        let speed = try f.object("speed")
        let mps = try speed?.number("gpsSpeedMetersPerSecond", in: 0...250, unit: "m/s") ?? speed?.number("ecuSpeedMetersPerSecond", in: 0...250, unit: "m/s")
        tally.unknown("location", l.unknownKeys(["latitude", "longitude", "headingDegrees", "accuracyMeters", "address", "geofence"]))
        try sink.load(Position(assetID: try anyAsset(ref, &sink), at: at, lat: lat.value, lon: lon.value, speedMps: mps?.value,
                               headingDeg: heading?.value, sourceFileID: sink.sourceFileID))
    }
}
