import XCTest
import FleetCore
@testable import FleetOCR

/// Classes of OCR damage seen on scans (the benchmark's generated 200 and 300 dpi scans and the
/// real German supermarket scans), each read only where a second printed source confirms it;
/// the texts are those OCR produced. Each rule has a negative case: without the second source
/// the value stays doubtful or empty.
final class ReceiptScanDamageTests: XCTestCase {
    let extractor = ReceiptExtractor(defaultCurrency: "USD", now: Date(timeIntervalSince1970: 1_790_000_000))

    // MARK: - Merchant

    /// The dm slip: the name is read as logo noise at a low word confidence, and no item above
    /// the total keeps its cents, so a header search to the first amount ran into the items and
    /// stored `essence colour&go nailpol.` as the merchant. The date line ends the header; a
    /// name below the review threshold is not stored.
    func testTheHeaderEndsAtTheDateAndAnUnsureNameIsNotStored() {
        let lines: [(text: String, confidence: Double)] = [
            ("dm a arene markt", 45), ("es, Bilker Allee 43", 60), ("a 40219 Disseldorf", 70), ("HieR Kaue ich ES 0211/3398863", 75),
            ("11.12.2014 11:05 0761/2 145462/5 5030", 90), (": EUR", 60),
            ("essence colour&éga nailpol. 152 55a", 85), ("essence colour&go nailpol. 189 le55e\"1", 88),
            ("essence compact powder 04 2,1 50a", 85), ("SUMMWE 5,85", 80), ("BAR EUR - 10,00", 85), ("RUckgeld EUR a5", 70),
            ("MwSt-Satz Brutto Netto MwSt", 85), ("1=19,00 505 4,92 0,93", 80),
        ]
        let f = extractor.extract(lines: lines)
        XCTAssertNil(f.merchant, "read \(f.merchant?.value ?? "")")
        XCTAssertTrue(f.notes.contains { $0.hasPrefix("merchant not stored") }, "\(f.notes)")
        // The same header read clearly is the merchant.
        var clear = lines
        clear[0] = ("dm-drogerie markt", 90)
        XCTAssertEqual(extractor.extract(lines: clear).merchant?.value, "dm-drogerie markt")
    }

    /// A postcode or phone line is no name, even read with certainty.
    func testAPostcodeOrPhoneLineIsNoName() {
        XCTAssertLessThan(ReceiptMerchant.quality("a 40219 Disseldorf"), ReceiptFields.reviewThreshold)
        XCTAssertLessThan(ReceiptMerchant.quality("HieR Kaue ich ES 0211/3398863"), ReceiptFields.reviewThreshold)
        XCTAssertGreaterThanOrEqual(ReceiptMerchant.quality("PILOT TRAVEL CENTER #318"), ReceiptFields.reviewThreshold)
        XCTAssertGreaterThanOrEqual(ReceiptMerchant.quality("Kaiser's Tengelmann GmbH"), ReceiptFields.reviewThreshold)
    }

    /// `VINCI] AUTOROUTES` (a 300 dpi scan): the bracket glued to the word made the line noise,
    /// and the toll station's name below it was stored as the merchant.
    func testABracketGluedToAWordIsTrimmed() {
        let f = extractor.extract(text: """
            VINCI] AUTOROUTES
            PEAGE DE VILLEFRANCHE
            GARE 2541
            Date 10/05/2025 06:03
            Classe 2 PEAGE 7,40 EUR
            TOTAL TTC 7,40 EUR
            """)
        XCTAssertEqual(f.merchant?.value, "VINCI AUTOROUTES")
    }

    // MARK: - Total

    /// `TOTAL S$ 73-58` (a 300 dpi scan): the decimal mark read as a dash, the total taken as
    /// `58`. `73.58` is what the line shows once the dash is read as the mark, and the card line
    /// (`$ 73.58`) and subtotal plus tax confirm it; `S$` (a doubled dollar sign) ties with `$`
    /// and the US address settles the currency.
    func testADashForTheDecimalMarkIsReadWhenASecondLineConfirmsIt() {
        let f = extractor.extract(text: """
            NAPA AUTO PARTS
            900 COMMERCE DR
            NAPERVILLE IL 60563
            01/21/2023 14:02
            WIPER BLADE 22IN 18.99
            AIR FILTER 21.49
            MOTOR OIL 5W30 5QT 27.49
            SUBTOTAL 67.97
            TAX 8.25 5.61
            TOTAL S$ 73-58
            VISA. So OLS 7, $ 73.58
            THANK YOU FOR SHOPPING
            """)
        XCTAssertEqual(f.total?.value.description, "73.58")
        XCTAssertNotNil(f.totalCheck)
        XCTAssertGreaterThanOrEqual(f.total!.confidence, ReceiptFields.reviewThreshold)
        XCTAssertEqual(f.currency?.value, "USD")
    }

    /// Nothing else prints 73.58: the dashed amount is not taken and the total stays doubtful.
    func testADashedAmountNoOtherLineConfirmsStaysDoubtful() {
        let f = extractor.extract(text: """
            NAPA AUTO PARTS
            900 COMMERCE DR
            NAPERVILLE IL 60563
            01/21/2023 14:02
            TOTAL $ 73-58
            THANK YOU FOR SHOPPING
            """)
        XCTAssertNotEqual(f.total?.value.description, "73.58")
        XCTAssertLessThan(f.total?.confidence ?? 0, ReceiptFields.reviewThreshold)
    }

    // MARK: - Volume

    /// `57,45 1X 1,725 EUR/L` (a 300 dpi scan): the litre sign read as `1` and glued to the
    /// multiplication sign, so no volume was read and the fuel receipt went to review although
    /// its total was confirmed. The volume is read, and 57,45 × 1,725 = 99,10 confirms it.
    func testALitreSignGluedToTheTimesSignStillMarksTheVolume() {
        let f = extractor.extract(text: """
            JET Tankstelle
            Saule 4 Super E10
            57,45 1X 1,725 EUR/L
            99,10 A
            SUMME EUR 99,10
            Geg. BAR EUR 100,00
            RUckgeld EUR 0,90
            Dat.18.06.2023 Zeit 11:26
            """)
        XCTAssertEqual(f.volume?.value.amount.description, "57.45")
        XCTAssertEqual(f.volume?.value.unit, .litre)
        XCTAssertEqual(f.totalCheck, .priceTimesVolume)
        XCTAssertGreaterThanOrEqual(f.volume!.confidence, ReceiptFields.reviewThreshold)
        XCTAssertTrue(f.doubtful.isEmpty, "\(f.doubtful)")
    }

    /// Where price × volume does not give the total (`51,45 1X 1,725`: a digit misread), the
    /// volume is kept as read and doubtful; on a line without a price per litre (`0,99 1x 0,99`
    /// on a grocery slip) `1x` is a quantity, and nothing makes the slip a fuel sale.
    func testAGluedLitreSignUnconfirmedOrWithoutAPricePerLitreIsNoSureVolume() {
        let misread = extractor.extract(text: """
            JET Tankstelle
            Saule 4 Super E10
            51,45 1X 1,725 EUR/L
            SUMME EUR 99,10
            Dat.18.06.2023 Zeit 11:26
            """)
        XCTAssertLessThan(misread.volume?.confidence ?? 0, ReceiptFields.reviewThreshold)
        XCTAssertFalse(misread.doubtful.isEmpty)
        let grocery = extractor.extract(text: """
            REWE Markt GmbH
            MILCH 0,99 1x 0,99
            SUMME EUR 0,99
            BAR EUR 0,99
            04.12.2014
            """)
        XCTAssertFalse(grocery.isFuel)
        XCTAssertNil(grocery.volume)
    }

    // MARK: - Date

    /// A date read at a low word confidence is confirmed when another line prints the same date
    /// (the dm slip prints it at its head and foot) and no other date disagrees.
    func testADatePrintedTwiceIsSureAtALowConfidence() {
        let lines: [(text: String, confidence: Double)] = [
            ("dm-drogerie markt", 90), ("11.12.2014 11:05 0761/2 145462/5 5030", 30), ("SUMME 5,85", 90), ("BAR 10,00", 90),
            ("11.12.2014 11:05 0761/2 145462/5 5030", 30),
        ]
        let f = extractor.extract(lines: lines)
        XCTAssertEqual(f.date?.value.description, "2014-12-11")
        XCTAssertGreaterThanOrEqual(f.date!.confidence, ReceiptFields.reviewThreshold)
    }

    /// Printed once (`06.06.2015` read at a word confidence under 20), or contradicted by another
    /// date, it stays doubtful: a time beside it confirms no digit of the date.
    func testADatePrintedOnceOrContradictedAtALowConfidenceStaysDoubtful() {
        let once = extractor.extract(lines: [("PENNY-MARKT GmbH", 90), ("SUMME EUR 5,03", 90), ("06.06.2015 21:45 Bon-Nr. 636)", 30)])
        XCTAssertEqual(once.date?.value.description, "2015-06-06")
        XCTAssertLessThan(once.date!.confidence, ReceiptFields.reviewThreshold)
        let contradicted = extractor.extract(lines: [("PENNY-MARKT GmbH", 90), ("06.06.2015 21:45", 30), ("SUMME EUR 5,03", 90),
                                                     ("06.06.2015 21:45", 30), ("08.06.2015", 30)])
        XCTAssertLessThan(contradicted.date!.confidence, ReceiptFields.reviewThreshold)
    }
}
