import Foundation
import FleetCore

/// Numbers as text, the same way in every renderer.
///
/// Machine formats (CSV, JSON) get `plain` numbers: no grouping, a `.` decimal mark, at most six
/// decimals, trailing zeros dropped, never an exponent, so two runs print the same digits and
/// `12.5` never becomes `12.500000000001`. Money is printed from its integer minor units, so it
/// is exact. People formats (HTML, XLSX widths) get `grouped` numbers: thousands separators and
/// the column type's places. The locale is fixed (`,` groups, `.` is the mark) so output does
/// not depend on the machine that renders it.
enum ValueText {
    /// Six decimals is finer than any unit a report shows (a millimetre in km, 3.6 ms in hours).
    static let plainPlaces = 6

    /// `12.5`, `-3`, `0.000001`; nil for NaN and infinities (CSV writes an empty cell, JSON null).
    static func plain(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var s = String(format: "%.\(plainPlaces)f", rounded(value, places: plainPlaces))
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    /// `1234.50` for USD, `1235` for JPY, `-0.05`: exact, with the currency's minor digits.
    static func money(minor: Int64, currency: String) -> String {
        DecimalNumber(mantissa: minor, scale: Money.minorDigits(currency)).description
    }

    /// `1,234.5` with `places` decimals. A non-zero value that would round to zero gets up to four
    /// more decimals (0.04 stays 0.04, not 0.0), as ReportColumnType.places allows.
    static func grouped(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "" }
        var p = places
        var s = String(format: "%.\(p)f", rounded(value, places: p))
        while value != 0, p < places + 4, Double(s) == 0 {
            p += 1
            s = String(format: "%.\(p)f", rounded(value, places: p))
        }
        if Double(s) == 0 { s = String(format: "%.\(places)f", 0.0) }
        return group(s)
    }

    /// Rounds half away from zero, as Excel and people do (printf rounds 12.25 to 12.2, half to
    /// even on the binary value). Binary noise below a millionth of the last place is dropped
    /// first, so 1.005 (really 1.00499999…) rounds to 1.01 as written.
    static func rounded(_ value: Double, places: Int) -> Double {
        let factor = pow(10, Double(places))
        var scaled = value * factor
        guard scaled.isFinite, abs(scaled) < 1e9 else { return value }
        scaled = (scaled * 1e6).rounded() / 1e6
        return scaled.rounded(.toNearestOrAwayFromZero) / factor
    }

    /// A rate with its own precision: at least the column's four decimals, up to six when it has
    /// them (`1.0872`, `0.728100` is `0.7281`, `1.373438`), grouped (`149.8000`).
    static func rate(_ value: Double) -> String {
        let decimals = plain(value).flatMap { $0.split(separator: ".").dropFirst().first?.count } ?? 0
        return grouped(value, places: min(plainPlaces, max(ReportColumnType.rate.places, decimals)))
    }

    /// `$1,234.50`, `€-12.00` is written `-€12.00`, `1,234.50 CHF` for codes without a common symbol.
    static func groupedMoney(minor: Int64, currency: String) -> String {
        let text = group(money(minor: minor, currency: currency))
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        if let symbol = symbol(currency) { return (negative ? "-" : "") + symbol + digits }
        return text + " " + currency
    }

    /// Currency symbols that are unambiguous to the readers of a fleet report.
    static func symbol(_ currency: String) -> String? {
        switch currency {
        case "USD": return "$"
        case "EUR": return "€"
        case "GBP": return "£"
        case "JPY": return "¥"
        case "INR": return "₹"
        case "KRW": return "₩"
        default: return nil
        }
    }

    /// Inserts `,` every three digits of the integer part of a plain decimal string.
    static func group(_ plain: String) -> String {
        var s = Substring(plain)
        var sign = ""
        if s.hasPrefix("-") { sign = "-"; s = s.dropFirst() }
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = Array(parts[0])
        var out = ""
        for (i, c) in integer.enumerated() {
            if i > 0, (integer.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        if parts.count > 1 { out += "." + parts[1] }
        // "-0.0" after rounding is just zero.
        if sign == "-", out.allSatisfy({ $0 == "0" || $0 == "." || $0 == "," }) { sign = "" }
        return sign + out
    }
}
