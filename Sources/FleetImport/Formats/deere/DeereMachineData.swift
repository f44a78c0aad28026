import Foundation
import FleetCore
import FleetWarehouse

/// The records of the machine endpoints (`/machines/{principalId}/…`) as warehouse facts.
///
/// - engine hours: `reading{valueAsDouble, unit}` at `reportTime` → `meter_reading`
///   `engine_hours` in seconds. A `lastKnown` reading keeps its own (older) time, so a stale
///   reading that is already stored adds nothing.
/// - hours of operation: each interval's `engineState` at its `startDate` → `engine_event`
///   (`on`, `idle` when `detailedState` says idle, `off`). Deere returns the off intervals too,
///   so no state is invented at an interval's end.
/// - location history: `point{lat, lon, altitude}` at `gpsFixTimestamp` (when the position was
///   measured) → `position`. A fix time of `1970-01-01T00:00:00.000Z` means no fix: no row.
///   A re-sent old fix lands on its own time, which is already stored.
/// - breadcrumbs: position at `eventTimestamp` with `speed` (`km1hr-1` → m/s) and `heading`;
///   `fuelLevel` (`prcnt`) → `fuel_level`; `machineState.rawState` → `engine_event` when it
///   changes.
/// - alerts: `DiagnosticTroubleCodeAlert` → `dtc_event` (J1939 `SPN-FMI`), the alert's
///   `engineHours` reading → `engine_hours`, its `location` → `position`. Alerts without an
///   SPN/FMI definition are counted, not stored.
extension DeereReader {
    func machineData(_ f: JSONFields, _ shape: DeereShape, asset: Int64, _ sink: inout S) throws {
        let file = sink.sourceFileID
        switch shape {
        case .engineHours:
            let at = try requiredTime(f, "reportTime")
            try sink.load(try hours(f, "reading", asset: asset, at: at, file: file))
        case .hoursOfOperation:
            let at = try requiredTime(f, "startDate")
            if let end = try f.deereTime("endDate"), case let .at(e) = end, e < at {
                throw JSONRowError(.badDate, "'endDate' is before 'startDate'", at: f.at("endDate"))
            }
            guard let raw = try f.deereInteger("engineState", in: 0...1) else {
                throw JSONRowError(.missingField, "'engineState' (0 or 1) is missing", at: f.at("engineState"))
            }
            let detail = try f.string("detailedState")
            let state = raw == 0 ? "off" : detail?.lowercased().contains("idle") == true ? "idle" : "on"
            try sink.load(EngineEvent(assetID: asset, at: at, state: state, sourceFileID: file))
        case .location:
            guard let fix = try f.deereTime("gpsFixTimestamp") ?? f.deereTime("eventTimestamp") else {
                throw JSONRowError(.missingField, "'gpsFixTimestamp' and 'eventTimestamp' are missing", at: f.at("gpsFixTimestamp"))
            }
            guard case let .at(at) = fix else { tally.count("location points without a GPS fix (gpsFixTimestamp 1970-01-01), not stored"); return }
            if let p = try position(f, asset: asset, at: at, file: file) { try sink.load(p) }
        case .breadcrumb:
            let at = try requiredTime(f, "eventTimestamp")
            if var p = try position(f, asset: asset, at: at, file: file) {
                if let s = try f.measurement("speed") {
                    guard let unit = s.unit, let mps = DeereUnits.metresPerSecond(s.value, unit: unit) else {
                        throw JSONRowError(.badValue, "speed unit '\(s.unit ?? "")' is not one FleetKit knows (km1hr-1, m1s-1, mi1hr-1)", at: f.at("speed"))
                    }
                    guard (0...150).contains(mps) else { throw JSONRowError(.outOfRange, "speed \(s.raw) \(unit) is outside 0…540 km/h", at: s.path) }
                    p.speedMps = mps
                }
                if let h = try f.measurement("heading") {
                    guard (0...360).contains(h.value) else { throw JSONRowError(.outOfRange, "heading \(h.raw) is outside 0…360°", at: h.path) }
                    p.headingDeg = h.value
                }
                try sink.load(p)
            }
            if let fuel = try f.measurement("fuelLevel") {
                guard fuel.unit.map(DeereUnits.isPercent) ?? true else {
                    throw JSONRowError(.badValue, "fuelLevel unit '\(fuel.unit!)' is not a percentage (prcnt)", at: f.at("fuelLevel"))
                }
                guard (0...100).contains(fuel.value) else { throw JSONRowError(.outOfRange, "fuelLevel \(fuel.raw) is outside 0…100 %", at: fuel.path) }
                try sink.load(MeterReading(assetID: asset, meter: "fuel_level", at: at, value: fuel.value, rawValue: fuel.raw, rawUnit: fuel.unit ?? "prcnt", sourceFileID: file))
            }
            // Deere's own breadcrumbs example sends `rawState` as a number (a state code whose
            // meaning Deere does not publish). The fix and the fuel level are still good data, so
            // a code is counted, never a reason to reject the breadcrumb.
            let machineState = try f.object("machineState")
            if let code = machineState?.node["rawState"], case .number = code {
                tally.count("breadcrumb machine states sent as a numeric code (rawState), not read as an engine state")
                return
            }
            if let raw = try machineState?.string("rawState") {
                guard let state = Self.engineState(raw) else {
                    tally.count("breadcrumb machine states not read as an engine state ('\(raw)')")
                    return
                }
                if lastState[asset] != state { try sink.load(EngineEvent(assetID: asset, at: at, state: state, sourceFileID: file)) }
                lastState[asset] = state
            }
        case .alert:
            try alert(f, asset: asset, file: file, &sink)
        case .deviceState:
            tally.count("device state reports not stored (terminal health has no warehouse table)")
        case .equipment, .machine, .unknown:
            break
        }
    }

    private func alert(_ f: JSONFields, asset: Int64, file: Int64, _ sink: inout S) throws {
        let at = try requiredTime(f, "time")
        guard let d = try f.object("definition") ?? (f.has("suspectParameterName") ? f : nil),
              d.has("suspectParameterName") || d.has("failureModeIndicator") else {
            tally.count("alerts without an SPN/FMI definition (not diagnostic trouble codes), not stored")
            return
        }
        guard let spn = try d.deereInteger("suspectParameterName", in: 0...524_287) else {
            throw JSONRowError(.missingField, "a J1939 alert needs 'suspectParameterName' (0–524287)", at: d.at("suspectParameterName"))
        }
        guard let fmi = try d.deereInteger("failureModeIndicator", in: 0...31) else {
            throw JSONRowError(.missingField, "a J1939 alert needs 'failureModeIndicator' (0–31)", at: d.at("failureModeIndicator"))
        }
        var description = try d.string("description") ?? ""
        let acronym = try d.string("threeLetterAcronym")
        let address = try d.deereInteger("sourceAddress", in: 0...255)
        if acronym != nil || address != nil {
            let source = [acronym, address.map { "SA \($0)" }].compactMap { $0 }.joined(separator: ", ")
            description += (description.isEmpty ? "" : " ") + "[source: \(source)]"
        }
        try sink.load(DtcEvent(assetID: asset, at: at, code: "\(spn)-\(fmi)", system: "j1939", spn: spn, fmi: fmi,
                               description: description.isEmpty ? nil : description, status: try f.string("severity"), sourceFileID: file))
        if let e = try f.object("engineHours") { try sink.load(try hours(e, "reading", asset: asset, at: at, file: file)) }
        if let loc = try f.object("location"), let p = try position(loc, asset: asset, at: at, file: file, pointKey: nil) { try sink.load(p) }
    }

    // MARK: Pieces

    private func requiredTime(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Int64 {
        switch try f.deereTime(key) {
        case let .at(ms)?: return ms
        case .placeholder?: throw JSONRowError(.badDate, "'\(key)' is a placeholder date (before 1971 or after 2200), not a time", at: f.at(key))
        default: throw JSONRowError(.missingField, "'\(key)' is missing", at: f.at(key))
        }
    }

    /// An hour-meter measurement as an `engine_hours` reading in seconds.
    private func hours(_ f: JSONFields, _ key: String, asset: Int64, at: Int64, file: Int64) throws(JSONRowError) -> MeterReading {
        guard let m = try f.measurement(key) else { throw JSONRowError(.missingField, "'\(key)' is missing", at: f.at(key)) }
        let unit = m.unit ?? "Hours"
        if m.unit == nil { tally.count("engine hours without a unit, read as hours") }
        guard let scale = DeereUnits.secondsPer(unit) else {
            throw JSONRowError(.badValue, "engine hours unit '\(unit)' is not one FleetKit knows (Hours, Minutes, Seconds)", at: f.at(key) + ".unit")
        }
        guard m.value >= 0, m.value * scale <= 1e10 else {
            throw JSONRowError(.outOfRange, "engine hours \(m.raw) \(unit) is negative or beyond any machine's life", at: m.path)
        }
        return MeterReading(assetID: asset, meter: "engine_hours", at: at, value: m.value * scale, rawValue: m.raw, rawUnit: unit, sourceFileID: file)
    }

    /// `point{lat, lon, altitude{valueAsDouble, unit}}` (or the lat/lon object itself when
    /// `pointKey` is nil). Exactly 0,0 is Deere's "no fix": counted, no row.
    private func position(_ f: JSONFields, asset: Int64, at: Int64, file: Int64, pointKey: String? = "point") throws(JSONRowError) -> Position? {
        let p: JSONFields
        if let pointKey {
            guard let o = try f.object(pointKey) else { throw JSONRowError(.missingField, "'\(pointKey)' is missing", at: f.at(pointKey)) }
            p = o
        } else {
            p = f
        }
        guard let lat = try p.deereNumber("lat", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'lat' is missing", at: p.at("lat")) }
        guard let lon = try p.deereNumber("lon", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'lon' is missing", at: p.at("lon")) }
        if lat.value == 0, lon.value == 0 { tally.count("positions at 0,0 (no fix), not stored"); return nil }
        var alt: Double? = nil
        if let a = try p.measurement("altitude") {
            if let unit = a.unit, let m = DeereUnits.metres(a.value, unit: unit) { alt = m } else {
                tally.count("altitudes without a known unit, left empty")
            }
        }
        return Position(assetID: asset, at: at, lat: lat.value, lon: lon.value, altM: alt, sourceFileID: file)
    }

    /// A breadcrumb's `machineState.rawState` as an engine state; nil when it says nothing
    /// about the engine.
    static func engineState(_ raw: String) -> String? {
        let s = raw.lowercased()
        if s.contains("idle") { return "idle" }
        if s.contains("off") || s.contains("stopped") || s.contains("key off") { return "off" }
        if s.contains("work") || s.contains("run") || s.contains("transport") || s.contains("moving") || s == "on" || s.contains("engine on") { return "on" }
        return nil
    }
}
