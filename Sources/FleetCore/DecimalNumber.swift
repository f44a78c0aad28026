/// An exact decimal read from text: `mantissa × 10^-scale`.
///
/// Money must reconcile to the cent, so amounts never pass through `Double`. The parser also
/// settles the comma question (`1,234.56`, `1.234,56`, `12,5`) by rules documented in
/// docs/FORMATS.md, and refuses what it cannot read unambiguously instead of guessing.
public struct DecimalNumber: Equatable, Sendable, CustomStringConvertible {
    public var mantissa: Int64
    public var scale: Int

    public init(mantissa: Int64, scale: Int) {
        self.mantissa = mantissa
        self.scale = scale
    }

    /// How a lone separator followed by exactly three digits (`1,234` or `1.234`) is read. Comma-
    /// delimited files cannot hold an unquoted decimal comma, so their convention is `.point`;
    /// `;`- and tab-delimited files come from locales that write `.comma`.
    public enum Convention: Sendable {
        case point   // '.' is the decimal mark, ',' groups thousands
        case comma   // ',' is the decimal mark, '.' groups thousands

        public static func forDelimiter(_ delimiter: UInt8) -> Convention {
            delimiter == UInt8(ascii: ",") ? .point : .comma
        }
    }

    public var double: Double {
        var d = Double(mantissa)
        for _ in 0..<scale { d /= 10 }
        return d
    }

    public var description: String {
        guard scale > 0 else { return String(mantissa) }
        let negative = mantissa < 0
        var digits = String(mantissa.magnitude)
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        return (negative ? "-" : "") + digits
    }

    /// The value in units of 10^-digits, or nil when that would drop non-zero digits (a USD amount
    /// with three decimals is an error, not something to round silently).
    public func scaled(to digits: Int) -> Int64? {
        if scale == digits { return mantissa }
        if scale < digits {
            var m = mantissa
            for _ in scale..<digits {
                let (r, o) = m.multipliedReportingOverflow(by: 10)
                if o { return nil }
                m = r
            }
            return m
        }
        var m = mantissa
        for _ in digits..<scale {
            guard m % 10 == 0 else { return nil }
            m /= 10
        }
        return m
    }

    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case notANumber(String)
        case badGrouping(String)
        case tooLarge(String)

        public var description: String {
            switch self {
            case .empty: return "the value is empty"
            case let .notANumber(s): return "'\(QuotedText.cut(s))' is not a number"
            case let .badGrouping(s): return "'\(QuotedText.cut(s))' has thousands separators in the wrong places"
            case let .tooLarge(s): return "'\(QuotedText.cut(s))' is too large"
            }
        }
    }

    /// Parses amounts and quantities as people and spreadsheets write them.
    ///
    /// Accepted: an optional sign (`-`, `+`, or accounting parentheses), currency symbols and
    /// codes around the number (`$`, `€`, `£`, `¥`, `USD`), spaces or apostrophes as thousands
    /// separators, and `.`/`,` by these rules: when both appear, the last one is the decimal mark;
    /// one kind appearing more than once groups thousands; a single one followed by other than
    /// three digits is the decimal mark; a single one followed by exactly three digits follows
    /// `convention`. Exponents, `NaN` and infinities are refused.
    public static func parse(_ text: String, convention: Convention = .point) throws(ParseError) -> DecimalNumber {
        var s = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !s.isEmpty else { throw .empty }
        var negative = false
        if s.hasPrefix("("), s.hasSuffix(")") { negative = true; s = s.dropFirst().dropLast() }
        // Strip currency symbols and ISO codes on either side.
        let strip: (Character) -> Bool = { c in
            c == "$" || c == "€" || c == "£" || c == "¥" || c == "₩" || c == "₹" || c == "¤" || (c.isLetter && c.isUppercase && c.isASCII) || c == " " || c == "\u{00A0}"
        }
        s = s.drop(while: strip)
        while let last = s.last, strip(last) { s = s.dropLast() }
        if s.hasPrefix("-") { negative.toggle(); s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        if s.hasSuffix("-") { negative.toggle(); s = s.dropLast() }
        s = s.drop(while: strip)
        guard !s.isEmpty else { throw .notANumber(text) }

        var chars = Array(s.unicodeScalars)
        // Spaces, thin spaces and apostrophes group thousands (Swiss, French); drop them after
        // checking shape: only between digits of the integer part, in groups of three. Dropped
        // anywhere, `.31 8888888888888800` read as 0.318888888888888800 (the fuzzer found it).
        let spacer: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" || $0 == "'" || $0 == "’" }
        guard chars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "," || spacer($0) }) else { throw .notANumber(text) }
        if chars.contains(where: spacer) {
            let firstMark = chars.firstIndex { $0 == "." || $0 == "," } ?? chars.count
            let groups = chars[..<firstMark].split(omittingEmptySubsequences: false, whereSeparator: spacer)
            guard !chars[firstMark...].contains(where: spacer), groups.count > 1, (1...3).contains(groups[0].count),
                  groups.dropFirst().allSatisfy({ $0.count == 3 }) else { throw .badGrouping(text) }
        }
        chars.removeAll(where: spacer)
        guard chars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "," }),
              chars.contains(where: { ("0"..."9").contains($0) }) else { throw .notANumber(text) }
        let dots = chars.indices.filter { chars[$0] == "." }
        let commas = chars.indices.filter { chars[$0] == "," }
        var decimalAt: Int? = nil
        var group: Unicode.Scalar? = nil
        switch (dots.count, commas.count) {
        case (0, 0): break
        case (_, 0) where dots.count > 1: group = "."
        case (0, _) where commas.count > 1: group = ","
        case (1, 0), (0, 1):
            let at = dots.first ?? commas.first!
            let after = chars.count - at - 1
            let mark: Unicode.Scalar = chars[at]
            if after != 3 { decimalAt = at } else {
                let isDecimal = (mark == "." && convention == .point) || (mark == "," && convention == .comma)
                if isDecimal { decimalAt = at } else { group = mark }
            }
        default:
            let lastDot = dots.last ?? -1, lastComma = commas.last ?? -1
            decimalAt = max(lastDot, lastComma)
            group = lastDot > lastComma ? "," : "."
            let decimalMark = chars[decimalAt!]
            guard chars.indices.filter({ chars[$0] == decimalMark }).count == 1 else { throw .badGrouping(text) }
        }
        let integerPart = Array(chars[..<(decimalAt ?? chars.count)])
        let fraction = decimalAt.map { Array(chars[($0 + 1)...]) } ?? []
        if let group {
            let groups = integerPart.split(separator: group, omittingEmptySubsequences: false)
            guard groups.count > 1, let first = groups.first, (1...3).contains(first.count),
                  groups.dropFirst().allSatisfy({ $0.count == 3 }) else { throw .badGrouping(text) }
        }
        let digits = integerPart.filter { $0 != "." && $0 != "," } + fraction
        guard !fraction.contains(where: { $0 == "." || $0 == "," }), !digits.isEmpty else { throw .notANumber(text) }
        // Leading zeros carry nothing: 18 significant digits fit an Int64 mantissa, whatever
        // the `0.` that prints before a pure fraction.
        guard digits.drop(while: { $0 == "0" }).count <= 18 else { throw .tooLarge(text) }
        var m: Int64 = 0
        for d in digits { m = m * 10 + Int64(d.value - 48) }
        return DecimalNumber(mantissa: negative ? -m : m, scale: fraction.count)
    }
}

import Foundation
