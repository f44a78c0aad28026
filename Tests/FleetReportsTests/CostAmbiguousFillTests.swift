import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// A receipt that may be the fill of either of two card transactions stays unlinked (docs/METRICS.md,
/// "Receipts and card transactions"), so all three rows are counted: a possible double count the
/// cost report may not give as whole. It lists the receipt in data quality and is partial.
final class CostAmbiguousFillTests: XCTestCase {
    func testAReceiptThatFitsTwoCardsMakesTheCostReportPartial() throws {
        let t = try TestWarehouse()
        let zone = FleetZone(identifier: "America/Chicago")!
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
        // 2026-10-05 14:00 Chicago (19:00 UTC); 17.650 gal on each row.
        let at: Int64 = 1_791_226_800_000, fill = 17.650 * 3785.411784
        func purchase(_ key: String, _ origin: String, _ offset: Int64, _ total: Int64, _ volume: Double, _ f: Int64) -> FuelPurchase {
            FuelPurchase(sourceKey: key, origin: origin, at: at + offset, merchant: "Pilot #412", volumeMl: volume, totalMinor: total,
                         currency: "USD", cardLast4: "7514", needsReview: false, sourceFileID: f)
        }
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            try sink.load(purchase("card:1", "card", 0, 6_932, fill, f.id!))
            try sink.load(purchase("card:2", "card", 600_000, 7_000, fill + 10, f.id!))
            try sink.load(purchase("receipt:a", "receipt", 300_000, 5_932, fill, f.id!))
            try sink.deriveAfterLoad()
        }
        let out = try t.warehouse.pool.read { db in
            try CostReport().run(db, ReportRequest(period: .month(2026, 10), zone: zone, currency: "USD", generatedAt: 0))
        }
        // Nothing linked: 69.32 + 70.00 + 59.32, each row counted.
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "total" }?.1 ?? 0, 198.64, accuracy: 1e-9)
        let reason = out.metadata.partial.first { $0.contains("possible double count") }
        XCTAssertNotNil(reason, "\(out.metadata.partial)")
        XCTAssertTrue(reason?.hasPrefix("1 receipts may be the fill of a card transaction") == true, reason ?? "")
        let quality = out.dataQuality
        let row = quality.rows.first { if case let .text(s) = $0[0] { return s.hasPrefix("Receipts that may be a card fill") }; return false }
        XCTAssertNotNil(row)
        if let row, case let .integer(n) = row[1] { XCTAssertEqual(n, 1) } else { XCTFail("\(String(describing: row))") }
    }

    /// The same rows with one card: the receipt links to it (rule 3) and the report is whole.
    func testAReceiptThatFitsOneCardLeavesTheReportWhole() throws {
        let t = try TestWarehouse()
        let zone = FleetZone(identifier: "America/Chicago")!
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
        let at: Int64 = 1_791_226_800_000, fill = 17.650 * 3785.411784
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            for (key, origin, offset, total) in [("card:1", "card", Int64(0), Int64(6_932)), ("receipt:a", "receipt", Int64(300_000), Int64(5_932))] {
                try sink.load(FuelPurchase(sourceKey: key, origin: origin, at: at + offset, merchant: "Pilot #412", volumeMl: fill, totalMinor: total,
                                           currency: "USD", cardLast4: "7514", needsReview: false, sourceFileID: f.id!))
            }
            try sink.deriveAfterLoad()
        }
        let out = try t.warehouse.pool.read { db in
            try CostReport().run(db, ReportRequest(period: .month(2026, 10), zone: zone, currency: "USD", generatedAt: 0))
        }
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "total" }?.1 ?? 0, 69.32, accuracy: 1e-9)
        XCTAssertFalse(out.metadata.partial.contains { $0.contains("possible double count") }, "\(out.metadata.partial)")
    }
}
