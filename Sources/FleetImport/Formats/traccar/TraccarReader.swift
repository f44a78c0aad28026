import Foundation
import FleetCore
import FleetWarehouse

/// Walks a saved Traccar response (a JSON list of rows) and hands each row to the handler of its
/// kind (one file per kind in this folder).
///
/// Every Traccar endpoint FleetKit reads returns a bare JSON list; an object at the top (an error
/// page, a WebSocket message) fails the file with what to do. Rows are materialised one at a
/// time, so memory is bounded by one row and by the per-device state (`TraccarMeters`); each row
/// is loaded in its own savepoint, so an unusable one becomes one reject (its path and raw text)
/// and leaves nothing half-written.
final class TraccarReader<S: RecordSink> {
    let input: InputFile
    var parser: JSONPullParser
    var tally = RecordTally()
    /// The last odometer, hours and ignition of each device, to judge the next reading.
    var meters = TraccarMeters()

    static var recordLimit: Int { 1 << 20 }

    init(_ input: InputFile) throws {
        self.input = input
        parser = try JSONPullParser(url: input.source)
    }

    func run(into sink: inout S) throws {
        tally.pages = 1
        switch try parser.next() {
        case .arrayStart?:
            try rows(into: &sink)
        case .objectStart?:
            throw parser.fail("this is a JSON object, not a Traccar API response: /api/positions, /api/devices and /api/reports/route|trips return a JSON list; save the list the server returned (with Accept: application/json)")
        default:
            throw parser.fail("this is not a Traccar API response: a JSON list of positions, devices or report rows was expected")
        }
        guard try parser.next() == nil else { throw parser.fail("unexpected data after the end of the document") }
        for n in meters.notes() { sink.note(n) }
        for n in tally.notes() { sink.note(n) }
    }

    /// The rows of the list whose `[` has just been read.
    private func rows(into sink: inout S) throws {
        while let t = try parser.peek(), t != .arrayEnd {
            let node: JSONNode
            do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: e.path, "the row is larger than \(Self.recordLimit) bytes and was not read"))
                continue
            }
            try row(node, at: parser.path, into: &sink)
        }
        _ = try parser.next()
    }

    /// Classifies one row and loads it in its own savepoint.
    func row(_ node: JSONNode, at path: String, into sink: inout S) throws {
        guard case .object = node else {
            try sink.reject(Issue(.wrongType, at: path, "a Traccar row is a JSON object, this is \(node.kind)", raw: node.render()))
            return
        }
        let f = JSONFields(node, at: path)
        let kind = TraccarEntity.classify(node)
        tally.saw(kind == .unknown ? "unrecognised rows" : kind.rawValue)
        if !kind.known.isEmpty { tally.unknown(kind.rawValue, f.unknownKeys(kind.known)) }
        do {
            try sink.atomically { s in
                switch kind {
                case .device: try self.device(f, &s)
                case .position: try self.position(f, &s)
                case .trip: try self.trip(f, &s)
                case .summary: try self.summary(f)
                case .stop: try self.stop(f)
                case .event: try self.event(f)
                case .unknown:
                    let keys = node.members.prefix(12).map(\.key).joined(separator: ", ")
                    throw JSONRowError(.unknownShape, "not a Traccar row FleetKit reads (members: \(keys)); positions, devices, trip, stop, summary and event report rows are read, see docs/FORMATS.md", at: path)
                }
            }
        } catch let e as JSONRowError {
            try sink.reject(Issue(e.reason, at: e.path, e.message, raw: node.render()))
        } catch let e as RowError {
            try sink.reject(Issue(e.reason, at: path, e.message, raw: node.render()))
        }
    }
}
