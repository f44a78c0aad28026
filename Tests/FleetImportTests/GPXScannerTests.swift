import XCTest
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// The byte scanner against an `XMLParser(stream:)` reading of the same GPX rules, on every
/// fixture and with chunk boundaries inside every token.
final class GPXScannerTests: XCTestCase {
    static let fixtures = fixture("gpx")
    /// Refused by the scanner on purpose (entity declarations); libxml2 would expand them.
    static let refusedOnPurpose: Set<String> = ["entity-bomb.gpx", "external-entity.gpx"]

    static func allFixtures() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "gpx" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func testScannerMatchesXMLParserOnEveryFixture() throws {
        let files = try Self.allFixtures()
        XCTAssertGreaterThanOrEqual(files.count, 20)
        for url in files where !Self.refusedOnPurpose.contains(url.lastPathComponent) {
            let reference = ReferenceGPX.read(url)
            XCTAssertEqual(scan(url, lines: false), reference, url.lastPathComponent)
        }
    }

    func testChunkBoundariesInsideEveryTokenChangeNothing() throws {
        for url in try Self.allFixtures() {
            let bytes = [UInt8](try Data(contentsOf: url))
            let whole = scan(bytes, chunk: 1 << 20)
            for chunk in [1, 2, 3, 7, 16, 61] {
                XCTAssertEqual(scan(bytes, chunk: chunk), whole, "\(url.lastPathComponent) in \(chunk)-byte chunks")
            }
        }
    }

    func testEntityDeclarationsAreRefusedNeverExpanded() throws {
        for name in Self.refusedOnPurpose.sorted() {
            XCTAssertThrowsError(try GPXScanner(url: fixture("gpx/" + name)).scan { _ in }, name) { error in
                let e = error as! GPXFileError
                XCTAssertTrue(e.message.contains("DOCTYPE declares entities"), e.message)
            }
        }
        // A bare DOCTYPE declares nothing and is tolerated; an undefined entity is not expanded.
        XCTAssertEqual(scan(fixture("gpx/doctype-plain.gpx")).count, 1)
        let undefined = Array("<gpx><metadata><name>&x;</name></metadata></gpx>".utf8)
        XCTAssertThrowsError(try GPXScanner(bytes: undefined).scan { _ in }) { XCTAssertTrue(($0 as! GPXFileError).message.contains("undefined entity &x;")) }
    }

    func testExactPointsAndNamespacesByURI() throws {
        XCTAssertEqual(scan(fixture("gpx/gpx11-garmin.gpx")), [
            "trkpt trk[1]/trkseg[1]/trkpt[1] line 14 41.8781 -87.6298 2026-10-01T08:00:00Z ele=181.5 speed=12.5 course=90.0 ok",
            "trkpt trk[1]/trkseg[1]/trkpt[2] line 24 41.8782 -87.6285 2026-10-01T08:00:01.250Z ele=181.0 speed=13.0 course=88.5 ok",
            "trkpt trk[1]/trkseg[2]/trkpt[1] line 37 41.879 -87.62 2026-10-01T08:05:00Z ele=- speed=- course=- ok",
        ])
        // The `gpxtpx` prefix bound to another URI is not Garmin's; `tpx` bound to Garmin's is.
        XCTAssertEqual(scan(fixture("gpx/wrong-prefix.gpx")), [
            "trkpt trk[1]/trkseg[1]/trkpt[1] line 6 40.0 -75.0 2026-10-01T08:00:00Z ele=- speed=- course=- ok",
            "trkpt trk[1]/trkseg[1]/trkpt[2] line 9 40.001 -75.0 2026-10-01T08:00:10Z ele=- speed=11.1 course=0.0 ok",
            "trkpt trk[1]/trkseg[1]/trkpt[3] line 12 40.002 -75.0 2026-10-01T08:00:20Z ele=- speed=7.5 course=- ok",
        ])
        let s = try GPXScanner(url: fixture("gpx/wrong-prefix.gpx"))
        try s.scan { _ in }
        XCTAssertEqual([s.foreignValues, s.unknownValues], [1, 1])
        XCTAssertEqual(s.foreignURIs, ["http://www.example.com/not-garmin/v9"])
    }

    func testGPX10SpeedOffsetsFractionsAndZonelessTimes() throws {
        XCTAssertEqual(scan(fixture("gpx/gpx10-speed.gpx")), [
            "trkpt trk[1]/trkseg[1]/trkpt[1] line 8 48.137154 11.576124 2026-10-01T09:00:00.123Z ele=519.2 speed=8.25 course=45.5 ok",
            "trkpt trk[1]/trkseg[1]/trkpt[2] line 14 48.1373 11.5764 2026-10-01T09:00:01.500Z ele=519.0 speed=8.5 course=46.0 ok",
            "trkpt trk[1]/trkseg[1]/trkpt[3] line 20 -33.8688 151.2093 2026-10-01T10:00:02Z ele=- speed=0.0 course=- ok",
        ])
        let s = try GPXScanner(url: fixture("gpx/no-namespace.gpx"))
        var times: [String] = []
        try s.scan { times.append(Timestamp.iso($0.time!) + " \($0.speed ?? -1)") }
        XCTAssertEqual(times, ["2026-10-01T12:00:00Z 3.5", "2026-10-01T12:00:05.700Z -1.0"])
        XCTAssertEqual(s.zonelessTimes, 2)
    }

    func testMalformedFilesFailWithTheirLocation() throws {
        let cases: [(String, String)] = [
            ("misspelled-close.gpx", "line 5, byte 203: closing tag </trkseq> does not match <trkseg> opened at line 3"),
            ("truncated.gpx", "line 20, byte 800: the file ends inside <gpxtpx:TrackPointExtension> opened at line 18 (truncated?)"),
            ("kml-root.gpx", "line 2, byte 39: the root element is <kml>, not <gpx>: this is not a GPX file"),
            ("unknown-version.gpx", "line 2, byte 39: the root <gpx> is in a namespace that is not GPX 1.0 or 1.1 (http://www.topografix.com/GPX/2/0); FleetKit reads GPX 1.0 and 1.1"),
        ]
        for (name, expected) in cases {
            XCTAssertThrowsError(try GPXScanner(url: fixture("gpx/" + name)).scan { _ in }, name) { XCTAssertEqual(String(describing: $0), expected) }
        }
        for (text, message) in [("<gpx><trk></gpx>", "closing tag </gpx> does not match <trk>"), ("<gpx a=1/>", "value is not quoted"),
                                ("<gpx/><gpx/>", "a second root element"), ("junk<gpx/>", "text outside the root element"),
                                ("<gpx>&</gpx>", "a bare '&'"), ("", "no XML element found"), ("\u{FEFF}", "no XML element found")] {
            XCTAssertThrowsError(try GPXScanner(bytes: Array(text.utf8)).scan { _ in }, text) {
                XCTAssertTrue(String(describing: $0).contains(message), "\(text): \($0)")
            }
        }
        let utf16 = [UInt8]("<gpx/>".data(using: .utf16LittleEndian)!)
        XCTAssertThrowsError(try GPXScanner(bytes: [0xFF, 0xFE] + utf16).scan { _ in }) { XCTAssertTrue("\($0)".contains("UTF-16")) }
    }

    func testManySegmentsAndTracksKeepTheirNumbers() throws {
        var gpx = "<gpx xmlns=\"http://www.topografix.com/GPX/1/1\">"
        for trk in 1...3 {
            gpx += "<trk>"
            for seg in 1...400 { gpx += seg % 7 == 0 ? "<trkseg/>" : "<trkseg><trkpt lat=\"\(trk).\(seg)\" lon=\"0\"><time>2026-10-01T00:00:00Z</time></trkpt></trkseg>" }
            gpx += "</trk>"
        }
        var paths: [String] = []
        try GPXScanner(bytes: Array((gpx + "</gpx>").utf8), chunkSize: 4096).scan { paths.append($0.path) }
        XCTAssertEqual(paths.count, 3 * (400 - 57))
        XCTAssertEqual(paths.first, "trk[1]/trkseg[1]/trkpt[1]")
        XCTAssertEqual(paths.last, "trk[3]/trkseg[400]/trkpt[1]")
    }

    func testRawTextSurvivesChunkBoundaries() throws {
        let bytes = [UInt8](try Data(contentsOf: fixture("gpx/untimed.gpx")))
        for chunk in [5, 1 << 20] {
            let s = GPXScanner(bytes: bytes, chunkSize: chunk)
            var raws: [String] = []
            try s.scan { if $0.problem != nil { raws.append(s.rawText()) } }
            XCTAssertEqual(raws, ["<trkpt lat=\"45.001\" lon=\"7.0\"><ele>241</ele></trkpt>", "<trkpt lat=\"46.0\" lon=\"8.0\"/>",
                                  "<trkpt lat=\"46.1\" lon=\"8.1\"></trkpt>"], "chunk \(chunk)")
        }
    }

    func testHeaderScanStopsAtTheFirstTrackPoint() throws {
        let s = try GPXScanner(url: fixture("gpx/named-vin.gpx"))
        var seen = 0
        try s.scan(headerOnly: true) { _ in seen += 1 }
        XCTAssertEqual([s.fileName, s.trackName], ["Fleet phone 3", "1ftfw1et5dfc10312"])
        XCTAssertEqual(seen, 0)
        let w = try GPXScanner(url: fixture("gpx/waypoints.gpx"))
        try w.scan(headerOnly: true) { _ in }
        XCTAssertEqual(w.fileName, "T-12", "CDATA name")
        let l = try GPXScanner(url: fixture("gpx/latin1.gpx"))
        var names: [String?] = []
        try l.scan { _ in names.append(l.fileName) }
        XCTAssertEqual(names, ["T-12"])
    }

    func testDecimalsAreExactAndStrict() {
        func d(_ s: String) -> Double? { Array(s.utf8).withUnsafeBufferPointer { GPXValues.decimal($0.baseAddress!, $0.count) } }
        for s in ["47.644548", "-122.326897", "0.000001", "+7", ".5", "-0", "179.99999999", "12345678901234567890.5", "0.1234567890123456789012"] {
            XCTAssertEqual(d(s), Double(s.hasPrefix("+") ? String(s.dropFirst()) : s), s)
        }
        for s in ["", " ", "47,5", "1e5", "NaN", "inf", "1.2.3", "-", "abc", "12a"] { XCTAssertNil(d(s), s) }
        XCTAssertEqual(d(" 12.5\n"), 12.5)
    }

    func testTimesAreReadToTheMillisecond() {
        func t(_ s: String) -> String {
            switch Array(s.utf8).withUnsafeBufferPointer({ GPXValues.time($0.baseAddress!, $0.count) }) {
            case .success(let ms): return Timestamp.iso(ms)
            case .failure(let p): return "\(p)"
            }
        }
        XCTAssertEqual(t("2026-10-01T08:00:00Z"), "2026-10-01T08:00:00Z")
        XCTAssertEqual(t("2026-10-01T08:00:00.1234Z"), "2026-10-01T08:00:00.123Z")
        XCTAssertEqual(t("2026-10-01T08:00:00+01:00"), "2026-10-01T07:00:00Z")
        XCTAssertEqual(t("2026-10-01T08:00:00-0530"), "2026-10-01T13:30:00Z")
        XCTAssertEqual(t("2026-10-01T08:00:00-03"), "2026-10-01T11:00:00Z")
        XCTAssertEqual(t("2026-10-01T08:00"), "2026-10-01T08:00:00Z")
        XCTAssertEqual(t("2026-10-01T24:00:00Z"), "2026-10-02T00:00:00Z")
        XCTAssertEqual(t("2024-02-29T00:00:00Z"), "2024-02-29T00:00:00Z")
        XCTAssertEqual(t("2026-10-01"), "noTimeOfDay")
        for bad in ["2025-02-29T00:00:00Z", "2026-10-01T08", "2026-10-01T08:00:00ZZ", "2026-10-01T25:00:00Z", "01/10/2026 08:00", "2026-10-01T08:00:00+1"] {
            XCTAssertEqual(t(bad), "unreadable", bad)
        }
    }

    // MARK: Helpers

    func scan(_ url: URL, lines: Bool = true) -> [String] {
        scan((try? [UInt8](Data(contentsOf: url))) ?? [], chunk: 1 << 20, lines: lines)
    }

    func scan(_ bytes: [UInt8], chunk: Int, lines: Bool = true) -> [String] {
        var out: [String] = []
        do { try GPXScanner(bytes: bytes, chunkSize: chunk).scan { out.append(Self.describe($0, line: lines)) } } catch {
            out.append("FAILED")
        }
        return out
    }

    static func describe(_ p: GPXPoint, line: Bool = true) -> String {
        let f = { (v: Double?) in v.map { "\($0)" } ?? "-" }
        return "\(p.kind.rawValue) \(p.path)\(line ? " line \(p.line)" : "") \(f(p.lat)) \(f(p.lon)) \(p.time.map(Timestamp.iso) ?? "-") "
            + "ele=\(f(p.ele)) speed=\(f(p.speed)) course=\(f(p.course)) \(p.problem?.reason.rawValue ?? "ok")"
    }
}

/// The reference reading: Foundation's `XMLParser(stream:)` (libxml2) with namespace processing,
/// applying the same GPX rules as `GPXScanner`. Slow, and tests only: it proves the byte
/// scanner's XML handling (namespaces, CDATA, entities, nesting) on every fixture.
final class ReferenceGPX: NSObject, XMLParserDelegate {
    static let gpxURIs: Set<String> = ["", "http://www.topografix.com/GPX/1/0", "http://www.topografix.com/GPX/1/1"]
    static let tpxURIs: Set<String> = ["http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"]

    var out: [String] = []
    var stack: [(uri: String, name: String)] = []
    var point: GPXPoint?
    var pointDepth = 0, extensionsDepth = 0
    var track = 0, segment = 0, index = 0, route = 0, waypoint = 0
    var text = ""
    var extSpeed: Double?, extCourse: Double?
    var failed = false

    static func read(_ url: URL) -> [String] {
        let r = ReferenceGPX()
        let parser = XMLParser(stream: InputStream(url: url)!)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = r
        // libxml2 behind XMLParser(stream:) accepts a truncated stream: unclosed elements are a failure.
        if !parser.parse() || r.failed || !r.stack.isEmpty { r.out.append("FAILED") }
        return r.out
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let uri = namespaceURI ?? ""
        let gpx = Self.gpxURIs.contains(uri), depth = stack.count + 1
        if stack.isEmpty, !(gpx && name == "gpx") { failed = true; parser.abortParsing() }
        stack.append((uri, name))
        text = ""
        if pointDepth > 0 {
            if name == "extensions", gpx, depth == pointDepth + 1 { extensionsDepth = depth }
            return
        }
        guard gpx else { return }
        switch name {
        case "trk": track += 1; segment = 0; index = 0
        case "trkseg": segment += 1; index = 0
        case "rte": route += 1; index = 0
        case "trkpt", "rtept", "wpt":
            var p = GPXPoint(kind: GPXPoint.Kind(rawValue: name)!)
            if name == "wpt" { waypoint += 1; p.index = waypoint } else { index += 1; p.index = index }
            (p.track, p.segment) = name == "trkpt" ? (track, segment) : name == "rtept" ? (route, 0) : (0, 0)
            for (attr, limit) in [("lat", 90.0), ("lon", 180.0)] {
                guard let v = attributes[attr] else { p.fail(.missingField, ""); continue }
                guard let d = Self.decimal(v) else { p.fail(.badNumber, ""); continue }
                if abs(d) > limit { p.fail(.outOfRange, "") } else if attr == "lat" { p.lat = d } else { p.lon = d }
            }
            point = p
            pointDepth = depth
            extSpeed = nil
            extCourse = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let (uri, _) = stack.removeLast()
        let depth = stack.count + 1
        guard pointDepth > 0, var p = point else { return }
        let gpx = Self.gpxURIs.contains(uri), tpx = Self.tpxURIs.contains(uri)
        let direct = depth == pointDepth + 1 && gpx
        let inExtensions = extensionsDepth > 0 && depth > extensionsDepth && (gpx || tpx)
        if depth == pointDepth {
            if p.speed == nil { p.speed = extSpeed }
            if p.course == nil { p.course = extCourse }
            if p.time == nil { p.fail("missing_time", "") }
            out.append(GPXScannerTests.describe(p, line: false))
            point = nil
            pointDepth = 0
            extensionsDepth = 0
            return
        }
        if depth == extensionsDepth { extensionsDepth = 0 }
        switch name {
        case "time" where direct:
            switch Array(text.utf8).withUnsafeBufferPointer({ GPXValues.time($0.baseAddress!, $0.count) }) {
            case .success(let ms) where Timestamp.plausible.contains(ms): p.time = ms
            case .success: p.fail(.outOfRange, "")
            case .failure: p.fail(.badDate, "")
            }
        case "ele" where direct:
            if let v = Self.decimal(text) { p.ele = v } else { p.fail(.badNumber, "") }
        case "speed" where direct || inExtensions, "course" where direct || inExtensions:
            guard let v = Self.decimal(text) else { p.fail(.badNumber, ""); break }
            if v < 0 { break }
            if name == "course", v > 360 { p.fail(.outOfRange, ""); break }
            if name == "speed" { if direct { p.speed = v } else { extSpeed = v } } else if direct { p.course = v } else { extCourse = v }
        default: break
        }
        point = p
    }

    static func decimal(_ s: String) -> Double? {
        Array(s.utf8).withUnsafeBufferPointer { $0.isEmpty ? nil : GPXValues.decimal($0.baseAddress!, $0.count) }
    }
}
