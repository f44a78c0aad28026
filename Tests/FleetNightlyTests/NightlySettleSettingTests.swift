import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetNightly

/// A stored settle setting that cannot be read (Fixtures/settle/: a truncated one, and one of the
/// wrong shape) used to be dropped in silence by a `try?`. It is now a warning in the run's
/// summary and `nightly-last-run.json`, with a documented fallback (docs/OPERATIONS.md): every
/// file is judged as on a first run, which never imports a file sooner than the looks would
/// have, and the run stores a fresh setting.
final class NightlySettleSettingTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = URL(fileURLWithPath: NightlyPaths.canonical(FileManager.default.temporaryDirectory.appendingPathComponent("nightly-settle-\(UUID())").path))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/expenses"), withIntermediateDirectories: true)
    }

    func config() throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        timezone: UTC
        reports_to_refresh: [summary]
        periods: [previous_month]
        formats: [json]
        settle_seconds: 600
        """.write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    func testDecodeSaysWhyEachDamagedSettingIsIgnored() throws {
        for (name, why) in [("looks-truncated.json", "not JSON"), ("looks-wrong-shape.json", "wrong shape at expenses/fuel.csv")] {
            let stored = try String(contentsOf: fixture("settle/" + name), encoding: .utf8)
            let decoded = SettleRule.decode(stored)
            XCTAssertEqual(decoded.looks, [:], name)
            let warning = try XCTUnwrap(decoded.warning, name)
            XCTAssertTrue(warning.contains("'\(SettleRule.settingKey)'"), warning)
            XCTAssertTrue(warning.contains(why), warning)
            XCTAssertTrue(warning.contains("judged as on a first run"), warning)
        }
        // Sound and absent settings warn about nothing.
        XCTAssertNil(SettleRule.decode(nil).warning)
        XCTAssertNil(SettleRule.decode("{}").warning)
        let look = SettleRule.Observation(look: InboxWalker.Look(stat()), seen: 1)
        XCTAssertEqual(SettleRule.decode(SettleRule.encode(["a.csv": look])).looks, ["a.csv": look])
    }

    func testACorruptSettingIsReportedAndTheRunFallsBackToTheClock() throws {
        let config = try config()
        let stored = try String(contentsOf: fixture("settle/looks-truncated.json"), encoding: .utf8)
        try Warehouse(path: config.warehouse).pool.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?)", arguments: [SettleRule.settingKey, stored])
        }
        // An old file (settled by its clock) and one written just now (still being written?).
        let old = root.appendingPathComponent("inbox/assets.csv")
        try "unit_number,vin,make\nT-01,1FTFW1E50PFA00001,Ford\n".write(to: old, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)
        try "date,unit_number,category,amount,currency\n2026-10-01,T-01,tolls,12.00\n"
            .write(to: root.appendingPathComponent("inbox/expenses/fresh.csv"), atomically: false, encoding: .utf8)

        let summary = try NightlyJob(config: config, now: Date()).run(command: "test")
        XCTAssertEqual(summary.warnings.count, 1)
        XCTAssertTrue(summary.warnings[0].contains("cannot be read"), summary.warnings[0])
        XCTAssertEqual(summary.totals.imported, 1, "the old file imports by its clock")
        XCTAssertEqual(summary.files.first { $0.path.hasSuffix("fresh.csv") }?.action, "skipped", "the fresh one still waits")
        let last = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any]
        XCTAssertEqual((last?["warnings"] as? [String])?.count, 1)

        // The run stored a sound setting: the next run has no warning and knows the waiting file.
        let next = SettleRule.decode(try Warehouse(path: config.warehouse).settings().nightlySettleLooks)
        XCTAssertNil(next.warning)
        XCTAssertEqual(Array(next.looks.keys), ["expenses/fresh.csv"])
    }
}
