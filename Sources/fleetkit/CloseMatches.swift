/// Names close to one a person mistyped, for "did you mean" lists: `T-99` finds `T-09` and
/// `T-19`, `t-101` finds `T-101`. Close means equal ignoring case, one containing the other, or
/// at most two single-character edits apart (Levenshtein); the closest come first.
enum CloseMatches {
    static func of(_ wanted: String, in names: [String], limit: Int = 5) -> [String] {
        let w = Array(wanted.lowercased())
        var scored: [(Int, String)] = []
        for name in names {
            let n = Array(name.lowercased())
            let d = distance(w, n)
            if d <= 2 { scored.append((d, name)) } else if n.count >= 2, w.count >= 2,
                String(n).contains(String(w)) || String(w).contains(String(n)) { scored.append((3, name)) }
        }
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(limit).map(\.1)
    }

    /// Levenshtein distance, stopping early once it exceeds 2 (names can be long; only near ones matter).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if abs(a.count - b.count) > 2 { return 3 }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > 2 { return 3 }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
