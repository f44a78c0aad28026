import Foundation
import FleetCore
import FleetWarehouse

/// Walks a saved Motive response (one page, or a list of pages) and hands each record of its
/// lists to the handler of its kind (`MotiveVehicles`, `MotiveLocations`).
///
/// Every Motive list wraps each record in an object named for it: `"vehicles": [{"vehicle":
/// {…}}]`, `"vehicle_locations": [{"vehicle_location": {…}}]`. A record that is not so wrapped
/// is rejected with its path. `pagination` (`per_page`, `page_no`, `total`) is checked: a save
/// that stops before the last page says so in a note.
final class MotiveReader<S: RecordSink>: SavedPagesReader {
    typealias Sink = S
    let input: InputFile
    var parser: JSONPullParser
    var tally = RecordTally()
    /// Per vehicle, the latest reading loaded, for the odometer and engine-hour checks.
    var last: [Int64: MotiveLastReading] = [:]
    private var lists = 0

    static var recordLimit: Int { 1 << 20 }

    init(_ input: InputFile) throws {
        self.input = input
        parser = try JSONPullParser(url: input.source)
    }

    func run(into sink: inout S) throws {
        try walkPages(into: &sink, members: "'vehicles' or 'vehicle_locations'",
                      notAResponse: "this is not a Motive API response: a JSON object such as {\"vehicles\": […]} or {\"vehicle_locations\": […]}, or a list of such pages, was expected")
        guard lists > 0 else {
            throw parser.fail("the response holds no 'vehicles' or 'vehicle_locations' list, so it is not a Motive response FleetKit reads (see docs/FORMATS.md, motive)")
        }
        for n in tally.notes() { sink.note(n) }
    }

    /// One page whose `{` has just been read.
    func page(prefix: String, into sink: inout S) throws {
        tally.pages += 1
        while let t = try parser.next(), t != .objectEnd {
            guard case let .key(k) = t else { throw parser.fail("expected a key") }
            switch k {
            case "vehicles":
                lists += 1
                try list(prefix + k, wrapper: "vehicle", into: &sink)
            case "vehicle_locations":
                lists += 1
                try list(prefix + k, wrapper: "vehicle_location", into: &sink)
            case "pagination":
                try pagination(try parser.readNode(limit: 64 * 1024), prefix)
            case "location_histories":
                throw parser.fail("this is a v1 single-vehicle location history: its records do not name their vehicle (the id is only in the request URL), so they cannot be attributed; save GET /v3/vehicle_locations/{id} instead, whose records carry their vehicle")
            case "inspection_reports", "fuel_purchases", "ifta_trips", "driving_periods", "logs", "users", "fault_codes", "vehicle_idle_rollups", "assets":
                throw parser.fail("'\(k)' is a Motive response FleetKit does not read yet (read: vehicles, vehicle_locations); nothing from this file was imported, see docs/FORMATS.md")
            case "error", "error_message", "errors":
                let e = try parser.readNode(limit: 64 * 1024)
                throw parser.fail("the response is a Motive error, not data: \(e.render(limit: 300)); fix the API call and save its result again")
            default:
                tally.unknown("response", [k])
                try parser.skipValue()
            }
        }
    }

    /// A list whose key has just been read: each element `{wrapper: {…}}`.
    private func list(_ path: String, wrapper: String, into sink: inout S) throws {
        switch try parser.peek() {
        case .arrayStart?: _ = try parser.next()
        case .null?: _ = try parser.next(); return
        default: throw parser.fail("'\(path)' should be a list of {\"\(wrapper)\": …} records but is \(try parser.readNode(limit: 4096).kind)")
        }
        var i = 0
        while let t = try parser.peek(), t != .arrayEnd {
            let at = "\(path)[\(i)]"
            i += 1
            let node: JSONNode
            do { node = try parser.readNode(limit: Self.recordLimit) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: e.path, "the record is larger than \(Self.recordLimit) bytes and was not read"))
                continue
            }
            try record(node, wrapper: wrapper, at: at, into: &sink)
        }
        _ = try parser.next()
    }

    private func record(_ node: JSONNode, wrapper: String, at path: String, into sink: inout S) throws {
        tally.saw(wrapper)
        guard let inner = node[wrapper], case .object = inner, node.members.count == 1 else {
            try sink.reject(Issue(.unknownShape, at: path, "a Motive list element is {\"\(wrapper)\": {…}}; this is \(node.kind)\(node.members.isEmpty ? "" : " with members " + node.members.prefix(8).map(\.key).joined(separator: ", "))",
                                  raw: node.render()))
            return
        }
        let f = JSONFields(inner, at: path + "." + wrapper)
        do {
            var done: MotiveLastReading.Update? = nil
            try sink.atomically { s in
                switch wrapper {
                case "vehicle": done = try self.vehicle(f, &s)
                default: done = try self.vehicleLocation(f, &s)
                }
            }
            if let done { last[done.asset] = done.reading }
        } catch let e as JSONRowError {
            try sink.reject(Issue(e.reason, at: e.path, e.message, raw: node.render()))
        } catch let e as RowError {
            try sink.reject(Issue(e.reason, at: path, e.message, raw: node.render()))
        }
    }

    /// `{per_page, page_no, total}`: a note when records remain after this page.
    private func pagination(_ node: JSONNode, _ prefix: String) throws {
        let f = JSONFields(node, at: prefix + "pagination")
        guard case .object = node else { return }
        guard let per = try f.number("per_page"), let page = try f.number("page_no"), let total = try f.number("total"),
              per.value > 0, page.value >= 1 else { return }
        if per.value * page.value < total.value {
            tally.remark("pagination says page \(page.raw) of \(per.raw) per page holds records up to \(JSONFields.show(per.value * page.value)) of \(total.raw): the save may stop before the end of the data; fetch the remaining pages with page_no")
        }
    }
}

/// The latest odometer and engine hours loaded for one vehicle in this file, in SI.
struct MotiveLastReading {
    var at: Int64
    var odometerM: Double?
    var engineS: Double?

    struct Update {
        var asset: Int64
        var reading: MotiveLastReading
    }
}

/// The reject reasons of Motive's meter checks.
enum MotiveReason {
    /// A cumulative meter lower than the vehicle's earlier reading in the same file.
    static let meterRollback: Issue.Reason = "meter_rollback"
    /// A meter that rose faster than the clock allows (engine hours beyond elapsed time).
    static let meterTooFast: Issue.Reason = "meter_too_fast"
}
