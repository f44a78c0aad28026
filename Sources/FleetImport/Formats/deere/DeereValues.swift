import Foundation
import FleetCore

/// Deere Operations Center scalars: numbers that arrive as JSON numbers or as strings
/// (`valueAsInteger "3"`, `occurrences "1"`, `lat "41.597164"`), measurements
/// (`{"valueAsDouble": 1.18, "unit": "Hours"}`) and Deere's own unit spellings (`km1hr-1`,
/// `prcnt`, `meters`/`m`, `Hours`/`hours`, `Seconds`).
///
/// Built on `JSONFields` (the located accessors the Samsara reader uses): a wrong type is a row
/// error at the member's JSON path, never read as missing.
extension JSONFields {
    /// A number sent as a JSON number or as a numeric string. The string must be a plain JSON
    /// number (`"41.597164"`, `"-3"`): `"1,5"` or `"12 h"` is refused rather than guessed.
    func deereNumber(_ key: String) throws(JSONRowError) -> (value: Double, raw: String)? {
        guard let v = node[key], !v.isNull else { return nil }
        let text: String
        switch v {
        case let .number(n): text = n
        case let .string(s):
            guard let t = JSONFields.trimmed(s) else { return nil }
            guard DeereUnits.isJSONNumber(t) else {
                throw JSONRowError(.badNumber, "'\(key)' is \"\(s)\", which is not a number", at: at(key))
            }
            text = t
        default:
            throw JSONRowError(.wrongType, "'\(key)' should be a number (or a numeric string) but is \(v.kind)", at: at(key))
        }
        guard let d = Double(text), d.isFinite else {
            throw JSONRowError(.badNumber, "'\(key)' is \(text), which is not a finite number", at: at(key))
        }
        return (d, text)
    }

    func deereNumber(_ key: String, in range: ClosedRange<Double>, unit: String) throws(JSONRowError) -> (value: Double, raw: String)? {
        guard let n = try deereNumber(key) else { return nil }
        guard range.contains(n.value) else {
            throw JSONRowError(.outOfRange, "'\(key)' is \(n.raw) \(unit), outside \(JSONFields.show(range.lowerBound))…\(JSONFields.show(range.upperBound)) \(unit)", at: at(key))
        }
        return n
    }

    /// A whole number (SPN, FMI, source address) sent as a number or a string.
    func deereInteger(_ key: String, in range: ClosedRange<Int>) throws(JSONRowError) -> Int? {
        guard let n = try deereNumber(key) else { return nil }
        guard n.value == n.value.rounded(), n.value >= Double(range.lowerBound), n.value <= Double(range.upperBound) else {
            throw JSONRowError(.outOfRange, "'\(key)' is \(n.raw), not a whole number in \(range.lowerBound)…\(range.upperBound)", at: at(key))
        }
        return Int(n.value)
    }

    /// A measurement object `{valueAsDouble | valueAsInteger | value, unit}`: the number and
    /// the unit string as sent (nil when the measurement is absent).
    func measurement(_ key: String) throws(JSONRowError) -> (value: Double, raw: String, unit: String?, path: String)? {
        guard let m = try object(key) else { return nil }
        for k in ["valueAsDouble", "valueAsInteger", "value"] {
            if let n = try m.deereNumber(k) { return (n.value, n.raw, try m.string("unit"), m.at(k)) }
        }
        throw JSONRowError(.missingField, "'\(key)' has no valueAsDouble or valueAsInteger", at: m.path)
    }

    /// A Deere timestamp (`2010-10-04T15:06:34.000Z`) as UTC ms; nil when absent. The epoch
    /// (`1970-01-01T00:00:00.000Z`) and other pre-1971 times are `placeholder`.
    func deereTime(_ key: String) throws(JSONRowError) -> JSONTime.Parsed? {
        guard let s = try string(key) else { return nil }
        let p = JSONTime.parse(s)
        if p == .invalid {
            throw JSONRowError(.badDate, "'\(key)' is '\(s)', not an ISO 8601 date-time (2026-10-01T14:05:00.000Z)", at: at(key))
        }
        return p
    }
}

/// Deere's unit strings, to the warehouse's SI units. Each returns nil for a unit it does not
/// know, which the caller rejects: a guessed unit would corrupt every delta.
enum DeereUnits {
    /// Hour-meter units to seconds per unit.
    static func secondsPer(_ unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: .whitespaces) {
        case "hours", "hour", "hr", "hrs", "h": return 3600
        case "minutes", "minute", "min": return 60
        case "seconds", "second", "sec", "s": return 1
        default: return nil
        }
    }

    /// Altitude units to metres: Deere writes `meters` (location history) and `m` (breadcrumbs).
    static func metres(_ value: Double, unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: .whitespaces) {
        case "ft", "feet", "foot": return value * 0.3048
        default: return Units.metres(value, unit: unit)
        }
    }

    /// Speed units to m/s. Deere writes SI-style products of powers: `km1hr-1` is km·h⁻¹.
    static func metresPerSecond(_ value: Double, unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: .whitespaces) {
        case "km1hr-1", "km/h", "kph", "kmh": return value / 3.6
        case "m1s-1", "m/s", "mps": return value
        case "mi1hr-1", "mph", "mi/h": return value * Units.metresPerMile / 3600
        default: return nil
        }
    }

    /// Percent spellings; Deere writes `prcnt`.
    static func isPercent(_ unit: String) -> Bool {
        ["prcnt", "%", "percent", "pct"].contains(unit.lowercased().trimmingCharacters(in: .whitespaces))
    }

    /// The RFC 8259 number grammar, for numbers sent as strings.
    static func isJSONNumber(_ s: String) -> Bool {
        var u = Array(s.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let c = u.first, c >= 48, c <= 57 { u = u.dropFirst(); n += 1 }
            return n
        }
        if u.first == UInt8(ascii: "-") { u = u.dropFirst() }
        if u.first == UInt8(ascii: "0") { u = u.dropFirst() } else if digits() == 0 { return false }
        if u.first == UInt8(ascii: ".") { u = u.dropFirst(); if digits() == 0 { return false } }
        if let c = u.first, c | 0x20 == UInt8(ascii: "e") {
            u = u.dropFirst()
            if let s = u.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { u = u.dropFirst() }
            if digits() == 0 { return false }
        }
        return u.isEmpty
    }
}
