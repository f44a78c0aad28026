import Foundation

/// Worksheet names Excel accepts: at most 31 characters, none of `[ ] : * ? / \`, not starting
/// or ending with an apostrophe, not "History" (reserved), and unique ignoring case.
///
/// A long table title is cut at a word boundary, without a dangling "and"/"by" or an unclosed
/// parenthesis, because the name is the tab people pick a sheet by and the title printed in the
/// footer: "Driven with an uncertified safe" read as a typo; "Driven with an uncertified" does not.
struct XLSXSheetName {
    static let maxLength = 31
    private var used: Set<String> = []

    /// Reserves `names` (Summary, Data quality, …) so tables cannot take them.
    init(reserving names: [String] = []) {
        for n in names { used.insert(n.lowercased()) }
    }

    /// A valid, unused name close to `wanted`; repeats get ` (2)`, ` (3)`, … within the limit.
    mutating func make(_ wanted: String) -> String {
        // "PM compliance: services done" → "PM compliance - services done", not "compliance_ services".
        var base = String(wanted.replacingOccurrences(of: ": ", with: " - ").map { "[]:*?/\\".contains($0) ? "_" : $0 })
        base = String(base.drop(while: { $0 == "'" || $0 == " " }))
        while base.last == "'" || base.last == " " { base.removeLast() }
        if base.isEmpty || base.lowercased() == "history" { base = "Sheet" }
        var candidate = Self.cut(base, Self.maxLength)
        var n = 2
        while used.contains(candidate.lowercased()) {
            let suffix = " (\(n))"
            candidate = Self.cut(base, Self.maxLength - suffix.count) + suffix
            n += 1
        }
        used.insert(candidate.lowercased())
        return candidate
    }

    /// Words a cut name must not end with: they promise a continuation that is not there.
    private static let dangling: Set<String> = ["a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "per", "the", "to", "with", "-", "–", "—", "·", "&"]

    /// `s` cut to at most `n` code points at a word boundary: the longest prefix that ends before
    /// a space, less unclosed "(…" and dangling joining words. A first word longer than half the
    /// limit has no good boundary, so such a name is cut inside the word instead.
    static func cut(_ s: String, _ n: Int) -> String {
        guard s.unicodeScalars.count > n else { return s }
        let hard = prefix(s, n)
        // Is the character after the hard cut a space? Then the cut already ends a word.
        let next = s.unicodeScalars.dropFirst(n).first
        var words = hard.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if next != " ", !words.isEmpty { words.removeLast() }
        func clean(_ words: inout [String]) {
            var changed = true
            while changed, words.count > 1 {
                changed = false
                let text = words.joined(separator: " ")
                let open = text.filter { $0 == "(" }.count, close = text.filter { $0 == ")" }.count
                if open > close, let i = words.lastIndex(where: { $0.contains("(") }), i > 0 {
                    words.removeSubrange(i...)
                    changed = true
                } else if let last = words.last, dangling.contains(last.lowercased()) {
                    words.removeLast()
                    changed = true
                }
            }
        }
        clean(&words)
        var result = words.joined(separator: " ")
        if result.unicodeScalars.count * 2 < n { result = hard }
        // Excel refuses a name ending in an apostrophe; a comma or space at the end reads as a slip.
        while let last = result.last, "' ,;".contains(last) { result.removeLast() }
        return result.isEmpty ? hard : result
    }

    /// libxlsxwriter counts code points, not grapheme clusters.
    private static func prefix(_ s: String, _ n: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: s.unicodeScalars.prefix(n))
        return String(view)
    }
}
