import XCTest
import FleetCore
import FleetWarehouse
import FleetTestSupport
@testable import FleetImport

/// GPX imports feed trip detection while the positions load (TripStream, fed by the warehouse: TripFeed): the
/// sample fleet's phone tracks, imported day by day and then again in reverse order into a
/// second warehouse (where the streams must step aside), give the same trips and days as
/// imports that read every position back.
final class GPXTripStreamImportTests: XCTestCase {
    static let sampleGPX = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData/gpx")

    private func imported(streams: Bool, reversed: Bool) throws -> [String] {
        let t = try TestWarehouse()
        let zone = FleetZone(identifier: "America/Chicago")!
        for unit in ["T-03", "T-04", "T-07"] {
            let folder = Self.sampleGPX.appendingPathComponent(unit)
            var files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gpx") }.sorted()
            if reversed { files.reverse() }
            XCTAssertGreaterThanOrEqual(files.count, 3, unit)
            for file in files {
                var options = ImportOptions(asset: unit, zone: zone)
                options.streamTrips = streams
                let outcome = try t.importFile(folder.appendingPathComponent(file), options: options)
                XCTAssertEqual(outcome.status, .imported, "\(unit)/\(file): \(outcome.error ?? "")")
            }
        }
        return try t.rows("SELECT * FROM trip ORDER BY asset_id, start_at").map { $0.databaseValues.map(\.description).joined(separator: " ") }
            + t.rows("SELECT * FROM asset_day ORDER BY asset_id, day").map { $0.databaseValues.map(\.description).joined(separator: " ") }
    }

    func testStreamedImportsGiveTheReadBackTables() throws {
        for reversed in [false, true] {
            let readBack = try imported(streams: false, reversed: reversed)
            XCTAssertEqual(try imported(streams: true, reversed: reversed), readBack, reversed ? "newest day first" : "day by day")
            XCTAssertGreaterThan(readBack.filter { $0.contains("gps") }.count, 9, "trips and GPS days of three vehicles")
        }
    }
}
