import Foundation
import FleetCore

/// How an ISO 15143-3 or AEMP 1.2 `EquipmentHeader` names a machine (DESIGN §3, §9).
///
/// - The PIN, trimmed and upper-cased, is the key. A PIN that is a valid 17-character VIN
///   with a correct check digit (Samsara's ISO feed puts the VIN there) is also passed as the
///   VIN, so the feed meets a vehicle that master data or Samsara knows by VIN.
/// - Without a PIN, `OEMName` (or AEMP 1.2 `Make`) + `Model` + `SerialNumber` is the key, as
///   the identifier (`oem`, `make_model_serial`, `OEM|Model|Serial`), case-sensitive as
///   Proemion documents. It is not added when a PIN exists: Trackunit's `SerialNumber` names the
///   telematics unit, and a weak key next to a strong one could merge two machines.
/// - `EquipmentID` is a label the customer types and is never a key. When it is a valid VIN
///   with a correct check digit, it is passed as the VIN (GPS Insight's AEMP 1.2 feed does this).
/// - Make, model and the `EquipmentID` (as the name) are hints that fill empty asset fields.
enum ISOIdentity {
    static func ref(from header: FeedNode, tally: inout FeedTally) throws -> AssetRef {
        func text(_ field: String) -> String? {
            guard let v = header.value(field) else { return nil }
            if FeedValues.isPlaceholder(v) { tally.placeholder("EquipmentHeader/\(field)"); return nil }
            return v
        }
        if let d = header.value("UnitInstallDateTime"), FeedValues.instant(d) == .placeholder { tally.placeholder("EquipmentHeader/UnitInstallDateTime") }
        let oem = text("OEMName") ?? text("Make")
        let model = text("Model"), serial = text("SerialNumber"), equipmentID = text("EquipmentID")
        var ref = AssetRef(name: equipmentID, make: oem, model: model)
        if let raw = text("PIN") {
            let pin = PIN.normalise(raw)
            guard (4...30).contains(pin.utf8.count), isAlphanumericASCII(pin) else {
                throw RowError(.badValue, "PIN '\(raw)' is not a product identification number (4 to 30 letters and digits)")
            }
            ref.pin = pin
            if VIN.hasValidCheckDigit(pin) { ref.vin = pin }
        }
        if ref.vin == nil, let id = equipmentID, VIN.hasValidCheckDigit(VIN.normalise(id)) {
            ref.vin = VIN.normalise(id)
        }
        if ref.pin == nil, let oem, let model, let serial {
            ref.identifiers = [AssetRef.Identifier(source: "oem", type: "make_model_serial", value: "\(oem)|\(model)|\(serial)")]
        }
        ref.kind = ref.vin != nil ? .vehicle : .equipment
        guard ref.isResolvable else {
            throw RowError(.unknownAsset, "the EquipmentHeader names no machine: no PIN, no OEMName (or Make) + Model + SerialNumber, and no EquipmentID that is a VIN with a valid check digit")
        }
        return ref
    }

    /// A machine known only by its PIN (from a link).
    static func ref(pin: String) -> AssetRef {
        let vin = VIN.hasValidCheckDigit(pin) ? pin : nil
        return AssetRef(vin: vin, pin: pin, kind: vin != nil ? .vehicle : .equipment)
    }

    /// The PIN in a time-series link (`…/Fleet/Equipment/{PIN}/{DataElement}/…`), for pages
    /// that carry no `EquipmentHeader`.
    static func pin(fromLink href: String) -> String? {
        let path = href.split(separator: "?", maxSplits: 1).first.map(String.init) ?? href
        let parts = path.split(separator: "/").map(String.init)
        guard let i = parts.lastIndex(where: { $0.caseInsensitiveCompare("Equipment") == .orderedSame }), i + 1 < parts.count else { return nil }
        let pin = PIN.normalise(parts[i + 1].removingPercentEncoding ?? parts[i + 1])
        guard (4...30).contains(pin.utf8.count), isAlphanumericASCII(pin) else { return nil }
        return pin
    }

    /// Only ASCII letters and digits, checked on the UTF-8 bytes: the same test as
    /// `isASCII && (isLetter || isNumber)` per Character (any non-ASCII byte fails both, and
    /// then the character count does not matter), without Character iteration, which is slow
    /// on Linux and ran once per machine of a snapshot.
    static func isAlphanumericASCII(_ s: String) -> Bool {
        s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    }
}
