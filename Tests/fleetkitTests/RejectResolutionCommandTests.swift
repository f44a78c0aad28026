import XCTest
import FleetTestSupport

/// Issue 29: a fuel row rejected for its date, then fixed and imported again. The cost report
/// stayed "complete" while the $58.38 row was missing, and after the fix the old reject was
/// listed forever. Now an open money reject makes the report partial and is listed with its
/// file, line and amount; the corrected file resolves it, and `rejects` shows open ones.
final class RejectResolutionCommandTests: XCTestCase {
    private var root: URL!
    private var db: String { root.appendingPathComponent("fleet.sqlite").path }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("reject-resolution-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func cost() throws -> CommandResult {
        try Fleetkit.run(["report", "cost", "--month", "2026-10", "--db", db, "--format", "json", "--out", root.appendingPathComponent("out-\(UUID())").path])
    }

    func testARejectedFuelRowMakesTheReportPartialUntilItsFixLoads() throws {
        // Line 4 has a US-style date: rejected (bad_date); the other rows span the month.
        let october = try write("""
            transaction_id,transaction_date,card_number,unit_number,gallons,total,currency
            T1,2026-10-02,7071000000001234,T-01,20.000,65.00,USD
            T2,2026-10-29,7071000000001234,T-01,18.000,58.50,USD
            T3,10/14/2026,7071000000001234,T-01,17.000,58.38,USD

            """, "fuel-card-2026-10.csv")
        let first = try Fleetkit.run(["import", "--db", db, october])
        XCTAssertEqual(first.status, 1, first.stderr)   // rejected rows make an import exit 1

        let partial = try cost()
        XCTAssertEqual(partial.status, 1, partial.stderr)
        XCTAssertTrue(partial.stderr.contains("1 money rows of the period were rejected and have not loaded since"), partial.stderr)
        XCTAssertTrue(partial.stderr.contains("fuel-card-2026-10.csv line 4: 58.38 USD (bad_date)"), partial.stderr)
        let open = try Fleetkit.run(["rejects", "--db", db])
        XCTAssertTrue(open.stdout.contains("fuel-card-2026-10.csv:4: bad_date"), open.stdout)

        // The corrected re-export of the row: the same transaction id, its date fixed.
        let fixed = try write("""
            transaction_id,transaction_date,card_number,unit_number,gallons,total,currency
            T3,2026-10-14,7071000000001234,T-01,17.000,58.38,USD

            """, "fuel-card-2026-10-fix.csv")
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, fixed]).status, 0)

        let complete = try cost()
        XCTAssertEqual(complete.status, 0, complete.stderr)
        // 65.00 + 58.50 + 58.38 = 181.88
        XCTAssertTrue(complete.stdout.contains("total $181.88"), complete.stdout)
        let none = try Fleetkit.run(["rejects", "--db", db])
        XCTAssertEqual(none.stdout, "no open rejected rows\n")
        let all = try Fleetkit.run(["rejects", "--db", db, "--all"])
        XCTAssertTrue(all.stdout.contains("fuel-card-2026-10.csv:4: bad_date") && all.stdout.contains("[resolved: loaded since by \(fixed)]"), all.stdout)
        let json = try JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["rejects", "--db", db, "--all", "--json"]).stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(json?.first?["resolved_by"] as? String, fixed)
    }
}
