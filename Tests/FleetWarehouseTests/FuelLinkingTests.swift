import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Fuel purchase links are a derivation step (`FuelLinking` in `Derivations.all`): they follow
/// from the rows a file stored, whoever stored them, with no call an importer must remember.
final class FuelLinkingTests: XCTestCase {
    private func file(_ t: TestWarehouse, _ body: (inout WarehouseSink, Int64) throws -> Void) throws {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            try body(&sink, f.id!)
            try sink.deriveAfterLoad()
        }
    }

    private func receipt(_ key: String, at: Int64, file: Int64) -> FuelPurchase {
        FuelPurchase(sourceKey: key, origin: "receipt", at: at, merchant: "Shell #12", totalMinor: 6_150, currency: "USD",
                     cardLast4: "4242", needsReview: false, sourceFileID: file)
    }

    private func card(_ key: String, at: Int64, file: Int64) -> FuelPurchase {
        FuelPurchase(sourceKey: key, origin: "card", at: at, merchant: "SHELL 12", totalMinor: 6_150, currency: "USD",
                     cardLast4: "4242", needsReview: false, sourceFileID: file)
    }

    private func links(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT p.source_key, l.source_key FROM fuel_purchase p LEFT JOIN fuel_purchase l ON l.id = p.linked_to ORDER BY p.source_key
            """).map { "\($0[0] as String) -> \($0[1] as String? ?? "-")" }
    }

    /// A card transaction and the receipt of the same purchase (10 minutes apart), plus a second
    /// image of the receipt a minute later and an unrelated receipt, loaded in either order, row
    /// by row and in one batch: the same links each time, by the linker's rules (card wins; a
    /// second image links to the card through the same rule, the unrelated one stands alone).
    func testLinksFollowFromTheStoredRowsInEveryOrder() throws {
        let at: Int64 = 1_790_900_000_000
        let expected = ["card:1 -> -", "receipt:a -> card:1", "receipt:b -> card:1", "receipt:c -> -"]
        for order in [[0, 1], [1, 0]] {
            for batched in [false, true] {
                let t = try TestWarehouse()
                for part in order {
                    try file(t) { sink, f in
                        let rows = part == 0
                            ? [card("card:1", at: at, file: f)]
                            : [receipt("receipt:a", at: at + 600_000, file: f), receipt("receipt:b", at: at + 660_000, file: f),
                               receipt("receipt:c", at: at + 86_400_000, file: f)]
                        if batched { try sink.load(contentsOf: rows) } else { for r in rows { try sink.load(r) } }
                    }
                }
                XCTAssertEqual(try links(t), expected, "order \(order), batched \(batched)")
            }
        }
    }

    /// Forgetting the card file a receipt is linked to: the receipt lets go of the row first (a
    /// foreign-key failure otherwise), the second image then links to the first by rule 2, and
    /// loading the card again (a `--replaces` load) restores the card-wins links.
    func testForgettingTheLinkedCardReleasesTheReceiptsAndReloadingRelinksThem() throws {
        let at: Int64 = 1_790_900_000_000
        let t = try TestWarehouse()
        try file(t) { sink, f in try sink.load(card("card:1", at: at, file: f)) }
        try file(t) { sink, f in
            for r in [receipt("receipt:a", at: at + 600_000, file: f), receipt("receipt:b", at: at + 660_000, file: f),
                      receipt("receipt:c", at: at + 86_400_000, file: f)] { try sink.load(r) }
        }
        let linked = ["card:1 -> -", "receipt:a -> card:1", "receipt:b -> card:1", "receipt:c -> -"]
        XCTAssertEqual(try links(t), linked)
        let cardFile = try XCTUnwrap(try t.rows("SELECT source_file_id FROM fuel_purchase WHERE source_key = 'card:1'").first?[0] as Int64?)
        let forgotten = try t.warehouse.pool.write { db in try Corrections.forget(db, fileID: cardFile, settings: DeriveSettings()) }
        XCTAssertEqual(forgotten.removed["fuel_purchase"], 1)
        XCTAssertEqual(try links(t), ["receipt:a -> -", "receipt:b -> receipt:a", "receipt:c -> -"])
        try file(t) { sink, f in try sink.load(card("card:1", at: at, file: f)) }
        XCTAssertEqual(try links(t), linked)
    }

    /// A file that stores no fuel purchase touches no link; one whose rows were all unchanged
    /// (the same purchase exported again) leaves the links as they were.
    func testOnlyChangedFuelPurchasesAreTouched() throws {
        let t = try TestWarehouse()
        try file(t) { sink, f in try sink.load(card("card:1", at: 1_000_000, file: f)) }
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            try sink.load(card("card:1", at: 1_000_000, file: f.id!))
            XCTAssertNil(sink.touched.fuelPurchases, "an unchanged row")
            try sink.load(receipt("receipt:a", at: 1_060_000, file: f.id!))
            XCTAssertEqual(sink.touched.fuelPurchases, 1_060_000...1_060_000)
        }
    }
}
