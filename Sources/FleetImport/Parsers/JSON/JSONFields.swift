import Foundation
import FleetCore

/// Typed, located access to the members of one materialised record.
///
/// Every accessor distinguishes "absent or null" (nil) from "present but unusable" (a thrown
/// `JSONRowError` at the member's path): a wrong type is never read as missing.
struct JSONFields {
    let node: JSONNode
    private let base: String
    private let index: Int

    init(_ node: JSONNode, at path: String) {
        self.node = node
        base = path
        index = -1
    }

    /// Element `index` of the array at `base`. The path text is built only for a message: a
    /// stats file has millions of points and nearly all of them are fine.
    init(_ node: JSONNode, at base: String, index: Int) {
        self.node = node
        self.base = base
        self.index = index
    }

    var path: String { index < 0 ? base : "\(base)[\(index)]" }

    func at(_ key: String) -> String {
        JSONPullParser.isPlainKey(key) ? (path.isEmpty ? key : path + "." + key) : path + "[\(JSONText.quoted(key))]"
    }

    func has(_ key: String) -> Bool { node[key].map { !$0.isNull } ?? false }

    func object(_ key: String) throws(JSONRowError) -> JSONFields? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case .object = v else { throw JSONRowError(.wrongType, "'\(key)' should be an object but is \(v.kind)", at: at(key)) }
        return JSONFields(v, at: at(key))
    }

    /// The elements of an array member, each with its own path.
    func array(_ key: String) throws(JSONRowError) -> [JSONFields] {
        guard let v = node[key], !v.isNull else { return [] }
        guard case let .array(items) = v else { throw JSONRowError(.wrongType, "'\(key)' should be an array but is \(v.kind)", at: at(key)) }
        return items.enumerated().map { JSONFields($0.element, at: at(key) + "[\($0.offset)]") }
    }

    /// A non-empty string (trimmed); empty strings read as absent.
    func string(_ key: String) throws(JSONRowError) -> String? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .string(s) = v else { throw JSONRowError(.wrongType, "'\(key)' should be a string but is \(v.kind)", at: at(key)) }
        return try unplaceholder(key, Self.trimmed(s))
    }

    /// Refuses a value that is its own member name (`"id": "id"`, `"time": "time"`,
    /// `"name": "name"`): the placeholder of a generated API example (Samsara's published
    /// examples are full of them), never data. Stored, it became an asset called `name` with
    /// Samsara id `id`. Compared exactly: a real value equal to its key is not plausible.
    private func unplaceholder(_ key: String, _ value: String?) throws(JSONRowError) -> String? {
        guard let value, value.utf8.count == key.utf8.count, value == key else { return value }
        throw JSONRowError(.placeholder, "'\(key)' is \"\(value)\", the placeholder of a generated API example, not a value; "
                              + "export real data from the API (these examples are documentation, not records)", at: at(key))
    }

    /// Trimmed, or nil when empty; strings that need no trimming (nearly all) are not copied.
    static func trimmed(_ s: String) -> String? {
        // ASCII ends that are not whitespace (every time and id Samsara writes) need no
        // Unicode property lookup: only bytes below 0x80 can be decided from one byte.
        if let f = s.utf8.first, let l = s.utf8.last, f < 0x80, l < 0x80, !(f == 0x20 || (0x09...0x0D).contains(f)),
           !(l == 0x20 || (0x09...0x0D).contains(l)) { return s }
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return nil }
        if !first.properties.isWhitespace, !last.properties.isWhitespace { return s }
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }

    /// An identifier: Samsara writes ids as strings of digits, but some mocks send numbers
    /// (`asset.id` of idling events). Either way the text is kept: ids exceed 2^53.
    func id(_ key: String) throws(JSONRowError) -> String? {
        guard let v = node[key], !v.isNull else { return nil }
        switch v {
        case let .string(s): return try unplaceholder(key, Self.trimmed(s))
        case let .number(n): return n
        default: throw JSONRowError(.wrongType, "'\(key)' should be an id (string or integer) but is \(v.kind)", at: at(key))
        }
    }

    /// A JSON number as a finite Double, with its literal text. Numeric strings are refused:
    /// the APIs send numbers, so a string here means a different or damaged export.
    func number(_ key: String) throws(JSONRowError) -> (value: Double, raw: String)? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .number(text) = v else { throw JSONRowError(.wrongType, "'\(key)' should be a number but is \(v.kind)", at: at(key)) }
        guard let d = Double(text), d.isFinite else {
            throw JSONRowError(.badNumber, "'\(key)' is \(text), which is not a finite number", at: at(key))
        }
        return (d, text)
    }

    func number(_ key: String, in range: ClosedRange<Double>, unit: String) throws(JSONRowError) -> (value: Double, raw: String)? {
        guard let n = try number(key) else { return nil }
        guard range.contains(n.value) else {
            let u = unit == "°" || unit == "%" || unit.isEmpty ? unit : " " + unit
            throw JSONRowError(.outOfRange, "'\(key)' is \(n.raw)\(u), outside \(Self.show(range.lowerBound))…\(Self.show(range.upperBound))\(u)", at: at(key))
        }
        return n
    }

    func bool(_ key: String) throws(JSONRowError) -> Bool? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .bool(b) = v else { throw JSONRowError(.wrongType, "'\(key)' should be true or false but is \(v.kind)", at: at(key)) }
        return b
    }

    /// An RFC 3339 time as UTC ms; nil when absent or a placeholder (`0001-01-01T00:00:00Z`).
    func time(_ key: String) throws(JSONRowError) -> Int64? {
        guard let s = try string(key) else { return nil }
        switch JSONTime.parse(s) {
        case let .at(ms): return ms
        case .placeholder: return nil
        case .invalid:
            throw JSONRowError(.badDate, "'\(key)' is '\(s)', not an RFC 3339 date-time (2026-10-01T14:05:00Z or with an offset)", at: at(key))
        }
    }

    func requiredTime(_ key: String) throws(JSONRowError) -> Int64 {
        guard let t = try time(key) else {
            throw JSONRowError(has(key) ? .badDate : .missingField,
                                  has(key) ? "'\(key)' is a placeholder date, not a time" : "'\(key)' is missing", at: at(key))
        }
        return t
    }

    func requiredString(_ key: String) throws(JSONRowError) -> String {
        guard let s = try string(key) else { throw JSONRowError(.missingField, "'\(key)' is missing or empty", at: at(key)) }
        return s
    }

    /// Member names other than a stat point's (`SamsaraStat.pointKeys`: time, value,
    /// decorations), compared directly: this runs for every reading, and hashing each key into
    /// the set cost more than the comparison.
    func unknownPointKeys() -> [String] {
        let members = node.members
        func known(_ k: String) -> Bool { k == "time" || k == "value" || k == "decorations" }
        guard !members.allSatisfy({ known($0.key) }) else { return [] }
        return members.map(\.key).filter { !known($0) }
    }

    /// Member names not in `known`, for the unknown-key note.
    func unknownKeys(_ known: Set<String>) -> [String] {
        let members = node.members
        guard !members.allSatisfy({ known.contains($0.key) }) else { return [] }
        return members.map(\.key).filter { !known.contains($0) }
    }

    static func show(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
