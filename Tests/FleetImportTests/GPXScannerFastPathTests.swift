import XCTest
import Foundation
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// The point fast path (`GPXScanner+FastPath.swift`) against the general reading: point shapes
/// on both sides of the boundary between them, at chunk sizes that split points, and against
/// Foundation's `XMLParser` reading of the same documents.
final class GPXScannerFastPathTests: XCTestCase {
    static let head = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
             xmlns:v1="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" xmlns:other="http://www.example.com/other">
          <wpt lat="45.5" lon="7.25"><time>2026-10-01T07:00:00Z</time><name>depot</name></wpt>
          <trk><name>T-7</name><trkseg>

        """
    static let tail = """

          </trkseg></trk>
          <rte><rtept lat='45.6' lon='7.3'><time>2026-10-01T09:00:00Z</time></rtept></rte>
        </gpx>

        """
    static let plain = #"<trkpt lat="41.8780515" lon="-87.6298782"><ele>199.9</ele><time>2026-10-01T08:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>8.43</gpxtpx:speed><gpxtpx:course>230.2</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>"#

    /// Point shapes the fast path reads itself.
    static let fast: [(String, String)] = [
        ("reversed attributes, single quotes", "<trkpt lon='-87.5' lat='41.5'><time>2026-10-01T08:00:01Z</time></trkpt>"),
        ("newlines inside tags and values", "<trkpt\n   lat=\"41.6\"\n   lon = \"-87.6\" >\n  <ele> 12 </ele>\n  <time>\n2026-10-01T08:00:02Z\n</time>\n</trkpt>"),
        ("GPX 1.0 speed and course", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:03.5Z</time><speed>3.5</speed><course>45</course></trkpt>"),
        ("extension v1 with other values", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:04Z</time><extensions><v1:TrackPointExtension><v1:hr>120</v1:hr><v1:speed>4</v1:speed></v1:TrackPointExtension></extensions></trkpt>"),
        ("negative speed is unknown", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:05Z</time><speed>-1</speed></trkpt>"),
        ("zoneless time", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:06</time></trkpt>"),
        ("unread children and text", "<trkpt lat=\"1\" lon=\"2\">x<sat>7</sat><hdop>0.8</hdop><name>a > b</name><time>2026-10-01T08:00:07+02:00</time></trkpt>"),
        ("direct speed wins over the extension's", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:08Z</time><speed>5</speed><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>6</gpxtpx:speed><gpxtpx:course>7</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>"),
        ("speed under another element after extensions", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:09Z</time><extensions><gpxtpx:TrackPointExtension></gpxtpx:TrackPointExtension></extensions><x><speed>5</speed><gpxtpx:course>6</gpxtpx:course></x></trkpt>"),
        ("speed outside extensions, not a child", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:09Z</time><gpxtpx:x><speed>5</speed></gpxtpx:x><gpxtpx:speed>6</gpxtpx:speed></trkpt>"),
    ]

    /// Point shapes left to the general reading (unusual markup, or a reject and its message).
    static let general: [(String, String)] = [
        ("comment inside", "<trkpt lat=\"1\" lon=\"2\"><!-- fix --><time>2026-10-01T08:00:10Z</time></trkpt>"),
        ("CDATA time", "<trkpt lat=\"1\" lon=\"2\"><time><![CDATA[2026-10-01T08:00:11Z]]></time></trkpt>"),
        ("entity in a value", "<trkpt lat=\"1\" lon=\"2\"><ele>1&#48;</ele><time>2026-10-01T08:00:12Z</time></trkpt>"),
        ("entity in an attribute", "<trkpt lat=\"4&#49;.5\" lon=\"2\"><time>2026-10-01T08:00:13Z</time></trkpt>"),
        ("another attribute", "<trkpt lat=\"1\" lon=\"2\" id=\"9\"><time>2026-10-01T08:00:14Z</time></trkpt>"),
        ("prefix rebound on the point", "<trkpt xmlns:gpxtpx=\"http://www.example.com/other\" lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:15Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>9</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>"),
        ("speed in a foreign namespace", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:16Z</time><extensions><other:speed>9</other:speed></extensions></trkpt>"),
        ("unbound prefix", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:17Z</time><extensions><zz:TrackPointExtension><zz:speed>9</zz:speed></zz:TrackPointExtension></extensions></trkpt>"),
        ("attribute on a child", "<trkpt lat=\"1\" lon=\"2\"><ele unit=\"m\">5</ele><time>2026-10-01T08:00:18Z</time></trkpt>"),
        ("blank in an end tag", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:19Z</time ></trkpt>"),
        ("self-closing child", "<trkpt lat=\"1\" lon=\"2\"><ele/><time>2026-10-01T08:00:20Z</time></trkpt>"),
        ("processing instruction", "<trkpt lat=\"1\" lon=\"2\"><?app x?><time>2026-10-01T08:00:21Z</time></trkpt>"),
        ("element inside a value", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:22Z<b/></time></trkpt>"),
        ("duplicate attribute", "<trkpt lat=\"1\" lat=\"3\" lon=\"2\"><time>2026-10-01T08:00:23Z</time></trkpt>"),
        ("namespace default changed in extensions", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:24Z</time><extensions><tp xmlns=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\"><speed>7.5</speed></tp></extensions></trkpt>"),
        ("no time", "<trkpt lat=\"1\" lon=\"2\"><ele>3</ele></trkpt>"),
        ("self-closing point", "<trkpt lat=\"1\" lon=\"2\"/>"),
        ("no lon", "<trkpt lat=\"1\"><time>2026-10-01T08:00:25Z</time></trkpt>"),
        ("bad lat", "<trkpt lat=\"north\" lon=\"2\"><time>2026-10-01T08:00:26Z</time></trkpt>"),
        ("lat out of range", "<trkpt lat=\"91\" lon=\"2\"><time>2026-10-01T08:00:27Z</time></trkpt>"),
        ("course out of range", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:28Z</time><course>400</course></trkpt>"),
        ("bad ele", "<trkpt lat=\"1\" lon=\"2\"><ele>1,5</ele><time>2026-10-01T08:00:29Z</time></trkpt>"),
        ("unreadable time", "<trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt>"),
        ("placeholder time", "<trkpt lat=\"1\" lon=\"2\"><time>1900-01-01T00:00:00Z</time></trkpt>"),
        ("date without time of day", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01</time></trkpt>"),
    ]

    /// Shapes that make the file malformed: the general reading's error, after the same points.
    static let malformed: [(String, String)] = [
        ("attributes not separated", "<trkpt lat=\"1\"lon=\"2\"><time>2026-10-01T08:00:30Z</time></trkpt>"),
        ("'<' in an attribute", "<trkpt lat=\"1<\" lon=\"2\"><time>2026-10-01T08:00:31Z</time></trkpt>"),
        ("mismatched end tag", "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:32Z</tme></trkpt>"),
        ("bare ampersand", "<trkpt lat=\"1\" lon=\"2\"><name>a & b</name><time>2026-10-01T08:00:33Z</time></trkpt>"),
    ]

    static func document(_ point: String) -> [UInt8] {
        Array((head + "    " + plain + "\n    " + point + "\n    " + plain.replacingOccurrences(of: "08:00:00Z", with: "08:01:00Z") + tail).utf8)
    }

    /// Everything a reading yields: points with line, problem message and rejects' raw text;
    /// the counters and names; the error; and how many points the fast path read.
    struct Reading: Equatable {
        var points: [String] = []
        var counters: [Int] = []
        var names: [String?] = []
        var error: String?
        var fast = 0
    }

    static func read(_ bytes: [UInt8], chunk: Int = 1 << 20, fast: Bool = true) -> Reading {
        var r = Reading()
        let s = GPXScanner(bytes: bytes, chunkSize: chunk)
        s.fastPath = fast
        do {
            try s.scan { p in
                r.points.append(GPXScannerTests.describe(p) + (p.problem.map { " \($0.message) raw=\(s.rawText())" } ?? ""))
            }
        } catch { r.error = "\(error)" }
        r.counters = [s.unknownValues, s.zonelessTimes, s.foreignValues, s.index, s.waypoint]
        r.names = [s.fileName, s.trackName]
        r.fast = s.fastPoints
        return r
    }

    func testEveryShapeReadsAsTheGeneralReadingReadsIt() throws {
        for (set, takesFastPath) in [(Self.fast, true), (Self.general, false), (Self.malformed, false)] {
            for (name, point) in set {
                let bytes = Self.document(point)
                let expected = Self.read(bytes, fast: false)
                XCTAssertEqual(expected.fast, 0)
                for chunk in [1 << 20, 97, 13, 1] {
                    var actual = Self.read(bytes, chunk: chunk)
                    if chunk == 1 << 20 {
                        // The plain points around it (and the rtept and wpt) always take the fast path.
                        XCTAssertEqual(actual.fast, expected.error == nil ? (takesFastPath ? 5 : 4) : 2, name)
                    }
                    actual.fast = 0
                    XCTAssertEqual(actual, expected, "\(name), \(chunk)-byte chunks")
                }
            }
        }
    }

    func testShapesMatchXMLParser() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fastpath-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: url) }
        // Where the general reading and libxml2 already differ (not the fast path's doing): an
        // unbound prefix is foreign to the scanner and no namespace to libxml2; the reference
        // drops a value's text before a child element; libxml2 refuses a duplicate attribute.
        let differ: Set<String> = ["unbound prefix", "element inside a value", "duplicate attribute"]
        for (name, point) in Self.fast + Self.general where !differ.contains(name) {
            let bytes = Self.document(point)
            try Data(bytes).write(to: url)
            var points: [String] = []
            try GPXScanner(bytes: bytes).scan { points.append(GPXScannerTests.describe($0, line: false)) }
            XCTAssertEqual(points, ReferenceGPX.read(url), name)
        }
    }

    func testExactValuesFromTheFastPath() {
        let r = Self.read(Self.document(Self.fast[1].1))
        XCTAssertEqual(r.fast, 5)
        XCTAssertEqual(r.points, [
            "wpt wpt[1] line 5 45.5 7.25 2026-10-01T07:00:00Z ele=- speed=- course=- ok",
            "trkpt trk[1]/trkseg[1]/trkpt[1] line 7 41.8780515 -87.6298782 2026-10-01T08:00:00Z ele=199.9 speed=8.43 course=230.2 ok",
            "trkpt trk[1]/trkseg[1]/trkpt[2] line 8 41.6 -87.6 2026-10-01T08:00:02Z ele=12.0 speed=- course=- ok",
            "trkpt trk[1]/trkseg[1]/trkpt[3] line 16 41.8780515 -87.6298782 2026-10-01T08:01:00Z ele=199.9 speed=8.43 course=230.2 ok",
            "rtept rte[1]/rtept[1] line 18 45.6 7.3 2026-10-01T09:00:00Z ele=- speed=- course=- ok",
        ])
        XCTAssertEqual(r.names, [nil, "T-7"])
        let counters = Self.read(Self.document(Self.fast[4].1)).counters + Self.read(Self.document(Self.fast[5].1)).counters
        XCTAssertEqual(counters, [1, 0, 0, 1, 1, 0, 1, 0, 1, 1])
    }

    func testRebindingAPrefixOrTheDefaultNamespaceIsSeenByTheFastPath() {
        func point(_ s: Int) -> String {
            "<trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:0\(s)Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>\(s)</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>"
        }
        let gpx = Self.head + point(1) + "</trkseg><trkseg xmlns:gpxtpx=\"http://www.example.com/other\">" + point(2)
            + "</trkseg><trkseg>" + point(3) + "<x xmlns=\"http://www.example.com/other\">" + point(4) + "</x>" + Self.tail
        let r = Self.read(Array(gpx.utf8))
        XCTAssertEqual(r.points.map { $0.components(separatedBy: " ")[7...8].joined(separator: " ") }, [
            "ele=- speed=-", "ele=- speed=1.0", "ele=- speed=-", "ele=- speed=3.0", "ele=- speed=-",
        ])
        XCTAssertEqual(r.counters[2], 1, "the rebound prefix's speed is a foreign value; a trkpt in another default namespace is no point")
        XCTAssertEqual(r.fast, 4, "the point under the rebound prefix is read by the general reading")
        var general = Self.read(Array(gpx.utf8), fast: false)
        general.fast = r.fast
        XCTAssertEqual(r, general)
    }

    /// Thousands of points built from random pieces on both sides of the boundary (a fixed
    /// seed): the fast path must read exactly what the general reading reads, everywhere.
    func testRandomPointsReadAsTheGeneralReadingReadsThem() {
        var seed: UInt64 = 0x5EED_4
        func pick(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        func one(_ choices: [String]) -> String { choices[pick(choices.count)] }
        /// One of `usual`, or one in six times one of `odd`.
        func mostly(_ usual: [String], _ odd: [String]) -> String { pick(6) == 0 ? one(odd) : one(usual) }
        let blank = ["", " ", "\n", "\n      ", "\t"]
        var gpx = Self.head
        for k in 0..<3000 {
            let q = one(["\"", "'"]), lat = mostly(["41.\(k)", "-33.5", " 12.25 "], ["91", "4&#49;.5", "x"]), lon = mostly(["-87.\(k)", "151.2", "-180"], ["181", ""])
            let attrs = pick(2) == 0 ? "lat=\(q)\(lat)\(q)\(one(blank.dropFirst().map { $0 }))lon=\(q)\(lon)\(q)" : "lon=\(q)\(lon)\(q) lat=\(q)\(lat)\(q)"
            var point = "<trkpt\(one([" ", "\n  "]))\(attrs)\(mostly(["", " "], [" id='\(k)'", " xmlns:gpxtpx='http://www.example.com/other'"]))>"
            point += "<time>\(mostly(["2026-10-01T08:00:00Z", "2026-10-01T08:00:00.25+01:00", "2026-10-01T08:00:00"], ["1900-01-01T00:00:00Z", "soon"]))</time>"
            for _ in 0..<pick(5) {
                point += one(blank)
                let p = mostly(["gpxtpx", "v1"], ["other", "zz"])
                point += pick(4) == 0 ? one(["<!-- c -->", "<?pi x?>", "<ele/>", "<name>a &amp; b</name>", "<ele>1&#48;</ele>", "<ele>1,5</ele>"]) : one([
                    "<time><![CDATA[2026-10-01T09:00:00Z]]></time>", "<ele>\(one(["12.5", "-3", " 7 "]))</ele>",
                    "<speed>\(mostly(["3.5", "-1"], ["x"]))</speed>", "<course>\(mostly(["45", "-1"], ["400"]))</course>",
                    "<extensions><\(p):TrackPointExtension><\(p):speed>\(one(["8.5", "-1"]))</\(p):speed><\(p):course>\(mostly(["90"], ["361"]))</\(p):course></\(p):TrackPointExtension></extensions>",
                    "<extensions><\(p):speed>4</\(p):speed></extensions>", "<sat>\(pick(12))</sat>", "<x><speed>5</speed><\(p):course>6</\(p):course></x>",
                ])
            }
            gpx += "\n    " + point + one(blank) + "</trkpt>"
        }
        let bytes = Array((gpx + Self.tail).utf8)
        var expected = Self.read(bytes, fast: false)
        XCTAssertNil(expected.error)
        XCTAssertEqual(expected.points.count, 3002)
        for chunk in [1 << 20, 509, 64] {
            let actual = Self.read(bytes, chunk: chunk)
            if chunk == 1 << 20 {
                // Both sides of the boundary are well exercised.
                XCTAssertGreaterThan(actual.fast, 500)
                XCTAssertLessThan(actual.fast, 2500)
            }
            expected.fast = actual.fast
            XCTAssertEqual(actual, expected, "\(chunk)-byte chunks")
            if actual != expected {
                for (a, e) in zip(actual.points, expected.points) where a != e { XCTFail("\(a)\n\(e)"); break }
            }
        }
    }

    func testPointsSplitAcrossReadChunks() {
        var gpx = Self.head
        for k in 0..<300 {
            let lat = String(format: "%.7f", 41.5 + Double(k) * 0.0001), sec = String(format: "%02d", k % 60)
            gpx += k % 3 == 0 ? "    <trkpt lat='\(lat)' lon='-87.25'>\n      <time>2026-10-01T08:\(sec):00Z</time>\n    </trkpt>\n"
                : k % 3 == 1 ? "    <trkpt lon=\"-87.5\" lat=\"\(lat)\"><ele>\(k)</ele><time>2026-10-01T09:\(sec):00.5Z</time></trkpt>\n"
                : "    " + Self.plain.replacingOccurrences(of: "41.8780515", with: lat) + "\n"
        }
        let bytes = Array((gpx + Self.tail).utf8)
        var expected = Self.read(bytes, fast: false)
        XCTAssertEqual(expected.points.count, 302)
        XCTAssertNil(expected.error)
        for chunk in [1 << 20, 4096, 1000, 256, 251] {
            let actual = Self.read(bytes, chunk: chunk)
            if chunk == 1 << 20 { XCTAssertEqual(actual.fast, 302) } else {
                XCTAssertLessThan(actual.fast, 302, "some points straddle a chunk boundary in \(chunk)-byte chunks")
                XCTAssertGreaterThan(actual.fast, 100)
            }
            expected.fast = actual.fast
            XCTAssertEqual(actual, expected, "\(chunk)-byte chunks")
        }
    }
}
