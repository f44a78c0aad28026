import Foundation
import FleetCore

/// A JSON document with a fixed layout, for output that diffs cleanly between runs.
///
/// JSONSerialization prints doubles with all their binary noise and (on Linux) does not promise a
/// key order, so the report JSON is built from these values instead: numbers are kept as the
/// exact literal text the renderer chose, object keys are sorted by their UTF-8 bytes, and the
/// layout is fixed (2-space indent; arrays of scalars and small flat objects on one line).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case string(String)
    /// A JSON number literal, already formatted (`12.5`, `1234.50`).
    case number(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// A table's rows, walked while writing (`ReportTable.forEachRow`) so a streamed table is
    /// never held: printed exactly as `.array` of its rows would be.
    case rows(JSONRows)

    /// Objects with at most this many scalar members print on one line (columns, sources, period).
    static let inlineObjectLimit = 4

    func rendered() throws -> String {
        var out = JSONOutput()
        try write(to: &out, indent: 0)
        out.append("\n")
        return out.text
    }

    /// Writes the document to `file` in chunks (`TextFileStream`), never holding all of it.
    func write(to file: TextFileStream) throws {
        var out = JSONOutput()
        try write(to: &out, indent: 0) { try file.write($0) }
        out.append("\n")
        try file.write(out.text)
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object, .rows: return false
        default: return true
        }
    }

    private var isInline: Bool {
        switch self {
        case let .array(items): return items.allSatisfy(\.isScalar)
        case let .object(members): return members.count <= Self.inlineObjectLimit && members.values.allSatisfy(\.isScalar)
        default: return true
        }
    }

    private static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// `flush` takes the text written so far when it grows past a chunk (nil: keep it all).
    private func write(to out: inout JSONOutput, indent: Int, flush: ((String) throws -> Void)? = nil) throws {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .string(s): out += JSONText.quoted(s)
        case let .number(n): out += n
        case let .rows(rows):
            var first = true
            let pad = String(repeating: " ", count: indent + 2)
            try rows.table.forEachRow { row in
                out += first ? "[\n" : ",\n"
                first = false
                out += pad
                try JSONValue.array(row.map { JSONFormat.value($0, zone: rows.zone) }).write(to: &out, indent: indent + 2, flush: flush)
                if let flush, out.text.utf8.count >= TextFileStream.chunk { try flush(out.text); out.text = "" }
            }
            out += first ? "[]" : "\n" + String(repeating: " ", count: indent) + "]"
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            if isInline {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    try item.write(to: &out, indent: indent, flush: flush)
                }
                out += "]"
                return
            }
            let pad = String(repeating: " ", count: indent + 2)
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                try item.write(to: &out, indent: indent + 2, flush: flush)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case let .object(members):
            if members.isEmpty { out += "{}"; return }
            let keys = Self.sortedKeys(members)
            if isInline {
                out += "{"
                for (i, key) in keys.enumerated() {
                    if i > 0 { out += ", " }
                    out += JSONText.quoted(key) + ": "
                    try members[key]!.write(to: &out, indent: indent, flush: flush)
                }
                out += "}"
                return
            }
            let pad = String(repeating: " ", count: indent + 2)
            out += "{\n"
            for (i, key) in keys.enumerated() {
                out += pad + JSONText.quoted(key) + ": "
                try members[key]!.write(to: &out, indent: indent + 2, flush: flush)
                out += i == keys.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }
}

/// The text `JSONValue.write` appends to.
struct JSONOutput {
    var text = ""
    mutating func append(_ s: String) { text += s }
    static func += (out: inout JSONOutput, s: String) { out.text += s }
}

/// The rows of one table for `JSONValue.rows`; equal only to itself.
final class JSONRows: Equatable {
    let table: ReportTable
    let zone: TimeZone

    init(_ table: ReportTable, zone: TimeZone) {
        self.table = table
        self.zone = zone
    }

    static func == (a: JSONRows, b: JSONRows) -> Bool { a === b }
}
