import Foundation
import FleetCore
import FleetWarehouse

/// How Deere names a machine, and the rules that make the Operations Center and the JDLink ISO
/// 15143-3 feed name the same asset.
///
/// Deere has three ids for one machine: `principalId` (the machine endpoints' `{id}`), the
/// equipment API's `id`, and the `ERID` UUID. The ISO feed keys on the PIN, and
/// `serialNumber` is the PIN for Deere machines. The equipment list links all of them: the ids
/// and the serial as identifiers (`deere`, `principal_id` | `equipment_id` | `erid` |
/// `serial_number`) and the serial number as the PIN, normalised exactly as the ISO importer does (trimmed, upper-cased, no spaces or
/// dashes; a PIN that is a VIN with a valid check digit is also the VIN). Files from the
/// machine endpoints know only the principal id; the asset they create is merged into the PIN's
/// asset when the equipment list arrives, whatever the order.
enum DeereIdentity {
    static let source = "deere"

    /// A machine known only by its principal id (a machine endpoint's link).
    static func machine(principalID: String) -> AssetRef {
        AssetRef(identifiers: [.init(source: source, type: "principal_id", value: principalID)], kind: .equipment)
    }

    /// The PIN from a serial number, with the ISO importer's rules; nil with the reason when the
    /// text is not one.
    static func pin(_ raw: String) -> (pin: String?, problem: String?) {
        let pin = PIN.normalise(raw)
        guard (4...30).contains(pin.count), pin.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return (nil, "serial number '\(raw)' is not a product identification number (4 to 30 letters and digits)")
        }
        return (pin, nil)
    }
}

extension DeereReader {
    /// An equipment-list record (`/isg/equipment`) or an Operations Center machine
    /// (`/organizations/{id}/machines`): links its ids and PIN to one asset.
    ///
    /// Make, model and model year are hints that fill empty asset fields. The equipment `name`
    /// is a label the customer types, like the ISO `EquipmentID`; it is not used, because the
    /// ISO feed fills the same field and the first file imported would then decide the name.
    func equipment(_ f: JSONFields, _ shape: DeereShape, _ sink: inout S) throws {
        var ref = AssetRef()
        var serialKey = "serialNumber"
        var serial: String?
        if shape == .equipment {
            if let p = try f.id("principalId") { ref.identifiers.append(.init(source: DeereIdentity.source, type: "principal_id", value: p)) }
            if let id = try f.id("id") { ref.identifiers.append(.init(source: DeereIdentity.source, type: "equipment_id", value: id)) }
            if let erid = try f.string("ERID") { ref.identifiers.append(.init(source: DeereIdentity.source, type: "erid", value: erid.lowercased())) }
            serial = try f.string("serialNumber")
            if serial == nil {
                for alt in try f.array("alternateIdentifiers") {
                    guard let type = try alt.string("type"), ["serialnumber", "pin", "vin"].contains(type.lowercased()) else { continue }
                    if let v = try alt.string("value") { serial = v; serialKey = "alternateIdentifiers"; break }
                }
            }
            ref.make = try name(f, "make")
            ref.model = try name(f, "model")
        } else {
            // An Operations Center machine: its `id` is the principal id; `vin` holds the PIN.
            if let id = try f.id("id") { ref.identifiers.append(.init(source: DeereIdentity.source, type: "principal_id", value: id)) }
            serial = try f.string("vin")
            serialKey = "vin"
            ref.make = try name(f, "equipmentMake")
            ref.model = try name(f, "equipmentModel")
        }
        if let y = try f.deereNumber("modelYear") {
            if y.value == y.value.rounded(), (1900...2100).contains(y.value) { ref.year = Int(y.value) } else {
                tally.remark("\(f.path): modelYear '\(y.raw)' is not a model year and was not used")
            }
        }
        if let serial {
            let (pin, problem) = DeereIdentity.pin(serial)
            guard let pin else { throw JSONRowError(.badValue, problem!, at: f.at(serialKey)) }
            ref.pin = pin
            ref.identifiers.append(.init(source: DeereIdentity.source, type: "serial_number", value: pin))
            if VIN.hasValidCheckDigit(pin) { ref.vin = pin }
        }
        ref.kind = ref.vin != nil ? .vehicle : .equipment
        guard ref.isResolvable else {
            throw JSONRowError(.unknownAsset, "the record names no machine: no principalId, id, ERID or serialNumber", at: f.path)
        }
        let known = try sink.findAsset(ref) != nil
        _ = try sink.asset(ref)
        if !known { tally.count("machines not yet known, created as auto_created assets (add them to assets.csv with their PIN)") }
    }

    /// `make: {name}` (or a plain string).
    private func name(_ f: JSONFields, _ key: String) throws(JSONRowError) -> String? {
        if case .string? = f.node[key] { return try f.string(key) }
        return try f.object(key)?.string("name")
    }
}
