import Foundation
import FleetCore
import FleetWarehouse

/// Device identity: `Device` rows (`/api/devices`), and the `deviceId` every other row carries.
///
/// - The Traccar device id (an integer) is the key every row shares, linked as (`traccar`,
///   `device_id`). It is unique within one Traccar server; a fleet with two servers keeps one
///   folder per server and names its assets in master data.
/// - `uniqueId` is the tracker's identifier (usually its IMEI). The tracker is moved to another
///   vehicle over the years: as a key it would merge two vehicles that carried one tracker in
///   turn, so it is not used as identity. It names the asset only when the device has no `name`.
/// - `name` is a hint that fills an empty asset name, never a key (Traccar lets two devices share
///   a name); tabs and runs of spaces are kept as single spaces. Only `Device` rows give names:
///   a report's `deviceName` is the same text, and a second source of names could make the
///   asset's name depend on the order files were imported.
/// - A row without `deviceId`, or with a non-positive one, names no vehicle: it is rejected with
///   that reason, never attached to a guess.
extension TraccarReader {
    func device(_ f: JSONFields, _ sink: inout S) throws {
        let id = try Self.deviceID(f, "id")
        var ref = Self.ref(id)
        let unique = try f.string("uniqueId")
        ref.name = try f.string("name").map(Self.singleSpaced) ?? unique
        if unique != nil { tally.count("devices whose uniqueId (the tracker's IMEI) was read but not used as identity (the tracker moves between vehicles)") }
        let known = try sink.findAsset(ref) != nil
        _ = try sink.asset(ref)
        if !known {
            tally.count("devices not in master data, created as auto_created assets (add them to assets.csv with a traccar_id column or their VIN)")
        }
    }

    /// The device a row names in `key`, checked: a positive integer.
    static func deviceID(_ f: JSONFields, _ key: String) throws(JSONRowError) -> String {
        guard let v = f.node[key], !v.isNull else {
            throw JSONRowError(.unknownAsset, "the row has no '\(key)'; it cannot be attributed to a vehicle", at: f.at(key))
        }
        guard case let .number(text) = v, let n = Int64(text), n > 0 else {
            throw JSONRowError(.unknownAsset, "'\(key)' is \(v.render(limit: 40)), not a Traccar device id (a positive integer); the row belongs to no vehicle", at: f.at(key))
        }
        return String(n)
    }

    static func ref(_ id: String) -> AssetRef {
        AssetRef(identifiers: [.init(source: "traccar", type: "device_id", value: id)], kind: .vehicle)
    }

    /// Tabs, newlines and runs of spaces as one space.
    static func singleSpaced(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
