import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetNightly

final class NightlyJobTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    /// A copy of the sample's master data, costs and inspections in the inbox.
    func fillInbox() throws {
        for folder in ["master", "maintenance", "expenses", "fuel-card", "dvir"] {
            let target = root.appendingPathComponent("inbox/\(folder)")
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.copyItem(at: Self.sampleData.appendingPathComponent(folder), to: target)
        }
    }

    func config(_ extra: String = "") throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        currency: USD
        units: us
        dvir_policy: every_day
        reports_to_refresh: [summary, cost, maintenance-due, dvir-compliance]
        periods: [previous_month]
        formats: [json, csv]
        \(extra)
        """.write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    let asOf = Date(timeIntervalSince1970: 1_793_620_800)   // 2026-11-02 noon in Chicago

    /// A backfill (`--as-of`, here `now` = 2026-11-02) reports the data as of that day, but its
    /// generation stamp is the real clock: a report never claims to have been made on the day
    /// it describes.
    func testABackfilledReportIsStampedWithTheRealGenerationTime() throws {
        try fillInbox()
        _ = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        let data = try Data(contentsOf: root.appendingPathComponent("reports/cost-2026-10.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stamp = try XCTUnwrap(json["generated_at"] as? String)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "America/Chicago")!, formatOptions: [.withFullDate])
        XCTAssertTrue(stamp.contains(today), "generated_at \(stamp) is not today (\(today), \(year))")
        XCTAssertFalse(stamp.hasPrefix("2026-11-02") && today != "2026-11-02", stamp)
    }

    func testTwoRunsImportOnceAndWriteTheSameReports() throws {
        try fillInbox()
        let first = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(first.exit_code, 0)
        XCTAssertEqual(first.totals.imported, 10)
        XCTAssertEqual(first.files.filter { $0.action == "archived" }.count, 10)
        XCTAssertTrue(first.files.allSatisfy { $0.destination?.contains("/archive/2026/11/02/") ?? false })
        let reportFile = root.appendingPathComponent("reports/cost-2026-10.json")
        let before = try String(contentsOf: reportFile, encoding: .utf8)

        try fillInbox()   // the same exports arrive again
        let second = try NightlyJob(config: try config(), now: asOf.addingTimeInterval(3600)).run(command: "test")
        XCTAssertEqual(second.exit_code, 0)
        XCTAssertEqual(second.totals.imported, 0)
        XCTAssertEqual(second.totals.unchanged_files, 10)
        XCTAssertEqual(second.totals.loaded, 0)
        let after = try String(contentsOf: reportFile, encoding: .utf8)
        func dropStamp(_ s: String) -> String { s.split(separator: "\n").filter { !$0.contains("\"generated_at\"") }.joined(separator: "\n") }
        XCTAssertNotEqual(before, after)   // the generated-at stamp differs…
        XCTAssertEqual(dropStamp(before), dropStamp(after))   // …and nothing else
        // Nothing deleted: both copies of every file are in the archive.
        let archived = FileManager.default.enumerator(atPath: root.appendingPathComponent("archive").path)!.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".csv") }
        XCTAssertEqual(archived.count, 20)
    }

    /// The run audits the warehouse after its imports (`fleetkit verify`) and records the result in
    /// the summary and nightly-last-run.json; a failed check makes the run exit 1, and the night's
    /// imports stay.
    func testTheRunRecordsVerifyAndAFailedCheckExitsOneKeepingTheImports() throws {
        try fillInbox()
        let first = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(first.exit_code, 0)
        XCTAssertEqual(first.verify?.clean, true, "\(first.verify?.checks.flatMap(\.listed) ?? [])")
        XCTAssertEqual(first.verify?.checks.count, 6)
        XCTAssertNil(first.verify_error)
        let recorded = try Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
        XCTAssertEqual((json["verify"] as? [String: Any])?["clean"] as? Bool, true)

        // Two assets for one identity, by hand; then a run with one new file.
        let w = try Warehouse(path: root.appendingPathComponent("fleet.sqlite").path)
        try w.pool.write { db in
            try db.execute(sql: "UPDATE asset SET vin = lower((SELECT vin FROM asset WHERE vin IS NOT NULL ORDER BY id LIMIT 1)) WHERE id = (SELECT id FROM asset WHERE vin IS NULL ORDER BY id LIMIT 1)")
        }
        try "unit_number,make\nX-9,Ford\n".write(to: root.appendingPathComponent("inbox/extra.csv"), atomically: true, encoding: .utf8)
        let second = try NightlyJob(config: try config(), now: asOf.addingTimeInterval(3600)).run(command: "test")
        XCTAssertEqual(second.exit_code, 1)
        XCTAssertEqual(second.totals.imported, 1)
        XCTAssertEqual(second.verify?.clean, false)
        XCTAssertEqual(second.verify?.checks.filter { $0.failures > 0 }.map(\.name), ["asset_identity"])
        XCTAssertEqual(try w.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM asset WHERE unit_number = 'X-9'") }, 1, "the import stays")
        let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any])
        XCTAssertEqual((again["verify"] as? [String: Any])?["failures"] as? Int, 1)
        XCTAssertEqual(again["exit_code"] as? Int, 1)
    }

    func testACorruptFileIsQuarantinedAndTheRestImport() throws {
        try fillInbox()
        try "unit_number,vin,make\nX-1,1FTFW1E50PFA00901,\"Ford\n".write(to: root.appendingPathComponent("inbox/master/assets-broken.csv"), atomically: true, encoding: .utf8)
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.exit_code, 1)
        XCTAssertEqual(summary.quarantined, 1)
        XCTAssertEqual(summary.totals.imported, 10)
        let reason = try String(contentsOf: root.appendingPathComponent("quarantine/master/assets-broken.csv.reason.txt"), encoding: .utf8)
        XCTAssertTrue(reason.contains("unterminated quoted field in record 2"), reason)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("quarantine/master/assets-broken.csv").path))
    }

    func testASecondRunWhileOneHoldsTheLockIsRefused() throws {
        let config = try self.config()
        let held = try NightlyLock(path: config.warehouse + ".lock")
        XCTAssertThrowsError(try NightlyJob(config: config, now: asOf).run(command: "test")) { error in
            XCTAssertEqual(error as? NightlyError, .locked(path: config.warehouse + ".lock", pid: String(getpid())))
            XCTAssertTrue("\(error)".contains("(pid \(getpid()))"))
        }
        withExtendedLifetime(held) {}
    }

    func testFilesStillBeingWrittenAreLeftAlone() throws {
        try fillInbox()
        let summary = try NightlyJob(config: try config().with(settle: 3600), now: Date()).run(command: "test")
        XCTAssertEqual(summary.totals.files, 0)
        XCTAssertEqual(summary.skipped, 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("inbox/master/assets.csv").path))
    }

    func testSymlinksOutOfTheInboxAreNotFollowed() throws {
        let secret = root.appendingPathComponent("secret.csv")
        try "unit_number,vin,make\nS-1,1FTFW1E50PFA00999,Ford\n".write(to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("inbox/escape.csv"), withDestinationURL: secret)
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.quarantined, 1)
        XCTAssertTrue(summary.files[0].reason!.contains("leads outside the inbox"), summary.files[0].reason!)
        let w = try Warehouse(path: root.appendingPathComponent("fleet.sqlite").path)
        XCTAssertEqual(try w.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM asset") }, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: secret.path))   // the target was not moved
    }

    func testConfigErrorsNameTheKey() throws {
        XCTAssertThrowsError(try config("quarantnie: typo")) { error in
            XCTAssertTrue("\(error)".contains("unknown key(s) quarantnie"), "\(error)")
        }
        let yml = root.appendingPathComponent("bad.yml")
        try "warehouse: a\ninbox: inbox\narchive: b\nquarantine: c\nreports: d\ntimezone: Mars/Olympus\n".write(to: yml, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try NightlyConfig.load(yml.path)) { error in XCTAssertTrue("\(error)".contains("timezone"), "\(error)") }
    }

    func testPeriods() {
        let today = CivilDate("2026-11-02")!
        XCTAssertEqual(NightlyPeriod.parse("month_to_date")!.period(today: today), ReportPeriod(from: CivilDate("2026-11-01")!, to: today, label: "2026-11"))
        XCTAssertEqual(NightlyPeriod.parse("previous_month")!.period(today: today), .month(2026, 10))
        XCTAssertEqual(NightlyPeriod.parse("previous_quarter")!.period(today: today), .quarter(2026, 3))
        XCTAssertEqual(NightlyPeriod.parse("2026-01")!.period(today: today), .month(2026, 1))
        XCTAssertNil(NightlyPeriod.parse("yesterday"))
    }
}

extension NightlyConfig {
    func with(settle seconds: Double) -> NightlyConfig {
        var c = self
        c.settleSeconds = seconds
        return c
    }
}
