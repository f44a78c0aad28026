import XCTest
import FleetCore
@testable import FleetOCR

/// Totals whose own line OCR damaged, recovered only where a second printed line agrees; the
/// OCR texts are those of the benchmark's scans (`make bench` row 7) and the real German scans.
final class ReceiptTotalRecoveryTests: XCTestCase {
    let extractor = ReceiptExtractor(defaultCurrency: "USD")

    func total(_ f: ReceiptFields) -> String? { f.total.map { "\($0.value)" } }

    /// `TOTAL £1910`: the decimal mark lost; a line below prints `£19.10`.
    func testATotalWithoutItsDecimalMarkTakesTheAmountWithTheSameDigits() {
        let f = extractor.extract(text: """
            THE RED LION
            4 High Street
            Oxford OX1 4AA
            06/01/2026 17:10
            SANDWICH £4.75
            TEA £2.40
            BURGER £195
            TOTAL £1910
            NLGR, FXt* RENTS TGCS £19.10
            VAT @ 20% incl. £3.18
            THANK YOU
            """)
        XCTAssertEqual(total(f), "19.10")
        XCTAssertEqual(f.totalCheck, .sameDigits)
        XCTAssertGreaterThanOrEqual(f.total!.confidence, ReceiptFields.reviewThreshold)
    }

    /// Without another line with those digits the bare total stays doubtful.
    func testABareTotalNoOtherLineShowsStaysDoubtful() {
        let f = extractor.extract(text: """
            THE RED LION
            06/01/2026 17:10
            SANDWICH £4.75
            TOTAL £1910
            THANK YOU
            """)
        XCTAssertEqual(total(f), "1910")
        XCTAssertNil(f.totalCheck)
        XCTAssertLessThan(f.total!.confidence, ReceiptFields.reviewThreshold)
    }

    /// `TOTAL S 99.8)`: the last digit lost; the card line shows `$ 99.81`. An item line that
    /// merely starts with the same digits does not count (only a payment line continues them).
    func testATotalMissingItsLastDigitTakesThePaymentLineAmount() {
        let f = extractor.extract(text: """
            PILOT TRAVEL CENTER #318
            04/25/2024 08:21
            TOTAL S 99.8)
            VISA ************9363 $ 99.81
            """)
        XCTAssertEqual(total(f), "99.81")
        XCTAssertEqual(f.totalCheck, .sameDigits)
        let item = extractor.extract(text: """
            PILOT TRAVEL CENTER #318
            04/25/2024 08:21
            COFFEE 99.85
            TOTAL S 99.8)
            """)
        XCTAssertLessThan(item.total?.confidence ?? 0, ReceiptFields.reviewThreshold)
        XCTAssertNotEqual(item.totalCheck, .sameDigits)
    }

    /// Kaiser's: no total keyword, the gross printed as `Zwischensumme`, cash given and change below.
    func testASubtotalThatTenderedMinusChangeConfirmsIsTheTotal() {
        let f = extractor.extract(text: """
            Kaiser's Tengelmann GmbH
            ESSIG 2 0,45
            ~- Zwischensumme EUR 15,95
            EURO 20,00
            Rueckgeld EUR 4,05
            Dat.31.08.2015 Zeit19:22:02
            """)
        XCTAssertEqual(total(f), "15.95")
        XCTAssertEqual(f.totalCheck, .tenderedMinusChange)
        XCTAssertGreaterThanOrEqual(f.total!.confidence, ReceiptFields.reviewThreshold)
        // A US subtotal before tax is no total: nothing gives it as paid.
        let us = extractor.extract(text: """
            SUBTOTAL 15.95
            TAX 1.20
            CHANGE 0.00
            """)
        XCTAssertNil(us.total)
    }

    /// dm: `SUMMWE` (a letter too many) and a tax row whose gross was misread (`505`).
    func testAMisreadSumWordConfirmedByTheTaxRowsNetAndTax() {
        let f = extractor.extract(text: """
            dm a arene markt
            11.12.2014 11:05 0761/2 145462/5 5030
            essence compact powder 04 2,1 50a
            SUMMWE 5,85
            BAR EUR - 10,00
            RUckgeld EUR a5
            MwSt-Satz Brutto Netto MwSt
            1=19,00 505 4,92 0,93
            """)
        XCTAssertEqual(total(f), "5.85")
        XCTAssertEqual(f.totalCheck, .netPlusTax)
        XCTAssertEqual(f.currency?.value, "EUR")
    }

    func testOneInsertedLetterResemblesAWordButNotOneAddedAtTheEnd() {
        XCTAssertTrue(ReceiptPatterns.resembles("SUMMWE 5,85", "SUMME"))
        XCTAssertFalse(ReceiptPatterns.resembles("SUMMER SALE", "SUMME"))
        XCTAssertFalse(ReceiptPatterns.resembles("XSUMME", "SUMME"))
    }
}

/// Categories from the words a country's slips print for the same things.
final class ReceiptCategoryWordsTests: XCTestCase {
    func testGermanPartsCompoundsMakeAPartsSlip() {
        let f = ReceiptExtractor(defaultCurrency: "EUR").extract(text: """
            Werkstattbedarf Meyer
            Datum 11.03.2026 10:53
            Ölfilter 14,90 A
            Bremsbeläge 59,90 A
            SUMME EUR 74,80
            """)
        XCTAssertEqual(f.category, "parts")
        let food = ReceiptExtractor(defaultCurrency: "EUR").extract(text: """
            Cafe Meyer
            Datum 11.03.2026 10:53
            Kaffee 2,90 A
            SUMME EUR 2,90
            """)
        XCTAssertEqual(food.category, "other")
    }
}
