import Foundation
import FleetCore
import FleetWarehouse

/// Loads ISO 15143-3 and AEMP 1.2 feeds into a sink, whatever their syntax: the XML and JSON
/// drivers report pages, `Equipment` containers and whole data elements, and this class ties
/// each element to its machine and loads its facts.
///
/// A class holding the sink, because the XML driver calls back into a consumer object: the sink
/// is moved in by `ISOFeed.read` and moved back out when the file is done.
///
/// Scopes: an `Equipment` (snapshot) or a page (time series, single-machine snapshot) has one
/// `EquipmentHeader`. Elements that arrive before it (JSON objects have no key order) wait in
/// a bounded buffer. A page without a header takes its machine from its `self` link
/// (`/Fleet/Equipment/{PIN}/…`), then from `--asset` or the folder; with none, the scope's
/// elements become one `unknown_asset` reject that counts them.
final class ISOFeedLoader<S: RecordSink> {
    static var maxPending: Int { 10_000 }

    var sink: S
    let input: InputFile
    var tally = FeedTally()
    private var mapper = ISOElementMapper()
    private var scopes: [Scope] = []
    private var links: [(rel: String, href: String)] = []

    private struct Scope {
        let path: FeedPath
        let isPage: Bool
        var headerPath: FeedPath?
        var asset: Int64?
        var failure: Issue?
        var pending: [(FeedNode, FeedPath)] = []
        var lost = 0
    }

    init(sink: S, input: InputFile) {
        self.sink = sink
        self.input = input
    }

    // MARK: Events from the drivers

    func beginPage(_ path: FeedPath, snapshotTime: String?) {
        mapper.snapshotTime = nil
        links = []
        if let s = snapshotTime {
            switch FeedValues.instant(s) {
            case let .at(ms): mapper.snapshotTime = ms
            case .placeholder: tally.placeholder("snapshotTime")
            case .invalid, .outOfRange: tally.dropped("snapshotTime '\(s)' (not a date-time)")
            }
        }
        scopes = [Scope(path: path, isPage: true)]
    }

    func endPage() throws {
        try closeScope()
        let next = links.first { $0.rel.lowercased() == "next" }?.href
        let current = links.first { $0.rel.lowercased() == "self" }?.href
        if let next, next != current, Self.pageNumber(next).map({ n in Self.pageNumber(current ?? "").map { n > $0 } ?? true }) ?? true {
            tally.nextPage(next)
        }
    }

    /// The page number at the end of a link (`/Fleet/3`), to tell a real next page from Bosch's
    /// last page, whose `next` points back at page 1.
    static func pageNumber(_ href: String) -> Int? {
        href.split(separator: "?").first?.split(separator: "/").last.flatMap { Int($0) }
    }

    func beginEquipment(_ path: FeedPath) {
        scopes.append(Scope(path: path, isPage: false))
    }

    func endEquipment() throws { try closeScope() }

    /// A whole element inside the current scope.
    func element(_ node: FeedNode, path: FeedPath) throws {
        if node.oversized {
            let limit = node.syntax == .json ? "\(FeedJSON.maxElementBytes >> 20) MiB of text"
                : "\(XMLElementDriver.maxNodes) elements or \(XMLElementDriver.maxTextBytes / 1024) KiB of text"
            try sink.reject(Issue(.oversizedRecord, at: path.description, "the \(node.name) element is larger than FleetKit reads as one element (\(limit)); it was skipped", raw: node.render()))
            return
        }
        switch ISOElementMapper.kind(of: node.name) {
        case .unknown: tally.unknown(node.name, at: path)
        case .notStored: tally.notStored(node.name)
        case .links: addLinks(node)
        case .header: try header(node, path: path)
        default:
            let i = scopes.count - 1
            if let asset = scopes[i].asset { try load(node, path: path, asset: asset) }
            else if scopes[i].failure != nil { scopes[i].lost += 1 }
            else {
                guard scopes[i].pending.count < Self.maxPending else {
                    throw FleetError.unreadable(file: input.path, location: path.description,
                        reason: "more than \(Self.maxPending) data elements come before their EquipmentHeader",
                        hint: "Put the EquipmentHeader first, or import the page with --asset UNIT.")
                }
                scopes[i].pending.append((node, path))
            }
        }
    }

    /// A JSON file that is `[]`: what a paging API (Bosch's time series) returns past its last
    /// page. There is nothing to store and nothing is wrong.
    func emptyPage() {
        sink.note("the file is an empty page ([]): no data to store; a vendor's paging API returns this past its last page")
    }

    /// Writes the notes; call once at the end of the file.
    func finish() {
        for n in tally.notes() { sink.note(n) }
    }

    // MARK: Identity

    private func header(_ node: FeedNode, path: FeedPath) throws {
        let i = scopes.count - 1
        guard scopes[i].headerPath == nil else {
            try sink.reject(Issue(.duplicateKey, at: path.description, "a second EquipmentHeader in one \(scopes[i].isPage ? "page" : "Equipment"); the first one was kept", raw: node.render()))
            return
        }
        scopes[i].headerPath = path
        do {
            try resolve(try ISOIdentity.ref(from: node, tally: &tally), scope: i)
        } catch let e as RowError {
            // Rendered only for a reject: every machine of a snapshot has a header.
            scopes[i].failure = e.issue(at: path.description, raw: node.render())
            scopes[i].lost += scopes[i].pending.count
            scopes[i].pending = []
        }
    }

    private func resolve(_ ref: AssetRef, scope i: Int) throws {
        var id: Int64 = 0
        try sink.atomically { sink in id = try sink.asset(ref) }
        scopes[i].asset = id
        let pending = scopes[i].pending
        scopes[i].pending = []
        for (node, path) in pending { try load(node, path: path, asset: id) }
    }

    private func closeScope() throws {
        guard !scopes.isEmpty else { return }
        let i = scopes.count - 1
        if scopes[i].asset == nil, scopes[i].failure == nil, scopes[i].isPage, !scopes[i].pending.isEmpty {
            let linked = (links.filter { $0.rel.lowercased() == "self" } + links).lazy.compactMap { ISOIdentity.ref(fromLink: $0.href) }.first
            if let ref = linked ?? input.asset { try resolveOrFail(ref, scope: i) }
        }
        let scope = scopes.removeLast()
        guard scope.asset == nil else { return }
        let count = scope.lost + scope.pending.count
        if var issue = scope.failure {
            if count > 0 { issue.message += "; \(count) data element\(count == 1 ? "" : "s") of it \(count == 1 ? "was" : "were") not loaded" }
            try sink.reject(issue)
        } else if count > 0 {
            let what = scope.isPage ? "this page has no EquipmentHeader and no link naming the machine (/Fleet/Equipment/{PIN}/…), and no --asset was given"
                : "this Equipment has no EquipmentHeader"
            try sink.reject(Issue(.unknownAsset, at: scope.path.description,
                                  "\(what); its \(count) data element\(count == 1 ? " was" : "s were") not loaded",
                                  raw: scope.pending.first?.0.render() ?? ""))
        }
    }

    private func resolveOrFail(_ ref: AssetRef, scope i: Int) throws {
        do { try resolve(ref, scope: i) } catch let e as RowError {
            scopes[i].failure = e.issue(at: scopes[i].path.description, raw: "")
            scopes[i].lost += scopes[i].pending.count
            scopes[i].pending = []
        }
    }

    private func addLinks(_ node: FeedNode) {
        let items = node.children(named: "Link").isEmpty ? [node] : node.children(named: "Link")
        for l in items {
            if let rel = l.value("rel"), let href = l.value("href") { links.append((rel, href)) }
        }
    }

    // MARK: Facts

    private func load(_ node: FeedNode, path: FeedPath, asset: Int64) throws {
        let facts: [ISOFact]
        do { facts = try mapper.facts(node, tally: &tally) } catch let e as RowError {
            try sink.reject(e.issue(at: path.description, raw: node.render()))
            return
        }
        let file = sink.sourceFileID
        for fact in facts {
            switch fact {
            case let .meter(meter, at, value, raw, unit):
                try sink.load(MeterReading(assetID: asset, meter: meter, at: at, value: value, rawValue: raw, rawUnit: unit, sourceFileID: file))
            case let .position(at, lat, lon, alt):
                try sink.load(Position(assetID: asset, at: at, lat: lat, lon: lon, altM: alt, sourceFileID: file))
            case let .engine(at, on):
                try sink.load(EngineEvent(assetID: asset, at: at, state: on ? "on" : "off", sourceFileID: file))
            case let .dtc(at, code, system, spn, fmi, description, severity, cleared):
                try sink.load(DtcEvent(assetID: asset, at: at, code: code, system: system, spn: spn, fmi: fmi, description: description,
                                       status: severity, clearedAt: cleared, sourceFileID: file))
            }
        }
    }
}
