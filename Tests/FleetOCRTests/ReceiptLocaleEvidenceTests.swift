import XCTest
import FleetCore
@testable import FleetOCR

/// The locale model's evidence beyond addresses and ids (docs/FORMATS.md, "Locale of a
/// receipt"): words several countries print, brands in the header, the countries added for
/// receipts from anywhere (Mexico, Brazil, Portugal, Korea), and the language each settles for
/// the second OCR reading. One fixture per failure mode; each expected value read off the text.
final class ReceiptLocaleEvidenceTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18

    func locale(_ text: String, fleet: String = "USD", zone: String? = nil) -> ReceiptLocale {
        let lines = text.split(separator: "\n").map { ReceiptPatterns.repair(String($0)) }
        return ReceiptLocale.decide(texts: lines, keys: lines.map(ReceiptPatterns.key), fleetCurrency: fleet, fleetZone: zone)
    }

    func extract(_ text: String, fleet: String = "USD") -> ReceiptFields {
        ReceiptExtractor(defaultCurrency: fleet, now: Self.now).extract(text: text)
    }

    /// Spanish words name Spain, Colombia and Mexico together: the day first and `spa` are
    /// settled, the currency is not, so a USD fleet's dollar is not stored as sure.
    func testSpanishWordsSettleTheLanguageNotTheCurrency() {
        let l = locale("TIENDA LA ESQUINA\nTOTAL A PAGAR 12.50\nEFECTIVO 20.00")
        XCTAssertEqual(Set(l.evidence.first?.countries ?? []), ["ES", "CO", "MX"])
        XCTAssertEqual(l.ocrLanguage.value, "spa")
        XCTAssertEqual(l.dayFirst.value, true)
        XCTAssertEqual(l.currency.source, .fleet, "the receipt settles no currency: only the fleet's is left")
        XCTAssertFalse(l.currency.contested, "one piece naming three currencies is no disagreement, only no answer")
        let f = extract("TIENDA LA ESQUINA\nFECHA 11/01/2025\nTOTAL A PAGAR 12.50\nEFECTIVO 20.00\nCAMBIO 7.50")
        XCTAssertEqual(f.currencySource, .fleet)
        XCTAssertLessThan(f.currency?.confidence ?? 1, ReceiptFields.currencyDoubt, "the slip points away from the fleet's USD")
        XCTAssertTrue(f.doubtful.contains { $0.hasPrefix("currency USD doubtful") }, f.doubtful.joined(separator: ", "))
        XCTAssertEqual(f.date?.value.description, "2025-01-11", "day first in every Spanish-speaking country")
    }

    /// Mexico: `$` is the peso and the decimal mark a point.
    func testAMexicanDollarSignIsAPeso() {
        let f = extract("GASOLINERA PEMEX 4521\nAV VALLARTA 3300 GUADALAJARA, JALISCO\nRFC: GPE010203AB1\nFECHA 11/01/2025 08:12\nMAGNA 40.00 L X $23.50\nTOTAL $940.00\nEFECTIVO $1,000.00\nCAMBIO $60.00")
        XCTAssertEqual(f.locale?.country, "MX")
        XCTAssertEqual(f.currency?.value, "MXN")
        XCTAssertEqual(f.currencySource, .printed)
        XCTAssertEqual(f.total?.value.description, "940.00")
        XCTAssertEqual(f.volume?.value.amount.description, "40.00")
        XCTAssertEqual(f.volume?.value.unit, .litre)
        XCTAssertEqual(f.date?.value.description, "2025-01-11")
        XCTAssertTrue(f.doubtful.isEmpty, f.doubtful.joined(separator: ", "))
        XCTAssertTrue(f.locale?.evidence.contains { $0.kind == "brand" && $0.text == "PEMEX" } ?? false)
    }

    /// Brazil: `R$` is the real (not a dollar), `1.234,56` groups with points.
    func testBrazilianReais() {
        let f = extract("POSTO IPIRANGA CENTRO\nCNPJ 12.345.678/0001-90\n05/03/2025 14:20\nGASOLINA COMUM 20,000 L X 6,290\nTOTAL R$ 125,80\nDINHEIRO R$ 130,00\nTROCO R$ 4,20")
        XCTAssertEqual(f.locale?.country, "BR")
        XCTAssertEqual(f.currency?.value, "BRL")
        XCTAssertEqual(f.total?.value.description, "125.80")
        XCTAssertEqual(f.date?.value.description, "2025-03-05")
        XCTAssertEqual(f.locale?.ocrLanguage.value, "por")
    }

    /// A brand in the header names its countries; a global brand names none, and a brand in the
    /// footer (a loyalty card) is no evidence.
    func testABrandInTheHeaderNamesItsCountry() {
        XCTAssertEqual(locale("PETRONAS KAJANG\nTOTAL 50.00").country, "MY")
        XCTAssertEqual(locale("PETRONAS KAJANG\nTOTAL 50.00").currency.value, "MYR")
        XCTAssertTrue(locale("SHELL STATION 22\nTOTAL 50.00").evidence.isEmpty, "Shell is sold everywhere")
        let orlen = locale("ORLEN STACJA 123\nTOTAL 50.00")
        XCTAssertEqual(Set(orlen.evidence.first?.countries ?? []), ["PL", "LT"])
        XCTAssertEqual(orlen.currency.source, .fleet, "PLN or EUR: not settled by the brand")
        let footer = locale("GAS STOP\n1\n2\n3\n4\n5\n6\n7\n8\nEARN PETRONAS MESRA POINTS")
        XCTAssertFalse(footer.evidence.contains { $0.kind == "brand" }, "only the header's brand counts")
    }

    /// Korea: `₩` marks won, which have no minor unit.
    func testWonHaveNoMinorUnit() {
        let f = extract("GS칼텍스 서울\n2025-03-14 10:02\n합계 ₩55,000\n카드 55,000")
        XCTAssertEqual(f.currency?.value, "KRW")
        XCTAssertEqual(f.total?.value.description, "55000")
    }

    /// The language of the second OCR reading (`ReceiptReadingJudge.languages(for:)`): OSD's
    /// script first, then the country's language; none for an English-speaking country or when
    /// the evidence disagrees.
    func testTheJudgeNamesTheLanguageToReadAgainIn() {
        let judge = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: "USD", now: Self.now))
        func reading(_ text: String, script: String? = nil) -> OCRResult {
            var r = OCRResult(lines: text.split(separator: "\n").map { OCRResult.Line(words: $0.split(separator: " ").map { .init(text: String($0), confidence: 90) }) },
                              meanConfidence: 90)
            r.script = script
            return r
        }
        XCTAssertEqual(judge.languages(for: reading("PENNY MARKT GMBH\nSUMME EUR 5,03")), ["deu"])
        XCTAssertEqual(judge.languages(for: reading("KEDAI\nJALAN SS2 SELANGOR\nJUMLAH RM 5.00")), ["msa"])
        XCTAssertEqual(judge.languages(for: reading("GAS STOP\nJOLIET IL 60435\nTOTAL $5.00")), [])
        XCTAssertEqual(judge.languages(for: reading("GAS STOP\nTOTAL 5.00")), [], "a USD fleet's country reads English")
        XCTAssertEqual(judge.languages(for: reading("H 1 2 3\n1,234", script: "Japanese")), ["jpn"], "the script when the English reading gives no words")
        XCTAssertEqual(judge.languages(for: reading("SHOP\nJOLIET IL 60435\nSUMME 12,50")), [], "evidence of two countries: no language guessed")
        XCTAssertEqual(judge.languages(for: reading("BHPETROL PALEKBANG\nKELANTAN\nPREPAY CHIT THIS IS NOT A RECEIPT\n24-03-2018\nItem U\\Price Qnty Amount\nPPF P1 1.000 6 6.00\nTOTAL AMOUNT\nCASH RM 6.00")), [],
                       "total and date sure, only the chit's own words send it to review: no reading mends that")
        let eurFleet = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: "EUR", now: Self.now, fleetZone: "Europe/Berlin"))
        XCTAssertEqual(eurFleet.languages(for: reading("SHOP\nTOTAL 5,00")), ["deu"], "no evidence on the slip: the fleet's country")
    }

    /// Every language a country names, but Korean, is installed by `make deps` (the Makefile's
    /// DEBIAN_PACKAGES); so is every model on the machine the tests run on.
    func testMakeDepsInstallsEveryCountrysLanguage() throws {
        let makefile = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Makefile"), encoding: .utf8)
        let lines = makefile.split(separator: "\n")
        let listed = Set((lines.first { $0.hasPrefix("OCR_LANGUAGES :=") } ?? "").split(separator: " ").dropFirst(2).map(String.init))
        XCTAssertTrue(lines.contains { $0.hasPrefix("DEBIAN_PACKAGES :=") && $0.contains("$(addprefix tesseract-ocr-,$(OCR_LANGUAGES))") })
        let languages = Set(ReceiptCountry.all.map(\.ocrLanguage)).subtracting(["eng", "kor"])
        XCTAssertEqual(listed, languages, "OCR_LANGUAGES in the Makefile: the languages of the table's countries, no more")
        let engine = try OCREngine()
        XCTAssertTrue(languages.isSubset(of: engine.availableLanguages), "installed: \(engine.availableLanguages.sorted())")
    }
}
