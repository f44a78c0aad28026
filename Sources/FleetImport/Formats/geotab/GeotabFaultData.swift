import Foundation
import FleetCore
import FleetWarehouse

/// `FaultData`: a fault a device reported, stored as a `dtc_event` only when it is an engine
/// code with a standard decoding.
///
/// - The diagnostic says what the fault is. When the entity carries it expanded
///   (`diagnostic: {id, diagnosticType, code, name}`, `failureMode: {code}`), a
///   `SuspectParameter` fault is J1939: code `SPN-FMI` (`diagnostic.code` the SPN,
///   `failureMode.code` the FMI), as the other importers write it; an `ObdFault` or
///   `ObdWwhFault` is OBD-II, its P/C/B/U code read from the diagnostic's name or code.
/// - Geotab's own diagnostics (a `Diagnostic…Id` known id, type `GoFault`, `GoDiagnostic` or
///   `DataDiagnostic`: GPS messages, firmware restarts, warning lights) are faults of the GO
///   device or derived by Geotab, not engine codes: counted per id in a note, never stored as
///   DTCs. Proprietary and legacy fault types have no standard decoding and are counted too.
/// - A fault whose diagnostic is only a database id (`{"id": "aB3…"}`) cannot be decoded
///   without that database's `Diagnostic` list, which FleetKit does not read: it is rejected
///   with that reason, never stored under a guessed code.
/// - Status is `faultState` lower-cased (`active`, `pending`, `inactive`); the MIL is
///   `malfunctionLamp`.
extension GeotabReader {
    func faultData(_ f: JSONFields, _ sink: inout S) throws {
        guard let d = try f.object("diagnostic"), let id = try d.id("id") else {
            throw JSONRowError(.missingField, "the FaultData names no diagnostic id", at: f.at("diagnostic"))
        }
        let at = try f.requiredTime("dateTime")
        let type = try d.string("diagnosticType")
        if ["GoFault", "GoDiagnostic", "DataDiagnostic"].contains(type ?? "") || (type == nil && GeotabDiagnostic.isKnownID(id)) {
            _ = try deviceRef(f)
            span.saw(at)
            unstored.count("FaultData of Geotab's own diagnostics, not stored as DTCs (GO-device or Geotab-derived faults, not engine codes)", id)
            return
        }
        guard let type else {
            throw JSONRowError(.badValue, "the fault's diagnostic is only the database id '\(id)': whether it is a J1939 or OBD-II code, and which, is in that database's Diagnostic list, which FleetKit does not read; the fault was not stored", at: d.at("id"))
        }
        let status = try f.string("faultState").map { $0.lowercased() }
        let mil = try f.bool("malfunctionLamp")
        let description = try d.string("name")
        switch type {
        case "SuspectParameter":
            guard let spn = try d.number("code", in: 0...524_287, unit: ""), spn.value == spn.value.rounded() else {
                throw JSONRowError(.missingField, "a J1939 fault needs the SPN as a whole 'code' (0–524287)", at: d.at("code"))
            }
            guard let mode = try f.object("failureMode"), let fmi = try mode.number("code", in: 0...31, unit: ""), fmi.value == fmi.value.rounded() else {
                throw JSONRowError(.missingField, "a J1939 fault needs the FMI as a whole 'failureMode.code' (0–31)", at: f.at("failureMode"))
            }
            let asset = try deviceAsset(f, &sink)
            span.saw(at)
            try sink.load(DtcEvent(assetID: asset, at: at, code: "\(Int(spn.value))-\(Int(fmi.value))", system: "j1939", spn: Int(spn.value),
                                   fmi: Int(fmi.value), description: description, status: status, milOn: mil, sourceFileID: sink.sourceFileID))
        case "ObdFault", "ObdWwhFault":
            let candidates = [try d.string("name"), try d.id("code")].compactMap { $0 }
            guard let code = candidates.lazy.compactMap(Self.obd2Code).first else {
                throw JSONRowError(.badValue, "an OBD-II fault whose diagnostic names no P, C, B or U code (name or code)", at: d.path)
            }
            let asset = try deviceAsset(f, &sink)
            span.saw(at)
            try sink.load(DtcEvent(assetID: asset, at: at, code: code, system: "obd2", description: description, status: status, milOn: mil,
                                   sourceFileID: sink.sourceFileID))
        default:
            _ = try deviceRef(f)
            span.saw(at)
            unstored.count("FaultData with no standard decoding, not stored (by diagnosticType)", type)
        }
    }

    /// The OBD-II code at the start of a diagnostic's name or code (`P0420 Catalyst…`).
    static func obd2Code(_ text: String) -> String? {
        let head = String(text.prefix(5)).uppercased()
        guard SamsaraReader<S>.isOBD2(head) else { return nil }
        let rest = text.dropFirst(5)
        guard rest.first.map({ !$0.isLetter && !$0.isNumber }) ?? true else { return nil }
        return head
    }
}
