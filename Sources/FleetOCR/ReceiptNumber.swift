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

    /// The numbers in `line` (already through `ReceiptPatterns.repair`), left to right.
    ///
    /// Scanned by hand, one pass over the characters (this runs on every OCR line; a regular
    /// expression cost the fuzz harness most of its time). Two shapes, tried in this order at a
    /// run of ASCII digits that does not follow a digit, `.` or `,`:
    /// - thousands separated by single spaces, which need a decimal part to be told from two
    ///   numbers (`1 234,56`): 1–3 digits, one or more ` ddd` groups, `.`/`,` and two digits;
    /// - digits with `'`, `.` or `,` between digit runs (`1,234.56`, `74,07`, `1'234`).
    static func all(in line: String) -> [ReceiptNumber] {
        var at: [String.Index] = []
        var ch: [UInt8] = []
        at.reserveCapacity(line.utf8.count + 1)
        var i = line.startIndex
        while i < line.endIndex {
            at.append(i)
            ch.append(line[i].asciiValue ?? 0)
            i = line.index(after: i)
        }
        at.append(line.endIndex)
        let n = ch.count
        func digit(_ k: Int) -> Bool { k >= 0 && k < n && ch[k] >= 48 && ch[k] <= 57 }
        func mark(_ k: Int) -> Bool { k >= 0 && k < n && (ch[k] == 46 || ch[k] == 44) }
        func digitsEnd(_ k: Int) -> Int { var e = k; while digit(e) { e += 1 }; return e }
        var out: [ReceiptNumber] = []
        var k = 0
        while k < n {
            guard digit(k), !digit(k - 1), !mark(k - 1) else { k += 1; continue }
            let run = digitsEnd(k)
            var end = -1
            // Space-grouped thousands with two decimals.
            if run - k <= 3 {
                var p = run, groups = 0
                while p < n, ch[p] == 32, digitsEnd(p + 1) - (p + 1) >= 3, digit(p + 3) {
                    p += 4
                    groups += 1
                    if digit(p) { break }
                }
                if groups > 0, !digit(p), mark(p), digit(p + 1), digit(p + 2), !digit(p + 3) { end = p + 3 }
            }
            if end < 0 {
                var p = run
                while p < n, ch[p] == 46 || ch[p] == 44 || ch[p] == 39, digit(p + 1) { p = digitsEnd(p + 1) }
                end = p
            }
            let range = at[k]..<at[end]
            let text = String(line[range])
            if let parsed = parse(text) { out.append(ReceiptNumber(text: text, range: range, value: parsed.value, grouped: parsed.grouped)) }
            k = end
        }
        return out
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
        let hasSpaceGroups = text.contains { $0 == " " || $0 == "'" }
        if marks.isEmpty { return (DecimalNumber(mantissa: all, scale: 0), nil) }
        let last = text.lastIndex { $0 == "." || $0 == "," }!
        if Set(marks).count == 2 || hasSpaceGroups {
            return (decimal(after: last), nil)   // `1.234,56`, `1,234.56`, `1 234,56`: the last mark is decimal
        }
        if marks.count > 1 {
            // `1,234,567` groups thousands, and so does India's `1,23,456` (lakhs: the last group
            // of three, those before it of two); `1.2.3` is not a number.
            let groups = text.split(whereSeparator: { $0 == "." || $0 == "," })
            let thousands = groups.dropFirst().allSatisfy({ $0.count == 3 }) && groups[0].count <= 3
            let lakhs = marks.allSatisfy { $0 == "," } && groups.last?.count == 3 && (1...2).contains(groups[0].count)
                && groups.dropFirst().dropLast().allSatisfy { $0.count == 2 }
            guard thousands || lakhs else { return nil }
            return (DecimalNumber(mantissa: all, scale: 0), nil)
        }
        let after = text[text.index(after: last)...].count
        let before = text[..<last].count
        return (decimal(after: last), after == 3 && before <= 3 ? DecimalNumber(mantissa: all, scale: 0) : nil)
    }

    /// The receipt country's decimal mark says a lone mark before three digits groups thousands
    /// (`90.300` pesos, `1,000` ringgit): money takes `grouped` (`money`), and a unit price may
    /// be either reading (`FuelLines`), which the cross-check decides.
    var groupsThousands = false

    /// The number read with the receipt country's decimal mark (`ReceiptLocale`): a lone mark
    /// before exactly three digits that is the decimal mark stays a decimal (`2.450` RM per
    /// litre), one that is not groups thousands (`groupsThousands`).
    func settled(decimalMark: Character) -> ReceiptNumber {
        guard grouped != nil, let mark = text.last(where: { $0 == "." || $0 == "," }) else { return self }
        var n = self
        if mark == decimalMark { n.grouped = nil } else { n.groupsThousands = true }
        return n
    }

    /// The reading that is a money amount in a currency with `minorDigits` decimals. For a
    /// currency with decimals, the decimal reading, and nothing when it has too many decimals:
    /// slips print such amounts with their decimals (`1,759.00`), so `103,413` for EUR is an
    /// OCR slip of `103,13`, not a hundred thousand euros. For zero-decimal currencies (JPY)
    /// the thousands reading: `1,759` yen.
    func money(minorDigits: Int) -> DecimalNumber? {
        if groupsThousands, let grouped { return grouped }
        if minorDigits == 0 { return grouped ?? value.scaled(to: 0).map { DecimalNumber(mantissa: $0, scale: 0) } }
        return value.scale <= minorDigits ? value : nil
    }
}
