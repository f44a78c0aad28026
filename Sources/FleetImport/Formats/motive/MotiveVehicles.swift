import Foundation
import FleetCore
import FleetWarehouse

/// Vehicle identity: `/v1/vehicles` and `/v1/vehicle_locations` records, and the `vehicle`
/// object every other Motive record names its vehicle with (`{id, number, year, make, model,
/// vin, metric_units}`).
///
/// - The Motive vehicle id is the key, linked as (`motive`, `vehicle_id`): unique within one
///   Motive company. Kept as text (ids are integers in the API, never used in arithmetic).
/// - `vin` is a hint to identity when it passes the VIN format; Motive writes `null` when the
///   vehicle has none, and text that fails the format is named in a note and not used.
/// - `number` (the unit number typed in the Motive dashboard), `make`, `model` and `year` fill
///   empty fields of the asset; they are never matched.
/// - `metric_units` says the unit system of the record's distances and speeds. Motive returns
///   values "in the company's system of units setting, unless the X-Metric-Units HTTP header is
///   included in the request" (developer-docs.gomotive.com/reference/system-of-units), so the
///   unit is never assumed: without `metric_units` speed and odometer are not stored.
extension MotiveReader {
    func vehicle(_ f: JSONFields, _ sink: inout S) throws -> MotiveLastReading.Update? {
        let ref = try vehicleRef(f)
        let known = try sink.findAsset(ref) != nil
        let asset = try sink.asset(ref)
        if !known {
            tally.count("vehicles not in master data, created as auto_created assets (add them to assets.csv with their VIN)")
        }
        guard let location = try f.object("current_location") else { return nil }
        return try self.location(location, asset: asset, metric: try f.bool("metric_units"), &sink)
    }

    /// A vehicle object's identity and hints.
    func vehicleRef(_ f: JSONFields) throws -> AssetRef {
        guard let id = try f.id("id") else { throw JSONRowError(.unknownAsset, "the vehicle has no 'id'; the record cannot be attributed to a vehicle", at: f.at("id")) }
        var ref = AssetRef(identifiers: [.init(source: "motive", type: "vehicle_id", value: id)], kind: .vehicle)
        if let text = try f.string("vin") {
            let n = VIN.normalise(text)
            if let problem = VIN.problem(n) {
                tally.remark("vehicle \(id): vin '\(text)' is not used as identity: \(problem)")
            } else {
                ref.vin = n
            }
        }
        ref.name = try f.id("number")
        ref.make = try f.string("make")
        ref.model = try f.string("model")
        if let y = try f.id("year") {
            if let year = Int(y), (1900...2100).contains(year) { ref.year = year } else {
                tally.remark("vehicle \(id): year '\(y)' is not a model year and was not used")
            }
        }
        return ref
    }
}
