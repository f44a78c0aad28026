import XCTest
import FleetKit
import FleetSample
import FleetTestSupport

/// `--scale-points`: the benchmark track has exactly N points at 1 Hz, imports without a
/// reject, and drives in 20-minute blocks separated by 5-minute stops.
final class SampleScaleTests: XCTestCase {
    func testScaleTrackHasNPointsAndImportsIntoTrips() throws {
        let t = try TestWarehouse()
        let root = t.directory.appendingPathComponent("scale-sample")
        var writer = SampleWriter(fleet: SampleFleet(vehicles: 2, machines: 0, days: 1), root: root)
        writer.scalePoints = 4_000
        let files = try writer.writeAll()
        XCTAssertEqual(files.last, "scale/T-01/track-4000.gpx")
        let url = root.appendingPathComponent("scale/T-01/track-4000.gpx")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "<trkpt ").count - 1, 4_000)

        var plain = SampleWriter(fleet: SampleFleet(vehicles: 2, machines: 0, days: 1), root: t.directory.appendingPathComponent("plain"))
        XCTAssertFalse(try plain.writeAll().contains { $0.hasPrefix("scale/") }, "no track unless asked for")

        try t.importFile(root.appendingPathComponent("master/assets.csv"))
        let outcome = try t.importFile(url, options: ImportOptions(asset: "T-01"))
        XCTAssertEqual(outcome.loaded, 4_000, "\(outcome.error ?? "")")
        XCTAssertEqual(outcome.rejected, 0)
        // Blocks of 1,200 s driving from 0, 1,500 and 3,000 s: three trips.
        XCTAssertEqual(try t.count("trip"), 3)
    }
}
