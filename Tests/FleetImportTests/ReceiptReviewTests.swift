import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Review decisions against real Tesseract output: jp-fuel-volume-unconfirmed.png is the
/// generator's r43 (ENEOS, JPY, 10.05 L at 175, total 1,759) with its unit price painted out
/// (Fixtures/photos/README.md), so nothing confirms the volume read: its fuel purchase is loaded
/// flagged `needs_review` (the total is confirmed by cash − change).
final class ReceiptReviewTests: XCTestCase {
    static let slip = ReceiptImporterTests.photo("jp-fuel-volume-unconfirmed.png")

    func purchase(_ t: TestWarehouse) throws -> GRDB.Row {
        try XCTUnwrap(t.rows("SELECT needs_review, volume_ml, total_minor, currency FROM fuel_purchase").first)
    }

    func testAcceptingTheVolumeClearsTheFlag() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.slip)
        XCTAssertEqual(try purchase(t)["needs_review"] as Bool, true)
        let review = ReceiptReview(warehouse: t.warehouse)
        let before = try XCTUnwrap(review.list().first)
        XCTAssertEqual(before.kind, "fuel")
        let volume = try XCTUnwrap(before.fields.first { $0.field == "volume" })
        XCTAssertEqual(volume.value, "10.05 L")
        XCTAssertTrue(volume.required)
        XCTAssertTrue(volume.lineText?.contains("10.05") ?? false, "\(volume)")

        XCTAssertNil(try review.apply(String(before.receipt), [.accept("volume")], by: "ana"))
        let p = try purchase(t)
        XCTAssertEqual(p["needs_review"] as Bool, false)
        XCTAssertEqual(p["volume_ml"] as Double, 10_050, accuracy: 1e-6)
        XCTAssertEqual(p["currency"] as String, "JPY")
        XCTAssertEqual(try t.count("reject"), 0)
        XCTAssertEqual(try review.list(), [])
        XCTAssertEqual(try review.history(String(before.receipt)).map(\.action), ["accept"])
    }

    /// A correction belongs to the image's content, not to the rows it made: when the same
    /// image is read again after its rows are gone, the importer applies it with no person.
    func testAFixIsAppliedWhenTheSameImageIsReadAgain() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.slip)
        let review = ReceiptReview(warehouse: t.warehouse)
        let id = try XCTUnwrap(review.list().first?.receipt)
        XCTAssertNil(try review.apply(String(id), [.fix("volume", "10.50 L")], by: "ana"))
        try t.warehouse.pool.write { db in
            for table in ["fuel_purchase", "reject", "receipt_read"] { try db.execute(sql: "DELETE FROM \(table)") }
            try db.execute(sql: "DELETE FROM source_file")
        }
        let outcome = try t.importFile(Self.slip)
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        XCTAssertEqual(outcome.rejected, 0, "the fixed volume is sure: nothing to review")
        let p = try purchase(t)
        XCTAssertEqual(p["needs_review"] as Bool, false)
        XCTAssertEqual(p["volume_ml"] as Double, 10_500, accuracy: 1e-6)
        XCTAssertEqual(try review.list(), [])
        XCTAssertEqual(try t.count("receipt_correction"), 1, "applied, not recorded again")
    }

    func testAcceptingAMissingFieldIsAUsageError() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.slip)
        let review = ReceiptReview(warehouse: t.warehouse)
        let id = try XCTUnwrap(review.list().first?.receipt)
        try t.warehouse.pool.write { db in try db.execute(sql: "DELETE FROM receipt_field WHERE field = 'fuel-grade'") }
        XCTAssertThrowsError(try review.apply(String(id), [.accept("fuel-grade")], by: "ana")) {
            guard case let FleetError.invalidArgument(_, _, hint) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(hint.contains("nothing to accept"), hint)
        }
        XCTAssertEqual(try t.count("receipt_correction"), 0)
    }

    /// Fixing the currency to one with fewer decimals leaves a total read with cents that no
    /// longer fits: the receipt stays under review (never a rounded amount), and can still be
    /// settled by fixing the total.
    func testACurrencyFixThatTheTotalNoLongerFitsKeepsItUnderReview() throws {
        let t = try TestWarehouse()
        try t.importFile(ReceiptImporterTests.photo("us-expense-total-unconfirmed.png"))
        let review = ReceiptReview(warehouse: t.warehouse)
        let id = String(try XCTUnwrap(review.list().first?.receipt))
        let after = try XCTUnwrap(review.apply(id, [.fix("currency", "JPY"), .accept("date")], by: "ana"))
        let total = try XCTUnwrap(after.fields.first { $0.field == "total" })
        XCTAssertEqual([total.value, total.problem], ["204.90", "doubtful (0%)"], "still listed as read, and doubtful whatever its OCR confidence")
        XCTAssertEqual(try t.count("expense"), 0, "204.90 is not a yen amount: not loaded")
        XCTAssertThrowsError(try review.apply(id, [.accept("total")], by: "ana")) {
            guard case let FleetError.invalidArgument(_, _, hint) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(hint.contains("more decimals than JPY has (0)"), hint)
        }
        XCTAssertNil(try review.apply(id, [.fix("total", "20490")], by: "ana"))
        let e = try XCTUnwrap(t.rows("SELECT amount_minor, currency FROM expense").first)
        XCTAssertEqual([e["amount_minor"] as Int64], [20490])
        XCTAssertEqual(e["currency"] as String, "JPY")
    }

    /// The nightly job archives an image and records its new path on the source file: the
    /// listing shows where the image is now, and its new name finds it.
    func testAnArchivedImageIsListedAtItsNewPath() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.slip)
        try t.warehouse.pool.write { db in try db.execute(sql: "UPDATE source_file SET path = '/archive/2026-11-25/slip-43.png'") }
        let review = ReceiptReview(warehouse: t.warehouse)
        XCTAssertEqual(try review.list().first?.image, "/archive/2026-11-25/slip-43.png")
        XCTAssertNil(try review.apply("slip-43.png", [.accept("volume")], by: "ana"))
        XCTAssertThrowsError(try review.apply("slip-34.png", [.accept("volume")], by: "ana")) {
            XCTAssertEqual(($0 as? ReceiptReview.UnknownReceipt)?.candidates.contains("slip-43.png"), true, "\($0)")
        }
    }

    /// A currency only assumed from the fleet is listed (not required), and leaves the list once
    /// a person accepts it.
    func testACurrencyNotPrintedIsListedUntilAccepted() throws {
        let t = try TestWarehouse()
        try t.loadReceipt([("SHELL", 95), ("03/14/2025 07:42", 95), ("GALLONS 12.345", 95), ("PRICE/GAL 3.459", 95), ("TOTAL 42.70", 95),
                           ("VISA 42.70", 95)])
        let review = ReceiptReview(warehouse: t.warehouse)
        let listed = try XCTUnwrap(review.list().first)
        let currency = try XCTUnwrap(listed.fields.first { $0.field == "currency" })
        XCTAssertEqual([currency.value, currency.problem], ["USD", "not printed: the fleet's currency"])
        XCTAssertFalse(currency.required)
        func assumed() throws -> [ReportValue]? {
            let out = try t.warehouse.pool.read { db in
                try CostReport().run(db, ReportRequest(period: .month(2025, 3), zone: .utc, currency: "USD", generatedAt: 0))
            }
            return out.dataQuality.rows.first { $0[0] == .text("Receipts with no currency printed (counted in the fleet's currency)") }
        }
        XCTAssertEqual(try assumed()?[1], .integer(1), "counted in USD by assumption: said in data quality")
        XCTAssertNil(try review.apply(String(listed.receipt), [], by: "ana"))
        XCTAssertEqual(try review.history(String(listed.receipt)).map(\.field), ["currency"])
        XCTAssertEqual(try assumed()?[1], .integer(0))
    }

    /// What is kept for review (fields, OCR lines, text) holds card numbers only as their last
    /// four digits, in every column and in the database file's bytes.
    func testTheReviewTablesKeepNoFullCardNumber() throws {
        let t = try TestWarehouse()
        try t.loadReceipt([("SHELL 5454 5454 5454 1234", 95), ("03/14/2025 07:42", 95), ("GALLONS 12.345", 95), ("TOTAL $ 42.70", 35),
                           ("MASTERCARD 5454 5454 5454 1234", 90)])
        XCTAssertGreaterThan(try t.count("receipt_field"), 3)
        let kept = try t.rows("SELECT value || ' ' || COALESCE(line_text, '') AS text FROM receipt_field UNION ALL SELECT masked_text FROM receipt_read")
        XCTAssertTrue(kept.contains { ($0["text"] as String).contains("1234") }, "the last four stay")
        for row in kept { XCTAssertFalse((row["text"] as String).contains("5454"), row["text"] as String) }
        try t.warehouse.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: t.warehouse.path))
        XCTAssertNil(bytes.range(of: Data("5454 5454".utf8)))
    }

    /// A receipt kept for review before its fields were kept (an older warehouse) is not lost
    /// from sight: `unlisted` names it, for `review list` to point at `fleetkit rejects`.
    func testAReceiptReviewedBeforeTheReviewTablesIsNamed() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.slip)
        let review = ReceiptReview(warehouse: t.warehouse)
        XCTAssertEqual(try review.unlisted(), [])
        try t.warehouse.pool.write { db in try db.execute(sql: "DELETE FROM receipt_read") }
        XCTAssertEqual(try review.unlisted(), [Self.slip.path])
        XCTAssertEqual(try review.list(), [])
    }
}
