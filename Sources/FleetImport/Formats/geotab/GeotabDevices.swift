import Foundation
import FleetCore
import FleetWarehouse

/// Device identity: `Device` entities, and the `{"id": …}` reference every other entity uses.
///
/// - The MyGeotab device id (`b4`) is the key every entity shares, linked as (`geotab`,
///   `device_id`). It is unique within one MyGeotab database; a fleet with two databases keeps
///   one folder per database and names its assets in master data.
/// - A `Device`'s `serialNumber` is the GO device's (`G9…`), which is unplugged and fitted to
///   another vehicle over the years: as a key it would merge two vehicles that carried one
///   device in turn, so it is not used as identity (the assets CSV claims a device by its
///   `geotab_id` or the VIN).
/// - `vehicleIdentificationNumber` is the VIN when it is one. MyGeotab writes `?` (and the
///   empty string) when the engine has not reported it: that is no VIN, and is counted, not
///   used; any other text that fails the VIN format is named in a note and not used.
/// - `name` is a hint that fills an empty asset name, never a key: MyGeotab lets two devices
///   share a name, and names typed with tabs or runs of spaces are kept with single spaces.
/// - The reserved ids `NoDeviceId` and `UnknownDeviceId`, an empty id or no `device` at all
///   name no vehicle: the entity is rejected with that reason, never attached to a guess.
extension GeotabReader {
    func device(_ f: JSONFields, _ sink: inout S) throws {
        guard let id = try f.id("id") else { throw JSONRowError(.unknownAsset, "the Device has no 'id'", at: f.at("id")) }
        guard !Self.reservedDeviceIDs.contains(id) else {
            throw JSONRowError(.unknownAsset, "'\(id)' is MyGeotab's reserved id for no device, not a vehicle", at: f.at("id"))
        }
        var ref = AssetRef(identifiers: [.init(source: "geotab", type: "device_id", value: id)], kind: .vehicle)
        if try f.string("serialNumber") != nil { tally.count("devices whose GO serialNumber was read but not used as identity (the GO device moves between vehicles)") }
        if let text = try f.string("vehicleIdentificationNumber") {
            if Self.unknownVINs.contains(text) {
                tally.count("devices whose vehicleIdentificationNumber is '\(text)' (MyGeotab's unknown VIN), identified by device id only")
            } else {
                let n = VIN.normalise(text)
                if let problem = VIN.problem(n) {
                    tally.remark("device \(id): vehicleIdentificationNumber '\(text)' is not used as identity: \(problem)")
                } else {
                    ref.vin = n
                }
            }
        }
        ref.name = try f.string("name").map(Self.singleSpaced)
        let known = try sink.findAsset(ref) != nil
        _ = try sink.asset(ref)
        if !known {
            tally.count("devices not in master data, created as auto_created assets (add them to assets.csv with their VIN or serial)")
        }
    }

    /// The asset of an entity's `device` reference, created when unknown.
    func deviceAsset(_ f: JSONFields, _ sink: inout S) throws -> Int64 {
        try sink.asset(try deviceRef(f))
    }

    /// The vehicle an entity's `device` reference names, checked but not looked up: a record
    /// that is read but not stored checks its device without creating an asset for it.
    func deviceRef(_ f: JSONFields) throws(JSONRowError) -> AssetRef {
        guard let d = try f.object("device") else {
            throw JSONRowError(.unknownAsset, f.has("device") ? "the device is null; the record belongs to no vehicle" : "the entity names no device; it cannot be attributed to a vehicle",
                                  at: f.at("device"))
        }
        guard let id = try d.id("id") else { throw JSONRowError(.unknownAsset, "the device reference has no 'id'", at: d.at("id")) }
        guard !Self.reservedDeviceIDs.contains(id) else {
            throw JSONRowError(.unknownAsset, "the device is '\(id)', MyGeotab's reserved id for no device; the record belongs to no vehicle", at: d.at("id"))
        }
        return AssetRef(identifiers: [.init(source: "geotab", type: "device_id", value: id)], kind: .vehicle)
    }

    static var reservedDeviceIDs: Set<String> { ["NoDeviceId", "UnknownDeviceId", "id"] }
    static var unknownVINs: Set<String> { ["?"] }

    /// Tabs, newlines and runs of spaces as one space.
    static func singleSpaced(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
