import FleetCore

/// What a feed import read but did not store, counted for the import summary's notes: no row
/// is lost silently, and none of these is a reject (nothing usable was refused).
struct FeedTally {
    /// Distinct names kept per category, so a hostile file cannot grow the tally without limit.
    static let maxKeys = 100

    private(set) var placeholders: [String: Int] = [:]
    private(set) var unknown: [String: (count: Int, first: String)] = [:]
    private(set) var notStored: [String: Int] = [:]
    private(set) var dropped: [String: Int] = [:]
    var atSnapshotTime = 0
    private(set) var nextPages: [String] = []

    /// A placeholder read as no value (`missing`, `N/A`, empty, year 1, capacity 0).
    mutating func placeholder(_ field: String) { Self.bump(&placeholders, field) }

    /// An element the feed's structure does not define.
    mutating func unknown(_ name: String, at path: FeedPath) {
        let name = Self.short(name)
        if let u = unknown[name] { unknown[name] = (u.count + 1, u.first) }
        else if unknown.count < Self.maxKeys { unknown[name] = (1, path.description) }
        else { unknown["(other names)", default: (0, path.description)].count += 1 }
    }

    /// A known element the warehouse has no column for.
    mutating func notStored(_ name: String) { Self.bump(&notStored, name) }

    /// Part of an element left out while the rest was stored (an altitude without a unit).
    mutating func dropped(_ what: String) { Self.bump(&dropped, what) }

    mutating func nextPage(_ href: String) {
        if !nextPages.contains(href), nextPages.count < 10 { nextPages.append(href) }
    }

    /// A name cut to 80 characters: a hostile element name cannot make the tally large.
    private static func short(_ name: String) -> String { name.count > 80 ? String(name.prefix(80)) + "…" : name }

    private static func bump(_ d: inout [String: Int], _ key: String) {
        let key = short(key)
        if d[key] != nil || d.count < maxKeys { d[key, default: 0] += 1 } else { d["(other)", default: 0] += 1 }
    }

    private static func list(_ d: [String: Int]) -> String {
        d.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
    }

    /// The notes, in a fixed order so summaries are reproducible.
    func notes() -> [String] {
        var out: [String] = []
        if !unknown.isEmpty {
            let total = unknown.values.reduce(0) { $0 + $1.count }
            let names = unknown.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value.count) (first at \($0.value.first))" }
            out.append("\(total) unknown element\(total == 1 ? "" : "s") ignored: " + names.joined(separator: ", "))
        }
        if !notStored.isEmpty {
            out.append("read but not stored (the warehouse has no column for them): " + Self.list(notStored))
        }
        if !placeholders.isEmpty {
            let total = placeholders.values.reduce(0, +)
            out.append("\(total) placeholder value\(total == 1 ? "" : "s") read as no value: " + Self.list(placeholders))
        }
        if !dropped.isEmpty {
            out.append("parts of elements not stored: " + Self.list(dropped))
        }
        if atSnapshotTime > 0 {
            out.append("\(atSnapshotTime) element\(atSnapshotTime == 1 ? " has" : "s have") no datetime of \(atSnapshotTime == 1 ? "its" : "their") own and \(atSnapshotTime == 1 ? "was" : "were") read at the file's snapshotTime")
        }
        for href in nextPages {
            out.append("this page links to a next page (\(href)); each saved page is imported as its own file, so import that page too")
        }
        return out
    }
}
