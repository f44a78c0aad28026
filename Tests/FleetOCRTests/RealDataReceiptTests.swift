import XCTest
import FleetCore
@testable import FleetOCR

/// The receipts real-data corpus: every image in `../shared/realdata/receipts` (origins and
/// licences in its README) read as the importer reads it (`OCRPipeline` with the receipt judge,
/// then `ReceiptExtractor`), by a fleet whose settings say USD, as a US fleet meeting foreign
/// receipts would. Each field is scored against a truth read off the image by eye, never from
/// FleetKit's output:
/// - **right**: the value is the truth and the receipt is stored as sure;
/// - **flagged**: missing, below the review threshold, or the receipt goes to review;
/// - **wrong**: another value stored as sure. Never allowed.
///
/// How the truths were read: each JPEG converted for viewing (`PIL.Image.open(f).convert('L')`,
/// the A4 SROIE scans 288 and 289 cropped to the slip) and read by eye; the SROIE labels
/// (`sroie__NNN.key.json`: company, date as printed, total) and the README's litres and price per
/// litre were checked against the images and agree with them. The German slips' truths are the
/// README's table, checked against the images too. Fuel: litres × price per litre gives the
/// printed total within a cent (35.10 × 2.450 = 85.995 → 86.00; 39.42 × 2.170 = 85.54;
/// 16.32 × 2.570 = 41.94 vs 41.95 printed, the pump's own rounding; 22.73 × 2.200 = 50.006 → 50.00).
/// Prepaid chits (181, 289) print `PPF P1 1.000 6 6.00`: a quantity of prepaid ringgit, no litres.
final class RealDataReceiptTests: XCTestCase {
    enum Outcome: String { case right, flagged, wrong }

    struct Expected {
        var file: String
        var date: String
        var total: String
        var currency: String
        /// "35.10 L"; "-" when the slip prints no volume (it must not be stored as one).
        var volume: String
        var unitPrice: String
        var fuel: Bool
        /// Fields that must be right; the others must be right or flagged.
        var mustBeRight: Set<String>
        /// What the slip shows, as read.
        var reading: String
        /// The slip says it is not a receipt (a prepaid chit): it must go to review whole.
        var notAReceipt = false
    }

    static let dateTotalCurrency: Set<String> = ["date", "total", "currency"]
    static let fuelFields: Set<String> = ["date", "total", "currency", "volume", "unit_price"]

    static let expected: [Expected] = [
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0001.jpg", date: "2014-12-04", total: "0.99", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "REWE Bilker Allee 57, 40219 Duesseldorf; 04.12.2014 11:26; SUMME EUR 0,99; BAR 0,99"),
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0003.jpg", date: "2014-10-18", total: "10.56", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "PENNY-MARKT GmbH; 18.10.2014; SUMME 10,56"),
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0004.jpg", date: "2015-09-05", total: "9.31", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "real,- SB-Warenhaus; 5.09.15; SUMME EUR 9,31; gegeben 10,01, Rueckgeld 0,70"),
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0006.jpg", date: "2015-08-31", total: "15.95", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "Kaiser's Tengelmann; Dat.31.08.2015; SUMME EUR 15,95"),
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0007.jpg", date: "2015-06-06", total: "5.03", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "PENNY-MARKT GmbH; 06.06.2015; SUMME 5,03"),
        Expected(file: "de-supermarket__receipt-parser-legacy_IMG0008.jpg", date: "2014-12-11", total: "5.85", currency: "EUR", volume: "-", unitPrice: "-",
                 fuel: false, mustBeRight: dateTotalCurrency, reading: "dm-drogerie markt; 11.12.2014 printed at head and foot; SUMME EUR 5,85"),
        Expected(file: "sroie__019.jpg", date: "2018-03-18", total: "86.00", currency: "MYR", volume: "35.10 L", unitPrice: "2.450", fuel: true,
                 mustBeRight: [], reading: "OCR reads the volume `36.10 litre` (35.10 printed), which price × volume does not confirm: the fuel purchase is loaded for review. The slip: Shell ISNI Petro Trading, 53300 KL, Telephone 03-40212008, GST No 12 digits; 35.10 litre Pump # 02; V-Power 97 RM 86.00; 2.450 RM / litre; Total RM 86.00; Date 18/03/18 15:17"),
        Expected(file: "sroie__063.jpg", date: "2018-02-26", total: "85.54", currency: "MYR", volume: "39.42 L", unitPrice: "2.170", fuel: true,
                 mustBeRight: [], reading: "OCR garbles the price line (`2:a1\\/ OsmRiitre` for `2.170 RM / litre`): the volume is unconfirmed, the fuel purchase loaded for review. The slip: Petrodeli Enterprise, 54200 Kuala Lumpur, 03-41056485; 39.42 litre; FuelSave 95 RM 85.54; 2.170 RM / litre; Total RM 85.54; 26/02/18 08:28"),
        Expected(file: "sroie__160.jpg", date: "2018-01-21", total: "8.60", currency: "MYR", volume: "-", unitPrice: "-", fuel: false,
                 mustBeRight: dateTotalCurrency, reading: "Tealive Shell Kepong (a café); GST ID 001018802176; Date 21/01/2018 15:46:09; Total Sales Incl GST @ 6% RM8.60; Cash 8.60, Tendered 9.00, Change 0.40; Printed at 21/01/2018"),
        Expected(file: "sroie__180.jpg", date: "2018-01-18", total: "41.95", currency: "MYR", volume: "16.32 L", unitPrice: "2.570", fuel: true,
                 mustBeRight: fuelFields, reading: "BHPetrol Subang Airport, 47200 Subang Selangor; 18-01-2018 15:44:46; infiniti 97 E4MP3 2.570 16.32 41.95 S (U\\Price Qnty Amount); TOTAL AMOUNT PAYABLE RM 41.95; EDC MASTER RM 41.95; EPOINTS Expiry 31/10/2020"),
        Expected(file: "sroie__181.jpg", date: "2018-03-24", total: "6.00", currency: "MYR", volume: "-", unitPrice: "-", fuel: false,
                 mustBeRight: [], reading: "BHPetrol Palekbang, 16200 Palekbang, Kelantan; PREPAY CHIT, THIS IS NOT A RECEIPT; 24-03-2018 22:02:55; PPF P1 1.000 6 6.00; TOTAL AMOUNT / CASH RM 6.00",
                 notAReceipt: true),
        Expected(file: "sroie__277.jpg", date: "2017-01-05", total: "72.00", currency: "MYR", volume: "-", unitPrice: "-", fuel: false,
                 mustBeRight: dateTotalCurrency, reading: "S&Y Stationery, 40150 Shah Alam, Selangor; GST Reg No 000906854400; 05-Jan-2017 03:17:50 PM; Total Sales Incl. GST @6% : 72.00; Total Amount Payable : 72.00; Cash Received 100.00; Change 28.00; amounts headed Total(MYR)"),
        Expected(file: "sroie__288.jpg", date: "2018-04-06", total: "50.00", currency: "MYR", volume: "22.73 L", unitPrice: "2.200", fuel: true,
                 mustBeRight: fuelFields, reading: "The English reading loses the price's decimal mark (`2200 RM ?/ litre`); the second reading in Malay and English (`msa+eng`, the slip's Johor address names Malaysia) reads it, and price × volume confirms all three. The slip: Hasha Petrokiosk, 81750 Masai Johor (a small slip on an A4 scan); 22.73 litre; FuelSave 95 RM 50.00; 2.200 RM / litre; Total RM 50.00; 2018-04-06 17:36:35 and Date 06/04/18 17:36"),
        Expected(file: "sroie__289.jpg", date: "2018-04-10", total: "50.00", currency: "MYR", volume: "-", unitPrice: "-", fuel: false,
                 mustBeRight: [], reading: "BHPetrol Permas Jaya 2, 81750 Masai, Johor (A4 scan); PREPAY CHIT, THIS IS NOT A RECEIPT; 10-04-2018 08:11:53 (day first: 10 April); PPF P7 1.000 50 50.00; TOTAL AMOUNT CASH RM 50.00",
                 notAReceipt: true),
        Expected(file: "sroie__474.jpg", date: "2017-05-07", total: "43.70", currency: "MYR", volume: "-", unitPrice: "-", fuel: false,
                 mustBeRight: dateTotalCurrency, reading: "Sanyu Stationery Shop, 40170 Setia Alam, Tel +603-3362 4137, Sanyu Supply Sdn Bhd; Total 43.70, Final Total 43.70; CASH 50.00 CHANGE 6.30; Date : 07/05/2017 (day first: 7 May); amounts headed Amount(RM)"),
        Expected(file: "sroie__563.jpg", date: "2018-06-20", total: "50.00", currency: "MYR", volume: "22.73 L", unitPrice: "2.200", fuel: true,
                 mustBeRight: fuelFields, reading: "Leong Heng Shell Service Station, 43000 Kajang, Selangor, 03-90805318; 22.73 litre Pump # 06; FuelSave 95 RM 50.00; 2.200 RM / litre; Total RM 50.00; Cash RM 50.00; Date 20/06/18 00:05"),
    ]

    /// `shared/realdata/receipts` in the nearest folder above the package that holds it
    /// (`../shared` beside a checkout); a missing corpus fails the test.
    static func corpus(file: StaticString = #filePath) throws -> URL {
        var dir = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        while dir.path != "/" {
            dir = dir.deletingLastPathComponent()
            let candidate = dir.appendingPathComponent("shared/realdata/receipts")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        XCTFail("The real-data corpus is missing: expected shared/realdata/receipts above the package root. This test does not skip.")
        throw CocoaError(.fileNoSuchFile)
    }

    /// A fixed import time (2026-11-18), so the date window does not move with the clock.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let engine = try? OCREngine()

    func testEveryCorpusFileIsCovered() throws {
        let dir = try Self.corpus()
        let images = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.lowercased().hasSuffix(".jpg") })
        XCTAssertEqual(images, Set(Self.expected.map(\.file)), "every corpus image needs an expected outcome")
    }

    /// Each field scored as the importer would store it.
    static func score(_ f: ReceiptFields, _ e: Expected) -> [String: (Outcome, String)] {
        let sure = f.doubtful.isEmpty
        func outcome<V>(_ field: ReceiptFields.Field<V>?, _ want: String, _ show: (V) -> String) -> (Outcome, String) {
            guard let field else { return (want == "-" ? .right : .flagged, "nothing") }
            let got = show(field.value)
            let stored = field.confidence >= ReceiptFields.reviewThreshold && sure
            if want == "-" { return (stored ? .wrong : .flagged, got) }
            if !stored { return (.flagged, "\(got) (\(Int((field.confidence * 100).rounded()))%, review: \(f.doubtful.joined(separator: ", ")))") }
            return (got == want ? .right : .wrong, got)
        }
        var out: [String: (Outcome, String)] = [:]
        out["date"] = outcome(f.date, e.date) { $0.description }
        out["total"] = outcome(f.total, e.total) { $0.scaled(to: 2).map { DecimalNumber(mantissa: $0, scale: 2).description } ?? $0.description }
        // The currency is stored with every receipt: below `currencyDoubt` it sends the receipt to review.
        out["currency"] = f.currency.map { c in
            let stored = c.confidence >= ReceiptFields.currencyDoubt && sure
            return (!stored ? .flagged : c.value == e.currency ? .right : .wrong, "\(c.value) from \(f.currencySource?.rawValue ?? "-")")
        } ?? (.flagged, "nothing")
        out["volume"] = outcome(f.isFuel ? f.volume : nil, e.volume) { v in "\(v.amount) \(v.unit.rawValue)" }
        out["unit_price"] = outcome(f.isFuel ? f.unitPrice : nil, e.unitPrice) { $0.description }
        out["fuel"] = (f.isFuel == e.fuel ? .right : .wrong, f.isFuel ? "fuel" : f.category)
        return out
    }

    func testEachImageMeetsItsExpectedOutcome() throws {
        let dir = try Self.corpus()
        let engine = try XCTUnwrap(Self.engine)
        let extractor = ReceiptExtractor(defaultCurrency: "USD", now: Self.now)
        var table: [Outcome: Int] = [:]
        var bothRight = 0
        for e in Self.expected {
            let r = try OCRPipeline().read(contentsOf: dir.appendingPathComponent(e.file).path, engine: engine, judge: ReceiptReadingJudge(extractor: extractor))
            let f = extractor.extract(r)
            let s = Self.score(f, e)
            print(e.file + ": " + s.keys.sorted().map { "\($0) \(s[$0]!.1) [\(s[$0]!.0.rawValue)]" }.joined(separator: "; ")
                  + (f.locale.map { " | " + $0.summary } ?? ""))
            if s["date"]?.0 == .right, s["total"]?.0 == .right { bothRight += 1 }
            for (field, o) in s {
                table[o.0, default: 0] += 1
                XCTAssertNotEqual(o.0, .wrong, "\(e.file): \(field) stored wrong without a flag: read \(o.1), truth on the slip: \(e.reading)")
            }
            if e.notAReceipt {
                XCTAssertNotNil(f.notAReceipt, "\(e.file): a prepaid chit goes to review, its tax invoice bills the sale: \(f.doubtful)")
                // What is read is kept for the reviewer, and right: the date day first.
                XCTAssertEqual(f.date?.value.description, e.date, "\(e.file): the date kept for review")
            }
            for field in e.mustBeRight {
                XCTAssertEqual(s[field]?.0, .right, "\(e.file): \(field) must be stored right: read \(s[field]?.1 ?? "-"); the slip: \(e.reading)")
            }
        }
        print("real receipts: \(Self.expected.count) images, date and total both right on \(bothRight); fields right \(table[.right] ?? 0), flagged \(table[.flagged] ?? 0), wrong \(table[.wrong] ?? 0)")
    }
}
