import Foundation

/// Excel's numbers as the text FleetKit's CSV formats parse.
///
/// Dates: a number in a cell whose style is a date or time format is a serial day count.
/// - 1900 system (the default): serial 1 is 1900-01-01. Excel counts a 29 February 1900 that
///   never was (serial 60), so serials from 61 on are days since 1899-12-30, those below 60
///   days since 1899-12-31, and 60 itself is refused (no such day).
/// - 1904 system (`workbookPr date1904`, old Mac workbooks): serial 0 is 1904-01-01.
/// - A serial below 1 is a time of day without a date: `HH:MM:SS`.
/// The fraction is the time of day, rounded to the millisecond (Excel keeps no more). The text
/// is `YYYY-MM-DD` at midnight, else `YYYY-MM-DDTHH:MM:SS` (`.mmm` when there are milliseconds),
/// without an offset: a local time, read in the fleet time zone as a CSV's is. Serials outside
/// 0 … 2,958,465 (9999-12-31) are refused.
///
/// Numbers: Excel keeps 15 significant digits. Plain decimals of at most 15 digits pass as
/// written; others (`1.5E-3`, binary leftovers such as `0.30000000000000004`) are rounded to 15
/// significant digits and written as a plain decimal without an exponent.
enum XLSXDates {
    /// ECMA-376 built-in formats that show dates or times: 14–22 and 45–47.
    static func isBuiltInDate(_ id: Int) -> Bool { (14...22).contains(id) || (45...47).contains(id) }

    /// A custom format code shows a date or time when, outside quoted text, escaped characters
    /// and bracketed sections (colours, locales, conditions, elapsed `[h]`), it has a d, m, y, h
    /// or s token. Elapsed-time formats (`[h]:mm`) are durations, not dates.
    static func isDateFormat(_ code: String) -> Bool {
        var inQuote = false, inBracket = false, escaped = false
        var elapsed = false
        var found = false
        for ch in code.lowercased() {
            if escaped { escaped = false; continue }
            if inQuote { if ch == "\"" { inQuote = false }; continue }
            if inBracket {
                if ch == "]" { inBracket = false } else if "hms".contains(ch) { elapsed = true }
                continue
            }
            switch ch {
            case "\"": inQuote = true
            case "[": inBracket = true
            case "\\", "_", "*": escaped = true
            case ";": return found && !elapsed   // the first section decides
            case "d", "m", "y", "h", "s": found = true
            default: break
            }
        }
        return found && !elapsed
    }

    static let lastSerial = 2_958_465.0

    /// The text of serial `v`, or a problem to reject the row with.
    static func text(serial v: Double, date1904: Bool) -> Result<String, CellProblem> {
        guard v.isFinite, v >= 0, v < lastSerial + 1 else {
            return .failure(CellProblem("holds \(v) in a date format, which is no date Excel can show (0 … 9999-12-31)"))
        }
        let ms = Int64((v * 86_400_000).rounded())
        if ms < 86_400_000 { return .success(clock(ms)) }
        let epochDays: Int64
        if date1904 { epochDays = 24_107 } else if v >= 61 { epochDays = 25_569 } else if v >= 60 {
            return .failure(CellProblem("holds serial 60, the 29 February 1900 that Excel counts but that never was; correct the date"))
        } else { epochDays = 25_568 }
        let unixMs = ms - epochDays * 86_400_000
        let day = unixMs >= 0 ? unixMs / 86_400_000 : (unixMs - 86_399_999) / 86_400_000
        let (y, m, d) = civil(fromDays: day)
        let date = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
        let rest = unixMs - day * 86_400_000
        return .success(rest == 0 ? date : date + "T" + clock(rest))
    }

    private static func clock(_ ms: Int64) -> String {
        let s = ms / 1000, frac = ms % 1000
        let base = "\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
        return frac == 0 ? base : base + "." + pad(frac, 3)
    }

    private static func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// A cell's number as plain decimal text (see the type's comment), nil when it is not a number.
    static func number(_ v: String) -> String? {
        let t = v.trimmingCharacters(in: .whitespaces)
        var digits = 0, plain = !t.isEmpty, sawDigit = false, leading = true
        for (k, c) in t.utf8.enumerated() {
            if c >= 0x30, c <= 0x39 {
                sawDigit = true
                if c != 0x30 || !leading { digits += 1; leading = false }
            } else if c == UInt8(ascii: "."), plain {
                continue
            } else if c == UInt8(ascii: "-"), k == 0 {
                continue
            } else { plain = false }
        }
        if plain, sawDigit, digits <= 15, t.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1, !t.hasSuffix(".") { return t }
        guard let d = Double(t), d.isFinite else { return nil }
        return plainDecimal(String(format: "%.14e", d))
    }

    /// `-1.23450000000000e+05` as `-123450`: no exponent, no trailing zeros.
    static func plainDecimal(_ e: String) -> String? {
        let parts = e.split(separator: "e")
        guard parts.count == 2, let exp = Int(parts[1]) else { return nil }
        var mantissa = String(parts[0])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let digits = Array(mantissa.replacingOccurrences(of: ".", with: ""))
        guard exp > -400, exp < 400 else { return nil }
        let point = 1 + exp  // digits before the decimal point
        var s: String
        if point <= 0 { s = "0." + String(repeating: "0", count: -point) + String(digits) } else if point >= digits.count {
            s = String(digits) + String(repeating: "0", count: point - digits.count)
        } else { s = String(digits[..<point]) + "." + String(digits[point...]) }
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        if s.isEmpty || s == "0" || s.allSatisfy({ $0 == "0" || $0 == "." }) { return "0" }
        return (negative ? "-" : "") + s
    }
}

/// Why one cell's value cannot be read; the row is rejected when the format reads that column.
struct CellProblem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
