import Foundation
import FleetCore
import FleetWarehouse

/// `StatusData`: one diagnostic reading, `{dateTime, device, diagnostic: {id}, data}`.
///
/// Only diagnostics whose unit the MyGeotab SDK documents become meters (`GeotabDiagnostic`):
/// the value is stored in SI with its raw text and unit. Other Geotab diagnostics (engine speed,
/// accelerations, temperatures, voltages…) have no warehouse table and are counted per id in a
/// note. A database-specific diagnostic (an id that is not one of Geotab's `Diagnostic…Id`
/// known ids, such as `aDD1bu5XaYUiSdhyYEni8OA`) means whatever its database defined: it is
/// never matched to a meter by guess, and is counted in its own note.
///
/// Records arrive in no time order and may be older than the window asked for: each is stored
/// at its own `dateTime` (meter rows are keyed on asset, meter and time, so order and overlap
/// between files do not matter), and the note gives the span read.
extension GeotabReader {
    func statusData(_ f: JSONFields, _ sink: inout S) throws {
        guard let d = try f.object("diagnostic"), let id = try d.id("id") else {
            throw JSONRowError(.missingField, "the StatusData names no diagnostic id", at: f.at("diagnostic"))
        }
        let at = try f.requiredTime("dateTime")
        guard let diagnostic = GeotabDiagnostic.table[id] else {
            // The device must still be a known kind of reference, or the record is refused.
            _ = try deviceRef(f)
            span.saw(at)
            if GeotabDiagnostic.isKnownID(id) {
                unstored.count("StatusData of Geotab diagnostics with no warehouse table, not stored", id)
            } else {
                unstored.count("StatusData of database-specific diagnostics, not stored (their meaning and unit are defined in that MyGeotab database, never guessed)", id)
            }
            return
        }
        guard let meter = diagnostic.meter else {
            _ = try deviceRef(f)
            span.saw(at)
            unstored.count("StatusData not stored (\(diagnostic.why ?? "no warehouse meter"))", id)
            return
        }
        guard let v = try f.number("data", in: diagnostic.range, unit: diagnostic.unit) else {
            throw JSONRowError(.missingField, "'data' is missing", at: f.at("data"))
        }
        let asset = try deviceAsset(f, &sink)
        span.saw(at)
        try sink.load(MeterReading(assetID: asset, meter: meter, at: at, value: v.value * diagnostic.scale, rawValue: v.raw,
                                   rawUnit: diagnostic.unit, sourceFileID: sink.sourceFileID))
    }
}

/// The MyGeotab diagnostics FleetKit reads, by their `KnownId`, with the units the SDK's
/// reference documents for their `data` (MyGeotab stores metric values: metres, seconds,
/// litres, percent).
struct GeotabDiagnostic {
    /// The warehouse meter, or nil for a known diagnostic deliberately not stored (`why`).
    var meter: String?
    var scale: Double
    var unit: String
    var range: ClosedRange<Double>
    var why: String?

    static let table: [String: GeotabDiagnostic] = [
        "DiagnosticOdometerId": .init(meter: "odometer", scale: 1, unit: "m", range: 0...2e10),
        "DiagnosticEngineHoursId": .init(meter: "engine_hours", scale: 1, unit: "s", range: 0...1e10),
        "DiagnosticDeviceTotalFuelId": .init(meter: "fuel_used", scale: 1000, unit: "L", range: 0...1e9),
        "DiagnosticFuelLevelId": .init(meter: "fuel_level", scale: 1, unit: "%", range: 0...100),
        "DiagnosticDeviceTotalIdleFuelId": .init(meter: nil, scale: 1000, unit: "L", range: 0...1e9,
                                                 why: "idle fuel is a share of total fuel; the warehouse has no idle-fuel meter"),
        "DiagnosticTotalFuelUsedId": .init(meter: nil, scale: 1000, unit: "L", range: 0...1e9,
                                           why: "the engine's own total; fuel_used comes from DiagnosticDeviceTotalFuelId, and two counters would break its monotony"),
        "DiagnosticOdometerAdjustmentId": .init(meter: nil, scale: 1, unit: "m", range: 0...2e10,
                                                why: "the odometer with a user's adjustment; the odometer meter comes from DiagnosticOdometerId"),
        "DiagnosticEngineHoursAdjustmentId": .init(meter: nil, scale: 1, unit: "s", range: 0...1e10,
                                                   why: "engine hours with a user's adjustment; the engine_hours meter comes from DiagnosticEngineHoursId"),
        "DiagnosticTotalTripFuelUsedId": .init(meter: nil, scale: 1000, unit: "L", range: 0...1e9, why: "a per-trip total that restarts each trip"),
        "DiagnosticTotalTripIdleFuelUsedId": .init(meter: nil, scale: 1000, unit: "L", range: 0...1e9, why: "a per-trip total that restarts each trip"),
    ]

    /// One of Geotab's own known ids (`Diagnostic…Id`); anything else was defined in one
    /// database.
    static func isKnownID(_ id: String) -> Bool { id.hasPrefix("Diagnostic") && id.hasSuffix("Id") }
}
