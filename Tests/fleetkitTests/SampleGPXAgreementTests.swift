import XCTest
import GRDB
import FleetCore
import FleetTestSupport

/// The sample fleet's phone tracks (`SampleData/gpx`) and its Samsara odometers describe the same
/// drives (SampleGPX.swift): imported the way `make run` imports them, each GPX day's path is as
/// long as that day's odometer delta, and the daily rollup, which prefers the odometer, agrees.
/// A sample whose two sources disagreed would make every distance figure in the demo suspect.
final class SampleGPXAgreementTests: XCTestCase {
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")

    func testEachSampleGPXDayIsAsLongAsItsOdometerDelta() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-gpx-agree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let sample = Self.sampleData
        let imported = try Fleetkit.run(["import", "--db", db, sample.appendingPathComponent("master/assets.csv").path,
                                         sample.appendingPathComponent("samsara").path, sample.appendingPathComponent("gpx").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let t = try TestWarehouse(existing: db)
        let zone = FleetZone(identifier: "America/Chicago")!
        let files = try t.rows("SELECT id, path FROM source_file WHERE format = 'gpx' ORDER BY path")
        XCTAssertGreaterThanOrEqual(files.count, 9, "the sample has GPX days for three vehicles")
        for file in files {
            let id: Int64 = file["id"], path: String = file["path"]
            let fixes = try t.rows("SELECT asset_id, at, lat, lon FROM position WHERE source_file_id = ? ORDER BY at", [id])
            guard let first = fixes.first, let last = fixes.last else { return XCTFail("\(path): no positions") }
            let asset: Int64 = first["asset_id"]
            var metres = 0.0
            for (a, b) in zip(fixes, fixes.dropFirst()) {
                metres += Geo.haversine(a["lat"], a["lon"], b["lat"], b["lon"])
            }
            // The track runs engine start to stop; the odometer moves only then. A long-haul drive
            // may run past local midnight (SampleSamsaraDriveTests): its odometer window runs to
            // the track's last fix, and the one-day rollup is compared only for a track within a day.
            let day = zone.day(of: first["at"])
            XCTAssertTrue(path.hasSuffix("/\(day.description).gpx"), "\(path) starts on \(day)")
            let lastAt: Int64 = last["at"]
            let sameDay = zone.day(of: lastAt) == day
            let odometer = try t.rows("""
                SELECT max(value) - min(value) AS delta FROM meter_reading
                WHERE asset_id = ? AND meter = 'odometer' AND at >= ? AND at < ?
                """, [asset, zone.start(of: day), max(zone.start(of: day.adding(days: 1)), lastAt + 1)])
            let delta: Double = try XCTUnwrap(odometer.first?["delta"], path)
            XCTAssertGreaterThan(delta, 10_000, "\(path): a day of work is tens of kilometres")
            // Within 1 %: parked jitter adds a few metres per stop, and the GPX fixes are offset by
            // 5 s from the odometer's, so neither end coincides exactly.
            XCTAssertEqual(metres, delta, accuracy: delta * 0.01, "\(path): GPS path \(metres) m, odometer \(delta) m")
            guard sameDay else { continue }
            let rollup = try t.rows("SELECT distance_m, distance_method FROM asset_day WHERE asset_id = ? AND day = ?", [asset, day.description])
            XCTAssertEqual(rollup.first?["distance_method"] as String?, "odometer", path)
            XCTAssertEqual(rollup.first?["distance_m"] ?? 0, delta, accuracy: 0.5, path)
        }
    }
}
