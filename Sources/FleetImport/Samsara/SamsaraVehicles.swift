import Foundation
import FleetCore
import FleetWarehouse

/// Vehicle identity: `/fleet/vehicles` records, and the `{id, name, externalIds}` objects that
/// every other shape uses to name a vehicle or trailer.
///
/// The Samsara id is linked as identifier (`samsara`, `vehicle_id`, id as text: ids exceed
/// 2^53). The VIN is `vin`, else `externalIds["samsara.vin"]`; Samsara says a VIN typed by
/// hand may be wrong, so one that fails the format (17 characters, no I/O/Q) is not used as
/// identity and is listed in a note. Name, make, model and year are hints that fill empty
/// fields of the asset; they are never matched. A vehicle that is not in master data is created
/// `auto_created`, as telematics-created assets are, until assets.csv names its unit.
extension SamsaraReader {
    func vehicle(_ f: Fields, _ sink: inout S) throws {
        var ref = try vehicleRef(f)
        ref.make = try f.string("make")
        ref.model = try f.string("model")
        if let y = try f.id("year") {
            if let year = Int(y), (1900...2100).contains(year) { ref.year = year } else {
                tally.remark("vehicle \(ref.identifiers[0].value): year '\(y)' is not a model year and was not used")
            }
        }
        let known = try sink.findAsset(ref) != nil
        _ = try sink.asset(ref)
        if !known {
            tally.count("vehicles not in master data, created as auto_created assets (add them to assets.csv with their samsara_id)")
        }
    }

    /// A vehicle named by `{id, name, vin?, externalIds | ExternalIds}`.
    func vehicleRef(_ f: Fields, kind: AssetRef.Kind = .vehicle) throws -> AssetRef {
        guard let id = try f.id("id") else { throw SamsaraRowError(.missingField, "the vehicle has no 'id'", at: f.at("id")) }
        let name = try f.string("name")
        // The legacy DVIR mock spells it `ExternalIds`; both are read.
        let ext = try f.object("externalIds") ?? f.object("ExternalIds")
        var vin: String? = nil
        var candidates: [(String, String)] = []
        if let v = try f.string("vin") ?? f.string("vehicleVin") { candidates.append(("vin", v)) }
        if let v = try ext?.string("samsara.vin") { candidates.append(("externalIds samsara.vin", v)) }
        for (source, text) in candidates {
            let n = VIN.normalise(text)
            if let problem = VIN.problem(n) {
                tally.remark("vehicle \(id)\(name.map { " (\($0))" } ?? ""): \(source) '\(text)' is not used as identity: \(problem)")
            } else if let chosen = vin, chosen != n {
                tally.remark("vehicle \(id): \(source) \(n) differs from vin \(chosen); vin was used")
            } else {
                vin = n
            }
        }
        let type = kind == .trailer ? "trailer_id" : "vehicle_id"
        return AssetRef(identifiers: [.init(source: "samsara", type: type, value: id)], vin: vin, name: name, kind: kind)
    }

    /// The asset of a record's `vehicle` (or `asset`) member, else its `trailer`; nil when the
    /// record names neither.
    func assetOf(_ f: Fields, _ sink: inout S, keys: [String] = ["vehicle", "asset"]) throws -> Int64? {
        for key in keys {
            if let v = try f.object(key) { return try sink.asset(try vehicleRef(v)) }
        }
        if let t = try f.object("trailer"), t.has("id") { return try sink.asset(try vehicleRef(t, kind: .trailer)) }
        return nil
    }
}
