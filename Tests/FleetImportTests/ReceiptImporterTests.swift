import XCTest
import GRDB
import FleetKit
import FleetOCR
import FleetTestSupport
@testable import FleetImport

/// Receipt images through the whole import: real Tesseract on the generated fixtures
/// (Tests/FleetOCRTests/Fixtures/receipts), loading, review listing, bad files, and the links
/// to card transactions and duplicate images in both import orders.
final class ReceiptImporterTests: XCTestCase {
    /// r00: SHELL, 2025-07-09 06:51, 11.891 gal, total 46.15 USD; its masked card number does not OCR.
    static let shell = receipt("r00-us-fuel.png")
    /// r14: CHEVRON, 2025-05-09 08:03, total 44.49 USD, card …9936, unit T-22 printed.
    static let chevron = receipt("r14-us-fuel.png")
    /// r03: AUTOZONE #4411, 2025-02-21 13:44, total 344.33 USD, parts.
    static let autozone = receipt("r03-us-expense.png")

    static func receipt(_ name: String, file: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetOCRTests/Fixtures/receipts").appendingPathComponent(name)
    }

    /// An image of Tests/FleetOCRTests/Fixtures/photos (README.md there says how each was made).
    static func photo(_ name: String, file: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetOCRTests/Fixtures/photos").appendingPathComponent(name)
    }

    func options(asset: String? = nil) -> ImportOptions { ImportOptions(asset: asset) }

    func purchases(_ t: TestWarehouse) throws -> [GRDB.Row] {
        try t.rows("""
            SELECT f.*, a.unit_number, l.source_key AS linked_key FROM fuel_purchase f LEFT JOIN asset a ON a.id = f.asset_id
            LEFT JOIN fuel_purchase l ON l.id = f.linked_to ORDER BY f.origin, f.at, f.source_key
            """)
    }

    func testFuelReceiptBecomesAFuelPurchase() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.shell, options: options(asset: "T-12"))
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        XCTAssertEqual(outcome.format, "receipt")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        let rows = try purchases(t)
        XCTAssertEqual(rows.count, 1)
        let r = rows[0]
        let sha = try SHA256.hex(ofFile: Self.shell)
        XCTAssertEqual(r["source_key"] as String, "receipt:" + sha)
        XCTAssertEqual(r["origin"] as String, "receipt")
        XCTAssertEqual(r["unit_number"] as String?, "T-12")
        XCTAssertEqual(r["merchant"] as String?, "SHELL")
        XCTAssertEqual(r["total_minor"] as Int64?, 4615)
        XCTAssertEqual(r["currency"] as String, "USD")
        XCTAssertEqual(r["at"] as Int64, Timestamp.parse("2025-07-09T06:51:00Z")!)
        XCTAssertEqual(r["volume_ml"] as Double, 11.891 * Units.millilitresPerUSGallon, accuracy: 1e-6)
        XCTAssertEqual(r["unit_price_minor_per_l"] as Double, 388.1 * 1000 / Units.millilitresPerUSGallon, accuracy: 1e-6)
        XCTAssertEqual(r["fuel_grade"] as String?, "PREMIUM")
        XCTAssertEqual(r["odometer_m"] as Double, 158_875 * Units.metresPerMile, accuracy: 1e-6)
        XCTAssertEqual(r["needs_review"] as Bool, false)
        XCTAssertGreaterThan(r["ocr_confidence"] as Double, 60)
        XCTAssertNil(r["linked_to"] as Int64?)
    }

    func testReimportingTheSameImageChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.shell, options: options(asset: "T-12"))
        let before = try t.factDump()
        XCTAssertEqual(try t.importFile(Self.shell, options: options(asset: "T-12")).status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
    }

    func testUnitNumberOnTheReceiptAttributesOnlyToAKnownAsset() throws {
        let unknown = try TestWarehouse()
        try unknown.importFile(Self.chevron)
        let r = try XCTUnwrap(purchases(unknown).first)
        XCTAssertNil(r["asset_id"] as Int64?, "OCR text never creates an asset")
        XCTAssertEqual(r["unit_hint"] as String?, "T-22")
        XCTAssertEqual(try unknown.count("asset"), 0)

        let known = try TestWarehouse()
        try known.importFile(known.write("Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Gallons,Total Amount\n"
                                         + "2025-01-02,10:00,T1,****1111,T-22,10.000,30.00\n", to: "card.csv"))
        try known.importFile(Self.chevron)
        XCTAssertEqual(try purchases(known).first { ($0["origin"] as String) == "receipt" }?["unit_number"] as String?, "T-22")
    }

    func testExpenseReceiptBecomesAnExpense() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.autozone)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0], outcome.error ?? "")
        let rows = try t.rows("SELECT source_key, category, amount_minor, currency, vendor, asset_id, at FROM expense")
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0]["source_key"] as String, "receipt:" + (try SHA256.hex(ofFile: Self.autozone)))
        XCTAssertEqual(rows[0]["category"] as String, "parts")
        XCTAssertEqual(rows[0]["amount_minor"] as Int64, 34433)
        XCTAssertEqual(rows[0]["vendor"] as String?, "AUTOZONE #4411")
        XCTAssertNil(rows[0]["asset_id"] as Int64?, "no --asset, no unit printed: unassigned")
        XCTAssertEqual(try t.count("fuel_purchase"), 0)
    }

    func testANonReceiptPhotoIsListedForReviewAndLoadsNothing() throws {
        let t = try TestWarehouse()
        let photo = fixtureOCR("not-a-receipt/landscape.jpg")
        let outcome = try t.importFile(photo)
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        let reject = try XCTUnwrap(t.rows("SELECT reason, message FROM reject").first)
        XCTAssertEqual(reject["reason"] as String, "needs_review")
        XCTAssertTrue((reject["message"] as String).contains("date missing"), reject["message"] as String)
        XCTAssertEqual(try t.count("fuel_purchase") + t.count("expense"), 0)
    }

    /// Issue 35 item 4, receipt family: a printed time the clocks skipped (02:30 on 2026-03-08,
    /// America/Chicago) was shifted to 03:30 CDT in silence. It is held for review with the
    /// reason, nothing loaded; 01:30 on the fall-back morning takes the first (CDT) pass, as
    /// every format does: python3 zoneinfo datetime(2026,11,1,1,30,tzinfo=Chicago) = 1793514600 s.
    func testAPrintedTimeInTheSpringForwardGapIsHeldForReviewAndTheRepeatedHourTakesItsFirstPass() throws {
        let chicago = FleetZone(identifier: "America/Chicago")!
        let gap = try TestWarehouse()
        try load([("SHELL", 95), ("03/08/2026 02:30", 95), ("TOTAL $ 42.70", 95), ("CASH $ 50.00", 95), ("CHANGE $ 7.30", 95)], into: gap, zone: chicago)
        XCTAssertEqual(try gap.count("fuel_purchase") + gap.count("expense"), 0)
        let reject = try XCTUnwrap(gap.rows("SELECT reason, message FROM reject").first)
        XCTAssertEqual(reject["reason"] as String, "needs_review")
        XCTAssertTrue((reject["message"] as String).hasPrefix("the printed time '2026-03-08 02:30' (2026-03-08 02:30:00) does not exist in America/Chicago"), reject["message"] as String)
        let back = try TestWarehouse()
        try load([("SHELL", 95), ("11/01/2026 01:30", 95), ("TOTAL $ 42.70", 95), ("CASH $ 50.00", 95), ("CHANGE $ 7.30", 95)], into: back, zone: chicago)
        XCTAssertEqual(try back.rows("SELECT at FROM expense UNION ALL SELECT at FROM fuel_purchase").map { $0[0] as Int64 }, [1_793_514_600_000])
    }

    /// Loads fields read from text through the importer's rules into a real warehouse sink.
    func load(_ lines: [(String, Double)], into t: TestWarehouse, zone: FleetZone = .utc) throws {
        let fields = ReceiptExtractor(defaultCurrency: "USD").extract(lines: lines)
        try t.warehouse.pool.write { db in
            var file = SourceFile(path: "slip.png", sha256: "0f", format: "receipt", bytes: 1, importedAt: 0, importRunID: nil,
                                  status: "imported", loaded: 0, updated: 0, unchanged: 0, rejected: 0)
            try file.insert(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            try ReceiptImporter.load(fields, key: "receipt:0f", input: InputFile(url: URL(fileURLWithPath: "/in/slip.png"), head: Data(), zone: zone), into: &sink)
        }
    }

    func testADoubtfulTotalIsLoadedFlaggedCountedAndListed() throws {
        let t = try TestWarehouse()
        try load([("SHELL", 95), ("03/14/2025 07:42", 95), ("GALLONS 12.345", 95), ("TOTAL $ 42.70", 35), ("MASTERCARD 5454 5454 5454 1234", 90)], into: t)
        let r = try XCTUnwrap(purchases(t).first)
        XCTAssertEqual(r["needs_review"] as Bool, true)
        XCTAssertEqual(r["total_minor"] as Int64?, 4270, "a total that was read is kept (and counted, flagged)")
        let reject = try XCTUnwrap(t.rows("SELECT reason, message, raw FROM reject").first)
        XCTAssertEqual(reject["reason"] as String, "needs_review")
        XCTAssertTrue((reject["message"] as String).contains("total doubtful"), reject["message"] as String)
        XCTAssertTrue((reject["raw"] as String).contains("**** **** **** 1234"), reject["raw"] as String)
        XCTAssertFalse((reject["raw"] as String).contains("5454"), "card numbers masked in the stored OCR text")
    }

    func testAFuelReceiptWithoutATotalIsLoadedWithoutOne() throws {
        let t = try TestWarehouse()
        try load([("SHELL", 95), ("03/14/2025 07:42", 95), ("GALLONS 12.345", 95), ("PRICE/GAL $ 3.459", 95)], into: t)
        let r = try XCTUnwrap(purchases(t).first)
        XCTAssertNil(r["total_minor"] as Int64?, "never computed from price × volume: listed, not summed")
        XCTAssertEqual(r["needs_review"] as Bool, true)
        XCTAssertEqual(try t.count("reject", where: "reason = 'needs_review' AND message LIKE '%total missing%'"), 1)
    }

    func testAReceiptWithoutADateIsListedNotLoaded() throws {
        let t = try TestWarehouse()
        try load([("SHELL", 95), ("GALLONS 12.345", 95), ("TOTAL $ 42.70", 95)], into: t)
        XCTAssertEqual(try t.count("fuel_purchase"), 0)
        XCTAssertEqual(try t.count("reject", where: "message LIKE '%date could not be read%'"), 1)
    }

    func testADoubtfulExpenseIsListedNotLoaded() throws {
        let t = try TestWarehouse()
        try load([("AUTOZONE", 95), ("04/18/2025 10:05", 95), ("TOTAL $ 50.31", 30)], into: t)
        XCTAssertEqual(try t.count("expense"), 0)
        XCTAssertEqual(try t.count("reject", where: "message LIKE 'receipt not loaded: total doubtful%'"), 1)
    }

    func testBadFilesFailWithAClearMessage() throws {
        let t = try TestWarehouse()
        let pdf = try t.write("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", to: "scan.pdf")
        let corrupt = try t.write(Data(try Data(contentsOf: Self.shell).prefix(300)) + Data(repeating: 0x41, count: 500), to: "broken.png")
        let empty = try t.write(Data(), to: "empty.jpg")
        let huge = t.directory.appendingPathComponent("huge.png")
        try OCRImage(width: 10_000, height: 10_000, depth: 1).writePNG(to: huge.path)
        let noise = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetOCRTests/Fixtures/hostile/png-1bit-dot-noise.png")
        let comb = noise.deletingLastPathComponent().appendingPathComponent("png-1bit-comb.png")
        let summary = try t.importFiles([pdf.path, corrupt.path, empty.path, huge.path, noise.path, comb.path], options: ImportOptions(format: "receipt"))
        XCTAssertEqual(summary.files.map(\.status), [.failed, .failed, .failed, .failed, .failed, .failed])
        let errors = Dictionary(uniqueKeysWithValues: summary.files.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.error ?? "") })
        XCTAssertTrue(errors["scan.pdf"]!.contains("a PDF file, not a PNG, JPEG or TIFF image"), errors["scan.pdf"]!)
        XCTAssertTrue(errors["broken.png"]!.contains("damaged"), errors["broken.png"]!)
        XCTAssertTrue(errors["empty.jpg"]!.contains("empty"), errors["empty.jpg"]!)
        XCTAssertTrue(errors["huge.png"]!.contains("10000 × 10000 pixels is over the 40 MP limit"), errors["huge.png"]!)
        XCTAssertTrue(errors["png-1bit-dot-noise.png"]!.contains("the image is 5.8 million separate specks of ink"), errors["png-1bit-dot-noise.png"]!)
        XCTAssertTrue(errors["png-1bit-comb.png"]!.contains("ink shapes taller than a text line with 23.0 million edge steps"), errors["png-1bit-comb.png"]!)
        XCTAssertEqual(try t.count("source_file"), 0, "a failed file leaves nothing behind")
        // Without --format, a PDF is still named as a PDF rather than "not recognised".
        XCTAssertTrue(try t.importFile(pdf).error?.contains("PDF") ?? false)
    }

    // MARK: - Reconciliation

    /// A card export recording the SHELL purchase of r00 (unit T-12, 10 minutes later, same total).
    func shellCard(_ t: TestWarehouse, total: String = "46.15", gallons: String = "11.891") throws -> URL {
        try t.write("Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Gallons,Total Amount\n"
                    + "2025-07-09,07:01,WX-1,XXXXXXXXXXXX4444,T-12,Shell,\(gallons),\(total)\n", to: "card-\(total).csv")
    }

    func linkState(_ t: TestWarehouse) throws -> [String] {
        try purchases(t).map { r in "\(r["origin"] as String) \(r["unit_number"] as String? ?? "-") \(r["total_minor"] as Int64? ?? -1) -> \(r["linked_key"] as String? ?? "nil")" }
    }

    func testAReceiptIsLinkedToTheCardTransactionInEitherOrder() throws {
        let cardFirst = try TestWarehouse()
        try cardFirst.importFile(shellCard(cardFirst))
        try cardFirst.importFile(Self.shell, options: options(asset: "T-12"))
        let receiptFirst = try TestWarehouse()
        try receiptFirst.importFile(Self.shell, options: options(asset: "T-12"))
        try receiptFirst.importFile(shellCard(receiptFirst))
        let expected = ["card T-12 4615 -> nil", "receipt T-12 4615 -> card:WX-1"]
        XCTAssertEqual(try linkState(cardFirst), expected)
        XCTAssertEqual(try linkState(receiptFirst), expected)
        XCTAssertEqual(try cardFirst.factDump(), try receiptFirst.factDump())
    }

    func testByCardLastFourWithoutAnAsset() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.chevron)   // unassigned: T-22 unknown; card …9936 read
        try t.importFile(t.write("Transaction Date,Transaction Time,Transaction ID,Card Number,Merchant Name,Gallons,Total Amount\n"
                                 + "2025-05-09,08:20,WX-7,************9936,Chevron,13.289,44.49\n", to: "card.csv"))
        XCTAssertEqual(try linkState(t), ["card - 4449 -> nil", "receipt - 4449 -> card:WX-7"])
    }

    /// A card row of another total is the same fill only when its volume agrees (within 40 mL):
    /// 11.991 gal against the slip's 11.891 is another fill; the same total 39 minutes later is
    /// outside the card window.
    func testNoLinkWhenTheAmountOrTimeDiffers() throws {
        let t = try TestWarehouse()
        try t.importFile(Self.shell, options: options(asset: "T-12"))
        try t.importFile(shellCard(t, total: "46.16", gallons: "11.991"))
        try t.importFile(t.write("Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Gallons,Total Amount\n"
                                 + "2025-07-09,07:30,WX-2,XXXXXXXXXXXX4444,T-12,11.891,46.15\n", to: "late.csv"))
        XCTAssertEqual(try t.count("fuel_purchase", where: "linked_to IS NOT NULL"), 0)
    }

    /// The card row corrected to 46.16 (the slip, read by Tesseract, says 46.15) with the slip's
    /// 11.891 gal, 10 minutes later on the same asset: the same fill (rule 3), linked in either
    /// order and counted once at the card's amount.
    func testACardOfAnotherTotalForTheSameFillIsLinkedInEitherOrder() throws {
        for receiptFirst in [true, false] {
            let t = try TestWarehouse()
            if receiptFirst { try t.importFile(Self.shell, options: options(asset: "T-12")) }
            try t.importFile(shellCard(t, total: "46.16"))
            if !receiptFirst { try t.importFile(Self.shell, options: options(asset: "T-12")) }
            XCTAssertEqual(try linkState(t), ["card T-12 4616 -> nil", "receipt T-12 4615 -> card:WX-1"], "receipt first: \(receiptFirst)")
        }
    }

    func testTwoImagesOfOnePurchaseAreLinkedOnceInEitherOrder() throws {
        func run(_ reversed: Bool) throws -> [String] {
            let t = try TestWarehouse()
            // The same slip photographed twice: other bytes, same print.
            let copy = try t.write(try Data(contentsOf: Self.shell) + Data("second photo".utf8), to: "again.png")
            for url in reversed ? [copy, Self.shell] : [Self.shell, copy] {
                try t.importFile(url, options: options(asset: "T-12"))
            }
            XCTAssertEqual(try t.count("fuel_purchase", where: "linked_to IS NULL"), 1, "counted once")
            return try linkState(t)
        }
        XCTAssertEqual(try run(false), try run(true))
    }

    /// The sample fleet's receipts (SampleData/receipts, one folder per unit) with the sample
    /// fleet's assets and the card row the Pilot receipt records, taken from SampleData's own
    /// card file: attributed by folder, the Pilot receipt linked to the card, the second photo of
    /// the Shell receipt to the first. The card row, read independently:
    /// python3 -c "import csv; print([r for r in csv.DictReader(open('SampleData/fuel-card/fuel-card-2026-10.csv')) if r['transaction_id']=='T2026100100037'])"
    /// → T-07, 06:41:00, card …7514, 17.650 gal at 3.361, total 59.32 USD (scripts/receipts/sample-truth.json prints the same).
    func testSampleFleetReceipts() throws {
        let t = try TestWarehouse()
        let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try t.importFile(root.appendingPathComponent("SampleData/master/assets.csv"))
        let card = try String(contentsOf: root.appendingPathComponent("SampleData/fuel-card/fuel-card-2026-10.csv"), encoding: .utf8).split(whereSeparator: \.isNewline)   // CRLF, as card exports are
        let row = try XCTUnwrap(card.first { $0.hasPrefix("T2026100100037,") }, "the sample's card row of the Pilot receipt")
        try t.importFile(t.write(card[0] + "\n" + row + "\n", to: "fuel-card.csv"))
        let folder = root.appendingPathComponent("SampleData/receipts")
        let files = ["T-07/receipt-2026-10-01-pilot.png", "T-12/receipt-2026-10-14-shell.png", "T-12/receipt-2026-10-14-shell-again.jpg",
                     "T-03/receipt-2026-10-20-autozone.png"].map { folder.appendingPathComponent($0).path }
        let summary = try t.importFiles(files)
        XCTAssertEqual(summary.totals.loaded, 4, "\(summary.files.map { $0.error ?? "" })")
        XCTAssertEqual(summary.totals.rejected, 0)
        XCTAssertEqual(try linkState(t), ["card T-07 5932 -> nil", "receipt T-07 5932 -> card:T2026100100037", "receipt T-12 7646 -> nil",
                                          "receipt T-12 7646 -> " + (try purchases(t)[2]["source_key"] as String)])
        let expense = try XCTUnwrap(t.rows("SELECT a.unit_number, x.category, x.amount_minor FROM expense x JOIN asset a ON a.id = x.asset_id").first)
        XCTAssertEqual([expense[0], expense[1]] as [String], ["T-03", "parts"])
        XCTAssertEqual(expense[2] as Int64, 3462)
    }

    /// Every sample receipt that says it records a card transaction (`links_to` in
    /// scripts/receipts/sample-truth.json) prints that row of SampleData/fuel-card: its day,
    /// time, card, volume and total. Before, the Pilot receipt was drawn for a card id the
    /// regenerated sample no longer had, and it loaded as a second purchase in silence.
    func testSampleReceiptTruthMatchesTheSampleCardRows() throws {
        let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let truth = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("scripts/receipts/sample-truth.json"))) as? [String: Any])
        let receipts = try XCTUnwrap(truth["receipts"] as? [[String: Any]])
        var rows: [String: [String: String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("SampleData/fuel-card").path) where file.hasSuffix(".csv") {
            let lines = try String(contentsOf: root.appendingPathComponent("SampleData/fuel-card/\(file)"), encoding: .utf8).split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            for line in lines.dropFirst() where line.count == lines[0].count { rows[line[0]] = Dictionary(uniqueKeysWithValues: zip(lines[0], line)) }
        }
        var checked = 0
        for r in receipts {
            guard let link = r["links_to"] as? String, link.hasPrefix("card:") else { continue }
            let card = try XCTUnwrap(rows[String(link.dropFirst(5))], "\(link) is not a row of SampleData/fuel-card")
            XCTAssertEqual(card["transaction_date"], r["date"] as? String, link)
            XCTAssertEqual(card["transaction_time"].map { String($0.prefix(5)) }, r["time"] as? String, link)
            XCTAssertEqual(card["card_number"].map { String($0.suffix(4)) }, r["card_last4"] as? String, link)
            XCTAssertEqual(card["gallons"], r["volume"] as? String, link)
            XCTAssertEqual(card["total"], r["total"] as? String, link)
            checked += 1
        }
        XCTAssertEqual(checked, 1, "the Pilot receipt of T-07")
    }

    func fixtureOCR(_ path: String, file: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetOCRTests/Fixtures").appendingPathComponent(path)
    }
}
