import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The GPX regression corpus: every real public file in `../shared/realdata/gpx` (origins and
/// licences in its README) imported as a new user would, its stored figures checked against an
/// independent reading of the same file by gpxpy 1.6.2, never against what FleetKit produced.
///
/// How the expectations were derived (gpxpy in a venv under /tmp, not committed):
///
///     python3 -m venv /tmp/gpxvenv && /tmp/gpxvenv/bin/pip install gpxpy   # 1.6.2
///     g = gpxpy.parse(open(f, encoding='utf-8-sig'))
///     pts = [p for t in g.tracks for s in t.segments for p in s.points]
///     timed = {round((p.time if p.time.tzinfo else p.time.replace(tzinfo=timezone.utc)).timestamp()*1000): p
///              for p in pts if p.time is not None}          # naive times are UTC (the GPX schema's zone)
///     keys = sorted(timed)
///     stored = len(keys); withEle = sum(timed[k].elevation is not None for k in keys)
///     first, last = keys[0], keys[-1]
///     lengthM = gpxpy.geo.length_2d([timed[k] for k in keys])   # the stored fixes in time order
///     untimed = sum(p.time is None for p in pts)
///     routePoints = sum(len(r.points) for r in g.routes); waypoints = len(g.waypoints)
///
/// No corpus file holds a fix that `FixJudge` drops (impossible against two fixes that agree;
/// checked with the same reading: `imp = lambda a, b: haversine(a, b) - 15 > 70 * dt(a, b)` over
/// the timed points in file order, x dropped when imp against both neighbours, which agree, or
/// for an end fix against the next two, which agree: none in any file), so the stored figures
/// are gpxpy's. The GPSBabel files (added later) were read the same way; the Google Takeout one
/// has 216 timed points at 200 distinct instants (16 track ends share their instant with the
/// next track's start): the dictionary keeps the later point, as the upsert on (asset, time) does.
///
/// What FleetKit must do with them (docs/FORMATS.md, GPX): every timed `<trkpt>` is a position
/// (same UTC instant, elevation present exactly where the file has `<ele>`); in a file with
/// timed track points, an untimed `<trkpt>` is a reject with its place; a file whose track
/// points have no time at all is a plan (gpxpy: stored == 0 and untimed > 0), one note and no
/// reject; `<rte>` points (a plan) and `<wpt>` (places) are never positions nor rejects, one
/// note each; only a file that records something touches its asset; a file that is not
/// well-formed XML fails whole.
/// The track length here is recomputed from the stored rows with a haversine (R = 6371.0088 km)
/// and must be within 0.5 % + 1 m of gpxpy's (which uses R = 6378.137 km: 0.11 % apart).
final class RealDataGPXTests: XCTestCase {
    struct Expected {
        var file: String
        var stored: Int, withEle: Int
        var first: Int64?, last: Int64?
        var lengthM: Double
        var untimed: Int, routePoints: Int, waypoints: Int
        init(_ file: String, stored: Int, withEle: Int, first: Int64?, last: Int64?, lengthM: Double, untimed: Int, routePoints: Int, waypoints: Int) {
            (self.file, self.stored, self.withEle, self.first, self.last) = (file, stored, withEle, first, last)
            (self.lengthM, self.untimed, self.routePoints, self.waypoints) = (lengthM, untimed, routePoints, waypoints)
        }
    }

    // The output of the gpxpy reading above, one line per file, unedited.
    static let expected: [Expected] = [
        .init("commons-dost__26624974.gpx", stored: 5, withEle: 5, first: 1393497779420, last: 1393498513840, lengthM: 4.9, untimed: 0, routePoints: 0, waypoints: 0),
        .init("commons-dost__9266323613.gpx", stored: 385, withEle: 0, first: 1658675673000, last: 1658677439000, lengthM: 2117.8, untimed: 0, routePoints: 0, waypoints: 0),
        .init("commons-dost__sample_broken_1.gpx", stored: 1, withEle: 1, first: 1644059714000, last: 1644059714000, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 0),
        .init("furkot__empty.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 0),
        .init("furkot__rpt-ext.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 5, waypoints: 2),
        .init("furkot__usa-route.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 12, waypoints: 0),
        .init("furkot__usa-track.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 13, routePoints: 0, waypoints: 0),
        .init("gpsbabel__datalog.gpx", stored: 500, withEle: 500, first: 1214075756000, last: 1214211618000, lengthM: 7500.3, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpsbabel__garmin-virb-ultra-30-output.gpx", stored: 145, withEle: 145, first: 1498617251000, last: 1498617395000, lengthM: 1717.5, untimed: 0, routePoints: 0, waypoints: 1),
        .init("gpsbabel__garminconnect.gpx", stored: 68, withEle: 68, first: 1673892146000, last: 1673892444000, lengthM: 1589.0, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpsbabel__googletakeout.gpx", stored: 200, withEle: 0, first: 1368226536464, last: 1371682354023, lengthM: 5091068.2, untimed: 562, routePoints: 0, waypoints: 111),
        .init("gpsbabel__gpx_garmin_extensions.gpx", stored: 8, withEle: 8, first: 1219215888000, last: 1219215895000, lengthM: 26.2, untimed: 0, routePoints: 0, waypoints: 1),
        .init("gpsbabel__gpx_subsecond-sample.gpx", stored: 5, withEle: 5, first: 1309628845200, last: 1309628846000, lengthM: 12.0, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpsbabel__i65.anr_route.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 1653, waypoints: 0),
        .init("gpsbabel__nmea.gpx", stored: 154, withEle: 154, first: 1091849348379, last: 1091849501370, lengthM: 30.4, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpsbabel__segmented_tracks.gpx", stored: 4, withEle: 4, first: 1185513845000, last: 1185514500000, lengthM: 591.5, untimed: 42, routePoints: 0, waypoints: 0),
        .init("gpxpy__around-visnjan-with-car.gpx", stored: 104, withEle: 104, first: 1608272150000, last: 1608272664000, lengthM: 2736.3, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpxpy__cerknicko-jezero-without-elevations.gpx", stored: 295, withEle: 0, first: 1281018239000, last: 1281025415000, lengthM: 13669.5, untimed: 1, routePoints: 0, waypoints: 7),
        .init("gpxpy__cerknicko-without-times.gpx", stored: 5, withEle: 5, first: 1281025372000, last: 1281025429000, lengthM: 53.2, untimed: 291, routePoints: 0, waypoints: 7),
        .init("gpxpy__gpx1.0_with_all_fields.gpx", stored: 1, withEle: 1, first: 1357041604000, last: 1357041604000, lengthM: 0.0, untimed: 0, routePoints: 5, waypoints: 2),
        .init("gpxpy__gpx1.1_with_all_fields.gpx", stored: 1, withEle: 1, first: 1357041604000, last: 1357041604000, lengthM: 0.0, untimed: 0, routePoints: 5, waypoints: 2),
        .init("gpxpy__gpx1.1_with_extensions_without_namespaces.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 1),
        .init("gpxpy__gpx_with_garmin_extension.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 1),
        .init("gpxpy__korita-zbevnica.gpx", stored: 513, withEle: 513, first: 1286098590000, last: 1286111971000, lengthM: 6289.0, untimed: 358, routePoints: 0, waypoints: 2),
        .init("gpxpy__route.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 55, waypoints: 0),
        .init("gpxpy__track-with-empty-segment.gpx", stored: 9, withEle: 9, first: 1373131586000, last: 1373131662000, lengthM: 85.9, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpxpy__track-with-less-sec-time.gpx", stored: 2, withEle: 2, first: 1449844993000, last: 1449844993994, lengthM: 1.6, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpxpy__track_with_dilution_errors.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 1, routePoints: 1, waypoints: 1),
        .init("gpxpy__track_with_speed.gpx", stored: 3, withEle: 3, first: 1236002752000, last: 1236002765000, lengthM: 18.7, untimed: 0, routePoints: 0, waypoints: 0),
        .init("gpxpy__unicode_with_bom.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 1),
        .init("ruby-gpx__gpx10.gpx", stored: 1, withEle: 1, first: 1195861783000, last: 1195861783000, lengthM: 0.0, untimed: 0, routePoints: 0, waypoints: 0),
        .init("ruby-gpx__one_segment_mixed_times.gpx", stored: 4, withEle: 0, first: 1478534752000, last: 1479730730000, lengthM: 31923.2, untimed: 584, routePoints: 0, waypoints: 15),
        .init("ruby-gpx__one_segment_no_time.gpx", stored: 0, withEle: 0, first: nil, last: nil, lengthM: 0.0, untimed: 189, routePoints: 0, waypoints: 0),
        .init("ruby-gpx__with_empty_tracks.gpx", stored: 14, withEle: 14, first: 1516100760000, last: 1516100781000, lengthM: 39.0, untimed: 0, routePoints: 0, waypoints: 1),
        .init("ruby-gpx__with_invalid_elev.gpx", stored: 124, withEle: 121, first: 1350607378000, last: 1350608847000, lengthM: 3273.4, untimed: 0, routePoints: 0, waypoints: 0),
    ]
    /// gpxpy refuses it too ("mismatched tag: line 13, column 2"): `</ggpx>` closes `<gpx>`.
    static let malformed = ["furkot__invalid.gpx": "line 13"]

    /// `../shared/realdata/gpx` beside the package root; a missing corpus fails the test.
    static func corpus(file: StaticString = #filePath) throws -> URL {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/realdata/gpx")
        guard FileManager.default.fileExists(atPath: dir.path) else {
            XCTFail("The real-data corpus is missing: expected \(dir.path) (../shared/realdata/gpx beside the package root). Check it out there; this test does not skip.")
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: dir.path])
        }
        return dir
    }

    func testEveryCorpusFileIsCovered() throws {
        let dir = try Self.corpus()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".gpx") })
        XCTAssertEqual(files, Set(Self.expected.map(\.file)).union(Self.malformed.keys), "every corpus file needs an expected outcome")
    }

    func testStoredFiguresMatchGpxpy() throws {
        let dir = try Self.corpus()
        for e in Self.expected {
            let t = try TestWarehouse()
            let url = dir.appendingPathComponent(e.file)
            let o = try t.importFile(url, options: ImportOptions(asset: "GPX-1"))
            XCTAssertEqual(o.status, .imported, "\(e.file): \(o.error ?? "")")
            let recorded = e.stored > 0
            XCTAssertEqual([o.loaded, o.rejected], [e.stored, recorded ? e.untimed : 0], e.file)
            XCTAssertEqual(try t.count("position"), e.stored, e.file)
            XCTAssertEqual(try t.count("position", where: "alt_m IS NOT NULL"), e.withEle, "\(e.file): elevations present")
            XCTAssertEqual(try t.count("reject", where: "reason = 'missing_time'"), recorded ? e.untimed : 0, e.file)
            let span = try t.rows("SELECT MIN(at), MAX(at) FROM position")[0]
            XCTAssertEqual(span[0] as Int64?, e.first, "\(e.file): first UTC time")
            XCTAssertEqual(span[1] as Int64?, e.last, "\(e.file): last UTC time")
            let fixes = try t.rows("SELECT lat, lon FROM position ORDER BY at").map { ($0[0] as Double, $0[1] as Double) }
            let length = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + Self.haversine($1.0, $1.1) }
            XCTAssertEqual(length, e.lengthM, accuracy: e.lengthM * 0.005 + 1, "\(e.file): track length")
            let notes = o.notes ?? []
            XCTAssertEqual(notes.contains { $0.hasPrefix("\(e.routePoints) route point") }, e.routePoints > 0, "\(e.file): \(notes)")
            XCTAssertEqual(notes.contains { $0.hasPrefix("\(e.waypoints) waypoint") }, e.waypoints > 0, "\(e.file): \(notes)")
            XCTAssertEqual(notes.contains { $0.hasPrefix("\(e.untimed) track point") }, !recorded && e.untimed > 0, "\(e.file): \(notes)")
            XCTAssertEqual(try t.count("asset"), recorded ? 1 : 0, "\(e.file): only the --asset unit, and only when something is stored")
            // Re-importing the same file is a no-op.
            XCTAssertEqual(try t.importFile(url, options: ImportOptions(asset: "GPX-1")).status, .unchanged, e.file)
        }
    }

    func testMalformedFileFailsWholeWithItsPlace() throws {
        let dir = try Self.corpus()
        for (file, place) in Self.malformed {
            let t = try TestWarehouse()
            let o = try t.importFile(dir.appendingPathComponent(file), options: ImportOptions(asset: "GPX-1"))
            XCTAssertEqual(o.status, .failed, file)
            XCTAssertTrue(o.error?.contains(place) ?? false, "\(file): \(o.error ?? "no error")")
            XCTAssertEqual(try t.count("position"), 0, file)
        }
    }

    /// The impossible jumps of the corpus, and each file's path without them, read in Python
    /// (standard library only, not FleetKit): the timed `<trkpt>`s keyed by their UTC instant
    /// (the later point kept, as above), in time order; haversine with R = 6,371,008.8 m;
    ///
    ///     jump = lambda a, b: hav(a, b) > 70 * dt(a, b)                 # the trip rule's 70 m/s
    ///     U = sum(hav(a, b) for a, b in pairs if not jump(a, b) and dt(a, b) <= 3600)
    ///
    /// Two jumps in the corpus: the Google Takeout track moves 30,528.5 m in 401.881 s (76 m/s,
    /// from 2013-06-09T21:44:07.529Z), and the Cerknica lake walk 183.7 m in 2 s (92 m/s). A
    /// trip holds only intervals that are neither a gap (over `gap_seconds`, 3600 s, nothing
    /// bridges a GPX gap) nor a jump, and its distance, or the straight line between its ends
    /// when that is longer, is at most the sum of its intervals' straight lines (the triangle
    /// inequality): so a file's trips total at most U (+1 mm a trip for rounding).
    static let jumps: [String: [(Int64, Int64)]] = [
        "gpsbabel__googletakeout.gpx": [(1370814247529, 1370814649410)],
        "gpxpy__cerknicko-jezero-without-elevations.gpx": [(1281022800000, 1281022802000)],
    ]
    static let pathWithoutJumpsOrGaps: [String: Double] = [
        "commons-dost__26624974.gpx": 4.9, "commons-dost__9266323613.gpx": 2115.4, "gpsbabel__datalog.gpx": 7482.1,
        "gpsbabel__garmin-virb-ultra-30-output.gpx": 1715.6, "gpsbabel__garminconnect.gpx": 1587.2, "gpsbabel__googletakeout.gpx": 413_444.5,
        "gpsbabel__gpx_garmin_extensions.gpx": 26.1, "gpsbabel__gpx_subsecond-sample.gpx": 12.0, "gpsbabel__nmea.gpx": 30.3,
        "gpsbabel__segmented_tracks.gpx": 590.9, "gpxpy__around-visnjan-with-car.gpx": 2733.2, "gpxpy__cerknicko-jezero-without-elevations.gpx": 13_471.4,
        "gpxpy__cerknicko-without-times.gpx": 53.1, "gpxpy__korita-zbevnica.gpx": 6281.9, "gpxpy__track-with-empty-segment.gpx": 85.9,
        "gpxpy__track-with-less-sec-time.gpx": 1.6, "gpxpy__track_with_speed.gpx": 18.6, "ruby-gpx__one_segment_mixed_times.gpx": 0,
        "ruby-gpx__with_empty_tracks.gpx": 38.9,
        "ruby-gpx__with_invalid_elev.gpx": 3269.8,
    ]

    /// No derived trip spans an impossible jump or averages above the 70 m/s rule, and a file's
    /// trips total no more than its path without jumps and gaps (docs/METRICS.md, trip end
    /// `jump`). Before, the Google Takeout file had a trip of the jump's two fixes: 30,528 m in
    /// 402 s, stored at 76 m/s.
    func testNoTripSpansAnImpossibleJump() throws {
        let dir = try Self.corpus()
        for e in Self.expected where e.stored > 1 {
            let t = try TestWarehouse()
            XCTAssertEqual(try t.importFile(dir.appendingPathComponent(e.file), options: ImportOptions(asset: "GPX-1")).status, .imported, e.file)
            let trips = try t.rows("SELECT start_at, end_at, distance_m, duration_s, end_reason FROM trip WHERE source = 'gps'")
            for r in trips {
                let (start, end, distance, duration) = (r[0] as Int64, r[1] as Int64, r[2] as Double, r[3] as Double)
                for (a, b) in Self.jumps[e.file] ?? [] {
                    XCTAssertFalse(start <= a && end >= b, "\(e.file): trip \(start)…\(end) spans the jump \(a)→\(b)")
                }
                XCTAssertLessThanOrEqual(distance, 70 * duration + 30, "\(e.file): trip \(start)…\(end) averages \(distance / duration) m/s")
            }
            let total = trips.reduce(0.0) { $0 + ($1[2] as Double) }
            let bound = try XCTUnwrap(Self.pathWithoutJumpsOrGaps[e.file], e.file)
            XCTAssertLessThanOrEqual(total, bound + 0.05 + 0.001 * Double(trips.count), "\(e.file): trips total \(total) m")
        }
    }

    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.0 - a.0) * rad, dLon = (b.1 - a.1) * rad
        let h = pow(sin(dLat / 2), 2) + cos(a.0 * rad) * cos(b.0 * rad) * pow(sin(dLon / 2), 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
