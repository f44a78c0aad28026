import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class GPXImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func positions(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT a.unit_number, p.at, p.lat, p.lon, p.speed_mps, p.heading_deg, p.alt_m FROM position p JOIN asset a ON a.id = p.asset_id ORDER BY p.at")
            .map { $0.databaseValues.map { $0.description }.joined(separator: "|") }
    }

    func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" }
    }

    func counts(_ o: FileOutcome) -> [Int] { [o.loaded, o.updated, o.unchanged, o.rejected] }

    func testGarminTrackLoadsExactPoints() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("gpx/gpx11-garmin.gpx"), options: t12)
        XCTAssertEqual(o.status, .imported)
        XCTAssertEqual(o.format, "gpx")
        XCTAssertEqual(counts(o), [3, 0, 0, 0])
        XCTAssertEqual(try positions(t), [
            "\"T-12\"|1790841600000|41.8781|-87.6298|12.5|90.0|181.5",
            "\"T-12\"|1790841601250|41.8782|-87.6285|13.0|88.5|181.0",
            "\"T-12\"|1790841900000|41.879|-87.62|NULL|NULL|NULL",
        ])
        XCTAssertEqual(try t.count("asset", where: "unit_number = 'T-12' AND auto_created = 1"), 1, "--asset with an unknown unit creates it")
    }

    func testGPX10SpeedCourseOffsetsAndFractions() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("gpx/gpx10-speed.gpx"), options: t12)
        XCTAssertEqual(counts(o), [2, 0, 0, 0])
        XCTAssertEqual(try positions(t), [
            "\"T-12\"|1790845200123|48.137154|11.576124|8.25|45.5|519.2",
            "\"T-12\"|1790845201500|48.1373|11.5764|8.5|46.0|519.0",
        ])
        // The last fix (its `+1000` offset read: 10:00:02Z, GPXScannerTests) is in Sydney an
        // hour after two in Munich that agree: impossible against both, so dropped with a note.
        XCTAssertEqual(o.notes?.last?.hasPrefix(GPXPipeline.droppedKind + ": 'line 20 2026-10-01T10:00:02Z: "), true, "\(o.notes ?? [])")
    }

    func testEveryUnusablePointIsRejectedWithItsLocation() throws {
        let t = try TestWarehouse()
        var o = try t.importFile(fixture("gpx/bad-values.gpx"), options: t12)
        XCTAssertEqual(counts(o), [1, 0, 0, 7])
        XCTAssertEqual(o.notes, ["2 negative speed or course values (devices write -1 for unknown) were stored as unknown"])
        o = try t.importFile(fixture("gpx/partial-times.gpx"), options: t12)
        XCTAssertEqual(counts(o), [3, 0, 0, 5])
        o = try t.importFile(fixture("gpx/untimed.gpx"), options: t12)
        XCTAssertEqual(counts(o), [2, 0, 0, 3])
        // Route points (a plan, timed or not) and waypoints (places) are neither positions nor rejects.
        o = try t.importFile(fixture("gpx/route.gpx"), options: t12)
        XCTAssertEqual(counts(o), [0, 0, 0, 0])
        o = try t.importFile(fixture("gpx/waypoints.gpx"), options: t12)
        XCTAssertEqual(counts(o), [0, 0, 0, 0])
        XCTAssertEqual(try rejects(t), [
            "trk[1]/trkseg[1]/trkpt[1], line 4 out_of_range", "trk[1]/trkseg[1]/trkpt[2], line 5 out_of_range",
            "trk[1]/trkseg[1]/trkpt[3], line 6 missing_field", "trk[1]/trkseg[1]/trkpt[4], line 7 bad_number",
            "trk[1]/trkseg[1]/trkpt[5], line 8 bad_number", "trk[1]/trkseg[1]/trkpt[6], line 9 bad_number",
            "trk[1]/trkseg[1]/trkpt[7], line 10 out_of_range",
            "trk[1]/trkseg[1]/trkpt[3], line 6 bad_date", "trk[1]/trkseg[1]/trkpt[4], line 7 bad_date",
            "trk[1]/trkseg[1]/trkpt[5], line 8 bad_date", "trk[1]/trkseg[1]/trkpt[6], line 9 out_of_range",
            "trk[1]/trkseg[1]/trkpt[7], line 10 bad_date",
            "trk[1]/trkseg[1]/trkpt[2], line 7 missing_time", "trk[2]/trkseg[1]/trkpt[1], line 14 missing_time",
            "trk[2]/trkseg[1]/trkpt[2], line 15 missing_time",
        ])
        let notADate = try t.rows("SELECT message, raw FROM reject WHERE message LIKE '%This is not a date!%'")
        XCTAssertEqual(notADate.map { $0[1] as String }, ["<trkpt lat=\"10.0\" lon=\"20.4\"><time>This is not a date!</time></trkpt>"])
    }

    func testOddButValidFiles() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(counts(try t.importFile(fixture("gpx/bom-one-line.gpx"), options: t12)), [2, 0, 0, 1])
        XCTAssertEqual(counts(try t.importFile(fixture("gpx/empty-segments.gpx"), options: t12)), [5, 0, 0, 0])
        XCTAssertEqual(counts(try t.importFile(fixture("gpx/doctype-plain.gpx"), options: t12)), [1, 0, 0, 0])
        XCTAssertEqual(counts(try t.importFile(fixture("gpx/latin1.gpx"), options: t12)), [1, 0, 0, 0])
        let o = try t.importFile(fixture("gpx/no-namespace.gpx"), options: t12)
        XCTAssertEqual(o.notes, ["2 point times had no zone and were read as UTC (GPX times are UTC)"])
        let w = try t.importFile(fixture("gpx/wrong-prefix.gpx"), options: t12)
        XCTAssertEqual(w.notes?.last, "1 speed/course elements in a namespace other than GPX or Garmin TrackPointExtension were not read (namespaces: http://www.example.com/not-garmin/v9)")
        XCTAssertEqual(try t.rows("SELECT speed_mps FROM position WHERE lat = 40.0").map { $0[0] as Double? }, [nil])
    }

    func testMalformedFilesFailWholeAndLeaveNothing() throws {
        let t = try TestWarehouse()
        let expected = [
            "misspelled-close.gpx": "at line 5, byte 203: closing tag </trkseq> does not match <trkseg> opened at line 3",
            "truncated.gpx": "at line 20, byte 800: the file ends inside <gpxtpx:TrackPointExtension> opened at line 18 (truncated?)",
            "entity-bomb.gpx": "at line 3, byte 57: the DOCTYPE declares entities",
            "external-entity.gpx": "at line 2, byte 55: the DOCTYPE declares entities",
            "kml-root.gpx": "at line 2, byte 39: the root element is <kml>, not <gpx>",
        ]
        for (name, message) in expected {
            let o = try t.importFile(fixture("gpx/" + name), options: t12)
            XCTAssertEqual(o.status, .failed, name)
            XCTAssertTrue(o.error?.contains(message) == true, "\(name): \(o.error ?? "-")")
        }
        XCTAssertEqual(try t.count("position"), 0)
        XCTAssertEqual(try t.count("reject"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testAttributionByFolderThenNameElseTheFileFails() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("assets/good.csv"))
        let units = try t.rows("SELECT unit_number, vin FROM asset WHERE vin IS NOT NULL ORDER BY unit_number LIMIT 1")
        let (unit, vin): (String, String) = (units[0][0], units[0][1])
        // No --asset, no unit folder, a name that is no unit: the whole file fails, stating the rule.
        let unnamed = try t.importFile(fixture("gpx/unnamed.gpx"))
        XCTAssertEqual(unnamed.status, .failed)
        XCTAssertTrue(unnamed.error!.contains("Use --asset UNIT, or put the file in a folder named after the unit"), unnamed.error!)
        XCTAssertTrue(unnamed.error!.contains("\"Morning drive\""))
        // The folder named after a known unit.
        let folder = try t.write(try Data(contentsOf: fixture("gpx/unnamed.gpx")), to: "inbox/gpx/\(unit)/drive.gpx")
        XCTAssertEqual(counts(try t.importFile(folder)), [1, 0, 0, 0])
        // A track name that is a known VIN (any case, spaces trimmed): the same asset, so the same fix is unchanged.
        let named = try String(contentsOf: fixture("gpx/named-vin.gpx"), encoding: .utf8).replacingOccurrences(of: "1ftfw1et5dfc10312", with: vin.lowercased())
        XCTAssertEqual(counts(try t.importFile(try t.write(named, to: "named.gpx"))), [0, 0, 1, 0])
        // A <metadata><name> that is a known unit number.
        let meta = named.replacingOccurrences(of: "Fleet phone 3", with: unit).replacingOccurrences(of: "08:00:00Z", with: "09:00:00Z")
        XCTAssertEqual(counts(try t.importFile(try t.write(meta, to: "meta.gpx"))), [1, 0, 0, 0])
        XCTAssertEqual(try t.rows("SELECT DISTINCT a.unit_number FROM position p JOIN asset a ON a.id = p.asset_id").map { $0[0] as String }, [unit])
        // A name never creates an asset.
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 0)
    }

    func testReimportingTheSameOrTheSamePointsChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("gpx/gpx11-garmin.gpx"), options: t12)
        let before = try t.factDump(tables: ["position", "trip", "asset_day"])
        XCTAssertEqual(try t.importFile(fixture("gpx/gpx11-garmin.gpx"), options: t12).status, .unchanged)
        // Other bytes, same fixes (another app, another offset notation): every point unchanged.
        let again = try t.importFile(fixture("gpx/gpx11-garmin-reexport.gpx"), options: t12)
        XCTAssertEqual(again.status, .imported)
        XCTAssertEqual(counts(again), [0, 0, 3, 0])
        XCTAssertEqual(try t.factDump(tables: ["position", "trip", "asset_day"]), before)
    }

    /// Absent is not null: a later file without `<ele>`, speed or course keeps the stored
    /// values, and the warehouse is the same whatever the import order.
    func testAbsentElevationSpeedAndCourseDoNotEraseStoredOnesInAnyOrder() throws {
        let present = fixture("gpx/ele-present.gpx"), absent = fixture("gpx/ele-absent.gpx")
        let first = try TestWarehouse()
        XCTAssertEqual(counts(try first.importFile(present, options: t12)), [2, 0, 0, 0])
        // The two shared fixes are unchanged (nothing new in them), the third is new.
        XCTAssertEqual(counts(try first.importFile(absent, options: t12)), [1, 0, 2, 0])
        let expected = [
            "\"T-12\"|1790835350000|45.2761|13.7223|12.5|90.0|112.4",
            "\"T-12\"|1790835360000|45.277|13.724|NULL|NULL|113.0",
            "\"T-12\"|1790835370000|45.2781|13.7262|NULL|NULL|NULL",
        ]
        XCTAssertEqual(try positions(first), expected)
        let second = try TestWarehouse()
        XCTAssertEqual(counts(try second.importFile(absent, options: t12)), [3, 0, 0, 0])
        XCTAssertEqual(counts(try second.importFile(present, options: t12)), [0, 2, 0, 0], "present values fill the absent ones")
        XCTAssertEqual(try positions(second), expected)
    }

    /// A planned route (untimed `<rtept>`) is one note for the file, not a reject per point
    /// and exit 1; timed waypoints are places, not fixes of the vehicle.
    func testRoutesAndWaypointsAreNotesNotPositionsNorRejects() throws {
        let t = try TestWarehouse()
        let route = try t.importFile(fixture("gpx/route-untimed.gpx"), options: t12)
        XCTAssertEqual(route.status, .imported)
        XCTAssertEqual(counts(route), [0, 0, 0, 0])
        XCTAssertEqual(route.notes, ["4 route points in 2 <rte> (a planned route, not a recorded drive) were not stored as positions; only <trk> points are fixes of the vehicle"])
        let places = try t.importFile(fixture("gpx/waypoints-timed.gpx"), options: t12)
        XCTAssertEqual(counts(places), [1, 0, 0, 0])
        XCTAssertEqual(places.notes, ["2 waypoints (<wpt>: places such as a depot or a fuel stop, not fixes of the vehicle) were not stored as positions"])
        XCTAssertEqual(try t.rows("SELECT at FROM position").map { $0[0] as Int64 }, [1790866860000])
        XCTAssertEqual(try t.count("reject"), 0)
    }

    /// A file of routes and waypoints stores nothing, so it needs no vehicle: without --asset
    /// or a unit folder it imports with its notes; a file with one track point still fails.
    func testAFileWithoutTrackPointsNeedsNoAsset() throws {
        let t = try TestWarehouse()
        let route = try t.importFile(fixture("gpx/route-untimed.gpx"))
        XCTAssertEqual(route.status, .imported, route.error ?? "")
        XCTAssertEqual(counts(route), [0, 0, 0, 0])
        XCTAssertEqual(route.notes, ["4 route points in 2 <rte> (a planned route, not a recorded drive) were not stored as positions; only <trk> points are fixes of the vehicle"])
        XCTAssertEqual(try t.count("asset"), 0)
        let tracked = try t.importFile(fixture("gpx/waypoints-timed.gpx"))
        XCTAssertEqual(tracked.status, .failed)
        XCTAssertTrue(tracked.error?.contains("Use --asset UNIT") ?? false, tracked.error ?? "")
    }

    /// A track with no time on any point (a drawn path, a planned trip exported as <trk>) is a
    /// plan like a route: one note, no reject, no asset. One point with another problem makes
    /// the file a recording again: every point is then a reject with its reason.
    func testATrackWithoutAnyTimeIsAPlan() throws {
        let t = try TestWarehouse()
        let plan = try t.importFile(fixture("gpx/track-untimed.gpx"), options: t12)
        XCTAssertEqual(plan.status, .imported, plan.error ?? "")
        XCTAssertEqual(counts(plan), [0, 0, 0, 0])
        XCTAssertEqual(plan.notes, [
            "3 track points in 2 <trk>, none with a <time> (a drawn or planned path, not a recorded drive), were not stored as positions",
            "1 waypoint (<wpt>: places such as a depot or a fuel stop, not fixes of the vehicle) were not stored as positions",
        ])
        XCTAssertEqual(try t.count("asset"), 0, "--asset creates no asset for a file that stores nothing")
        let bad = try t.importFile(fixture("gpx/track-untimed-bad-point.gpx"), options: t12)
        XCTAssertEqual(counts(bad), [0, 0, 0, 2])
        XCTAssertEqual(try rejects(t), ["trk[1]/trkseg[1]/trkpt[1], line 4 missing_time", "trk[1]/trkseg[1]/trkpt[2], line 5 out_of_range"])
    }

    func testSniffing() {
        let gpx = Data("\u{FEFF}<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">".utf8)
        XCTAssertEqual(GPXImporter.sniff(gpx, filename: "x.xml"), .certain)
        XCTAssertEqual(GPXImporter.sniff(Data("unit,vin\n".utf8), filename: "a.csv"), .no)
        XCTAssertEqual(ImporterRegistry.detect(gpx, filename: "track.gpx").map { $0.format }, "gpx")
    }
}
