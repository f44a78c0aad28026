import Foundation
import FleetCore

/// Reads a row's cells as a profile says: numbers with its decimal and grouping marks, units
/// to SI, times with its patterns in its zone. Every problem is a `RowError` naming the file's
/// column (in quotes, so the reject is located at the cell) and what the profile expected.
///
/// In an `.xlsx` workbook, cells Excel typed come as FleetKit's text of them
/// (`XLSXRecords`: plain decimals with '.', dates as `YYYY-MM-DD[THH:MM:SS]`): they are read so
/// whatever the profile says, and the profile's marks and patterns apply to text cells.
struct ProfileValues {
    let profile: Profile
    let zone: FleetZone
    let workbook: Bool
    /// The mapped columns by field: looked up for every field of every row.
    private let byField: [String: Profile.Column]

    init(profile: Profile, zone: FleetZone, workbook: Bool) {
        self.profile = profile
        self.zone = profile.zone ?? zone
        self.workbook = workbook
        byField = Dictionary(profile.columns.map { ($0.field, $0) }) { a, _ in a }
    }

    func column(_ field: String) -> Profile.Column? { byField[field] }

    func text(_ row: Row, _ field: String) -> String? {
        column(field).flatMap { row.text($0.header) }
    }

    /// The text a decimal parser reads, and its convention, after the profile's marks.
    func numeric(_ v: String, column: String) throws -> (String, DecimalNumber.Convention) {
        if workbook, Self.isPlainDecimal(v) { return (v, .point) }
        let other: Character = profile.decimalMark == "." ? "," : "."
        var t = v
        if let g = profile.groupingMark, g != "," && g != "." { t.removeAll { $0 == g } }
        if profile.groupingMark != other, t.contains(other) {
            throw RowError(.badNumber, "'\(column)' is '\(QuotedText.cut(v))', but the profile's decimal mark is '\(profile.decimalMark)' and its grouping mark \(profile.groupingMark.map { "'\($0)'" } ?? "none"); correct the value or the profile's decimal and grouping")
        }
        return (t, profile.decimalMark == "." ? .point : .comma)
    }

    static func isPlainDecimal(_ v: String) -> Bool {
        var s = Substring(v)
        if s.first == "-" { s = s.dropFirst() }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return !s.isEmpty && parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    func decimal(_ row: Row, _ field: String) throws -> DecimalNumber? {
        guard let c = column(field), let v = row.text(c.header) else { return nil }
        return try decimal(text: v, column: c.header)
    }

    /// A cell's number after the profile's marks; `column` is the file's header, for the reject.
    func decimal(text v: String, column: String) throws -> DecimalNumber {
        let (t, convention) = try numeric(v, column: column)
        do { return try DecimalNumber.parse(t, convention: convention) } catch {
            throw RowError(.badNumber, "'\(column)': \(error.description)")
        }
    }

    /// A measured value in SI: the column's number times its unit's factor.
    func measure(_ row: Row, _ field: String, min: Double? = nil, max: Double? = nil) throws -> (si: Double, raw: DecimalNumber, unit: ProfileUnit)? {
        // Coordinates and headings are degrees whether or not the profile says so.
        guard let c = column(field), let unit = c.unit ?? ([.latitude, .longitude, .heading].contains(c.kind) ? .degrees : nil),
              let d = try decimal(row, field) else { return nil }
        let v = d.double
        if let min, v < min { throw RowError(.outOfRange, "'\(c.header)' is \(d), below the smallest plausible value \(min)") }
        if let max, v > max { throw RowError(.outOfRange, "'\(c.header)' is \(d), above the largest plausible value \(max)") }
        return (v * unit.factor, d, unit)
    }

    /// The row's currency: the amount's unit, else its currency column, else the base currency.
    func currency(_ row: Row, base: String) throws -> (code: String, assumed: Bool) {
        if let money = profile.columns.first(where: { $0.kind == .money }), case let .currency(c?) = money.unit { return (c, false) }
        if let col = column("currency"), let v = row.text(col.header) {
            let c = v.uppercased()
            guard Money.isCurrencyCode(c) else { throw RowError(.badValue, "'\(col.header)' is '\(QuotedText.cut(v))'; use an ISO 4217 code such as USD or EUR") }
            return (c, false)
        }
        return (base, true)
    }

    func money(_ row: Row, _ field: String, currency: String) throws -> Int64? {
        guard let c = column(field), let v = row.text(c.header) else { return nil }
        let (t, convention) = try numeric(v, column: c.header)
        do { return try Money.parse(t, currency: currency, convention: convention).minor } catch {
            throw RowError(.badNumber, "'\(c.header)': \(error.description); \(RowHints.amount(currency))")
        }
    }

    /// The row's instant: its `datetime` column, or `date` and `time`; nil when empty.
    func instant(_ row: Row) throws -> Int64? {
        if let c = column("datetime") {
            guard let v = row.text(c.header) else { return nil }
            return try instant(text: v, column: c.header)
        }
        guard let dc = column("date"), let dv = row.text(dc.header) else { return nil }
        var parts = try dateParts(dv, column: dc.header)
        if let tc = column("time"), let tv = row.text(tc.header) {
            if let f = profile.timeFormat {
                guard let p = f.parse(tv) ?? (workbook ? Self.clock(tv) : nil) else { throw badPattern(tv, column: tc.header, pattern: f.pattern) }
                (parts.hour, parts.minute, parts.second, parts.millis) = (p.hour, p.minute, p.second, p.millis)
            } else {
                guard let p = Self.clock(tv) else {
                    throw RowError(.badDate, "'\(tc.header)' is '\(QuotedText.cut(tv))'; expected HH:MM or HH:MM:SS (24-hour, or with AM/PM); a profile's time_format states another pattern")
                }
                (parts.hour, parts.minute, parts.second) = (p.hour, p.minute, p.second)
            }
        }
        return try utc(parts, text: dv, column: dc.header)
    }

    /// A date-time cell read with the profile's `date_format` (ISO 8601 without one), in its zone.
    func instant(text v: String, column: String) throws -> Int64 {
        if let f = profile.dateFormat {
            if let p = f.parse(v) { return try utc(p, text: v, column: column) }
            if let ms = try workbookDate(v, column: column) { return ms }
            throw badPattern(v, column: column, pattern: f.pattern)
        }
        return try iso(v, column: column)
    }

    /// A calendar-day cell (an expiry, an in-service date): the date part of `date_format`.
    func day(text v: String, column: String) throws -> CivilDate {
        let p = try dateParts(v, column: column)
        guard let d = CivilDate(year: p.year, month: p.month, day: p.day) else {
            throw RowError(.badDate, "'\(column)' is '\(QuotedText.cut(v))', not a date that exists")
        }
        return d
    }

    private func dateParts(_ dv: String, column: String) throws -> ProfileDateFormat.Parts {
        if let f = profile.dateFormat, let p = f.parse(dv) { return p }
        if (profile.dateFormat == nil || workbook), let d = CivilDate(String(dv.prefix(10))),
           dv.count == 10 || dv.dropFirst(10).allSatisfy({ "T 0:.".contains($0) }) {
            return ProfileDateFormat.Parts(year: d.year, month: d.month, day: d.day)
        }
        throw badPattern(dv, column: column, pattern: profile.dateFormat?.pattern ?? "YYYY-MM-DD")
    }

    static func clock(_ v: String) -> ProfileDateFormat.Parts? {
        guard let hms = Row.timeOfDay(v) else { return nil }
        let n = hms.split(separator: ":").compactMap { Int($0) }
        return ProfileDateFormat.Parts(hour: n[0], minute: n[1], second: n[2])
    }

    private func badPattern(_ v: String, column: String, pattern: String) -> RowError {
        RowError(.badDate, "'\(column)' is '\(QuotedText.cut(v))', which does not follow the profile's pattern \(pattern); correct the value, or the profile's date_format/time_format if the whole file differs")
    }

    /// An `.xlsx` date cell (ISO text without an offset), when the file is a workbook.
    private func workbookDate(_ v: String, column: String) throws -> Int64? {
        guard workbook, v.count >= 10, CivilDate(String(v.prefix(10))) != nil else { return nil }
        return try iso(v, column: column)
    }

    private func iso(_ v: String, column: String) throws -> Int64 {
        guard let ms = Timestamp.parse(v, zone: zone.timeZone) else {
            throw RowError(.badDate, "'\(column)' is '\(QuotedText.cut(v))'; without a date_format in the profile, times are read as ISO 8601 (2026-10-01T14:30:00, an offset or the zone \(zone.identifier))")
        }
        if let local = LocalTime.skipped(v, zone: zone.timeZone) { throw RowError(.badDate, "'\(column)' is " + LocalTime.skippedReason(v, local: local, zone: zone.timeZone)) }
        return try plausible(ms, v, column)
    }

    /// Local wall-clock parts in the profile's zone to UTC milliseconds.
    private func utc(_ p: ProfileDateFormat.Parts, text: String, column: String) throws -> Int64 {
        func pad(_ n: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(n).count)) + String(n) }
        let local = "\(pad(p.year, 4))-\(pad(p.month, 2))-\(pad(p.day, 2))T\(pad(p.hour, 2)):\(pad(p.minute, 2)):\(pad(p.second, 2))" + (p.millis > 0 ? ".\(pad(p.millis, 3))" : "")
        guard let ms = Timestamp.parse(local, zone: zone.timeZone) else {
            throw RowError(.badDate, "'\(column)' is '\(QuotedText.cut(text))', not a date that exists")
        }
        if let skipped = LocalTime.skipped(local, zone: zone.timeZone) {
            throw RowError(.badDate, "'\(column)' is " + LocalTime.skippedReason(text, local: skipped, zone: zone.timeZone))
        }
        return try plausible(ms, text, column)
    }

    private func plausible(_ ms: Int64, _ v: String, _ column: String) throws -> Int64 {
        guard Timestamp.plausible.contains(ms) else {
            throw RowError(.outOfRange, "'\(column)' is '\(QuotedText.cut(v))', outside the years 1971–2200; placeholder dates are not real times")
        }
        return ms
    }
}
