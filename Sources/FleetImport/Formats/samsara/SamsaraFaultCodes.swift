import Foundation
import FleetCore
import FleetWarehouse

/// `faultCodes` points: J1939 and OBD-II diagnostic trouble codes as `dtc_event` rows.
///
/// - **J1939**: code `SPN-FMI` (`3031-9`, as the ISO 15143-3 importer writes it), SPN and FMI
///   in their columns, the SPN and FMI descriptions joined, the source ECU in brackets; status
///   `active` (J1939 DM1 lists active faults). MIL: the code's `milStatus` when sent (non-zero
///   = on), else any of the point's `checkEngineLights`.
/// - **OBD-II**: each `confirmedDtcs`, `pendingDtcs` and `permanentDtcs` entry by its
///   `dtcShortCode` (P/C/B/U + 4 hex digits), status `confirmed`, `pending` or `permanent`; a
///   code listed in several lists of one point is stored once with the strongest status. MIL:
///   the controller's `milStatus` when sent, else `checkEngineLightIsOn`.
/// - **OEM** codes have no standard decoding and are counted, not stored.
extension SamsaraReader {
    func faultCodes(_ f: JSONFields, asset: Int64, file: Int64) throws(JSONRowError) -> [DtcEvent] {
        tally.unknown("faultCodes", f.unknownKeys(["time", "canBusType", "j1939", "obdii", "oem", "decorations"]))
        let at = try f.requiredTime("time")
        var out: [DtcEvent] = []
        if let j = try f.object("j1939") {
            let lights = try j.object("checkEngineLights")
            var anyLight: Bool? = nil
            if let lights {
                anyLight = false
                for k in ["emissionsIsOn", "protectIsOn", "stopIsOn", "warningIsOn"] where try lights.bool(k) == true { anyLight = true }
            }
            for d in try j.array("diagnosticTroubleCodes") {
                guard let spn = try d.number("spnId", in: 0...524_287, unit: ""), spn.value == spn.value.rounded() else {
                    throw JSONRowError(.missingField, "a J1939 code needs a whole 'spnId' (0–524287)", at: d.at("spnId"))
                }
                guard let fmi = try d.number("fmiId", in: 0...31, unit: ""), fmi.value == fmi.value.rounded() else {
                    throw JSONRowError(.missingField, "a J1939 code needs a whole 'fmiId' (0–31)", at: d.at("fmiId"))
                }
                var description = [try d.string("spnDescription"), try d.string("fmiDescription")].compactMap { $0 }.joined(separator: " — ")
                if let source = try d.string("sourceAddressName") { description += (description.isEmpty ? "" : " ") + "[source: \(source)]" }
                let mil = try lamp(d, "milStatus") ?? anyLight
                out.append(DtcEvent(assetID: asset, at: at, code: "\(Int(spn.value))-\(Int(fmi.value))", system: "j1939",
                                    spn: Int(spn.value), fmi: Int(fmi.value), description: description.isEmpty ? nil : description,
                                    status: "active", milOn: mil, sourceFileID: file))
            }
        }
        if let o = try f.object("obdii") {
            let light = try o.bool("checkEngineLightIsOn")
            var seen: [String: Int] = [:]
            for tx in try o.array("diagnosticTroubleCodes") {
                let mil = try lamp(tx, "milStatus") ?? light
                for (list, status) in [("permanentDtcs", "permanent"), ("confirmedDtcs", "confirmed"), ("pendingDtcs", "pending")] {
                    for d in try tx.array(list) {
                        guard let raw = try d.string("dtcShortCode") else {
                            throw JSONRowError(.missingField, "an OBD-II code needs its 'dtcShortCode'", at: d.at("dtcShortCode"))
                        }
                        let code = raw.uppercased()
                        guard Self.isOBD2(code) else {
                            throw JSONRowError(.badValue, "'\(raw)' is not an OBD-II code (a letter P, C, B or U and four hex digits)", at: d.at("dtcShortCode"))
                        }
                        guard seen[code] == nil else { continue }
                        seen[code] = out.count
                        out.append(DtcEvent(assetID: asset, at: at, code: code, system: "obd2", description: try d.string("dtcDescription"),
                                            status: status, milOn: mil, sourceFileID: file))
                    }
                }
            }
        }
        if let oem = f.node["oem"], !oem.isNull { tally.unstored("faultCodes.oem") }
        return out
    }

    /// A lamp status sent as a boolean or a number (non-zero = on).
    private func lamp(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Bool? {
        guard let v = f.node[key], !v.isNull else { return nil }
        switch v {
        case let .bool(b): return b
        case let .number(n): return (Double(n) ?? 0) != 0
        default: throw JSONRowError(.wrongType, "'\(key)' should be a number or a boolean but is \(v.kind)", at: f.at(key))
        }
    }

    static func isOBD2(_ code: String) -> Bool {
        let u = Array(code.utf8)
        return u.count == 5 && "PCBU".utf8.contains(u[0]) && (48...51).contains(u[1])
            && u[2...].allSatisfy { (48...57).contains($0) || (65...70).contains($0) }
    }
}
