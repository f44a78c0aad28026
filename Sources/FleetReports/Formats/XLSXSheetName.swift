/// Worksheet names Excel accepts: at most 31 characters, none of `[ ] : * ? / \`, not starting
/// or ending with an apostrophe, not "History" (reserved), and unique ignoring case.
struct XLSXSheetName {
    static let maxLength = 31
    private var used: Set<String> = []

    /// Reserves `names` (Summary, Data quality, …) so tables cannot take them.
    init(reserving names: [String] = []) {
        for n in names { used.insert(n.lowercased()) }
    }

    /// A valid, unused name close to `wanted`; repeats get ` (2)`, ` (3)`, … within the limit.
    mutating func make(_ wanted: String) -> String {
        var base = String(wanted.map { "[]:*?/\\".contains($0) ? "_" : $0 })
        base = String(base.drop(while: { $0 == "'" || $0 == " " }))
        while base.last == "'" || base.last == " " { base.removeLast() }
        if base.isEmpty || base.lowercased() == "history" { base = "Sheet" }
        var candidate = Self.prefix(base, Self.maxLength)
        var n = 2
        while used.contains(candidate.lowercased()) {
            let suffix = " (\(n))"
            candidate = Self.prefix(base, Self.maxLength - suffix.count) + suffix
            n += 1
        }
        used.insert(candidate.lowercased())
        return candidate
    }

    /// libxlsxwriter counts code points, not grapheme clusters.
    private static func prefix(_ s: String, _ n: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: s.unicodeScalars.prefix(n))
        return String(view)
    }
}
