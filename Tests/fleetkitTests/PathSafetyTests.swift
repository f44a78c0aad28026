import XCTest
import Foundation
import FleetTestSupport

/// Names inside files (a unit number, a GPX `<name>`, a track name) are data, never paths:
/// whatever they say, the nightly job archives each file under the archive folder by its place
/// in the inbox, writes reports under the reports folder by report name and period, and creates
/// nothing anywhere else. A symlinked folder in the inbox pointing outside it is not walked.
final class PathSafetyTests: XCTestCase {
    func testNamesInsideFilesNeverChooseAnOutputPath() throws {
        let fm = FileManager.default
        let outer = fm.temporaryDirectory.appendingPathComponent("paths-\(UUID())")
        let root = outer.appendingPathComponent("job")
        let inbox = root.appendingPathComponent("inbox")
        try fm.createDirectory(at: inbox.appendingPathComponent("master"), withIntermediateDirectories: true)
        try fm.createDirectory(at: inbox.appendingPathComponent("gpx/T-01"), withIntermediateDirectories: true)
        let hostile = "../../../escaped"
        try """
        unit_number,kind,vin,make,model
        T-01,truck,1FTFW1E50PFA00001,Ford,F-150
        \(hostile),truck,,Ford,F-150
        /tmp/absolute-unit,truck,,Ford,F-150

        """.write(to: inbox.appendingPathComponent("master/assets.csv"), atomically: true, encoding: .utf8)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><name>\(hostile)</name></metadata>
          <trk><name>/etc/passwd</name><trkseg>
            <trkpt lat="41.8781" lon="-87.6298"><time>2026-10-01T08:00:00Z</time></trkpt>
            <trkpt lat="41.8791" lon="-87.6298"><time>2026-10-01T08:01:00Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """.write(to: inbox.appendingPathComponent("gpx/T-01/day.gpx"), atomically: true, encoding: .utf8)
        // A folder outside the inbox, linked into it: its file must stay where it is.
        let elsewhere = outer.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try "unit_number,vin\nX-1,\n".write(to: elsewhere.appendingPathComponent("assets.csv"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(at: inbox.appendingPathComponent("linked"), withDestinationURL: elsewhere)
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago", reports: ["cost", "trips"], formats: ["csv", "html", "json"])

        let r = try Fleetkit.run(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"])
        XCTAssertLessThanOrEqual(r.status, 1, r.stderr)
        // Everything FleetKit created is inside the job folder, and the only things beside it are ours.
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: outer.path).sorted(), ["elsewhere", "job"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: elsewhere.path), ["assets.csv"])
        XCTAssertFalse(fm.fileExists(atPath: "/tmp/absolute-unit"))
        let created = fm.enumerator(atPath: root.path)!.allObjects.compactMap { $0 as? String }
        for path in created {
            XCTAssertFalse(path.contains("escaped") || path.contains("passwd") || path.contains("absolute-unit"), path)
        }
        // Each inbox file is archived under archive/YYYY/MM/DD/ by its inbox path; whatever its <name> says.
        let archived = created.filter { $0.hasPrefix("archive/") && ($0.hasSuffix(".csv") || $0.hasSuffix(".gpx")) }.sorted()
        XCTAssertEqual(archived.map { $0.split(separator: "/").dropFirst(4).joined(separator: "/") }, ["gpx/T-01/day.gpx", "master/assets.csv"], "\(archived)")
        let reports = created.filter { $0.hasPrefix("reports/") }
        XCTAssertFalse(reports.isEmpty)
        for p in reports { XCTAssertEqual(p.split(separator: "/").count, 2, "a report outside the reports folder: \(p)") }
        // The odd unit numbers are only data: kept as written in the warehouse.
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset ORDER BY unit_number").map { $0[0] as String }, ["../../../escaped", "/tmp/absolute-unit", "T-01"])
    }
}
