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
    var seenKeys: [String: Int]

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
        if let first = seenKeys[key] {
            throw RowError(.duplicateKey, "\(what) already appears on line \(first) of this file; the first row was kept")
        }
        seenKeys[key] = line
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
        let n = CSVHeader.normalise(v)
        for (canonical, spellings) in values where ([canonical] + spellings).contains(where: { CSVHeader.normalise($0) == n }) {
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
