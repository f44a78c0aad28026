import Foundation
import FleetCore

/// One `<trkpt>`, `<rtept>` or `<wpt>` as read, before it meets the warehouse.
public struct GPXPoint: Equatable, Sendable {
    public enum Kind: String, Sendable { case trackPoint = "trkpt", routePoint = "rtept", waypoint = "wpt" }
    public var kind: Kind
    /// 1-based track (or route) number, segment number (0 outside a segment) and point number.
    public var track = 0, segment = 0, index = 0
    public var line = 0
    public var lat: Double?
    public var lon: Double?
    public var time: Int64?
    public var ele: Double?
    public var speed: Double?
    public var course: Double?
    /// Why the point cannot be a position; nil when it can.
    public var problem: Problem?

    public struct Problem: Equatable, Sendable {
        public var reason: Issue.Reason
        public var message: String
    }

    public init(kind: Kind) { self.kind = kind }

    /// An XPath-like location: `trk[1]/trkseg[2]/trkpt[17]`.
    public var path: String {
        switch kind {
        case .trackPoint: return segment > 0 ? "trk[\(track)]/trkseg[\(segment)]/trkpt[\(index)]" : "trk[\(track)]/trkpt[\(index)]"
        case .routePoint: return "rte[\(track)]/rtept[\(index)]"
        case .waypoint: return "wpt[\(index)]"
        }
    }

    mutating func fail(_ reason: Issue.Reason, _ message: String) {
        if problem == nil { problem = Problem(reason: reason, message: message) }
    }
}

enum GPXTag: UInt8 {
    case other, gpx, metadata, name, trk, trkseg, trkpt, rte, rtept, wpt, time, ele, speed, course, extensions, tpx

    static func of(_ ns: XMLNamespace, _ p: UnsafePointer<UInt8>, _ n: Int) -> GPXTag {
        @inline(__always) func eq(_ s: StaticString) -> Bool { n == s.utf8CodeUnitCount && Byte.equal(p, s.utf8Start, n) }
        if ns.isGPX {
            // By length, then first byte: one compare finds the candidate.
            switch (n, n > 0 ? p[0] : 0) {
            case (3, UInt8(ascii: "e")): return eq("ele") ? .ele : .other
            case (3, UInt8(ascii: "t")): return eq("trk") ? .trk : .other
            case (3, UInt8(ascii: "r")): return eq("rte") ? .rte : .other
            case (3, UInt8(ascii: "w")): return eq("wpt") ? .wpt : .other
            case (3, UInt8(ascii: "g")): return eq("gpx") ? .gpx : .other
            case (4, UInt8(ascii: "t")): return eq("time") ? .time : .other
            case (4, UInt8(ascii: "n")): return eq("name") ? .name : .other
            case (5, UInt8(ascii: "t")): return eq("trkpt") ? .trkpt : .other
            case (5, UInt8(ascii: "r")): return eq("rtept") ? .rtept : .other
            case (5, UInt8(ascii: "s")): return eq("speed") ? .speed : .other
            case (6, UInt8(ascii: "t")): return eq("trkseg") ? .trkseg : .other
            case (6, UInt8(ascii: "c")): return eq("course") ? .course : .other
            case (8, UInt8(ascii: "m")): return eq("metadata") ? .metadata : .other
            case (10, UInt8(ascii: "e")): return eq("extensions") ? .extensions : .other
            default: return .other
            }
        }
        if ns.isTrackPointExtension {
            switch n {
            case 5: return eq("speed") ? .speed : .other
            case 6: return eq("course") ? .course : .other
            case 19: return eq("TrackPointExtension") ? .tpx : .other
            default: return .other
            }
        }
        return .other
    }
}

/// Reads GPX 1.0 and 1.1 from a streaming XML tokenizer: tracks, routes and waypoints, speed
/// and course from GPX 1.0 elements or Garmin's TrackPointExtension (v1 or v2, any prefix).
///
/// The scanner classes mark their state `@exclusivity(unchecked)`: they are used from one
/// thread and never re-entered, and the runtime's dynamic exclusivity checks on class
/// properties took half of the parse time.
public final class GPXScanner {
    let tokens: XMLTokenizer
    /// `<metadata><name>` (1.1) or `<gpx><name>` (1.0), and the first `<trk>`/`<rte>` name.
    @exclusivity(unchecked) public private(set) var fileName: String?
    @exclusivity(unchecked) public private(set) var trackName: String?
    /// Negative speeds and courses (devices write -1 for "unknown"), stored as unknown.
    @exclusivity(unchecked) public internal(set) var unknownValues = 0
    /// Times without a zone designator, read as UTC (the GPX schema's zone).
    @exclusivity(unchecked) public internal(set) var zonelessTimes = 0
    /// Speed or course elements in a namespace that is not GPX's or Garmin's, left unread.
    @exclusivity(unchecked) public private(set) var foreignValues = 0
    public var foreignURIs: [String] { tokens.foreignURIs }

    @exclusivity(unchecked) var tags = PODStack<GPXTag>(capacity: 32)
    @exclusivity(unchecked) private var point = GPXPoint(kind: .waypoint)
    @exclusivity(unchecked) var pointDepth = 0
    @exclusivity(unchecked) private var extensionsDepth = 0
    @exclusivity(unchecked) var track = 0, segment = 0, index = 0, route = 0, waypoint = 0
    @exclusivity(unchecked) private var capture: GPXTag = .other, captureInExtensions = false
    @exclusivity(unchecked) private var extSpeed: Double?, extCourse: Double?
    /// Reads ordinary points in one pass over their bytes (`GPXScanner+FastPath.swift`);
    /// tests turn it off to compare against the general reading.
    @exclusivity(unchecked) var fastPath = true
    /// Points the fast path read (tests check that it takes the plain ones).
    @exclusivity(unchecked) var fastPoints = 0
    /// Open elements inside a fast-path point: start and length of each qualified name.
    @exclusivity(unchecked) var fastNames = PODStack<Int>(capacity: 16)

    public convenience init(url: URL, chunkSize: Int = 1 << 20) throws {
        self.init(try XMLBytes(url: url, chunkSize: chunkSize))
    }

    public convenience init(bytes: [UInt8], chunkSize: Int = 1 << 20) {
        self.init(XMLBytes(bytes: bytes, chunkSize: chunkSize))
    }

    init(_ bytes: XMLBytes) { tokens = XMLTokenizer(bytes) }

    deinit {
        tags.free()
        fastNames.free()
    }

    /// The raw text of the point being reported (its element, capped as rejects cap it).
    public func rawText() -> String { tokens.b.pinnedText(to: tokens.b.pos) }

    /// Calls `body` for every point, in file order. Throws `GPXFileError` when the file is not
    /// well-formed GPX. With `headerOnly`, stops at the first track or route point, once the
    /// names used for attribution are known.
    public func scan(headerOnly: Bool = false, _ body: (GPXPoint) throws -> Void) throws {
        do { try run(headerOnly: headerOnly, body) } catch let f as XMLFailure {
            throw GPXFileError(message: f.message, line: f.line, offset: f.offset)
        }
    }

    private func run(headerOnly: Bool, _ body: (GPXPoint) throws -> Void) throws {
        while true {
            if fastPath, pointDepth == 0, !headerOnly, !tags.isEmpty, !tokens.capturing, !tokens.hasPendingEnd {
                while try fastPoint(body) {}
            }
            switch try tokens.next() {
            case .eof: return
            case let .start(ns, local):
                let tag = GPXTag.of(ns, tokens.b.p + local.lowerBound, local.count)
                if tags.isEmpty, tag != .gpx {
                    let name = tokens.string(local.lowerBound, local.upperBound)
                    throw tokens.fail(name == "gpx" ? "the root <gpx> is in a namespace that is not GPX 1.0 or 1.1 (\(tokens.foreignURIs.first ?? "an undeclared prefix")); FleetKit reads GPX 1.0 and 1.1"
                                                    : "the root element is <\(name)>, not <gpx>: this is not a GPX file", at: tokens.tagStart)
                }
                if headerOnly, tag == .trkpt || tag == .rtept { return }
                try start(tag, ns: ns, local: local)
                tags.push(tag)
            case .end:
                let tag = tags.pop()
                if try end(tag, body), headerOnly, trackName != nil { return }
            }
        }
    }

    private func start(_ tag: GPXTag, ns: XMLNamespace, local: Range<Int>) throws {
        let parent = tags.last ?? .other
        if pointDepth > 0 {
            switch tag {
            case .time where tags.count == pointDepth, .ele where tags.count == pointDepth:
                begin(tag)
            case .speed, .course:
                if tags.count == pointDepth { if ns.isGPX { begin(tag) } } else if extensionsDepth > 0 { begin(tag, inExtensions: true) }
            case .extensions where tags.count == pointDepth:
                extensionsDepth = tags.count + 1
            case .other where extensionsDepth > 0 && (ns == .other || ns == .unbound):
                let p = tokens.b.p + local.lowerBound
                if (local.count == 5 && memcmp(p, "speed", 5) == 0) || (local.count == 6 && memcmp(p, "course", 6) == 0) { foreignValues += 1 }
            default: break
            }
            return
        }
        switch tag {
        case .trk: track += 1; segment = 0; index = 0
        case .trkseg: segment += 1; index = 0
        case .rte: route += 1; index = 0
        case .name where parent == .metadata || parent == .gpx:
            if fileName == nil { begin(.name) }
        case .name where parent == .trk || parent == .rte:
            if trackName == nil { begin(.name) }
        case .trkpt, .rtept, .wpt:
            try beginPoint(tag)
        default: break
        }
    }

    private func begin(_ tag: GPXTag, inExtensions: Bool = false) {
        capture = tag
        captureInExtensions = inExtensions
        tokens.text.truncate(0)
        tokens.capturing = true
    }

    private func beginPoint(_ tag: GPXTag) throws {
        switch tag {
        case .trkpt: point = GPXPoint(kind: .trackPoint); index += 1; (point.track, point.segment) = (track, segment)
        case .rtept: point = GPXPoint(kind: .routePoint); index += 1; point.track = route
        default: point = GPXPoint(kind: .waypoint); waypoint += 1
        }
        point.index = tag == .wpt ? waypoint : index
        point.line = tokens.tagLine
        pointDepth = tags.count + 1
        extensionsDepth = 0
        extSpeed = nil
        extCourse = nil
        tokens.b.setPin(tokens.tagStart)
        var lat: Range<Int>?, lon: Range<Int>?
        let p = tokens.b.p
        for a in tokens.attributes.buffer where a.name.count == 3 {
            if memcmp(p + a.name.lowerBound, "lat", 3) == 0 { lat = a.value } else if memcmp(p + a.name.lowerBound, "lon", 3) == 0 { lon = a.value }
        }
        point.lat = try coordinate(lat, "lat", limit: 90)
        point.lon = try coordinate(lon, "lon", limit: 180)
    }

    private func coordinate(_ r: Range<Int>?, _ name: String, limit: Double) throws -> Double? {
        guard let r else { point.fail(.missingField, "the point has no \(name) attribute"); return nil }
        let p = tokens.b.p + r.lowerBound
        // The usual value has no entity reference and parses straight from the window.
        if let v = GPXValues.decimal(p, r.count), abs(v) <= limit { return v }
        let text = try tokens.value(r)
        var parsed: Double? = nil
        if !text.isEmpty { parsed = Array(text.utf8).withUnsafeBufferPointer { GPXValues.decimal($0.baseAddress!, $0.count) } }
        guard let v = parsed else { point.fail(.badNumber, "\(name)=\"\(text)\" is not a decimal number"); return nil }
        guard abs(v) <= limit else { point.fail(.outOfRange, "\(name)=\"\(text)\" is outside -\(Int(limit))…\(Int(limit)) degrees"); return nil }
        return v
    }

    /// Handles an end tag; returns true when it ended a name.
    private func end(_ tag: GPXTag, _ body: (GPXPoint) throws -> Void) throws -> Bool {
        let depth = tags.count + 1
        if tag == capture, tokens.capturing {
            tokens.capturing = false
            capture = .other
            return try store(tag)
        }
        if depth == extensionsDepth { extensionsDepth = 0 }
        if depth == pointDepth {
            pointDepth = 0
            if point.speed == nil { point.speed = extSpeed }
            if point.course == nil { point.course = extCourse }
            if point.time == nil {
                point.fail("missing_time", point.kind == .waypoint
                    ? "the waypoint has no <time>: it marks a place, not a fix of the vehicle, and a position needs a time"
                    : "the point has no <time>; a position needs one (position.at)")
            }
            try body(point)
            tokens.b.pin = -1
        }
        return false
    }

    private func store(_ tag: GPXTag) throws -> Bool {
        let text = tokens.text.buffer
        if tag == .name {
            let name = tokens.decode(text).trimmingCharacters(in: .whitespacesAndNewlines)
            if tags.last == .metadata || tags.last == .gpx { fileName = name } else { trackName = name }
            return tags.last == .trk || tags.last == .rte
        }
        let buf = text
        let p = buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, n = buf.count
        func shown() -> String { "<\(tag)>\(String(decoding: buf, as: UTF8.self))</\(tag)>" }
        if tag == .time {
            switch GPXValues.time(p, n) {
            case .success(let ms) where Timestamp.plausible.contains(ms):
                point.time = ms
                let s = (buf.firstIndex { !Byte.isSpace($0) } ?? 0) + 10
                if n > s, !buf[s...].contains(where: { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") || $0 == UInt8(ascii: "+") || $0 == Byte.dash }) {
                    zonelessTimes += 1
                }
            case .success: point.fail(.outOfRange, "\(shown()) is outside 1971–2200 (a placeholder or a GPS without a fix)")
            case .failure(.noTimeOfDay): point.fail(.badDate, "\(shown()) has a date but no time of day")
            case .failure: point.fail(.badDate, "\(shown()) is not an ISO 8601 date-time")
            }
            return false
        }
        guard let v = GPXValues.decimal(p, n) else { point.fail(.badNumber, "\(shown()) is not a decimal number"); return false }
        switch tag {
        case .ele: point.ele = v
        case .speed where v < 0, .course where v < 0: unknownValues += 1
        case .speed: if captureInExtensions { extSpeed = v } else { point.speed = v }
        case .course where v > 360: point.fail(.outOfRange, "\(shown()) is outside 0–360 degrees")
        case .course: if captureInExtensions { extCourse = v } else { point.course = v }
        default: break
        }
        return false
    }
}

/// A GPX file that cannot be read as a whole, with where the problem is.
public struct GPXFileError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var offset: Int64
    public var description: String { "line \(line), byte \(offset): \(message)" }
}
