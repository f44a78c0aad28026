import Foundation
import FleetCore
import FleetWarehouse

/// Trips: the v1 API (`/v1/fleet/trips`, `{"trips": [...]}`, epoch milliseconds) and the
/// `/trips/stream` shape, as `trip` rows with source `samsara` (keyed by asset, start, source,
/// so a re-export updates in place).
///
/// - An ongoing trip (v1 `endMs` = 9223372036854775807, stream `completionStatus` not
///   completed) has no end yet; it is counted in a note and stored when a later export has it
///   complete.
/// - v1 odometers are metres and 0 means unreadable: they are used only for the distance when
///   `distanceMeters` is missing, and never become meter readings (their source is unstated,
///   and mixing it with the stats odometer could fake rollbacks).
/// - A v1 response names no vehicle (it is the `vehicleId` of the request), so the file is
///   attributed like a GPX file: `--asset UNIT`, the unit folder, or a Samsara vehicle id in the
///   file name that is already linked to an asset.
extension SamsaraReader {
    func v1Trips(into sink: inout S) throws {
        _ = try parser.next()
        while try parser.peek() != .arrayEnd {
            let node: JSONNode
            do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: e.path, "the trip is larger than \(Self.recordLimit) bytes and was not read"))
                continue
            }
            let path = parser.path
            let asset = try tripAsset ?? attributeTrips(&sink)
            tripAsset = asset
            tally.saw("v1 trips")
            let f = JSONFields(node, at: path)
            tally.unknown("trip", f.unknownKeys(["startMs", "endMs", "startOdometer", "endOdometer", "distanceMeters", "fuelConsumedMl", "tollMeters",
                                                 "driverId", "codriverIds", "assetIds", "startLocation", "endLocation", "startCoordinates",
                                                 "endCoordinates", "startAddress", "endAddress"]))
            try located(node, at: path, into: &sink) { s in try self.v1Trip(f, asset: asset, &s) }
        }
        _ = try parser.next()
    }

    private func v1Trip(_ f: JSONFields, asset: Int64, _ sink: inout S) throws {
        guard let start = try JSONTime.epochMillis(f, "startMs") else { throw JSONRowError(.missingField, "'startMs' is missing", at: f.at("startMs")) }
        if case .number(JSONTime.ongoing)? = f.node["endMs"] {
            tally.count("ongoing v1 trips (endMs = 9223372036854775807) not stored yet (a later export has them complete)")
            return
        }
        guard let end = try JSONTime.epochMillis(f, "endMs") else { throw JSONRowError(.missingField, "'endMs' is missing", at: f.at("endMs")) }
        guard end >= start else { throw JSONRowError(.badValue, "the trip ends before it starts", at: f.at("endMs")) }
        var distance = try f.number("distanceMeters", in: 0...5e6, unit: "m")?.value
        let o1 = try f.number("startOdometer", in: 0...2e10, unit: "m")?.value ?? 0, o2 = try f.number("endOdometer", in: 0...2e10, unit: "m")?.value ?? 0
        if distance == nil, o1 > 0, o2 >= o1 { distance = o2 - o1 }
        if o1 == 0 || o2 == 0 { tally.count("v1 trips with an odometer of 0 (unreadable), not used") }
        var driver: Int64? = nil
        if let d = try f.id("driverId"), d != "0" {
            driver = try sink.driver(DriverRef(identifiers: [.init(source: "samsara", type: "driver_id", value: d)]))
        }
        let a = try coordinates(f, "startCoordinates"), b = try coordinates(f, "endCoordinates")
        try sink.load(Trip(assetID: asset, driverID: driver, startAt: start, endAt: end, startLat: a?.lat, startLon: a?.lon, endLat: b?.lat, endLon: b?.lon,
                           distanceM: distance, durationS: Double(end - start) / 1000, source: "samsara", sourceFileID: sink.sourceFileID))
    }

    /// `/trips/stream` records.
    func streamTrip(_ f: JSONFields, _ sink: inout S) throws {
        if let status = try f.string("completionStatus"), status.lowercased() != "completed" {
            tally.count("trips still in progress not stored yet (completionStatus '\(status)')")
            return
        }
        guard let assetNode = try f.object("asset") else { throw JSONRowError(.unknownAsset, "the trip names no asset", at: f.at("asset")) }
        let asset = try anyAsset(try vehicleRef(assetNode, kind: try assetNode.string("type") == "trailer" ? .trailer : .vehicle), &sink)
        let start = try f.requiredTime("tripStartTime"), end = try f.requiredTime("tripEndTime")
        guard end >= start else { throw JSONRowError(.badValue, "the trip ends before it starts", at: f.at("tripEndTime")) }
        let a = try coordinates(f, "startLocation"), b = try coordinates(f, "endLocation")
        try sink.load(Trip(assetID: asset, startAt: start, endAt: end, startLat: a?.lat, startLon: a?.lon, endLat: b?.lat, endLon: b?.lon,
                           durationS: Double(end - start) / 1000, source: "samsara", sourceFileID: sink.sourceFileID))
    }

    /// `{latitude, longitude}`; (0, 0) is the placeholder of a trip without a fix.
    private func coordinates(_ f: JSONFields, _ key: String) throws -> (lat: Double, lon: Double)? {
        guard let c = try f.object(key) else { return nil }
        guard let lat = try c.number("latitude", in: -90...90, unit: "°"), let lon = try c.number("longitude", in: -180...180, unit: "°") else { return nil }
        return lat.value == 0 && lon.value == 0 ? nil : (lat.value, lon.value)
    }

    /// The asset of a v1 trips file, which names none itself.
    private func attributeTrips(_ sink: inout S) throws -> Int64 {
        if let ref = input.asset { return try sink.asset(ref) }
        let name = input.name
        var digits = "", candidates: [String] = []
        for c in name + " " {
            if c.isASCII, c.isNumber { digits.append(c) } else { if digits.count >= 6 { candidates.append(digits) }; digits = "" }
        }
        for id in candidates {
            if let asset = try sink.findAsset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: id)])) { return asset }
        }
        throw FleetError.unattributed(file: input.path, hint: """
            A Samsara v1 trips response does not say which vehicle it is for (it is the request's vehicleId). Use --asset UNIT, put the file \
            in a folder named after the unit (inbox/samsara/T-12/trips.json), or name it after a Samsara vehicle id already linked to an asset \
            (trips-281474977075805.json).
            """)
    }
}
