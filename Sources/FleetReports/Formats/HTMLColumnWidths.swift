/// Column widths for an HTML table, so every column fits the page.
///
/// Browsers size an automatic table by each column's longest value: one 200-character mechanic
/// note took the width a location needed on every row, so a 22-column DVIR register wrapped
/// each row over five lines (52 printed pages) and the last columns fell off the paper. Here a
/// column gets what its values usually need: numbers, dates and short codes (which must not
/// wrap) their longest value; prose its 75th-percentile length, capped, so a rare long note
/// wraps in its own row instead of widening the column for all of them. The page lays the
/// table out with these widths (`table-layout: fixed`) and scales its type to the total
/// (`--chars`), which is what keeps every column on an A4 or Letter landscape page.
///
/// Widths are in digit widths (about 0.64 em in DejaVu Sans, less in most system fonts):
/// `$1,230.67` is not nine digits wide, since the comma and the point are half a digit each.
struct HTMLColumnWidths {
    /// Width of each column in digit widths, padding included.
    let widths: [Int]
    var total: Int { widths.reduce(0, +) }

    /// Prose columns are at most this wide; longer values wrap.
    static let proseCap = 36
    /// A text value up to this long with no space is a code (unit, cost centre) and never wraps.
    static let codeLength = 14

    /// - parameter header: each column's header text (title and unit); it may wrap at spaces.
    /// - parameter rows: the cells' display texts; `numeric` says which columns hold numbers,
    ///   dates or times, which never wrap.
    /// - parameter totals: the totals row's texts, set in bold.
    init(header: [String], numeric: [Bool], rows: [[String]], totals: [String]? = nil) {
        let all = rows + (totals.map { [$0] } ?? [])
        widths = header.indices.map { c in
            // Headers are bold: about a tenth wider than the regular type.
            let headerWord = (header[c].split(separator: " ").map { Self.tenths($0) }.max() ?? 0) * 11 / 10
            let texts = all.compactMap { c < $0.count ? Substring($0[c]) : nil }
            let lengths = texts.map { Self.tenths($0) }
            let longest = lengths.max() ?? 0
            let need: Int
            if numeric[c] {
                let bold = totals.map { c < $0.count ? Self.tenths(Substring($0[c])) * 11 / 10 : 0 } ?? 0
                need = max(longest, bold)
            } else if texts.allSatisfy({ $0.count <= Self.codeLength && !$0.contains(" ") }) {
                need = longest
            } else {
                let sorted = lengths.sorted()
                let p75 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 3 / 4)]
                // At least the longest word up to a code's length, so common words stay whole.
                let word = texts.map { $0.split(separator: " ").map { Self.tenths($0) }.max() ?? 0 }.max() ?? 0
                need = min(Self.proseCap * 10, max(p75, min(word, Self.codeLength * 10)))
            }
            // One digit width of padding; rounded up to whole digit widths.
            return (max(30, headerWord, need) + 9) / 10 + 1
        }
    }

    /// The width of `s` in tenths of a digit width: punctuation and spaces are narrow, capitals
    /// and `m`/`w` wide (ratios of DejaVu Sans, the widest common sans serif).
    static func tenths(_ s: Substring) -> Int {
        var sum = 0
        for ch in s {
            switch ch {
            case ".", ",", ":", ";", "'", "!", "|", " ", "i", "l", "j", "I": sum += 5
            case "-", "(", ")", "/", "f", "t", "r": sum += 6
            case "m", "w", "M", "W", "%", "@": sum += 14
            case "A"..."Z": sum += 11
            default: sum += 10
            }
        }
        return sum
    }

    /// `<colgroup>` with each column's share of the table width, in percent to two decimals.
    var colgroup: String {
        let sum = max(1, total)
        var out = "<colgroup>"
        for w in widths {
            let hundredths = (w * 10_000 + sum / 2) / sum
            let fraction = hundredths % 100
            out += "<col style=\"width:\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%\">"
        }
        return out + "</colgroup>"
    }
}
