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

    // MARK: rule 3, the same fill at another amount

    /// 17.650 US gal in mL (3785.411784 mL a gallon): the sample's T-07 fill.
    static let fill = 17.650 * 3785.411784

    private func purchase(_ key: String, _ origin: String, at: Int64, total: Int64, volume: Double?, merchant: String = "Pilot #412",
                          last4: String? = "7514", file: Int64) -> FuelPurchase {
        FuelPurchase(sourceKey: key, origin: origin, at: at, merchant: merchant, volumeMl: volume, totalMinor: total, currency: "USD",
                     cardLast4: last4, needsReview: false, sourceFileID: file)
    }

    /// Loads each group of rows as one file, in the order given.
    private func load(_ groups: [[(Int64) -> FuelPurchase]]) throws -> TestWarehouse {
        let t = try TestWarehouse()
        for g in groups { try file(t) { sink, f in for make in g { try sink.load(make(f)) } } }
        return t
    }

    /// A receipt of 59.32 and the card transaction of the same fill corrected to 69.32 (same
    /// card digits, same time, the same 17.650 gal): linked, in either order, and only the card
    /// is left unlinked (counted). A card 30 mL off still links (rounding of one reading); one
    /// 50 mL off, or 31 minutes away, or with no volume on the receipt, does not.
    func testTheSameFillAtAnotherAmountLinksInEitherOrder() throws {
        let at: Int64 = 1_790_900_000_000
        for (volumeOff, minutes, receiptVolume, linked) in [(0.0, 0, Self.fill, true), (30.0, 10, Self.fill, true), (50.0, 0, Self.fill, false),
                                                            (0.0, 31, Self.fill, false), (0.0, 0, Optional<Double>.none, false)] as [(Double, Int64, Double?, Bool)] {
            let card: (Int64) -> FuelPurchase = { self.purchase("card:T-07", "card", at: at + minutes * 60_000, total: 6_932, volume: Self.fill + volumeOff, file: $0) }
            let receipt: (Int64) -> FuelPurchase = { self.purchase("receipt:pilot", "receipt", at: at, total: 5_932, volume: receiptVolume, file: $0) }
            for order in [[card, receipt], [receipt, card]] {
                let t = try load(order.map { [$0] })
                XCTAssertEqual(try links(t), ["card:T-07 -> -", "receipt:pilot -> " + (linked ? "card:T-07" : "-")],
                               "volume off \(volumeOff) mL, \(minutes) min, receipt volume \(String(describing: receiptVolume))")
            }
        }
    }

    /// A later image of the receipt is that receipt, not a rival: the first image links to the
    /// corrected card by rule 3, the second to the first by rule 2; counted once, in any order.
    func testASecondImageIsNoRivalForTheCorrectedCard() throws {
        let at: Int64 = 1_790_900_000_000
        let rows: [(Int64) -> FuelPurchase] = [
            { self.purchase("card:T-07", "card", at: at, total: 6_932, volume: Self.fill, file: $0) },
            { self.purchase("receipt:a", "receipt", at: at, total: 5_932, volume: Self.fill, file: $0) },
            { self.purchase("receipt:b", "receipt", at: at + 60_000, total: 5_932, volume: Self.fill, file: $0) },
        ]
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let t = try load(order.map { [rows[$0]] })
            XCTAssertEqual(try links(t), ["card:T-07 -> -", "receipt:a -> card:T-07", "receipt:b -> receipt:a"], "order \(order)")
        }
    }

    /// Never one card for two receipts, nor two cards for one receipt: each ambiguous shape stays
    /// unlinked in every order, and `sameFill` names the rows it could not choose between.
    func testAnAmbiguousSameFillStaysUnlinked() throws {
        let at: Int64 = 1_790_900_000_000
        let shapes: [(name: String, rows: [(Int64) -> FuelPurchase], links: [String], receipt: String, named: Int)] = [
            ("two cards for one receipt", [
                { self.purchase("card:1", "card", at: at, total: 6_932, volume: Self.fill, file: $0) },
                { self.purchase("card:2", "card", at: at + 600_000, total: 7_000, volume: Self.fill + 10, file: $0) },
                { self.purchase("receipt:a", "receipt", at: at + 300_000, total: 5_932, volume: Self.fill, file: $0) },
            ], ["card:1 -> -", "card:2 -> -", "receipt:a -> -"], "receipt:a", 3),
            ("two receipts (other merchants, not images) for one card", [
                { self.purchase("card:1", "card", at: at, total: 6_932, volume: Self.fill, file: $0) },
                { self.purchase("receipt:a", "receipt", at: at + 300_000, total: 5_932, volume: Self.fill, merchant: "Pilot #412", file: $0) },
                { self.purchase("receipt:b", "receipt", at: at + 900_000, total: 5_932, volume: Self.fill, merchant: "Shell 9", file: $0) },
            ], ["card:1 -> -", "receipt:a -> -", "receipt:b -> -"], "receipt:b", 3),
            ("a receipt already linked by the card's total", [
                { self.purchase("card:1", "card", at: at, total: 6_932, volume: Self.fill, file: $0) },
                { self.purchase("receipt:exact", "receipt", at: at, total: 6_932, volume: Self.fill, file: $0) },
                { self.purchase("receipt:other", "receipt", at: at + 600_000, total: 5_932, volume: Self.fill, merchant: "Shell 9", file: $0) },
            ], ["card:1 -> -", "receipt:exact -> card:1", "receipt:other -> -"], "receipt:other", 3),
        ]
        for shape in shapes {
            for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2]] {
                let t = try load(order.map { [shape.rows[$0]] })
                XCTAssertEqual(try links(t), shape.links, "\(shape.name), order \(order)")
                let verdict = try t.warehouse.pool.read { db -> FuelPurchaseLinker.SameFill in
                    let id = try XCTUnwrap(try Int64.fetchOne(db, sql: "SELECT id FROM fuel_purchase WHERE source_key = ?", arguments: [shape.receipt]))
                    return try FuelPurchaseLinker.sameFill(receipt: id, in: db)
                }
                guard case let .ambiguous(cards, receipts) = verdict else { return XCTFail("\(shape.name): \(verdict)") }
                XCTAssertEqual(cards.count + receipts.count, shape.named, shape.name)
            }
        }
    }
}
