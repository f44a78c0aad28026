/// A file's notes (remarks that lose no row: an ignored column, a value read as unknown),
/// aggregated by kind and bounded in memory, output and storage.
///
/// Why: notes used to be one string each, kept in full. A 1 MB CSV header of unknown columns
/// gave 520,000 notes: 237 MiB in memory, 40 MB printed and a 33 MB `import_run` row. Now a
/// kind of note is one line however often it occurs, with its count and the first few examples
/// ("columns not part of the assets format, ignored ×520,000: 'a', 'b', 'c', …"); a free-text
/// note is one line per distinct text, its repeats counted. At most `maxKinds` lines are kept,
/// each example and free text capped, so a file's notes never exceed about 40 KB whatever it holds.
public struct NoteLedger: Sendable, Equatable {
    /// Distinct kinds (or free texts) kept; later ones are only counted.
    public static let maxKinds = 32
    /// Examples kept per kind.
    public static let maxExamples = 3
    /// Characters kept of an example.
    public static let maxExampleLength = 80
    /// Characters kept of a free-text note.
    public static let maxTextLength = 1000

    private struct Entry: Sendable, Equatable {
        var text: String
        var count: Int
        var examples: [String]?
    }

    private var entries: [Entry] = []
    private var index: [String: Int] = [:]
    /// Notes of kinds beyond `maxKinds`.
    private var overflow = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty && overflow == 0 }

    /// One occurrence of a kind of note, with the value it is about ('colour', a VIN, a PID).
    public mutating func add(_ kind: String, example: String) {
        guard let i = slot(for: "k:" + kind, text: kind, examples: []) else { return }
        entries[i].count += 1
        if entries[i].examples!.count < Self.maxExamples { entries[i].examples!.append(Self.cap(example, Self.maxExampleLength)) }
    }

    /// A whole note; the same text again only counts.
    public mutating func add(_ text: String) {
        guard let i = slot(for: "t:" + text, text: text, examples: nil) else { return }
        entries[i].count += 1
    }

    private mutating func slot(for key: String, text: String, examples: [String]?) -> Int? {
        if let i = index[key] { return i }
        guard entries.count < Self.maxKinds else { overflow += 1; return nil }
        entries.append(Entry(text: Self.cap(text, Self.maxTextLength), count: 0, examples: examples))
        index[key] = entries.count - 1
        return entries.count - 1
    }

    /// The notes as printed and stored, in the order their kinds first occurred.
    public var lines: [String] {
        var out = entries.map { e -> String in
            let times = e.count > 1 ? " ×\(Self.grouped(e.count))" : ""
            guard let examples = e.examples else { return e.text + (e.count > 1 ? " (×\(Self.grouped(e.count)))" : "") }
            let more = e.count > examples.count ? ", …" : ""
            return e.text + times + ": " + examples.map { "'\($0)'" }.joined(separator: ", ") + more
        }
        if overflow > 0 {
            out.append("\(Self.grouped(overflow)) more note\(overflow == 1 ? "" : "s") of other kinds not kept (more than \(Self.maxKinds) kinds)")
        }
        return out
    }

    static func cap(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// 520000 → "520,000".
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
