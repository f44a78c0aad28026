// libFuzzer harness for the ISO 15143-3 / AEMP 1.2 readers (Sources/FleetImport/Formats/iso15143/*
// except ISOFeed.swift and ISOFeedLoader.swift, which need the warehouse's RecordSink and GRDB;
// with the XML prolog guard, transcoder, byte tokenizer and element driver from Parsers/XML and the JSON
// pull parser from Parsers/JSON).
//
// Boundary: the real XML path (XMLPrologGuard, then XMLElementDriver over the byte tokenizer)
// and the real JSON path (FeedJSON over JSONPullParser, FeedNode.nodes) feed every collected element to
// the real ISOElementMapper and, for headers, ISOIdentity, through a driver that collects what
// ISOXMLDriver collects (depth > 2, and depth 2 except Fleet/Equipment). Tying facts to assets
// and loading them is left out. Nothing may crash; every fact must be one the warehouse could
// store; and no byte of the sentinel file that fuzz/run.sh plants (and that seeds point
// external entities at) may ever reach the parsed text.
import Foundation

private let sentinel = "FLEETKIT-FUZZ-SENTINEL-7731"
private let sentinelPath = "/tmp/fleetkit-fuzz-sentinel.txt"
private let inputPath = "/tmp/fleetkit-fuzz-iso-\(getpid())"

private func check(_ fact: ISOFact) {
    switch fact {
    case let .meter(name, at, value, raw, _):
        precondition(value.isFinite, "meter \(name) \(raw) read as \(value)")
        precondition(value >= 0, "meter \(name) \(raw) read as negative \(value)")
        if name.hasSuffix("_level") { precondition(value <= 100, "level \(raw) read as \(value)") }
        precondition(Timestamp.plausible.contains(at), "meter \(name) at implausible \(at)")
    case let .position(at, lat, lon, alt):
        precondition((-90...90).contains(lat) && (-180...180).contains(lon), "position \(lat) \(lon)")
        precondition(alt.map(\.isFinite) ?? true, "altitude \(String(describing: alt))")
        precondition(Timestamp.plausible.contains(at), "position at implausible \(at)")
    case let .engine(at, _):
        precondition(Timestamp.plausible.contains(at), "engine at implausible \(at)")
    case let .dtc(at, code, _, _, _, _, _, cleared):
        precondition(!code.isEmpty, "a DTC without a code")
        precondition(Timestamp.plausible.contains(at), "dtc at implausible \(at)")
        if let cleared { precondition(Timestamp.plausible.contains(cleared), "dtc cleared at implausible \(cleared)") }
    }
}

/// One collected element through the mapper, as ISOFeedLoader would hand it over.
private func map(_ node: FeedNode, snapshot: Int64?, tally: inout FeedTally) {
    precondition(!node.render(limit: 2048).contains(sentinel), "the sentinel file's content was read into the feed")
    if ISOElementMapper.kind(of: node.name) == .header { _ = try? ISOIdentity.ref(from: node, tally: &tally) }
    var mapper = ISOElementMapper()
    mapper.snapshotTime = snapshot
    do {
        for fact in try mapper.facts(node, tally: &tally) { check(fact) }
    } catch let e as RowError {
        precondition(!e.message.isEmpty, "a RowError without a message")
    } catch {
        preconditionFailure("the mapper threw \(type(of: error)), not a RowError: \(error)")
    }
}

private final class Driver: XMLElementConsumer {
    var root = ""
    var tally = FeedTally()
    var snapshot: Int64?

    func shouldCollect(name: String, depth: Int) -> Bool {
        depth > 2 || (depth == 2 && !(root == "Fleet" && name == "Equipment"))
    }

    func didStartContainer(name: String, attributes: [String: String], path: FeedPath, depth: Int) throws {
        guard depth == 1 else { return }
        root = name
        if let s = attributes.first(where: { FeedNode.sameName($0.key, "snapshotTime") })?.value,
           case let .at(ms) = FeedValues.instant(s) { snapshot = ms }
    }

    func didCollect(_ node: FeedNode, path: FeedPath) throws {
        precondition(!path.description.isEmpty)
        map(node, snapshot: snapshot, tally: &tally)
    }

    func didEndContainer(name: String, path: FeedPath, depth: Int) throws {}
}

private func readJSON(_ url: URL) throws {
    var r = try FeedJSON(url: url)
    var tally = FeedTally()
    func element(_ key: String, _ r: inout FeedJSON) throws {
        for node in try r.readNodes(name: key) {
            if key.lowercased() == "equipment" { for child in node.children { map(child, snapshot: nil, tally: &tally) } } else { map(node, snapshot: nil, tally: &tally) }
        }
    }
    func page(_ r: inout FeedJSON, depth: Int) throws {
        try r.beginObject()
        while let key = try r.nextKey() {
            if key.lowercased() == "fleet", depth < 4, try r.peekKind() == .object { try page(&r, depth: depth + 1); continue }
            if try r.peekKind() == .array {
                try r.beginArray()
                while try r.nextElement() { try element(key, &r) }
            } else if key.lowercased() == "version" {
                try r.skipValue()
            } else if key.lowercased() == "snapshottime" {
                _ = try r.readScalarText()
            } else {
                try element(key, &r)
            }
        }
    }
    switch try r.peekKind() {
    case .object: try page(&r, depth: 0)
    case .array:
        try r.beginArray()
        while try r.nextElement() { if try r.peekKind() == .object { try page(&r, depth: 0) } else { try r.skipValue() } }
    case .scalar: try r.skipValue()
    }
    try r.finish()
}

private var planted = false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISOFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if !planted {
        FileManager.default.createFile(atPath: sentinelPath, contents: Data((sentinel + "\n").utf8))
        planted = true
    }
    let bytes = Data(bytes: data, count: size)
    let url = URL(fileURLWithPath: inputPath)
    guard (try? bytes.write(to: url)) != nil else { return 0 }
    defer { try? FileManager.default.removeItem(at: url) }
    _ = ISOElementMapper.kind(of: String(decoding: bytes.prefix(64), as: UTF8.self))
    do { try XMLElementDriver(url: url, consumer: Driver()).run() } catch let e as FleetError {
        precondition(!"\(e)".contains(sentinel), "an error message carries the sentinel")
    } catch let e as RowError {
        precondition(!e.message.isEmpty)
    } catch {
        preconditionFailure("the XML reader threw \(type(of: error)): \(error)")
    }
    do { try readJSON(url) } catch is FleetError {} catch {
        preconditionFailure("the JSON reader threw \(type(of: error)): \(error)")
    }
    return 0
}
