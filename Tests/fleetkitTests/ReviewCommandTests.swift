import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// `fleetkit review list|accept|fix` on real Tesseract output of a committed receipt image.
///
/// us-expense-total-unconfirmed.png is the generated car-wash slip us-expense-total-unconfirmed.png
/// (SUPER SUDS CAR WASH, 2025-06-24 12:22, total 204.90 USD) with its subtotal and tax lines
/// painted out (Fixtures/photos/README.md): Tesseract reads its total and date, but no second
/// line confirms the total, so the importer keeps it out of costs for review; the date's own
/// word is read sure. (The slip itself is read whole now, its total confirmed by net + tax.)
final class ReviewCommandTests: XCTestCase {
    var dir: URL!
    var db: String { dir.appendingPathComponent("fleet.sqlite").path }
    static let slip = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetOCRTests/Fixtures/photos/us-expense-total-unconfirmed.png")

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC", "--currency", "USD"]).status, 0)
        let imported = try Fleetkit.run(["import", "--db", db, Self.slip.path])
        XCTAssertEqual(imported.status, 1, "kept for review, so the import reports a reject: \(imported.stdout) \(imported.stderr)")
    }

    func listed() throws -> [[String: Any]] {
        let r = try Fleetkit.run(["review", "list", "--db", db, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    func testListAcceptFixRoundTripMovesTheReceiptIntoCosts() throws {
        let receipts = try listed()
        XCTAssertEqual(receipts.count, 1)
        let receipt = receipts[0]
        XCTAssertEqual(receipt["image"] as? String, Self.slip.path)
        XCTAssertEqual(receipt["kind"] as? String, "expense")
        XCTAssertEqual(receipt["state"] as? String, "not loaded")
        let id = try XCTUnwrap(receipt["receipt"] as? Int)
        let fields = try XCTUnwrap(receipt["fields"] as? [[String: Any]])
        let total = try XCTUnwrap(fields.first { $0["field"] as? String == "total" })
        XCTAssertEqual(total["value"] as? String, "204.90")
        XCTAssertEqual(total["required"] as? Bool, true)
        XCTAssertTrue((total["line_text"] as? String ?? "").contains("204.90"), "the OCR line the total came from: \(total)")
        XCTAssertNotNil(total["line"] as? Int)
        let w = try TestWarehouse(existing: db)
        XCTAssertEqual(try w.count("expense"), 0)

        // Only the total is doubtful (the date's own word is read sure). Fixing another field
        // is not enough: the total is still under review.
        XCTAssertEqual(fields.compactMap { $0["field"] as? String }, ["total"], "only the total is listed for review")
        let fix = try Fleetkit.run(["review", "fix", "--db", db, "--by", "ana", "us-expense-total-unconfirmed.png", "date", "2025-06-24"])
        XCTAssertEqual(fix.status, 0, fix.stderr)
        XCTAssertTrue(fix.stdout.contains("still under review"), fix.stdout)
        XCTAssertEqual(try w.count("expense"), 0)

        let accept = try Fleetkit.run(["review", "accept", "--db", db, "--by", "ana", String(id), "total"])
        XCTAssertEqual(accept.status, 0, accept.stderr)
        XCTAssertTrue(accept.stdout.contains("no longer needs review"), accept.stdout)
        let expense = try XCTUnwrap(w.rows("SELECT amount_minor, currency, at, category FROM expense").first)
        XCTAssertEqual(expense["amount_minor"] as Int64, 20490)
        XCTAssertEqual(expense["currency"] as String, "USD")
        XCTAssertEqual(Timestamp.iso(expense["at"] as Int64).prefix(10), "2025-06-24")
        XCTAssertEqual(try w.count("reject"), 0, "the needs_review reject is gone once the receipt is loaded")
        XCTAssertEqual(try w.rows("SELECT status, rejected FROM source_file").first?["status"] as String?, "imported")
        let audit = try w.rows("SELECT field, action, old_value, new_value, corrected_by FROM receipt_correction ORDER BY id")
        XCTAssertEqual(audit.map { [$0["field"], $0["action"], $0["old_value"], $0["new_value"], $0["corrected_by"]] as [String?] },
                       [["date", "fix", "2025-06-24", "2025-06-24", "ana"], ["total", "accept", "204.90", "204.90", "ana"]])
        XCTAssertEqual(try listed().count, 0)
        XCTAssertEqual(try Fleetkit.run(["review", "list", "--db", db]).stdout, "no receipts waiting for review\n")

        // The same image again changes nothing: the reviewed expense stays, once.
        let again = try Fleetkit.run(["import", "--db", db, Self.slip.path])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertEqual(try w.count("expense"), 1)
        XCTAssertEqual(try listed().count, 0)
    }

    func testBadValuesAreUsageErrorsThatSayWhatWasWrong() throws {
        let cases: [(String, String, String)] = [
            ("total", "204.905", "more decimals than USD has (2)"),
            ("total", "204.90 EUR", "fix the currency first"),
            ("date", "24/06/2025", "YYYY-MM-DD"),
            ("date", "2999-01-01", "after this machine's clock"),
            // Issue 35 item 17: what the importers refuse, `review fix` refused too.
            ("date", "0001-01-01", "in the years 1971–2200"),
            ("merchant", "Shell\u{202E}lehS", "right-to-left override"),
            ("volume", "10", "needs its unit"),
            ("currency", "XYZ", "ISO 4217"),
            ("time", "25:61", "HH:MM"),
            ("colour", "red", "total, date, volume"),
        ]
        let id = try XCTUnwrap(listed().first?["receipt"] as? Int)
        for (field, value, expected) in cases {
            let r = try Fleetkit.run(["review", "fix", "--db", db, String(id), field, value])
            XCTAssertEqual(r.status, 64, "\(field) \(value): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(field) \(value): \(r.stderr)")
        }
        let w = try TestWarehouse(existing: db)
        XCTAssertEqual(try w.count("receipt_correction"), 0, "a refused value stores nothing")
        XCTAssertEqual(try listed().count, 1)
    }

    /// The machine's clock is not trusted alone: with the warehouse already holding a card fill
    /// of 2030-01-03 (as on a machine whose clock is years behind), a person may fix a receipt's
    /// date to 2030-01-04; a date after both the clock and the data is still refused.
    func testADateAfterTheClockButWithinTheWarehousesDataIsAccepted() throws {
        let card = dir.appendingPathComponent("card.csv")
        try "Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Product,Gallons,Price Per Gallon,Total Amount\n2030-01-03,10:00:00,WX-1,XXXXXXXXXXXX1234,T-01,SHELL 12,Diesel #2,10.000,3.000,30.00\n"
            .write(to: card, atomically: true, encoding: .utf8)
        let imported = try Fleetkit.run(["import", "--db", db, card.path])
        XCTAssertEqual(imported.status, 0, imported.stdout + imported.stderr)
        let id = try XCTUnwrap(listed().first?["receipt"] as? Int)
        let within = try Fleetkit.run(["review", "fix", "--db", db, "--by", "ana", String(id), "date", "2030-01-04"])
        XCTAssertEqual(within.status, 0, within.stderr)
        let beyond = try Fleetkit.run(["review", "fix", "--db", db, "--by", "ana", String(id), "date", "2030-01-06"])
        XCTAssertEqual(beyond.status, 64, beyond.stderr)
        XCTAssertTrue(beyond.stderr.contains("after the latest purchase the warehouse holds (2030-01-03T10:00:00"), beyond.stderr)
    }

    func testAnUnknownReceiptListsCloseMatches() throws {
        let r = try Fleetkit.run(["review", "accept", "--db", db, "us-expense-total-unconfirme.png", "total"])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("did you mean us-expense-total-unconfirmed.png"), r.stderr)
        let none = try Fleetkit.run(["review", "fix", "--db", db, "no-such-slip.jpg", "total", "1.00"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("`fleetkit review list` shows the receipts under review"), none.stderr)
    }

    /// Under review, the slip (dated 2025-06-24) is not in the totals, so the June cost report
    /// lists it in data quality and is partial (exit 1); settled, it is counted and the report is whole.
    func testTheCostReportListsAReceiptUnderReviewUntilItIsSettled() throws {
        func report() throws -> (CommandResult, String) {
            let out = dir.appendingPathComponent("out-\(UUID())")
            let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2025-06", "--format", "csv", "--out", out.path])
            let quality = (try? String(contentsOf: out.appendingPathComponent("cost-2025-06-data_quality.csv"), encoding: .utf8)) ?? ""
            return (r, quality)
        }
        let (before, quality) = try report()
        XCTAssertEqual(before.status, 1, before.stderr)
        XCTAssertTrue(before.stderr.contains("1 receipts dated in the period are under review and not counted"), before.stderr)
        XCTAssertTrue(quality.contains("Receipts under review and not loaded (not counted),1,"), quality)
        XCTAssertTrue(quality.contains("us-expense-total-unconfirmed.png (2025-06-24 total read 204.90 USD)"), quality)

        let id = try XCTUnwrap(listed().first?["receipt"] as? Int)
        XCTAssertEqual(try Fleetkit.run(["review", "accept", "--db", db, String(id)]).status, 0)
        let (after, settled) = try report()
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(settled.contains("Receipts under review and not loaded (not counted),0,none"), settled)
        let w = try TestWarehouse(existing: db)
        XCTAssertEqual(try w.rows("SELECT amount_minor FROM expense").first?["amount_minor"] as Int64?, 20490)
    }
}
