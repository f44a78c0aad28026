import XCTest
import FleetCore
@testable import FleetOCR

/// The locale model of receipts (`ReceiptLocale`, `ReceiptCountry`): the country from the slip's
/// own evidence, then the fleet's settings; what it settles (currency, `$`, decimal mark, date
/// order, fuel unit); and a disagreement flagged, never guessed.
final class ReceiptLocaleTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18

    func locale(_ text: String, fleet: String = "USD", zone: String? = nil) -> ReceiptLocale {
        let lines = text.split(separator: "\n").map { ReceiptPatterns.repair(String($0)) }
        return ReceiptLocale.decide(texts: lines, keys: lines.map(ReceiptPatterns.key), fleetCurrency: fleet, fleetZone: zone)
    }

    func extract(_ text: String, fleet: String = "USD", zone: String? = nil) -> ReceiptFields {
        ReceiptExtractor(defaultCurrency: fleet, now: Self.now, fleetZone: zone).extract(text: text)
    }

    func testEachKindOfMalaysianEvidenceNamesMalaysia() {
        for text in ["LOT 2685 JLN GENTING KLANG", "43000 KAJANG, SELANGOR", "Tel: +603-3362 4137", "Telephone : 03-90805318",
                     "CO. REG. NO: 000948487-V", "SANYU SUPPLY SDN BHD", "TERIMA KASIH SILA DATANG LAGI", "TOTAL RM 41.95"] {
            let l = locale("SHOP\n" + text)
            XCTAssertEqual(l.country, "MY", text)
            XCTAssertEqual(l.currency.value, "MYR", text)
            XCTAssertEqual(l.currency.source, .receipt, text)
            XCTAssertEqual(l.dayFirst.value, true, text)
            XCTAssertFalse(l.evidence.isEmpty, text)
        }
        // A 12-digit GST number is Malaysia's shape, and Singapore's slips print GST too: it
        // settles what the two share (day first), not the currency.
        let gst = locale("SHOP\nGST REG NO: 000768122880")
        XCTAssertEqual(gst.evidence.first?.countries, ["MY", "SG"])
        XCTAssertEqual(gst.dayFirst.value, true)
        XCTAssertEqual(gst.currency.source, .fleet)
    }

    func testTheFleetSettingsCountOnlyWhenTheSlipNamesNoCountry() {
        let none = locale("SHOP\nTOTAL 12.50", fleet: "USD")
        XCTAssertNil(none.country)
        XCTAssertEqual(none.dayFirst.value, false)
        XCTAssertEqual(none.dayFirst.source, .fleet)
        XCTAssertEqual(locale("SHOP\nTOTAL 12.50", fleet: "EUR", zone: "Asia/Kuala_Lumpur").dayFirst.value, true, "the euro countries all write the day first")
        XCTAssertEqual(locale("SHOP\nTOTAL 12.50", fleet: "CHF", zone: "America/Bogota").currency.value, "COP")
        let slip = locale("SHOP\n43000 KAJANG, SELANGOR\nTOTAL 12.50", fleet: "USD", zone: "America/Chicago")
        XCTAssertEqual(slip.currency.value, "MYR")
        XCTAssertEqual(slip.dayFirst.source, .receipt)
    }

    func testEvidenceOfTwoCountriesContestsWhatTheyDisagreeOn() {
        let l = locale("SHOP\nJALAN PERUSAHAAN, SELANGOR\nSUMME 12,50")
        XCTAssertTrue(l.currency.contested)
        XCTAssertNil(l.currency.value)
        XCTAssertFalse(l.dayFirst.contested, "Malaysia and Germany both write the day first")
        XCTAssertEqual(l.dayFirst.value, true)
        let us = locale("SHOP\nJOLIET IL 60435\nSUMME 12,50")
        XCTAssertTrue(us.dayFirst.contested)
        let f = extract("SHOP\nJOLIET IL 60435\nSUMME 12,50\n03/04/2025")
        XCTAssertLessThan(f.date?.confidence ?? 1, ReceiptFields.reviewThreshold, "the order is not guessed")
        XCTAssertTrue(f.doubtful.contains { $0.hasPrefix("currency") }, f.doubtful.joined(separator: ", "))
    }

    func testDayFirstFollowsTheCountryNotTheFleetCurrency() {
        let my = extract("KEDAI MAJU\nJALAN SS2/24 PETALING JAYA, SELANGOR\nDATE: 11/01/2019\nTOTAL 12.60\nCASH 20.00\nCHANGE 7.40")
        XCTAssertEqual(my.date?.value.description, "2019-01-11")
        XCTAssertEqual(my.currency?.value, "MYR")
        let us = extract("GAS STOP\nJOLIET IL 60435\nDATE: 11/01/2019\nTOTAL 12.60\nCASH 20.00\nCHANGE 7.40", fleet: "EUR")
        XCTAssertEqual(us.date?.value.description, "2019-11-01")
    }

    func testNumbersAreGroupedByTheCountrysDecimalMark() {
        func money(_ text: String, _ mark: Character, minor: Int = 2) -> String {
            ReceiptNumber.all(in: text).first.map { $0.settled(decimalMark: mark) }?.money(minorDigits: minor)?.description ?? "-"
        }
        XCTAssertEqual(money("90.300", ",", minor: 0), "90300", "Colombian pesos")
        XCTAssertEqual(money("1,000", "."), "1000", "a thousand ringgit")
        XCTAssertEqual(money("2.450", "."), "-", "a price per litre is no money amount with cents")
        XCTAssertEqual(ReceiptNumber.all(in: "2.450").first?.settled(decimalMark: ".").value.description, "2.450")
        XCTAssertEqual(ReceiptNumber.all(in: "1,688").first?.settled(decimalMark: ",").value.description, "1.688")
        XCTAssertEqual(money("1,759", ".", minor: 0), "1759", "yen")
        for text in ["1.234,56", "1,234.56", "1 234,56"] {
            for mark: Character in [".", ","] { XCTAssertEqual(money(text, mark), "1234.56", "\(text) with \(mark)") }
        }
        XCTAssertEqual(money("90.300,00", ",", minor: 0), "90300", "zero cents printed on a currency printed without them")
    }

    func testIndianLakhsIndonesianRupiahAndMoroccanDirhams() {
        func parsed(_ text: String) -> String { ReceiptNumber.parse(text).map { $0.value.description } ?? "-" }
        XCTAssertEqual(parsed("1,23,456"), "123456", "lakhs")
        XCTAssertEqual(parsed("12,34,567"), "1234567", "ten lakhs")
        XCTAssertEqual(parsed("1,00,00,000"), "10000000", "a crore")
        XCTAssertEqual(parsed("1,23,456.78"), "123456.78")
        for bad in ["1,2,345", "123,45,678", "1.23.456", "1,23,45"] { XCTAssertEqual(parsed(bad), "-", bad) }
        // The marks in the case they are printed in; a lower-case word is no currency.
        XCTAssertEqual(ReceiptCurrency.printed(in: "TOTAL Rp 200.000"), ["IDR"])
        XCTAssertEqual(ReceiptCurrency.printed(in: "Harga Rp. 10.000"), ["IDR"])
        XCTAssertEqual(ReceiptCurrency.printed(in: "GRAND TOTAL Rs. 1,54,285"), ["INR"])
        XCTAssertEqual(ReceiptCurrency.printed(in: "TOTAL TTC 500,00 DH"), ["MAD"])
        XCTAssertEqual(ReceiptCurrency.printed(in: "rp 200.000"), [])
        // Words two countries print settle what they share, not the currency.
        let malay = locale("KEDAI\nJUMLAH 12.50")
        XCTAssertEqual(malay.dayFirst.value, true)
        XCTAssertEqual(malay.currency.source, .fleet)
        let french = locale("STATION\nNET A PAYER 12,50")
        XCTAssertEqual(french.decimalMark.value, ",")
        XCTAssertEqual(french.ocrLanguage.value, "fra")
        XCTAssertEqual(french.currency.source, .fleet)
        XCTAssertEqual(locale("STATION\nCASABLANCA\nNET A PAYER 12,50").currency.value, "MAD")
        XCTAssertEqual(locale("STATION\nSPBU 34.401.12\nJUMLAH 12.500").currency.value, "IDR")
        XCTAssertEqual(locale("STATION\nSPBU 34.401.12").ocrLanguage.value, "ind")
        // Rupiah without a mark, on a slip Indonesia's words settle: the dot groups thousands.
        let f = extract("SPBU 34.401.12\nJAKARTA\n12/03/2024 14:22\nPERTALITE\nVolume 20,00 L\nHarga/Liter 10.000\nTOTAL 200.000\nTUNAI 200.000")
        XCTAssertEqual(f.currency?.value, "IDR")
        XCTAssertEqual(f.total?.value.description, "200000")
        XCTAssertEqual(f.date?.value.description, "2024-03-12")
    }

    func testPesosWithDollarSignAndGallons() {
        let f = extract("ESTACION LA 80\nCRA 80 # 34-21 MEDELLIN\nFECHA: 11/01/2025\nGASOLINA CORRIENTE\nGALONES 6.000\nPRECIO/GAL $15.050\nTOTAL $90.300\nEFECTIVO $100.000\nCAMBIO $9.700")
        XCTAssertEqual(f.currency?.value, "COP")
        XCTAssertEqual(f.total?.value.description, "90300")
        XCTAssertEqual(f.volume?.value.unit, .usGallon)
        XCTAssertEqual(f.volume?.value.amount.description, "6.000")
        XCTAssertEqual(f.unitPrice?.value.description, "15050")
        XCTAssertEqual(f.date?.value.description, "2025-01-11")
        XCTAssertTrue(f.doubtful.isEmpty, f.doubtful.joined(separator: ", "))
        XCTAssertEqual(f.volume.map { ($0.value.millilitres / 1000 * 1000).rounded() / 1000 }, 22.712, "6 US gallons stored as 22.712 litres")
    }

    func testAPumpTableRowIsAPriceAndAVolume() {
        let f = extract("BHPETROL SUBANG\n47200 SUBANG SELANGOR\n18-01-2018 15:44:46\nItem U\\Price Qnty Amount\ninfiniti 97 E4MP3 2.570 16.32 41.95 S\nTOTAL SALES RM 41.95\nEDC MASTER RM 41.95")
        XCTAssertTrue(f.isFuel)
        XCTAssertEqual(f.volume?.value.amount.description, "16.32")
        XCTAssertEqual(f.unitPrice?.value.description, "2.570")
        let shop = extract("S&Y STATIONERY\nSELANGOR\nCode Qty U/Price Total (MYR)\nMFF350 50 1.60 80.00 SR\nTotal Amount Payable : 80.00\nCash Received : 100.00\nChange : 20.00")
        XCTAssertFalse(shop.isFuel, "a shop's row prices in cents")
        let chit = extract("BHPETROL PALEKBANG\nKELANTAN\n24-03-2018\nItem U\\Price Qnty Amount\nPPF P1 1.000 6 6.00\nTOTAL AMOUNT\nCASH RM 6.00")
        XCTAssertNil(chit.volume, "a prepaid chit counts ringgit, not litres")
        XCTAssertEqual(chit.total?.value.description, "6.00", "the amount paid under TOTAL AMOUNT, with no change given")
        XCTAssertTrue(chit.doubtful.isEmpty, chit.doubtful.joined(separator: ", "))
    }

    func testATotalIncludingTaxIsATotal() {
        let f = extract("TEALIVE\nSELANGOR\n21/01/2018\nTotal Sales Incl GST @ 6% RM 8.60\nCash 9.00\nChange 0.40")
        XCTAssertEqual(f.total?.value.description, "8.60")
        XCTAssertGreaterThanOrEqual(f.total?.confidence ?? 0, ReceiptFields.reviewThreshold)
        XCTAssertNil(extract("SHOP\n21/01/2018\nGST 6% 0.48\n").total, "a line about the tax itself is no total")
    }

    /// `RM 8 60`: a thermal slip's faint decimal dot lost between a currency mark's amount and its
    /// cents (the Tealive slip of the SROIE corpus); tendered − change confirms 8.60.
    func testADecimalDotLostAfterACurrencyMark() {
        XCTAssertEqual(ReceiptPatterns.repair("Total Sales Incl GST@6% RM 8 60"), "Total Sales Incl GST@6% RM 8.60")
        XCTAssertEqual(ReceiptPatterns.repair("ITEM 12 50"), "ITEM 12 50", "no currency mark: two numbers")
        XCTAssertEqual(ReceiptPatterns.repair("FORM 8 60"), "FORM 8 60", "RM inside a word is no ringgit")
        let f = extract("TEALIVE\nSELANGOR\n21/01/2018\nTotal Sales Incl GST@6% RM 8 60\nCash 8.60\nTendered 9.00\nChange 0.40")
        XCTAssertEqual(f.total?.value.description, "8.60")
        XCTAssertTrue(f.doubtful.isEmpty, f.doubtful.joined(separator: ", "))
    }
}
