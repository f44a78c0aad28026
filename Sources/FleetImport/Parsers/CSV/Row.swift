import Foundation
import FleetCore

/// One CSV record with typed accessors. Every accessor throws a `RowError` that says which
/// column held what and what was expected; the row loop turns it into a reject.
struct Row {
    let record: CSVRecord
    let header: CSVHeader
    let convention: DecimalNumber.Convention
    let zone: FleetZone
    let currency: String
    /// The keys earlier rows of the file registered (shared with the row loop).
    let seenKeys: KeyLedger
    /// Values already matched by `choice` in this file (shared with the row loop).
    let choices: ChoiceMemo

    var line: Int { record.line }

    /// The trimmed text of a column, nil when absent or empty.
    func text(_ column: String) -> String? { header.value(column, in: record) }

    func required(_ column: String) throws -> String {
        guard let v = text(column) else { throw RowError(.missingField, "'\(column)' is empty") }
        return v
    }

    /// Registers a natural key; a second row with the same key in one file is a reject that
    /// names the first line, since the file contradicts itself.
    mutating func unique(_ key: String, _ what: String) throws {
        if let first = try seenKeys.entry(key) {
            throw RowError(.duplicateKey, "\(what) already appears on line \(first.line) of this file; the first row was kept")
        }
        try seenKeys.set(key, KeyLedger.Entry(line: line, payload: ""))
    }

    func decimal(_ column: String) throws -> DecimalNumber? {
        guard let v = text(column) else { return nil }
        do { return try DecimalNumber.parse(v, convention: convention) } catch {
            throw RowError(.badNumber, "'\(column)': \(error.description)")
        }
    }

    func double(_ column: String, min: Double? = nil, max: Double? = nil) throws -> Double? {
        guard let d = try decimal(column)?.double else { return nil }
        if let min, d < min { throw RowError(.outOfRange, "'\(column)' is \(d), below the smallest plausible value \(min)") }
        if let max, d > max { throw RowError(.outOfRange, "'\(column)' is \(d), above the largest plausible value \(max)") }
        return d
    }

    func int(_ column: String, min: Int? = nil, max: Int? = nil) throws -> Int? {
        guard let d = try decimal(column) else { return nil }
        guard let i = d.scaled(to: 0) else { throw RowError(.badNumber, "'\(column)' must be a whole number, not \(d)") }
        if let min, i < min { throw RowError(.outOfRange, "'\(column)' is \(i), below \(min)") }
        if let max, i > max { throw RowError(.outOfRange, "'\(column)' is \(i), above \(max)") }
        return Int(i)
    }

    func date(_ column: String) throws -> CivilDate? {
        guard let v = text(column) else { return nil }
        if let d = CivilDate(v) { return d }
        // A date-time in a date column is fine: take its local day.
        if let ms = Timestamp.parse(v, zone: zone.timeZone) { return zone.day(of: ms) }
        throw RowError(.badDate, "'\(column)' is '\(v)'; write dates as YYYY-MM-DD (other orders are ambiguous between US and European habits)")
    }

    /// A date-time; a time without an offset is in the fleet time zone, a bare date is its local midnight.
    func timestamp(_ column: String) throws -> Int64? {
        guard let v = text(column) else { return nil }
        guard let ms = Timestamp.parse(v, zone: zone.timeZone) else {
            throw RowError(.badDate, "'\(column)' is '\(v)'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(zone.identifier))")
        }
        // A time the zone skipped is never shifted onto another (LocalTime).
        if let local = LocalTime.skipped(v, zone: zone.timeZone) {
            throw RowError(.badDate, "'\(column)' is " + LocalTime.skippedReason(v, local: local, zone: zone.timeZone))
        }
        guard Timestamp.plausible.contains(ms) else {
            throw RowError(.outOfRange, "'\(column)' is '\(v)', outside the years 1971–2200; placeholder dates are not real times")
        }
        return ms
    }

    func requiredTimestamp(_ column: String) throws -> Int64 {
        guard let t = try timestamp(column) else { throw RowError(.missingField, "'\(column)' is empty") }
        return t
    }

    /// The currency of the row: its currency column, else the base currency.
    func currencyCode(_ column: String = "currency") throws -> String {
        guard let c = text(column)?.uppercased() else { return currency }
        guard Money.isCurrencyCode(c) else { throw RowError(.badValue, "'\(column)' is '\(c)'; use an ISO 4217 code such as USD or EUR") }
        return c
    }

    func money(_ column: String, currency: String) throws -> Int64? {
        guard let v = text(column) else { return nil }
        do { return try Money.parse(v, currency: currency, convention: convention).minor } catch {
            throw RowError(.badNumber, "'\(column)': \(error.description)")
        }
    }

    /// A VIN column: normalised and checked (17 characters, no I, O or Q).
    func vin(_ column: String) throws -> String? {
        guard let v = text(column) else { return nil }
        let vin = VIN.normalise(v)
        if let problem = VIN.problem(vin) {
            throw RowError(.badVIN, "'\(column)' is '\(v)': \(problem); fix it or leave the column empty (machines use the PIN column)")
        }
        return vin
    }

    /// Matches a column against a fixed vocabulary, case- and space-insensitively.
    func choice(_ column: String, _ values: [String: [String]]) throws -> String? {
        guard let v = text(column) else { return nil }
        let memoKey = column + "\u{0}" + v
        if let known = choices.matched[memoKey] { return known }
        let n = CSVHeader.normalise(v)
        for (canonical, spellings) in values where ([canonical] + spellings).contains(where: { CSVHeader.normalise($0) == n }) {
            if choices.matched.count < ChoiceMemo.limit { choices.matched[memoKey] = canonical }
            return canonical
        }
        throw RowError(.badValue, "'\(column)' is '\(v)'; expected one of: \(values.keys.sorted().joined(separator: ", "))")
    }

    func bool(_ column: String) throws -> Bool? {
        guard let v = text(column)?.lowercased() else { return nil }
        switch v {
        case "1", "true", "yes", "y", "x": return true
        case "0", "false", "no", "n": return false
        default: throw RowError(.badValue, "'\(column)' is '\(v)'; expected yes/no, true/false or 1/0")
        }
    }
}

extension Row {
    /// A distance in metres from whichever of its columns the row fills: `km` or `mi` (the unit
    /// is in the column name), or `value` with its unit in the `unit` column (km, mi or m).
    ///
    /// A distance is never read without a stated unit, because kilometres and miles differ by
    /// 60 % and both look plausible; two filled columns are refused rather than one preferred.
    func metres(km: String, mi: String, value: String, unit: String, min: Double = 0) throws -> Double? {
        var found: [(column: String, metres: Double)] = []
        if let d = try double(km, min: min) { found.append((km, d * Units.metresPerKilometre)) }
        if let d = try double(mi, min: min) { found.append((mi, d * Units.metresPerMile)) }
        if let d = try double(value, min: min) {
            guard let u = text(unit) else {
                let fix = header.index(unit) == nil ? "add a column '\(unit)' (km or mi)" : "fill '\(unit)' (km or mi)"
                throw RowError(.missingField, "'\(value)' is \(text(value)!) but no unit is given, and km and miles are not guessed: \(fix), or give the distance in column '\(km)' or '\(mi)' instead")
            }
            guard let m = Units.metres(d, unit: u) else {
                throw RowError(.badValue, "'\(unit)' is '\(u)'; expected km, mi or m (engine hours have their own column)")
            }
            found.append((value, m))
        }
        if found.count > 1 {
            throw RowError(.badValue, "'\(found[0].column)' and '\(found[1].column)' both hold a distance; keep one so it is clear which is meant")
        }
        return found.first?.metres
    }
}

extension Row {
    /// An instant from a date column and an optional time-of-day column, as exports often split
    /// them (`Transaction Date`, `Transaction Time`). The time of day (`HH:MM`, `HH:MM:SS`,
    /// 24-hour or with AM/PM) is added to the date, in the fleet time zone. A midnight that a
    /// spreadsheet wrote into the date column (`2026-10-01 00:00:00`) is not a time of day; any
    /// other time there must agree with the time column. A full date-time in the time column is
    /// used as it is when its date agrees. A date alone is its local midnight; nil when both are empty.
    func timestamp(date dateColumn: String, time timeColumn: String) throws -> Int64? {
        guard let day = text(dateColumn) else { return try timestamp(timeColumn) }
        guard let clock = text(timeColumn) else { return try timestamp(dateColumn) }
        let date = String(day.prefix(10))
        guard CivilDate(date) != nil else { return try timestamp(dateColumn) }
        func disagree() -> RowError {
            RowError(.badValue, "'\(dateColumn)' is '\(day)' but '\(timeColumn)' is '\(clock)'; the two columns name different times — correct one of them")
        }
        if clock.utf8.count >= 10, CivilDate(String(clock.prefix(10))) != nil {
            guard clock.hasPrefix(date) else { throw disagree() }
            return try timestamp(timeColumn)
        }
        guard let hms = Self.timeOfDay(clock), let ms = Timestamp.parse(date + "T" + hms, zone: zone.timeZone) else {
            throw RowError(.badDate, "'\(timeColumn)' is '\(clock)'; write the time of day as HH:MM or HH:MM:SS (24-hour, or with AM/PM), in the fleet time zone \(zone.identifier)")
        }
        if let local = LocalTime.skipped(date + "T" + hms, zone: zone.timeZone) {
            throw RowError(.badDate, "'\(dateColumn)' and '\(timeColumn)' are " + LocalTime.skippedReason("\(day) \(clock)", local: local, zone: zone.timeZone))
        }
        let rest = day.dropFirst(10).trimmingCharacters(in: CharacterSet(charactersIn: " Tt"))
        if !rest.isEmpty, !rest.allSatisfy({ "0:.".contains($0) }), try timestamp(dateColumn) != ms { throw disagree() }
        guard Timestamp.plausible.contains(ms) else {
            throw RowError(.outOfRange, "'\(dateColumn)' is '\(day)', outside the years 1971–2200; placeholder dates are not real times")
        }
        return ms
    }

    /// `14:05`, `14:05:09`, `2:05 PM`, `02:05:09pm` as `HH:MM:SS`; nil for anything else.
    static func timeOfDay(_ text: String) -> String? {
        var s = text.lowercased().trimmingCharacters(in: .whitespaces)
        var pm: Bool? = nil
        for (suffix, isPM) in [("am", false), ("a.m.", false), ("pm", true), ("p.m.", true)] where s.hasSuffix(suffix) {
            pm = isPM
            s = String(s.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var h = Int(parts[0]), let m = Int(parts[1]), let sec = parts.count == 3 ? Int(parts[2]) : 0,
              parts[1].count == 2, parts.count == 2 || parts[2].count == 2, m < 60, sec < 60 else { return nil }
        if let pm {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + (pm ? 12 : 0)
        }
        guard h < 24 else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(h)):\(two(m)):\(two(sec))"
    }
}

/// The spellings `Row.choice` has already matched in one file. A column such as a DVIR's
/// component or type holds a handful of distinct values, and normalising every spelling of the
/// table for every row was a tenth of a DVIR import's time. Bounded: past `limit` distinct
/// values, matching is done afresh.
final class ChoiceMemo {
    static let limit = 4096
    var matched: [String: String] = [:]
}
