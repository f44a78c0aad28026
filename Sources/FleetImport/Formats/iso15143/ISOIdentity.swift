import Foundation
import FleetCore

/// How an ISO 15143-3 or AEMP 1.2 `EquipmentHeader` names a machine (docs/FORMATS.md, "Identity").
///
/// - The PIN, trimmed and upper-cased, is the key. A PIN that is a valid 17-character VIN
///   with a correct check digit (Samsara's ISO feed puts the VIN there) is also passed as the
///   VIN, so the feed meets a vehicle that master data or Samsara knows by VIN.
/// - Without a PIN, `OEMName` (or AEMP 1.2 `Make`) + `Model` + `SerialNumber` is the key, as
///   the identifier (`oem`, `make_model_serial`, `OEM|Model|Serial`), case-sensitive as
///   Proemion documents. It is not added when a PIN exists: Trackunit's `SerialNumber` names the
///   telematics unit, and a weak key next to a strong one could merge two machines.
/// - Without a PIN, the `SerialNumber` is also an identifier on its own (`iso15143`,
///   `serial_number`), the one the assets CSV's `vendor_serial` column writes, so master data
///   claims the machine (Trackunit sends 17 % of machines with only `SerialNumber`, the
///   telematics unit, and `EquipmentID`); with `OEMName` the key is also OEM + serial
///   (`iso15143`, `oem_serial`, `OEM|Serial`), which needs no `Model` (Trackunit often omits it).
///   An asset holds one `oem_serial`: a serial already seen under another OEM is a conflict,
///   never a silent merge of two makers' machines (`IdentityResolver.singleValued`).
/// - `EquipmentID` is a label the customer types and is never a key. When it is a valid VIN
///   with a correct check digit, it is passed as the VIN (GPS Insight's AEMP 1.2 feed does this).
///   When a machine has no PIN and its `EquipmentID` has the shape of a VIN without the North
///   American check digit (a European VIN), it is the identifier (`iso15143`, `vin_label`),
///   which finds an asset with exactly that VIN (the resolver looks both ways) but never sets
///   one: the match is exact, without upper-casing or removing spaces, so a label is never bent
///   into someone's VIN. With a PIN it is not added (Deere's `EquipmentID` repeats the PIN).
/// - Bosch's `BodasMachineId` is the machine id of its links (`iso15143`, `machine_id`).
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
        // Bosch's header extension names the machine by the id its time-series links use
        // (`/Fleet/Equipment/{machineID}/…`): the same identifier as a header-less page's link.
        if let machineID = text("BodasMachineId") {
            ref.identifiers.append(AssetRef.Identifier(source: "iso15143", type: "machine_id", value: machineID))
        }
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
        if ref.pin == nil, let serial {
            if let oem, let model {
                ref.identifiers.append(AssetRef.Identifier(source: "oem", type: "make_model_serial", value: "\(oem)|\(model)|\(serial)"))
            }
            if let oem { ref.identifiers.append(AssetRef.Identifier(source: "iso15143", type: "oem_serial", value: "\(oem)|\(serial)")) }
            ref.identifiers.append(AssetRef.Identifier(source: "iso15143", type: "serial_number", value: serial))
        }
        if ref.pin == nil, ref.vin == nil, let label = equipmentID.map(trimmed), isVINShaped(label) {
            ref.identifiers.append(AssetRef.Identifier(source: "iso15143", type: "vin_label", value: label))
        }
        ref.kind = ref.vin != nil ? .vehicle : .equipment
        guard ref.isResolvable else {
            throw RowError(.unknownAsset, "the EquipmentHeader names no machine: no PIN, no SerialNumber and no EquipmentID shaped like a VIN; the feed must send the machine's PIN or SerialNumber (ask the telematics provider to fill them)")
        }
        return ref
    }

    /// Surrounding whitespace only: the value is otherwise compared as the vendor wrote it.
    static func trimmed(_ s: String) -> String { s.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// 17 characters, each a digit or an upper-case ASCII letter other than I, O and Q (ISO 3779),
    /// exactly as written: lower case, inner spaces or dashes make it a plain label.
    static func isVINShaped(_ s: String) -> Bool {
        s.utf8.count == 17 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90 && $0 != 73 && $0 != 79 && $0 != 81) }
    }

    /// A machine known only by its PIN (from a link).
    static func ref(pin: String) -> AssetRef {
        let vin = VIN.hasValidCheckDigit(pin) ? pin : nil
        return AssetRef(vin: vin, pin: pin, kind: vin != nil ? .vehicle : .equipment)
    }

    /// The machine a time-series link names (`…/Fleet/Equipment/…/{DataElement}/…`), for pages
    /// that carry no `EquipmentHeader`.
    ///
    /// - Typed: the standard's paths say what the identifier is, `/Fleet/Equipment/ID/{id}`,
    ///   `/PIN/{pin}` or `/SerialNumber/{serial}` (Tigercat, Trackunit, Develon). The value after
    ///   the type word is the identity, as that type: `PIN` a PIN (4–30 letters and digits),
    ///   `ID` the vendor's machine id (`iso15143`, `machine_id`, exactly as written), which the
    ///   assets CSV's `telematics_id` column claims, and `SerialNumber` the serial (`iso15143`,
    ///   `serial_number`), which its `vendor_serial` column claims. An `ID` is never read as a
    ///   PIN: it names the vendor's record, and two makers' ids could collide as PINs.
    /// - Untyped (`/Fleet/Equipment/{id}/…`): the segment is read as the PIN when it is one,
    ///   and is also kept as the machine id; Bosch puts its own machine id there (`510TS_15075`),
    ///   which is kept exactly, never bent into a PIN.
    /// - A reserved word (a type word, a data element name, `Fleet`, `Equipment`) is never an
    ///   identity: `/Fleet/Equipment/ID/` with nothing after it names no machine, and an `ID`
    ///   taken as the machine would merge every machine of a feed into one asset.
    static func ref(fromLink href: String) -> AssetRef? {
        let path = href.split(separator: "?", maxSplits: 1).first.map(String.init) ?? href
        let parts = path.split(separator: "/").map(String.init)
        guard let i = parts.lastIndex(where: { $0.caseInsensitiveCompare("Equipment") == .orderedSame }), i + 1 < parts.count else { return nil }
        func decoded(_ k: Int) -> String? { k < parts.count ? (parts[k].removingPercentEncoding ?? parts[k]) : nil }
        guard let segment = decoded(i + 1) else { return nil }
        if let type = LinkIdentifier(segment) {
            guard let value = decoded(i + 2), !isReserved(value), isVisible(value) else { return nil }
            switch type {
            case .pin:
                let pin = PIN.normalise(value)
                guard (4...30).contains(pin.utf8.count), isAlphanumericASCII(pin) else { return nil }
                return ref(pin: pin)
            case .id:
                return AssetRef(identifiers: [AssetRef.Identifier(source: "iso15143", type: "machine_id", value: value)], kind: .equipment)
            case .serialNumber:
                return AssetRef(identifiers: [AssetRef.Identifier(source: "iso15143", type: "serial_number", value: value)], kind: .equipment)
            }
        }
        guard !isReserved(segment) else { return nil }
        let pin = PIN.normalise(segment)
        let visible = isVisible(segment)
        let machineID = AssetRef.Identifier(source: "iso15143", type: "machine_id", value: segment)
        if (4...30).contains(pin.utf8.count), isAlphanumericASCII(pin) {
            // Also the machine id as written: Bosch's own ids (`Machine2`) look like PINs, and
            // its snapshots name the machine by that id (`BodasMachineId`).
            var r = ref(pin: pin)
            if visible { r.identifiers = [machineID] }
            return r
        }
        guard visible else { return nil }
        return AssetRef(identifiers: [machineID], kind: .equipment)
    }

    /// The identifier types of the standard's equipment paths.
    enum LinkIdentifier {
        case id, pin, serialNumber

        init?(_ word: String) {
            switch word.lowercased() {
            case "id": self = .id
            case "pin": self = .pin
            case "serialnumber": self = .serialNumber
            default: return nil
            }
        }
    }

    /// Words of the standard's paths that name no machine: the identifier types, the path's
    /// own steps and the data elements (compared without case).
    static func isReserved(_ word: String) -> Bool {
        let w = word.lowercased()
        return LinkIdentifier(word) != nil || reservedWords.contains(w)
            || ISOElementMapper.kind(of: word) != .unknown || w.hasSuffix("messages")
    }

    static let reservedWords: Set<String> = ["fleet", "equipment", "equipmentid", "oemname", "model", "make", "locations", "location",
                                             "faults", "fault", "page", "snapshot", "timeseries"]

    /// 1–64 visible ASCII characters: a space or a control character is never part of an id.
    static func isVisible(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count) && s.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }

    /// Only ASCII letters and digits, checked on the UTF-8 bytes: the same test as
    /// `isASCII && (isLetter || isNumber)` per Character (any non-ASCII byte fails both, and
    /// then the character count does not matter), without Character iteration, which is slow
    /// on Linux and ran once per machine of a snapshot.
    static func isAlphanumericASCII(_ s: String) -> Bool {
        s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    }
}
