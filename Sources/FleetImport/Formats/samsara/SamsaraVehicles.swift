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
    func vehicle(_ f: JSONFields, _ sink: inout S) throws {
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
    func vehicleRef(_ f: JSONFields, kind: AssetRef.Kind = .vehicle) throws -> AssetRef {
        guard let id = try f.id("id") else { throw JSONRowError(.missingField, "the vehicle has no 'id'", at: f.at("id")) }
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
        return AssetRef(identifiers: [.init(source: "samsara", type: Self.idType(kind), value: id)], vin: vin, name: name, kind: kind)
    }

    /// Samsara's vehicles, trailers and equipment are listed by separate endpoints, each with
    /// its own id (`vehicle_id`, `trailer_id`, `equipment_id`): a DVIR's `trailer{id}` and the
    /// trailer stats of the same trailer meet on `trailer_id`.
    static func idType(_ kind: AssetRef.Kind) -> String {
        switch kind {
        case .vehicle: return "vehicle_id"
        case .trailer: return "trailer_id"
        case .equipment: return "equipment_id"
        }
    }

    /// The ref as another kind of Samsara asset: the same id under that kind's identifier type.
    static func retyped(_ ref: AssetRef, as kind: AssetRef.Kind) -> AssetRef {
        var r = ref
        r.kind = kind
        r.identifiers = ref.identifiers.map { $0.source == "samsara" && ["vehicle_id", "trailer_id", "equipment_id"].contains($0.type)
            ? AssetRef.Identifier(source: "samsara", type: idType(kind), value: $0.value) : $0 }
        return r
    }

    /// The asset that already has this Samsara id under any kind. Samsara's ids are unique
    /// across its asset types, and a shape that does not say which kind it names (`asset{id}`
    /// of idling events and the location stream, a stats record without trailer or equipment
    /// keys) must find the trailer or machine the DVIRs or the equipment stats created.
    func knownAsset(_ ref: AssetRef, _ sink: inout S) throws -> Int64? {
        if let id = try sink.findAsset(ref) { return id }
        return try otherKind(ref, &sink)
    }

    /// The asset holding the ref's Samsara id under another kind's identifier type.
    func otherKind(_ ref: AssetRef, _ sink: inout S) throws -> Int64? {
        for kind in AssetRef.Kind.allCases where kind != ref.kind {
            if let id = try sink.findAsset(Self.retyped(ref, as: kind)) { return id }
        }
        return nil
    }

    /// The asset of a ref: through `asset(_:)` (which links the VIN and fills empty fields)
    /// when the ref's own identifiers find it or nothing does; the trailer or machine that holds
    /// the same Samsara id under another kind otherwise.
    func anyAsset(_ ref: AssetRef, _ sink: inout S) throws -> Int64 {
        if try sink.findAsset(ref) == nil, let other = try otherKind(ref, &sink) { return other }
        return try sink.asset(ref)
    }

    /// The asset of a record's `vehicle` (or `asset`) member, else its `trailer`; nil when the
    /// record names neither.
    func assetOf(_ f: JSONFields, _ sink: inout S, keys: [String] = ["vehicle", "asset"]) throws -> Int64? {
        for key in keys {
            if let v = try f.object(key) { return try anyAsset(try vehicleRef(v), &sink) }
        }
        if let t = try f.object("trailer"), t.has("id") { return try sink.asset(try vehicleRef(t, kind: .trailer)) }
        return nil
    }
}
