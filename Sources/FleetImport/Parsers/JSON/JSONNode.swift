import Foundation
import FleetCore

/// A small JSON subtree held in memory: one vehicle, one DVIR, one stat point.
///
/// Importers stream the outer arrays with `JSONPullParser` and materialise only such records,
/// so memory is bounded by the largest record (itself capped by `readNode(limit:)`). Members
/// keep their document order and duplicates, numbers their literal text.
enum JSONNode: Equatable, Sendable {
    struct Member: Equatable, Sendable {
        var key: String
        var value: JSONNode
    }

    case object([Member])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The first member named `key` of an object, nil otherwise.
    subscript(key: String) -> JSONNode? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var members: [Member] {
        if case let .object(m) = self { return m }
        return []
    }

    var elements: [JSONNode] {
        if case let .array(a) = self { return a }
        return []
    }

    var isNull: Bool { self == .null }

    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    /// Compact JSON text, cut at about `limit` bytes (for reject rows and messages).
    func render(limit: Int = 4096) -> String {
        var out = ""
        render(into: &out, limit: limit)
        return out.utf8.count > limit ? String(decoding: out.utf8.prefix(limit), as: UTF8.self) + "…" : out
    }

    private func render(into out: inout String, limit: Int) {
        guard out.utf8.count <= limit else { return }
        switch self {
        case let .object(members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                out += JSONText.quoted(m.key) + ":"
                m.value.render(into: &out, limit: limit)
                if out.utf8.count > limit { return }
            }
            out += "}"
        case let .array(items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.render(into: &out, limit: limit)
                if out.utf8.count > limit { return }
            }
            out += "]"
        case let .string(s): out += JSONText.quoted(s)
        case let .number(n): out += n
        case let .bool(b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }
}

/// A subtree larger than the caller allowed. The parser has consumed it, so reading goes on.
struct JSONNodeTooLarge: Error, Equatable {
    var path: String
    var offset: Int64
    var limit: Int
}

extension JSONPullParser {
    static let defaultNodeLimit = 4 << 20

    /// Reads the next value whole. A value whose text (keys and scalars) exceeds `limit` bytes
    /// is skipped to its end and reported as `JSONNodeTooLarge`, so one oversized record
    /// becomes a reject instead of an unbounded allocation.
    mutating func readNode(limit: Int = JSONPullParser.defaultNodeLimit) throws -> JSONNode {
        guard let first = try next() else { throw fail("expected a value but the document ended") }
        let start = tokenOffset
        // The containers around the value; its path is theirs (computed only if needed).
        let outer = depth - (first == .objectStart || first == .arrayStart ? 1 : 0)
        var budget = limit
        func charge(_ n: Int) throws {
            budget -= n + 8
            if budget < 0 { throw JSONNodeTooLarge(path: path(depth: outer), offset: start, limit: limit) }
        }
        func build(_ token: JSONToken) throws -> JSONNode {
            switch token {
            case .objectStart:
                var members: [JSONNode.Member] = []
                while let t = try next() {
                    switch t {
                    case .objectEnd: return .object(members)
                    case let .key(k):
                        try charge(k.utf8.count)
                        guard let v = try next() else { throw failTruncated("the document ends inside an object (truncated)") }
                        members.append(.init(key: k, value: try build(v)))
                    default: throw fail("expected a key")
                    }
                }
                throw failTruncated("the document ends inside an object (truncated)")
            case .arrayStart:
                var items: [JSONNode] = []
                while let t = try next() {
                    if t == .arrayEnd { return .array(items) }
                    items.append(try build(t))
                }
                throw failTruncated("the document ends inside an array (truncated)")
            case let .string(s): try charge(s.utf8.count); return .string(s)
            case let .number(n): try charge(n.utf8.count); return .number(n)
            case let .bool(b): try charge(1); return .bool(b)
            case .null: try charge(1); return .null
            case .key, .objectEnd, .arrayEnd: throw fail("expected a value")
            }
        }
        do {
            return try build(first)
        } catch let e as JSONNodeTooLarge {
            while depth > outer { guard try next() != nil else { break } }
            throw e
        }
    }
}
