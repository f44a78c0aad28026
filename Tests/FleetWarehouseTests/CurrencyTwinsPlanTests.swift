import XCTest
import GRDB
import FleetTestSupport
@testable import FleetWarehouse

/// The currency-twin check runs inside every card and expense file's load, so its cost must not
/// grow with the rows that share a time: a file of one day's expenses (no time column) compared
/// every row with every other, quadratic (20,000 rows: 84 s against 3 s before the check). Each
/// earlier row is sought by time, amount and then a range of earlier files (`v13-twin-keys`),
/// which never reads the loading file's own rows.
final class CurrencyTwinsPlanTests: XCTestCase {
    func testEachTwinIsSoughtByTimeAmountAndEarlierFiles() throws {
        let t = try TestWarehouse()
        let plan = try t.warehouse.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + CurrencyTwins.sql, arguments: [1]).map { $0[3] as String }
        }
        XCTAssertTrue(plan.contains { $0.contains("SEARCH o USING INDEX fuel_purchase_twin (at=? AND total_minor=? AND source_file_id<?)") }, "\(plan)")
        XCTAssertTrue(plan.contains { $0.contains("SEARCH o USING INDEX expense_twin (at=? AND amount_minor=? AND source_file_id<?)") }, "\(plan)")
        XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN o") }, "a full scan of the earlier rows per row: \(plan)")
        // The loading file's own rows are found by its id (`v14-file-keys`), not by a scan of
        // every stored card and expense row once per file.
        XCTAssertTrue(plan.contains { $0.contains("SEARCH n USING INDEX fuel_purchase_file (source_file_id=?)") }, "\(plan)")
        XCTAssertTrue(plan.contains { $0.contains("SEARCH n USING INDEX expense_file (source_file_id=?)") }, "\(plan)")
    }
}
