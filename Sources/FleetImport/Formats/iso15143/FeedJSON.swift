import Foundation
import FleetCore

/// ISO 15143-3 JSON walked with the shared `JSONPullParser`: the structural steps the feed
/// driver takes (`beginObject`, `nextKey`, `beginArray`, `nextElement`) and the one-element
/// reads it materialises as `FeedNode`s. The parser does the JSON; this only says what a
/// feed needs of it.
///
/// WHY these limits: a feed element (one machine, one reading) is small, so a value whose text
/// exceeds `maxElementBytes` is skipped and marked oversized (a reject, not an allocation), and
/// nesting beyond `maxDepth` is no telematics export. Errors name the line, as the XML side does.
struct FeedJSON {
    static let maxElementBytes = 4 << 20
    static let maxDepth = 64

    enum Kind { case object, array, scalar }

    let path: String
    private var parser: JSONPullParser

    init(url: URL) throws {
        path = url.path
        do {
            parser = try JSONPullParser(url: url, maxDepth: Self.maxDepth, countsLines: true)
        } catch let e as JSONReadError {
            throw FleetError.unreadable(file: url.path, location: "line 1", reason: e.message,
                                        hint: e.isTruncated ? Self.truncatedHint : "Save the file as UTF-8 and import it again.")
        }
    }


    /// The line the next token starts on.
    mutating func line() throws -> Int {
        try guarded { p in _ = try p.peek(); return p.line(at: p.tokenOffset) }
    }

    mutating func peekKind() throws -> Kind {
        try guarded { p in
            switch try p.peek() {
            case .objectStart?: return .object
            case .arrayStart?: return .array
            default: return .scalar
            }
        }
    }

    mutating func beginObject() throws { try expect(.objectStart) }
    mutating func beginArray() throws { try expect(.arrayStart) }

    /// The next key of the open object, or nil when it closes.
    mutating func nextKey() throws -> String? {
        try guarded { p in
            switch try p.next() {
            case let .key(k)?: return k
            default: return nil   // objectEnd: the parser allows nothing else here
            }
        }
    }

    /// Whether the open array has another element (false when it closes).
    mutating func nextElement() throws -> Bool {
        try guarded { p in
            guard try p.peek() == .arrayEnd else { return true }
            _ = try p.next()
            return false
        }
    }

    mutating func skipValue() throws { try guarded { p in try p.skipValue() } }

    /// A scalar as text (nil for null, objects and arrays, which are skipped).
    mutating func readScalarText() throws -> String? {
        try guarded { p in
            switch try p.peek() {
            case let .string(s)?, let .number(s)?: _ = try p.next(); return s
            case let .bool(b)?: _ = try p.next(); return b ? "true" : "false"
            default: try p.skipValue(); return nil
            }
        }
    }

    /// The next value as feed elements named `name` (see `FeedNode.nodes`); one oversized
    /// element, content dropped, when its text exceeds `maxElementBytes`.
    mutating func readNodes(name: String) throws -> [FeedNode] {
        let line = try line()
        return try guarded { p in
            do {
                return FeedNode.nodes(name: name, json: try p.readNode(limit: Self.maxElementBytes), line: line)
            } catch is JSONNodeTooLarge {
                var node = FeedNode(name: name, syntax: .json, line: line)
                node.oversized = true
                return [node]
            }
        }
    }

    /// Checks that only whitespace follows the top-level value.
    mutating func finish() throws {
        do { _ = try parser.next() } catch let e as JSONReadError {
            throw FleetError.unreadable(file: path, location: "line \(parser.line(at: e.offset))", reason: "the JSON has content after its end (\(e.message))",
                                        hint: "Nothing of this file was imported; check that the file holds one saved response.")
        }
    }

    private mutating func expect(_ token: JSONToken) throws {
        try guarded { p in
            let t = try p.next()
            if t != token { throw p.fail("expected \(token == .objectStart ? "an object" : "an array") here") }
        }
    }

    static let truncatedHint = "Nothing of this file was imported. Re-export or re-download it completely and import it again."

    /// Runs a parser step, turning its error into the importer's: the file, the line and a
    /// hint. A truncated file says so in the words users search for.
    private mutating func guarded<T>(_ body: (inout JSONPullParser) throws -> T) throws -> T {
        do { return try body(&parser) } catch let e as JSONReadError {
            let line = parser.line(at: e.offset)
            if e.isTruncated {
                throw FleetError.unreadable(file: path, location: "line \(line)", reason: "the JSON ends before its values are closed; the file is truncated",
                                            hint: Self.truncatedHint)
            }
            let at = e.path.isEmpty ? "" : " (at \(e.path))"
            throw FleetError.unreadable(file: path, location: "line \(line)", reason: "the JSON is not valid: \(e.message)\(at)",
                                        hint: "Nothing of this file was imported. Re-export it completely and import it again.")
        }
    }
}

extension FeedNode {
    /// A JSON value as feed elements named `name`: object members become children, and an
    /// array becomes one element per item, the way XML repeats an element.
    static func nodes(name: String, json: JSONNode, line: Int? = nil) -> [FeedNode] {
        var node = FeedNode(name: name, syntax: .json, line: line)
        switch json {
        case let .array(items): return items.flatMap { nodes(name: name, json: $0, line: line) }
        case let .object(members): node.children = members.flatMap { nodes(name: $0.key, json: $0.value, line: line) }
        case let .string(s), let .number(s): node.text = s
        case let .bool(b): node.text = b ? "true" : "false"
        case .null: break
        }
        return [node]
    }
}
