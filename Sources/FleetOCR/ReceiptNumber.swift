import Foundation
import FleetCore

/// A number printed on a receipt line, with every reading its separators allow.
///
/// `74,07` is 74.07 and `1.234,56` is 1234.56 whatever the locale. Only a lone separator
/// before exactly three digits is ambiguous: `1,688` is a price of 1.688 EUR/l on a German slip
/// and 1,688 yen on a Japanese one. Both readings are kept; the extractor picks by what the
/// field allows (a money amount has at most the currency's minor digits) and by the cross-check
/// of unit price × volume against the total.
struct ReceiptNumber: Equatable {
    var text: String
    var range: Range<String.Index>
    /// A lone `.` or `,` read as the decimal mark.
    var value: DecimalNumber
    /// The same separator read as a thousands separator, when it stands before exactly three digits.
    var grouped: DecimalNumber?

    /// Group 1: thousands separated by spaces, which needs a decimal part to be told from two numbers.
    private static let pattern = #"(?<![\d.,])(\d{1,3}(?: \d{3})+[.,]\d{2})(?!\d)|(?<![\d.,])(\d+(?:['.,]\d+)*)(?![\d])"#

    /// The numbers in `line` (already through `ReceiptPatterns.repair`), left to right.
    static func all(in line: String) -> [ReceiptNumber] {
        ReceiptPatterns.matches(pattern, in: line).compactMap { m in
            let text = m.groups[1] ?? m.groups[2] ?? ""
            return parse(text).map { ReceiptNumber(text: text, range: m.range, value: $0.value, grouped: $0.grouped) }
        }
    }

    /// The readings of one number's text; nil when it has more digits than an amount can have.
    static func parse(_ text: String) -> (value: DecimalNumber, grouped: DecimalNumber?)? {
        let marks = text.filter { $0 == "." || $0 == "," }
        let digits = text.filter(\.isNumber)
        guard !digits.isEmpty, digits.count <= 15, let all = Int64(digits) else { return nil }
        func decimal(after index: String.Index) -> DecimalNumber {
            let fraction = text[text.index(after: index)...].filter(\.isNumber).count
            return DecimalNumber(mantissa: all, scale: fraction)
        }
        let hasSpaceGroups = text.contains(" ") || text.contains("'")
        if marks.isEmpty { return (DecimalNumber(mantissa: all, scale: 0), nil) }
        let last = text.lastIndex { $0 == "." || $0 == "," }!
        if Set(marks).count == 2 || hasSpaceGroups {
            return (decimal(after: last), nil)   // `1.234,56`, `1,234.56`, `1 234,56`: the last mark is decimal
        }
        if marks.count > 1 {
            // `1,234,567` groups thousands; `1.2.3` is not a number.
            let groups = text.split(whereSeparator: { $0 == "." || $0 == "," })
            guard groups.dropFirst().allSatisfy({ $0.count == 3 }), groups[0].count <= 3 else { return nil }
            return (DecimalNumber(mantissa: all, scale: 0), nil)
        }
        let after = text[text.index(after: last)...].count
        let before = text[..<last].count
        return (decimal(after: last), after == 3 && before <= 3 ? DecimalNumber(mantissa: all, scale: 0) : nil)
    }

    /// The reading that is a money amount in a currency with `minorDigits` decimals. For a
    /// currency with decimals, the decimal reading, and nothing when it has too many decimals:
    /// slips print such amounts with their decimals (`1,759.00`), so `103,413` for EUR is an
    /// OCR slip of `103,13`, not a hundred thousand euros. For zero-decimal currencies (JPY)
    /// the thousands reading: `1,759` yen.
    func money(minorDigits: Int) -> DecimalNumber? {
        if minorDigits == 0 { return grouped ?? (value.scale == 0 ? value : nil) }
        return value.scale <= minorDigits ? value : nil
    }
}
