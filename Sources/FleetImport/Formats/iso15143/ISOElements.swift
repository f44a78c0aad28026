import Foundation
import FleetCore

/// One fact read from an ISO 15143-3 / AEMP data element, before it is tied to an asset.
enum ISOFact: Equatable {
    case meter(String, at: Int64, value: Double, raw: String, unit: String)
    case position(at: Int64, lat: Double, lon: Double, altM: Double?)
    case engine(at: Int64, on: Bool)
    case dtc(at: Int64, code: String, system: String, spn: Int?, fmi: Int?, description: String?, severity: String?, clearedAt: Int64?)
}

/// Maps ISO 15143-3 (and AEMP 1.2) data elements to facts.
///
/// Parsing is section-scoped: `Hour` means engine hours under `CumulativeOperatingHours` and
/// idle hours under `CumulativeIdleHours`; `Percent` is fuel under `FuelRemaining` and DEF
/// under `DEFRemaining`. Each element is read at its own `datetime` (attribute or child, any
/// case), so a snapshot never moves an older reading to the snapshot time; only an element
/// with no time of its own falls back to the file's `snapshotTime`.
struct ISOElementMapper {
    enum Kind: Equatable {
        case header, links, location, hours(String), fuelUsed, level(String, capacity: String), distance, engine, fault
        case notStored, unknown
    }

    /// Element names (lower-cased) and what they are. Time-series path names that differ from
    /// their item names (`CumulativeFuelUsed`, `EngineCondition`) map to the same kinds.
    static let kinds: [String: Kind] = {
        var k: [String: Kind] = [
            "equipmentheader": .header, "links": .links, "link": .links,
            // Bosch names the element after its time-series path, in snapshots too.
            "location": .location, "locations": .location,
            "cumulativeoperatinghours": .hours("engine_hours"),
            "cumulativeidlehours": .hours("idle_hours"),
            "fuelused": .fuelUsed, "cumulativefuelused": .fuelUsed,
            "fuelremaining": .level("fuel_level", capacity: "FuelTankCapacity"),
            "fuelremainingratio": .level("fuel_level", capacity: "FuelTankCapacity"),
            "defremaining": .level("def_level", capacity: "DEFTankCapacity"),
            "distance": .distance,
            "enginestatus": .engine, "enginecondition": .engine,
        ]
        for f in ["faultcode", "faultcodes", "cautioncode", "cautioncodes", "diagnostictroublecode", "diagnostictroublecodes",
                  "diagnostictroublecodefaultcode"] { k[f] = .fault }
        // Defined by the standard, but the warehouse (schema v1) has no column for them.
        for n in ["fuelusedlast24", "fuelusedinthepreceding24hours", "cumulativeidlenonoperatinghours", "cumulativepowertakeoffhours",
                  "cumulativeactiveregenerationhours", "cumulativeloadcount", "cumulativepayloadtotals", "averageloadfactorlast24",
                  "metadata"] { k[n] = .notStored }
        return k
    }()

    /// The same table keyed by the standard's spelling, tried first: lower-casing every element
    /// name of a large feed costs more than one extra lookup.
    static let exactKinds: [String: Kind] = {
        let names = ["EquipmentHeader", "Links", "Link", "Location", "CumulativeOperatingHours", "CumulativeIdleHours", "FuelUsed",
                     "CumulativeFuelUsed", "FuelRemaining", "FuelRemainingRatio", "DEFRemaining", "Distance", "EngineStatus", "EngineCondition",
                     "FaultCode", "CautionCode", "FuelUsedLast24", "CumulativeIdleNonOperatingHours", "CumulativePowerTakeOffHours",
                     "CumulativeActiveRegenerationHours", "CumulativeLoadCount", "CumulativePayloadTotals", "AverageLoadFactorLast24", "Metadata"]
        return Dictionary(uniqueKeysWithValues: names.map { ($0, kinds[$0.lowercased()]!) })
    }()

    static func kind(of name: String) -> Kind { exactKinds[name] ?? kinds[name.lowercased()] ?? .unknown }

    /// The file's `snapshotTime`: the reading time of elements that carry none of their own.
    var snapshotTime: Int64?

    func facts(_ node: FeedNode, tally: inout FeedTally) throws -> [ISOFact] {
        switch Self.kind(of: node.name) {
        case .location: return try location(node, &tally)
        case let .hours(meter):
            guard let text = present(node, "Hour", &tally) else { return [] }
            let (seconds, unit) = try FeedUnits.hourMeterSeconds(text)
            guard let at = try time(node, &tally) else { return [] }
            return [.meter(meter, at: at, value: seconds, raw: text, unit: unit)]
        case .fuelUsed:
            guard let (litres, raw) = try number(node, "FuelConsumed", &tally) else { return [] }
            let unit = try unitText(node, "FuelUnits", for: "FuelConsumed \(raw)")
            guard let ml = FeedUnits.millilitres(litres, unit: unit) else { throw RowError(.badValue, "FuelUnits '\(unit)' is not a volume unit FleetKit knows (litre, liter, litres, l, gallon)") }
            guard ml >= 0 else { throw RowError(.outOfRange, "FuelConsumed \(raw) is negative; a cumulative fuel meter cannot run backwards") }
            guard let at = try time(node, &tally) else { return [] }
            return [.meter("fuel_used", at: at, value: ml, raw: raw, unit: unit)]
        case let .level(meter, capacity):
            if let c = node.value(capacity), FeedValues.isPlaceholder(c) || FeedValues.number(c) == 0 { tally.placeholder("\(node.name)/\(capacity) \(c.isEmpty ? "empty" : c)") }
            guard let (percent, raw) = try number(node, "Percent", &tally) else { return [] }
            guard (0...100).contains(percent) else { throw RowError(.outOfRange, "Percent \(raw) is outside 0–100") }
            guard let at = try time(node, &tally) else { return [] }
            return [.meter(meter, at: at, value: percent, raw: raw, unit: "percent")]
        case .distance:
            guard let (value, raw) = try number(node, "Odometer", &tally) else { return [] }
            let unit = try unitText(node, "OdometerUnits", for: "Odometer \(raw)")
            guard let m = FeedUnits.metres(value, unit: unit) else { throw RowError(.badValue, "OdometerUnits '\(unit)' is not a distance unit FleetKit knows (kilometre, kilometer, km, miles, mi, metre)") }
            guard m >= 0 else { throw RowError(.outOfRange, "Odometer \(raw) is negative") }
            guard let at = try time(node, &tally) else { return [] }
            return [.meter("odometer", at: at, value: m, raw: raw, unit: unit)]
        case .engine:
            if let n = node.value("EngineNumber"), FeedValues.isPlaceholder(n) { tally.placeholder("\(node.name)/EngineNumber") }
            guard let text = present(node, "Running", &tally) else { return [] }
            guard let on = FeedValues.bool(text) else { throw RowError(.badValue, "Running is '\(text)', not true or false") }
            guard let at = try time(node, &tally) else { return [] }
            return [.engine(at: at, on: on)]
        case .fault: return try faults(node, &tally)
        case .header, .links, .notStored, .unknown: return []
        }
    }

    private func location(_ node: FeedNode, _ tally: inout FeedTally) throws -> [ISOFact] {
        guard let (lat, latRaw) = try number(node, "Latitude", &tally), let (lon, lonRaw) = try number(node, "Longitude", &tally) else { return [] }
        if lat == 0 && lon == 0 { tally.placeholder("\(node.name)/Latitude,Longitude 0,0 (no fix)"); return [] }
        guard (-90...90).contains(lat) else { throw RowError(.outOfRange, "Latitude \(latRaw) is outside -90…90") }
        guard (-180...180).contains(lon) else { throw RowError(.outOfRange, "Longitude \(lonRaw) is outside -180…180") }
        var alt: Double? = nil
        if let a = node.child("Altitude") {
            if let metres = a.child("Meters") ?? a.child("Metres") {   // AEMP 1.2: <Altitude><Meters>
                alt = try number(metres, &tally)
            } else if let (v, raw) = try number(node, "Altitude", &tally) {
                if let u = node.value("AltitudeUnits"), !FeedValues.isPlaceholder(u) {
                    alt = FeedUnits.metres(v, unit: u)
                    if alt == nil { tally.dropped("Altitude \(raw) in unknown unit '\(u)'") }
                } else {
                    tally.dropped("Altitude without AltitudeUnits")
                }
            }
        }
        guard let at = try time(node, &tally) else { return [] }
        return [.position(at: at, lat: lat, lon: lon, altM: alt)]
    }

    /// Fault codes: J1939 as `SPN-FMI` (from `SPN`/`FMI` children or a `CodeIdentifier` such
    /// as `3226-2` or `SPN 3226 FMI 2`), OBD-II as P/C/B/U codes, anything else as the OEM's
    /// own code. A wrapper element holding several codes yields one fact per code.
    private func faults(_ node: FeedNode, _ tally: inout FeedTally) throws -> [ISOFact] {
        let nested = node.children.filter { Self.kind(of: $0.name) == .fault }
        if !nested.isEmpty, node.value("CodeIdentifier") == nil {
            return try nested.flatMap { try faults($0, &tally) }
        }
        guard let raw = present(node, "CodeIdentifier", &tally) ?? node.value("Code").flatMap({ FeedValues.isPlaceholder($0) ? nil : $0 }) else { return [] }
        var spn = try node.value("SPN").flatMap { try integer($0, "SPN") }
        var fmi = try node.value("FMI").flatMap { try integer($0, "FMI") }
        if spn == nil, let pair = Self.j1939(raw) { (spn, fmi) = pair }
        var code = raw, system = "oem"
        if let s = spn, let f = fmi {
            guard s <= 524_287, f <= 31 else { throw RowError(.outOfRange, "J1939 SPN \(s) / FMI \(f) is out of range (SPN ≤ 524287, FMI ≤ 31)") }
            code = "\(s)-\(f)"
            system = "j1939"
        } else {
            spn = nil
            fmi = nil
            if Self.isOBD2(raw) {
                code = raw.uppercased()
                system = "obd2"
            }
        }
        var description = node.value("CodeDescription").flatMap { FeedValues.isPlaceholder($0) ? nil : $0 }
        if let source = node.value("CodeSource"), !FeedValues.isPlaceholder(source) {
            description = (description.map { $0 + " " } ?? "") + "[source: \(source)]"
        }
        let severity = node.value("CodeSeverity").flatMap { FeedValues.isPlaceholder($0) ? nil : $0 }
        var cleared: Int64? = nil
        if let c = node.value("datetimeCleared") {
            switch FeedValues.instant(c) {
            case let .at(ms): cleared = ms
            case .placeholder: break
            case .invalid, .outOfRange: throw RowError(.badDate, "datetimeCleared '\(c)' is not a date-time between 1971 and 2200")
            }
        }
        guard let at = try time(node, &tally) else { return [] }
        return [.dtc(at: at, code: code, system: system, spn: spn, fmi: fmi,
                     description: description, severity: severity, clearedAt: cleared)]
    }

    static func j1939(_ text: String) -> (Int, Int)? {
        let digits = text.uppercased().split(whereSeparator: { !$0.isNumber }).map(String.init)
        let words = text.uppercased().filter { $0.isLetter }
        guard digits.count == 2, words.isEmpty || words == "SPNFMI", let s = Int(digits[0]), let f = Int(digits[1]) else { return nil }
        return (s, f)
    }

    static func isOBD2(_ text: String) -> Bool {
        let u = Array(text.uppercased())
        return u.count == 5 && "PCBU".contains(u[0]) && "0123".contains(u[1]) && u[2...].allSatisfy { $0.isHexDigit }
    }

    // MARK: Field readers

    /// The element's reading time: its own `datetime` (or `dateTime`), else the snapshot time.
    /// nil when the element's own time is a placeholder (`0001-01-01T00:00:00Z`, the epoch):
    /// the vendor says it does not know when, so there is no reading to place.
    func time(_ node: FeedNode, _ tally: inout FeedTally) throws -> Int64? {
        if let raw = node.attribute("datetime") ?? node.child("datetime")?.trimmedText {
            switch FeedValues.instant(raw) {
            case let .at(ms): return ms
            case .invalid: throw RowError(.badDate, "datetime '\(raw)' is not an ISO 8601 date-time such as 2026-10-01T14:30:00Z")
            case .outOfRange: throw RowError(.outOfRange, "datetime '\(raw)' is outside the years 1971–2200")
            case .placeholder:
                tally.placeholder("\(node.name)/datetime")
                return nil
            }
        }
        guard let snapshotTime else {
            throw RowError(.missingField, "\(node.name) has no datetime of its own and the file has no snapshotTime, so the reading cannot be placed in time")
        }
        tally.atSnapshotTime += 1
        return snapshotTime
    }

    /// The text of a field, or nil (counted) when it is absent, empty or a placeholder.
    private func present(_ node: FeedNode, _ field: String, _ tally: inout FeedTally) -> String? {
        guard let v = node.value(field), !FeedValues.isPlaceholder(v) else {
            tally.placeholder("\(node.name)/\(field)")
            return nil
        }
        return v
    }

    private func number(_ node: FeedNode, _ field: String, _ tally: inout FeedTally) throws -> (Double, String)? {
        guard let text = present(node, field, &tally) else { return nil }
        guard let d = FeedValues.number(text) else { throw RowError(.badNumber, "\(field) is '\(text)', not a number (write decimals with a point)") }
        return (d, text)
    }

    private func number(_ node: FeedNode, _ tally: inout FeedTally) throws -> Double? {
        let text = node.trimmedText
        if FeedValues.isPlaceholder(text) { tally.placeholder("Altitude/\(node.name)"); return nil }
        guard let d = FeedValues.number(text) else { throw RowError(.badNumber, "\(node.name) is '\(text)', not a number") }
        return d
    }

    private func integer(_ text: String, _ field: String) throws -> Int? {
        if FeedValues.isPlaceholder(text) { return nil }
        guard let i = Int(text), i >= 0 else { throw RowError(.badNumber, "\(field) is '\(text)', not a whole number") }
        return i
    }

    private func unitText(_ node: FeedNode, _ field: String, for what: String) throws -> String {
        guard let u = node.value(field), !FeedValues.isPlaceholder(u) else {
            throw RowError(.missingField, "\(what) has no \(field); a quantity is never read without its unit")
        }
        return u
    }
}
