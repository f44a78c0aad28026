import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Issue 17: a receipt amount no second source on the slip confirms goes to review, never
/// straight into costs. The cost report leaves such a fuel purchase out of every total, says how
/// many and how much in data quality and in its header, and counts it once a person accepts or
/// fixes the total with `fleetkit review`. A receipt whose total is confirmed but whose volume
/// is doubtful is counted: the money is right.
final class ReceiptPendingCostTests: XCTestCase {
    func costReport(_ t: TestWarehouse) throws -> ReportOutput {
        try t.warehouse.pool.read { db in
            try CostReport().run(db, ReportRequest(period: .month(2025, 3), zone: .utc, currency: "USD", generatedAt: 0))
        }
    }

    func quality(_ out: ReportOutput, _ check: String) -> [ReportValue]? {
        out.dataQuality.rows.first { $0[0] == .text(check) }
    }

    static let pendingCheck = "Receipt fuel purchases with an unconfirmed total (not counted until reviewed)"
    static let countedCheck = "Fuel purchases needing review (counted)"

    func testAnUnconfirmedReceiptTotalIsNotCountedUntilReviewed() throws {
        let t = try TestWarehouse()
        // A fuel slip whose total line nothing confirms: no payment line, no unit price.
        try t.loadReceipt([("SHELL", 95), ("03/14/2025 07:42", 95), ("UNLEADED REGULAR", 95), ("GALLONS 12.345", 95), ("TOTAL $ 42.70", 95)])
        let stored = try XCTUnwrap(t.rows("SELECT needs_review, total_minor FROM fuel_purchase").first)
        XCTAssertEqual(stored["needs_review"] as Bool, true)
        XCTAssertEqual(stored["total_minor"] as Int64, 4270, "kept as read, for the reviewer")

        var out = try costReport(t)
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "total" }?.1, 0, "not straight into costs")
        let row = try XCTUnwrap(quality(out, Self.pendingCheck))
        XCTAssertEqual(row[1], .integer(1))
        guard case let .text(detail) = row[2] else { return XCTFail("\(row)") }
        XCTAssertTrue(detail.contains("42.70 USD as read"), detail)
        XCTAssertTrue(detail.contains("fleetkit review list"), detail)
        XCTAssertEqual(quality(out, Self.countedCheck)?[1], .integer(0))
        XCTAssertTrue(out.metadata.partial.contains { $0.contains("not counted until reviewed") && $0.contains("42.70 USD") }, "\(out.metadata.partial)")
        // The detail still lists the row, without a counted amount.
        let detailTable = try XCTUnwrap(out.tables.first { $0.name == "detail" })
        let amount = try XCTUnwrap(detailTable.columns.firstIndex { $0.name == "amount_report" })
        let flag = try XCTUnwrap(detailTable.columns.firstIndex { $0.name == "needs_review" })
        XCTAssertEqual(detailTable.rows.count, 1)
        XCTAssertEqual(detailTable.rows.first?[amount], .null)
        XCTAssertEqual(detailTable.rows.first?[flag], .text("yes: total unconfirmed, not counted"))

        // A person accepts the total: counted from then on, though the volume is still doubtful.
        let review = ReceiptReview(warehouse: t.warehouse)
        let id = String(try XCTUnwrap(review.list().first?.receipt))
        _ = try review.apply(id, [.accept("total")], by: "ana")
        out = try costReport(t)
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "total" }?.1 ?? 0, 42.70, accuracy: 1e-9)
        XCTAssertEqual(quality(out, Self.pendingCheck)?[1], .integer(0))
        XCTAssertEqual(quality(out, Self.countedCheck)?[1], .integer(1), "still flagged for its volume, and counted")
        XCTAssertFalse(out.metadata.partial.contains { $0.contains("not counted until reviewed") }, "\(out.metadata.partial)")
    }

    /// A pending receipt whose currency was not printed is not also listed as counted in the
    /// fleet's currency: it is not counted at all.
    func testAPendingReceiptIsNotListedAsCountedInTheFleetCurrency() throws {
        let t = try TestWarehouse()
        try t.loadReceipt([("SHELL", 95), ("03/14/2025 07:42", 95), ("UNLEADED REGULAR", 95), ("GALLONS 12.345", 95), ("TOTAL 42.70", 95)])
        let out = try costReport(t)
        XCTAssertEqual(quality(out, Self.pendingCheck)?[1], .integer(1))
        XCTAssertEqual(quality(out, "Receipts with no currency printed (counted in the fleet's currency)")?[1], .integer(0))
    }

    func testAConfirmedTotalWithADoubtfulVolumeIsCounted() throws {
        let t = try TestWarehouse()
        try t.loadReceipt([("SHELL", 95), ("03/14/2025 07:42", 95), ("UNLEADED REGULAR", 95), ("GALLONS 12.345", 95), ("TOTAL $ 42.70", 95),
                           ("VISA $ 42.70", 95)])
        XCTAssertEqual(try t.rows("SELECT needs_review FROM fuel_purchase").first?["needs_review"] as Bool?, true, "the volume is unconfirmed")
        let out = try costReport(t)
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "total" }?.1 ?? 0, 42.70, accuracy: 1e-9)
        XCTAssertEqual(quality(out, Self.pendingCheck)?[1], .integer(0))
        XCTAssertEqual(quality(out, Self.countedCheck)?[1], .integer(1))
    }
}
