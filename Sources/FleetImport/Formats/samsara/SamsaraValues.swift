import Foundation
import FleetCore

/// A problem with one Samsara record, located at the JSON path of the offending field, so a
/// reject says `data[3].gps[7].latitude`, not just "record 3".
struct SamsaraRowError: Error {
    var reason: Issue.Reason
    var message: String
    var path: String

    init(_ reason: Issue.Reason, _ message: String, at path: String) {
        self.reason = reason
        self.message = message
        self.path = path
    }
}

extension Issue.Reason {
    static let unknownShape: Issue.Reason = "unknown_shape"
    static let wrongType: Issue.Reason = "wrong_type"
    static let placeholder: Issue.Reason = "placeholder"
}

/// Typed, located access to the members of one materialised record.
///
/// Every accessor distinguishes "absent or null" (nil) from "present but unusable" (a thrown
/// `SamsaraRowError` at the member's path): a wrong type is never read as missing.
struct Fields {
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

    func object(_ key: String) throws(SamsaraRowError) -> Fields? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case .object = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be an object but is \(v.kind)", at: at(key)) }
        return Fields(v, at: at(key))
    }

    /// The elements of an array member, each with its own path.
    func array(_ key: String) throws(SamsaraRowError) -> [Fields] {
        guard let v = node[key], !v.isNull else { return [] }
        guard case let .array(items) = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be an array but is \(v.kind)", at: at(key)) }
        return items.enumerated().map { Fields($0.element, at: at(key) + "[\($0.offset)]") }
    }

    /// A non-empty string (trimmed); empty strings read as absent.
    func string(_ key: String) throws(SamsaraRowError) -> String? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .string(s) = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be a string but is \(v.kind)", at: at(key)) }
        return try unplaceholder(key, Self.trimmed(s))
    }

    /// Refuses a value that is its own member name (`"id": "id"`, `"time": "time"`,
    /// `"name": "name"`): the placeholder of a generated API example (Samsara's published
    /// examples are full of them), never data. Stored, it became an asset called `name` with
    /// Samsara id `id`. Compared exactly: a real value equal to its key is not plausible.
    private func unplaceholder(_ key: String, _ value: String?) throws(SamsaraRowError) -> String? {
        guard let value, value.utf8.count == key.utf8.count, value == key else { return value }
        throw SamsaraRowError(.placeholder, "'\(key)' is \"\(value)\", the placeholder of a generated API example, not a value; "
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
    func id(_ key: String) throws(SamsaraRowError) -> String? {
        guard let v = node[key], !v.isNull else { return nil }
        switch v {
        case let .string(s): return try unplaceholder(key, Self.trimmed(s))
        case let .number(n): return n
        default: throw SamsaraRowError(.wrongType, "'\(key)' should be an id (string or integer) but is \(v.kind)", at: at(key))
        }
    }

    /// A JSON number as a finite Double, with its literal text. Numeric strings are refused:
    /// Samsara sends numbers, so a string here means a different or damaged export.
    func number(_ key: String) throws(SamsaraRowError) -> (value: Double, raw: String)? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .number(text) = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be a number but is \(v.kind)", at: at(key)) }
        guard let d = Double(text), d.isFinite else {
            throw SamsaraRowError(.badNumber, "'\(key)' is \(text), which is not a finite number", at: at(key))
        }
        return (d, text)
    }

    func number(_ key: String, in range: ClosedRange<Double>, unit: String) throws(SamsaraRowError) -> (value: Double, raw: String)? {
        guard let n = try number(key) else { return nil }
        guard range.contains(n.value) else {
            let u = unit == "°" || unit == "%" || unit.isEmpty ? unit : " " + unit
            throw SamsaraRowError(.outOfRange, "'\(key)' is \(n.raw)\(u), outside \(Self.show(range.lowerBound))…\(Self.show(range.upperBound))\(u)", at: at(key))
        }
        return n
    }

    func bool(_ key: String) throws(SamsaraRowError) -> Bool? {
        guard let v = node[key], !v.isNull else { return nil }
        guard case let .bool(b) = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be true or false but is \(v.kind)", at: at(key)) }
        return b
    }

    /// An RFC 3339 time as UTC ms; nil when absent or a placeholder (`0001-01-01T00:00:00Z`).
    func time(_ key: String) throws(SamsaraRowError) -> Int64? {
        guard let s = try string(key) else { return nil }
        switch SamsaraTime.parse(s) {
        case let .at(ms): return ms
        case .placeholder: return nil
        case .invalid:
            throw SamsaraRowError(.badDate, "'\(key)' is '\(s)', not an RFC 3339 date-time (2026-10-01T14:05:00Z or with an offset)", at: at(key))
        }
    }

    func requiredTime(_ key: String) throws(SamsaraRowError) -> Int64 {
        guard let t = try time(key) else {
            throw SamsaraRowError(has(key) ? .badDate : .missingField,
                                  has(key) ? "'\(key)' is a placeholder date, not a time" : "'\(key)' is missing", at: at(key))
        }
        return t
    }

    func requiredString(_ key: String) throws(SamsaraRowError) -> String {
        guard let s = try string(key) else { throw SamsaraRowError(.missingField, "'\(key)' is missing or empty", at: at(key)) }
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

/// RFC 3339 times as Samsara writes them, and the epoch-millisecond times of the v1 API.
enum SamsaraTime {
    enum Parsed: Equatable { case at(Int64), placeholder, invalid }

    /// `2026-10-01T14:05:00Z`, `…00.455Z`, `…00-05:00`. Stricter than ISO 8601: the `T`, the
    /// seconds and a zone are required, as RFC 3339 says. Years before 1971 or after 2200
    /// (`0001-01-01T00:00:00Z`, the epoch) are placeholders for "no time". Hand-written on the
    /// UTF-8 bytes: a stats file has a time per point, millions of them.
    static func parse(_ s: String) -> Parsed {
        let parsed = s.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) }
        return parsed ?? Array(s.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    private static func parse(bytes u: UnsafeBufferPointer<UInt8>) -> Parsed {
        let n = u.count
        func digits(_ at: Int, _ count: Int) -> Int? { Byte.digits(u.baseAddress!, at, count, end: n) }
        guard n >= 20, u[4] == 0x2D, u[7] == 0x2D, u[10] | 0x20 == 0x74, u[13] == 0x3A, u[16] == 0x3A,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              hour <= 23, minute <= 59, second <= 60,
              let date = CivilDate(year: year, month: month, day: day) else { return .invalid }
        var i = 19, millis = 0
        if u[i] == 0x2E {
            i += 1
            var count = 0
            while i < n, u[i] >= 48, u[i] <= 57 {
                if count < 3 { millis = millis * 10 + Int(u[i] - 48) }
                count += 1
                i += 1
            }
            guard count > 0 else { return .invalid }
            for _ in min(count, 3)..<3 { millis *= 10 }
        }
        var offset = 0
        if i == n - 1, u[i] | 0x20 == 0x7A {
            offset = 0
        } else if n - i == 6, u[i] == 0x2B || u[i] == 0x2D, u[i + 3] == 0x3A, let oh = digits(i + 1, 2), let om = digits(i + 4, 2), oh <= 23, om <= 59 {
            offset = (u[i] == 0x2B ? 1 : -1) * (oh * 60 + om) * 60_000
        } else {
            return .invalid
        }
        let local = (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))) * 1000 + Int64(millis)
        let ms = local - Int64(offset)
        return Timestamp.plausible.contains(ms) ? .at(ms) : .placeholder
    }

    /// The v1 API's "ongoing" end time: Int64.max milliseconds.
    static let ongoing = "9223372036854775807"

    /// Epoch milliseconds (an integer JSON number) within the plausible range.
    static func epochMillis(_ f: Fields, _ key: String) throws(SamsaraRowError) -> Int64? {
        guard let v = f.node[key], !v.isNull else { return nil }
        guard case let .number(text) = v else { throw SamsaraRowError(.wrongType, "'\(key)' should be epoch milliseconds (a number) but is \(v.kind)", at: f.at(key)) }
        guard let ms = Int64(text) else { throw SamsaraRowError(.badDate, "'\(key)' is \(text), not whole epoch milliseconds", at: f.at(key)) }
        guard Timestamp.plausible.contains(ms) else {
            throw SamsaraRowError(.badDate, "'\(key)' is \(text) ms, outside 1971–2200; epoch milliseconds expected", at: f.at(key))
        }
        return ms
    }
}

/// Conversions to the warehouse's SI units.
enum SamsaraUnits {
    static let metresPerSecondPerMph = Units.metresPerMile / 3600
}
