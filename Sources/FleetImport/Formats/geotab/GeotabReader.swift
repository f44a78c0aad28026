import Foundation
import FleetCore
import FleetWarehouse

/// Walks a saved MyGeotab response and hands each entity to the handler of its kind (one file
/// per kind in this folder).
///
/// The response is `{"result": [...]}` (`Get`), `{"result": {"data": [...], "toVersion": …}}`
/// (`GetFeed`) or the bare list; a JSON-RPC `error` member, or an object with no `result`, fails
/// the file with what to do. Entities are materialised one at a time, so memory is bounded by one
/// entity; each is loaded in its own savepoint, so an unusable one becomes one reject (its path
/// and raw text) and leaves nothing half-written.
final class GeotabReader<S: RecordSink> {
    let input: InputFile
    var parser: JSONPullParser
    var tally = RecordTally()
    /// The first and last `dateTime` of the diagnostics read, and whether they came in time order.
    var span = GeotabSpan()
    /// Records read but not stored, per kind and per diagnostic id (`GeotabIDCounts`).
    var unstored = GeotabIDCounts()

    static var recordLimit: Int { 1 << 20 }

    init(_ input: InputFile) throws {
        self.input = input
        parser = try JSONPullParser(url: input.source)
    }

    func run(into sink: inout S) throws {
        tally.pages = 1
        switch try parser.next() {
        case .objectStart?:
            try response(into: &sink)
        case .arrayStart?:
            try entities(into: &sink)
        default:
            throw parser.fail("this is not a MyGeotab API response: a JSON-RPC object with a 'result' member, or a JSON list of entities, was expected")
        }
        guard try parser.next() == nil else { throw parser.fail("unexpected data after the end of the document") }
        for n in span.notes() { sink.note(n) }
        for n in unstored.notes() { sink.note(n) }
        for n in tally.notes() { sink.note(n) }
    }

    /// The JSON-RPC envelope, whose `{` has just been read.
    private func response(into sink: inout S) throws {
        var sawResult = false
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            switch k {
            case "result":
                guard !sawResult else { throw parser.fail("the response has a second 'result' member; a duplicate member would lose one of them, so the file is refused (save the response again)") }
                sawResult = true
                switch try parser.peek() {
                case .arrayStart?: _ = try parser.next(); try entities(into: &sink)
                case .objectStart?: _ = try parser.next(); try feed(into: &sink)
                case .null?: _ = try parser.next()
                default: throw parser.fail("'result' is \(try parser.readNode(limit: 4096).kind); a Get response holds a list there and a GetFeed response an object with 'data'")
                }
            case "error":
                let e = try parser.readNode(limit: 64 * 1024)
                let message = e["message"].flatMap { if case let .string(s) = $0 { return s } else { return nil } } ?? e.render(limit: 300)
                throw parser.fail("the response is a MyGeotab error, not data: \(message); fix the API call and save its result again")
            case "jsonrpc", "id", "requestIndex":
                try parser.skipValue()
            default:
                tally.unknown("response", [k])
                try parser.skipValue()
            }
        }
        guard sawResult else {
            throw parser.fail("the object has no 'result' member, so it is not a MyGeotab API response (a JSON-RPC body {\"result\": …} or the bare list of entities)")
        }
    }

    /// A GetFeed result, whose `{` has just been read: `data` is the list, `toVersion` the
    /// version to ask from next.
    private func feed(into sink: inout S) throws {
        var sawData = false
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            switch k {
            case "data":
                guard try parser.next() == .arrayStart else { throw parser.fail("a GetFeed result's 'data' should be a list of entities") }
                sawData = true
                try entities(into: &sink)
            case "toVersion":
                try parser.skipValue()
            default:
                tally.unknown("feed", [k])
                try parser.skipValue()
            }
        }
        guard sawData else { throw parser.fail("the GetFeed result has no 'data' list") }
    }

    /// The entities of a list whose `[` has just been read.
    private func entities(into sink: inout S) throws {
        while let t = try parser.peek(), t != .arrayEnd {
            let node: JSONNode
            do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: e.path, "the entity is larger than \(Self.recordLimit) bytes and was not read"))
                continue
            }
            try entity(node, at: parser.path, into: &sink)
        }
        _ = try parser.next()
    }

    /// Classifies one entity and loads it in its own savepoint.
    func entity(_ node: JSONNode, at path: String, into sink: inout S) throws {
        guard case .object = node else {
            try sink.reject(Issue(.wrongType, at: path, "a MyGeotab entity is a JSON object, this is \(node.kind)", raw: node.render()))
            return
        }
        let f = JSONFields(node, at: path)
        let kind = GeotabEntity.classify(node)
        tally.saw(kind == .unknown ? "unrecognised entities" : kind.rawValue)
        if !kind.known.isEmpty { tally.unknown(kind.rawValue, f.unknownKeys(kind.known)) }
        do {
            try sink.atomically { s in
                switch kind {
                case .device: try self.device(f, &s)
                case .statusData: try self.statusData(f, &s)
                case .faultData: try self.faultData(f, &s)
                case .logRecord: try self.logRecord(f, &s)
                case .deviceStatusInfo: try self.deviceStatusInfo(f, &s)
                case .trip: try self.trip(f, &s)
                case .fuelTransaction: try self.fuelTransaction(f, &s)
                case .exceptionEvent: try self.exceptionEvent(f)
                case .unknown:
                    let keys = node.members.prefix(12).map(\.key).joined(separator: ", ")
                    throw JSONRowError(.unknownShape, "not a MyGeotab entity FleetKit reads (members: \(keys)); see docs/FORMATS.md for the entity types read", at: path)
                }
            }
        } catch let e as JSONRowError {
            try sink.reject(masked(Issue(e.reason, at: e.path, e.message, raw: node.render()), kind))
        } catch let e as RowError {
            try sink.reject(masked(Issue(e.reason, at: path, e.message, raw: node.render()), kind))
        }
    }

    /// A rejected fuel transaction is kept with its card numbers masked to the last four, as the
    /// `fuel-card` format keeps its rejects: MyGeotab's `cardNumber` may be a full number.
    private func masked(_ issue: Issue, _ kind: GeotabEntity) -> Issue {
        guard kind == .fuelTransaction else { return issue }
        var m = issue
        m.raw = FuelCardImporter.maskCardNumbers(issue.raw)
        m.message = FuelCardImporter.maskCardNumbers(issue.message)
        return m
    }
}

/// When the diagnostics of a file were measured: MyGeotab returns them in no time order and may
/// include records older than the window asked for. Every record is kept at its own time (the
/// warehouse orders by time), and the note says what span the file covered.
struct GeotabSpan {
    var first: Int64?
    var last: Int64?
    var previous: Int64?
    var outOfOrder = 0
    var count = 0

    mutating func saw(_ at: Int64) {
        count += 1
        if let p = previous, at < p { outOfOrder += 1 }
        previous = at
        first = min(first ?? at, at)
        last = max(last ?? at, at)
    }

    func notes() -> [String] {
        guard let first, let last, count > 0 else { return [] }
        var s = count == 1 ? "1 timed record, at \(Timestamp.iso(first))" : "\(count) timed records from \(Timestamp.iso(first)) to \(Timestamp.iso(last))"
        if outOfOrder > 0 { s += "; \(outOfOrder) came earlier than the record before them (MyGeotab does not sort), each was stored at its own time" }
        return [s]
    }
}

/// Counts of records read but not stored, by what they are (`kind`, a sentence) and by
/// diagnostic id: one note per kind naming each id and its count. At most `maxIDs` distinct ids
/// are named per kind, the rest counted together, so a hostile file cannot grow it unbounded.
struct GeotabIDCounts {
    private var kinds: [String: [String: Int]] = [:]
    static let maxIDs = 50

    mutating func count(_ kind: String, _ id: String) {
        let key = id.count > 60 ? String(id.prefix(60)) + "…" : id
        var ids = kinds[kind, default: [:]]
        if ids[key] != nil || ids.count < Self.maxIDs { ids[key, default: 0] += 1 } else { ids["(other ids)", default: 0] += 1 }
        kinds[kind] = ids
    }

    func notes() -> [String] {
        kinds.sorted { $0.key < $1.key }.map { kind, ids in
            let total = ids.values.reduce(0, +)
            return "\(kind): \(total) (" + ids.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
    }
}
