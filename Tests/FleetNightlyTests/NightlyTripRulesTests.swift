import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetNightly

/// The nightly config's trip rules become the warehouse's: a change is stored, re-derives every
/// asset's trips, and is recorded in the run result; the same rules again change nothing.
final class NightlyTripRulesTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-rules-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/gpx/T-01"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/master"), withIntermediateDirectories: true)
    }

    func config(_ trips: String) throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        reports_to_refresh: []
        \(trips)
        """.write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    func trips() throws -> Int {
        try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path).count("trip")
    }

    func testATripRuleChangeIsStoredReDerivedAndRecorded() throws {
        try StopAndGoGPX.assets.write(to: root.appendingPathComponent("inbox/master/assets.csv"), atomically: true, encoding: .utf8)
        try StopAndGoGPX.text(day: "2026-10-05", stopSeconds: 300).write(to: root.appendingPathComponent("inbox/gpx/T-01/drive.gpx"), atomically: true, encoding: .utf8)
        // A five-minute stop under a ten-minute stop rule: one trip.
        let first = try NightlyJob(config: try config("trips:\n  stop_seconds: 600")).run(command: "test")
        XCTAssertEqual(first.totals.imported, 2)
        XCTAssertEqual(try trips(), 1)
        XCTAssertEqual(first.settings_changed?.changed, [.timezone, .tripRules])

        // The config goes back to the default three-minute rule: the stop now ends a trip, for
        // data imported on an earlier night too.
        let second = try NightlyJob(config: try config("")).run(command: "test")
        XCTAssertEqual(second.totals.imported, 0)
        XCTAssertEqual(second.settings_changed?.changed, [.tripRules])
        XCTAssertEqual(second.settings_changed?.rederivedAssets, 1)
        XCTAssertEqual(try trips(), 2)
        let recorded = try String(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"), encoding: .utf8)
        XCTAssertTrue(recorded.contains("\"rederived_assets\" : 1"), recorded)
        XCTAssertEqual(try Warehouse(path: root.appendingPathComponent("fleet.sqlite").path).settings().trips, TripRules())

        let third = try NightlyJob(config: try config("")).run(command: "test")
        XCTAssertNil(third.settings_changed)
        XCTAssertEqual(try trips(), 2)
    }

    /// Re-deriving after a rule change gives exactly what importing under that rule gives.
    func testARuleChangeReDerivesToWhatAFreshImportUnderTheRuleGives() throws {
        var rules = TripRules()
        rules.stopSeconds = 600
        func load(_ t: TestWarehouse) throws {
            let settings = try t.warehouse.settings()
            var options = ImportOptions(zone: settings.zone)
            options.trips = settings.trips
            let assets = try t.write(StopAndGoGPX.assets, to: "assets.csv")
            XCTAssertEqual(try t.importFile(assets, options: options).status, .imported)
            options.asset = "T-01"
            for (day, stop) in [("2026-10-05", 300), ("2026-10-06", 900), ("2026-10-08", 120)] {
                let gpx = try t.write(StopAndGoGPX.text(day: day, stopSeconds: stop), to: "\(day).gpx")
                XCTAssertEqual(try t.importFile(gpx, options: options).status, .imported)
            }
        }
        let changed = try TestWarehouse()
        try load(changed)
        XCTAssertEqual(try changed.count("trip"), 5)   // 300 s and 900 s stops end trips under 180 s; 120 s does not
        let change = try changed.warehouse.apply(setting: [.tripRules]) { $0.trips = rules }
        XCTAssertEqual(change.rederivedAssets, 1)
        XCTAssertEqual(try changed.count("trip"), 4)   // under 600 s only the 900 s stop does

        let fresh = try TestWarehouse()
        try fresh.warehouse.apply(setting: [.tripRules]) { $0.trips = rules }
        try load(fresh)
        XCTAssertEqual(try changed.factDump(tables: ["trip", "asset_day"]), try fresh.factDump(tables: ["trip", "asset_day"]))
    }

    func testImpossibleTripRulesInTheConfigAreRefusedWithTheKey() throws {
        XCTAssertThrowsError(try config("trips:\n  gap_seconds: -60")) { error in
            XCTAssertTrue("\(error)".contains("trips"), "\(error)")
            XCTAssertTrue("\(error)".contains("gap_seconds is -60"), "\(error)")
        }
    }
}
