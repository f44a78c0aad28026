import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// A receipt fixed through `fleetkit review` loads through the one file load (`FileLoad`), so
/// the derivations that follow an import follow the review too: the receipt is linked to the
/// fuel-card row that charged the same purchase (docs/METRICS.md, "Receipts and card
/// transactions") and counted once, exactly as when the same receipt, with the same correction,
/// is imported. The review path used to load the receipt without derivations: the fixed receipt
/// stayed unlinked and the purchase was counted twice.
final class ReceiptReviewDerivationTests: XCTestCase {
    /// The card's record of the purchase: 2025-03-14 07:50 UTC, card …1234, 42.90 USD charged.
    static let card = """
        Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Product,Gallons,Total Amount
        2025-03-14,07:50,WX-1,XXXXXXXXXXXX1234,T-1,Shell,Unleaded Regular,12.345,42.90

        """

    /// The slip as OCR read it: 07:42, card …1234, total misread as 42.70 and gallons as 12.845;
    /// nothing on it (no unit price, no payment line) confirms the total, so it waits for review
    /// and does not match the card's 42.90. (Were the gallons read right, the card's 12.345 gal
    /// would link it before review as the same fill at another amount.)
    static let slip: [(String, Double)] = [("SHELL", 95), ("03/14/2025 07:42", 95), ("UNLEADED REGULAR", 95), ("GALLONS 12.845", 95),
                                           ("VISA ************1234", 95), ("TOTAL $ 42.70", 95)]

    /// The derived and fact state the comparison covers: fuel purchases with the link as the
    /// linked row's source key, the daily rollup, and the receipt's rejects and file status.
    func state(_ t: TestWarehouse) throws -> [String] {
        let links = try t.rows("""
            SELECT p.source_key, l.source_key FROM fuel_purchase p LEFT JOIN fuel_purchase l ON l.id = p.linked_to ORDER BY p.source_key
            """).map { "link: \($0[0] as String) -> \(($0[1] as String?) ?? "none")" }
        let days = try t.factDump(tables: ["asset_day"])
        let files = try t.rows("SELECT format, status, rejected FROM source_file ORDER BY format")
            .map { "file: \($0[0] as String) \($0[1] as String) \($0[2] as Int)" }
        let rejects = try t.rows("SELECT reason FROM reject ORDER BY reason").map { "reject: \($0[0] as String)" }
        return try t.factDump(tables: ["fuel_purchase"]) + links + days + files + rejects
    }

    func testAReviewedReceiptIsLinkedToItsCardRowAsAnImportOfItWouldBe() throws {
        // Reviewed: card, then the slip (unlinked: 42.70 is not 42.90), then the fix.
        let reviewed = try TestWarehouse()
        let cardFile = try reviewed.write(Self.card, to: "fuel-card-2025-03.csv")
        XCTAssertEqual(try reviewed.importFile(cardFile).status, .imported)
        try reviewed.loadReceipt(Self.slip)
        let linkBefore = try reviewed.rows("SELECT linked_to FROM fuel_purchase WHERE origin = 'receipt'")
        XCTAssertEqual(linkBefore.count, 1)
        XCTAssertNil(linkBefore[0][0] as Int64?, "42.70 does not match the card's 42.90")
        let review = ReceiptReview(warehouse: reviewed.warehouse)
        let id = String(try XCTUnwrap(review.list().first?.receipt))
        _ = try review.apply(id, [.fix("total", "42.90")], by: "ana")

        let link = try reviewed.rows("""
            SELECT c.source_key, c.origin, r.total_minor FROM fuel_purchase r JOIN fuel_purchase c ON c.id = r.linked_to WHERE r.origin = 'receipt'
            """)
        XCTAssertEqual(link.count, 1, "the reviewed receipt is linked to the card row")
        XCTAssertEqual(link.first?[1] as String?, "card")
        XCTAssertEqual(link.first?[2] as Int64?, 4290)

        // Imported: the same card file, the person's correction already stored for the image's
        // content, then the slip: the importer applies the correction and derives.
        let imported = try TestWarehouse()
        XCTAssertEqual(try imported.importFile(try imported.write(Self.card, to: "fuel-card-2025-03.csv")).status, .imported)
        let corrections = try reviewed.warehouse.pool.read { db in try ReceiptReviewStore.history(db, sha256: "0f") }
        XCTAssertEqual(corrections.map(\.field), ["total"])
        try imported.warehouse.pool.write { db in
            for c in corrections { try ReceiptReviewStore.addCorrection(c, sha256: "0f", in: db) }
        }
        try imported.loadReceipt(Self.slip)

        XCTAssertEqual(try state(reviewed), try state(imported))
    }
}
