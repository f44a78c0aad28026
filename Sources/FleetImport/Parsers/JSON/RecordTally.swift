import Foundation

/// What a JSON telematics file (Samsara, Geotab, John Deere) held that loses no row but is not stored: unknown keys, stat types the
/// warehouse has no table for, superseded odometers, ongoing trips, report totals. Each kind
/// becomes one note in the import summary (`FileOutcome.notes`), so nothing is dropped silently
/// and a 1 M-point file does not produce 1 M notes.
struct RecordTally {
    /// "record kind.key" → occurrences.
    private(set) var unknownKeys: [String: Int] = [:]
    /// Known stat types that have no warehouse table → points.
    private(set) var unstoredStats: [String: Int] = [:]
    /// Other counted remarks, by message prefix.
    private(set) var counts: [String: Int] = [:]
    /// One-off remarks (an invalid VIN, an incomplete save), kept in order, deduplicated.
    private(set) var remarks: [String] = []
    var pages = 0
    var lastPageHasNext: Bool?
    var shapes: [String: Int] = [:]

    /// Distinct unknown keys kept (each cut to 80 characters); the rest are counted as
    /// "(other keys)", so a hostile save cannot grow the tally without limit.
    static let maxKeys = 100

    mutating func unknown(_ kind: String, _ keys: [String]) {
        for k in keys {
            let key = "\(kind).\(k.count > 80 ? String(k.prefix(80)) + "…" : k)"
            if unknownKeys[key] != nil || unknownKeys.count < Self.maxKeys { unknownKeys[key, default: 0] += 1 }
            else { unknownKeys["(other keys)", default: 0] += 1 }
        }
    }

    mutating func unstored(_ stat: String, _ n: Int = 1) { unstoredStats[stat, default: 0] += n }

    mutating func count(_ what: String, _ n: Int = 1) { counts[what, default: 0] += n }

    mutating func remark(_ text: String) {
        if !remarks.contains(text), remarks.count < 50 { remarks.append(text) }
    }

    mutating func saw(_ shape: String) { shapes[shape, default: 0] += 1 }

    func notes() -> [String] {
        var out: [String] = []
        if !shapes.isEmpty {
            out.append("records read: " + shapes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                       + " (\(max(pages, 1)) page\(pages == 1 ? "" : "s"))")
        }
        if lastPageHasNext == true {
            out.append("the last page says hasNextPage: true, so the save may stop before the end of the data; fetch the remaining pages with after=<endCursor>")
        }
        out += remarks
        for (what, n) in counts.sorted(by: { $0.key < $1.key }) { out.append("\(what): \(n)") }
        if !unstoredStats.isEmpty {
            let list = unstoredStats.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            out.append("stat types with no warehouse table were not stored: \(list)")
        }
        if !unknownKeys.isEmpty {
            let total = unknownKeys.values.reduce(0, +)
            let list = unknownKeys.sorted { $0.key < $1.key }.prefix(20).map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            out.append("\(total) unknown key\(total == 1 ? "" : "s") ignored: \(list)\(unknownKeys.count > 20 ? ", …" : "")")
        }
        return out
    }
}
