import Foundation
import FleetCore
import FleetWarehouse

/// Walks a saved John Deere Operations Center response, one page (`{"links", "total",
/// "values"}`) or a JSON array of pages, and hands each element of `values[]` to the handler of
/// its shape (`DeereMachineData.swift`, `DeereEquipment.swift`).
///
/// Memory is bounded by one record: `values[]` is streamed and each element is materialised
/// alone (`JSONPullParser.readNode`), so a 1 GB breadcrumb save imports in constant memory.
///
/// Machine endpoints (`/machines/{principalId}/engineHours`, `…/locationHistory`, …) return
/// records that do not name their machine: the page's `self` link does. Records that come
/// before the links (JSON members have no order) wait in a bounded buffer. A page without such
/// a link takes `--asset` or the inbox folder; with neither, its records become one
/// `unknown_asset` reject that counts them. Equipment and machine lists name themselves.
///
/// Each record is loaded in its own savepoint, so a record that cannot be used becomes one
/// reject (its JSON path and raw text) and leaves nothing half-written. JSON that is not well
/// formed, truncated included, throws: the file's transaction is rolled back whole.
final class DeereReader<S: RecordSink>: SavedPagesReader {
    typealias Sink = S
    let input: InputFile
    var parser: JSONPullParser
    /// Counts for the notes (shapes, unknown keys, counts), as every JSON telematics reader keeps them.
    var tally = RecordTally()
    /// The last engine state seen per asset, so breadcrumbs give state *changes* only.
    var lastState: [Int64: String] = [:]
    private var lastNextPage: String?

    static var recordLimit: Int { 1 << 20 }
    static var maxPending: Int { 10_000 }

    /// One page's machine and the records waiting for it.
    struct Page {
        let prefix: String
        var principal: String?
        var asset: Int64?
        /// The page's machine when it is not yet in the warehouse: created inside the savepoint
        /// of the first record that loads, so a machine whose every record is rejected leaves
        /// no empty auto-created asset behind.
        var machine: AssetRef?
        var failure: Issue?
        var pending: [(node: JSONNode, path: String, shape: DeereShape)] = []
        var lost = 0
        var nextPage: String?
    }

    init(_ input: InputFile) throws {
        self.input = input
        parser = try JSONPullParser(url: input.source)
    }

    func run(into sink: inout S) throws {
        try walkPages(into: &sink, members: "'values' and 'links'",
                      notAResponse: "this is JSON but not an Operations Center response, which is an object with a 'values' member (or an array of such pages)")
        if let next = lastNextPage {
            tally.remark("the last page has a nextPage link (\(next)), so the save may stop before the end of the data; fetch the remaining pages")
        }
        for n in tally.notes() { sink.note(n) }
    }

    // MARK: Pages

    func page(prefix: String, into sink: inout S) throws {
        tally.pages += 1
        var state = Page(prefix: prefix)
        var sawValues = false
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            switch k {
            case "values":
                sawValues = true
                switch try parser.peek() {
                case .arrayStart?: try values(&state, into: &sink)
                case .null?: _ = try parser.next()
                case .objectStart?:
                    // A single-record response (the equipment API's `/equipment/{id}`, and
                    // Deere's own equipment examples) puts one record in `values`, not a list.
                    let path = prefix + "values"
                    let node: JSONNode
                    do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                        try sink.reject(Issue(.oversizedRecord, at: path, "the record is larger than \(Self.recordLimit) bytes and was not read (byte \(e.offset))"))
                        break
                    }
                    try record(node, at: path, &state, into: &sink)
                default:
                    let node = try parser.readNode(limit: 64 * 1024)
                    try sink.reject(Issue(.wrongType, at: prefix + "values", "'values' should be an array of records (or one record) but is \(node.kind)", raw: node.render()))
                }
            case "links":
                let node = try parser.readNode(limit: 256 * 1024)
                try links(node, &state, into: &sink)
            case "total", "@type", "nextId", "lastModifiedTime":
                try parser.skipValue()
            default:
                tally.unknown("page", [k])
                try parser.skipValue()
            }
        }
        guard sawValues else {
            throw parser.fail("the page has no 'values' member, so it is not an Operations Center list response FleetKit reads")
        }
        try close(&state, into: &sink)
        lastNextPage = state.nextPage
    }

    private func values(_ state: inout Page, into sink: inout S) throws {
        _ = try parser.next()
        var index = -1
        while try parser.peek() != .arrayEnd {
            index += 1
            let path = "\(state.prefix)values[\(index)]"
            let node: JSONNode
            do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: path, "the record is larger than \(Self.recordLimit) bytes and was not read (byte \(e.offset))"))
                continue
            }
            try record(node, at: path, &state, into: &sink)
        }
        _ = try parser.next()
    }

    /// `links: [{rel, uri | href}]`: `self` (or any link) naming `/machines/{principalId}/`
    /// gives the page's machine; `nextPage` says whether more pages exist.
    private func links(_ node: JSONNode, _ state: inout Page, into sink: inout S) throws {
        guard case let .array(items) = node else {
            try sink.reject(Issue(.wrongType, at: state.prefix + "links", "'links' should be an array of {rel, uri} but is \(node.kind)", raw: node.render()))
            return
        }
        var found: [(rel: String, id: String)] = []
        for item in items {
            guard let rel = item["rel"].flatMap({ if case let .string(s) = $0 { return s } else { return nil } }),
                  let uri = (item["uri"] ?? item["href"]).flatMap({ if case let .string(s) = $0 { return s } else { return nil } }) else { continue }
            if rel == "nextPage" { state.nextPage = uri }
            if let id = Self.principalID(inLink: uri) { found.append((rel, id)) }
        }
        guard state.principal == nil, let id = (found.first { $0.rel == "self" } ?? found.first)?.id else { return }
        state.principal = id
        try resolve(DeereIdentity.machine(principalID: id), &state, into: &sink)
    }

    /// The principal id in `…/machines/{id}/…` (`/platform/machines/1234/engineHours?…`).
    static func principalID(inLink uri: String) -> String? {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let parts = path.split(separator: "/")
        guard let i = parts.lastIndex(where: { $0.lowercased() == "machines" }), i + 1 < parts.count else { return nil }
        let id = String(parts[i + 1])
        guard !id.isEmpty, id.utf8.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return id
    }

    /// Thrown to undo a trial creation of the page's machine.
    private struct TrialOnly: Error {}

    private func resolve(_ ref: AssetRef, _ state: inout Page, into sink: inout S) throws {
        do {
            if let id = try sink.findAsset(ref) {
                state.asset = id
            } else {
                // A trial creation, undone, so that a machine FleetKit cannot create fails the
                // page here as before; the real one waits for a record that loads.
                do { try sink.atomically { s in _ = try s.asset(ref); throw TrialOnly() } } catch is TrialOnly {}
                state.machine = ref
            }
        } catch let e as RowError {
            state.failure = e.issue(at: state.prefix + "links", raw: ref.description)
            state.lost += state.pending.count
            state.pending = []
            return
        }
        let pending = state.pending
        state.pending = []
        for p in pending { try load(p.node, at: p.path, p.shape, &state, into: &sink) }
    }

    private func close(_ state: inout Page, into sink: inout S) throws {
        if state.asset == nil, state.machine == nil, state.failure == nil, !state.pending.isEmpty, let ref = input.asset {
            try resolve(ref, &state, into: &sink)
        }
        guard state.asset == nil, state.machine == nil else { return }
        let count = state.lost + state.pending.count
        guard count > 0 else { return }
        if var issue = state.failure {
            issue.message += "; \(count) record\(count == 1 ? "" : "s") of this page \(count == 1 ? "was" : "were") not loaded"
            try sink.reject(issue)
        } else {
            try sink.reject(Issue(.unknownAsset, at: state.prefix + "links",
                                  "this page has no link naming its machine (…/machines/{principalId}/…) and no --asset was given; its \(count) record\(count == 1 ? " was" : "s were") not loaded",
                                  raw: state.pending.first?.node.render() ?? ""))
        }
    }

    // MARK: Records

    private func record(_ node: JSONNode, at path: String, _ state: inout Page, into sink: inout S) throws {
        guard case .object = node else {
            try sink.reject(Issue(.wrongType, at: path, "an Operations Center record is a JSON object, this is \(node.kind)", raw: node.render()))
            return
        }
        let shape = DeereShape.classify(node)
        tally.saw(shape.label)
        if shape == .unknown {
            let keys = node.members.prefix(12).map(\.key).joined(separator: ", ")
            try sink.reject(Issue(.unknownShape, at: path, "not an Operations Center record FleetKit reads (keys: \(keys)); see docs/FORMATS.md for the endpoints read",
                                  raw: node.render()))
            return
        }
        tally.unknown(shape.rawValue, JSONFields(node, at: path).unknownKeys(shape.known))
        if shape.namesItsMachine {
            try located(node, at: path, into: &sink) { s in try self.equipment(JSONFields(node, at: path), shape, &s) }
        } else if state.asset != nil || state.machine != nil {
            try load(node, at: path, shape, &state, into: &sink)
        } else if state.failure != nil {
            state.lost += 1
        } else {
            guard state.pending.count < Self.maxPending else {
                throw FleetError.unreadable(file: input.path, location: path,
                    reason: "more than \(Self.maxPending) records come before the page's links, which name the machine",
                    hint: "Save the response with 'links' before 'values' (as the API sends it), or import the file with --asset UNIT.")
            }
            state.pending.append((node, path, shape))
        }
    }

    private func load(_ node: JSONNode, at path: String, _ shape: DeereShape, _ state: inout Page, into sink: inout S) throws {
        let known = state.asset, machine = state.machine
        var created: Int64?
        try located(node, at: path, into: &sink) { s in
            let asset = try known ?? s.asset(machine!)
            try self.machineData(JSONFields(node, at: path), shape, asset: asset, &s)
            if known == nil { created = asset }
        }
        // Kept only once the record's savepoint was released (a reject rolled the asset back).
        if let created { state.asset = created; state.machine = nil }
    }

    /// Runs `body` as one savepoint; a row error becomes a reject at its path with the raw record.
    func located(_ node: JSONNode, at path: String, into sink: inout S, _ body: (inout S) throws -> Void) throws {
        do {
            try sink.atomically { s in try body(&s) }
        } catch let e as JSONRowError {
            try sink.reject(Issue(e.reason, at: e.path, e.message, raw: node.render()))
        } catch let e as RowError {
            try sink.reject(Issue(e.reason, at: path, e.message, raw: node.render()))
        }
    }
}
