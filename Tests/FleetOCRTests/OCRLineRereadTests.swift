import XCTest
import FleetCore
import CLeptonica
@testable import FleetOCR

/// A line the page reading lost is read again alone, cut out of the image
/// (`OCRPipeline.Options.rereadLines`), and kept only when the receipt judge prefers it. On the
/// real German scans of `../shared/realdata/receipts` (transcribed by hand in
/// scripts/receipts/realdata-truth.json) the page reading lost a total and bent a date.
final class OCRLineRereadTests: XCTestCase {
    static let engine = try? OCREngine()

    /// A real scan in `shared/realdata/receipts` in the nearest folder above the package root
    /// (`RealDataReceiptTests.corpus`: beside a checkout, or above a worktree); a missing corpus fails.
    static func realScan(_ name: String) throws -> String {
        let path = try RealDataReceiptTests.corpus().appendingPathComponent("de-supermarket__receipt-parser-legacy_\(name).jpg").path
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("The real-data corpus is missing: expected \(path) (../shared/realdata/receipts beside the package root). This test does not skip.")
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return path
    }

    let extractor = ReceiptExtractor(defaultCurrency: "EUR")

    func read(_ name: String, rereads: Bool) throws -> (reading: OCRResult, fields: ReceiptFields) {
        let engine = try XCTUnwrap(Self.engine)
        var options = OCRPipeline.Options()
        options.rereadLines = rereads
        // The rereads alone: the second reading in German (`secondLanguage`) is tested by OCRLanguagePassTests.
        options.secondLanguage = false
        let r = try OCRPipeline(options: options).read(contentsOf: try Self.realScan(name), engine: engine, judge: ReceiptReadingJudge(extractor: extractor))
        return (r, extractor.extract(r))
    }

    /// IMG0004 (real,- Düsseldorf, 9,31 EUR): the page reading gives `SUMME EUR oaSl`; the line
    /// alone gives 9,31, which cash tendered minus change (10,01 − 0,70) confirms.
    func testATotalThePageReadingLostIsReadFromItsLineAlone() throws {
        let page = try read("IMG0004", rereads: false)
        XCTAssertNotEqual(page.fields.total?.value.description, "9.31", page.reading.text)
        XCTAssertFalse(page.fields.doubtful.isEmpty)
        XCTAssertFalse(page.reading.lines.contains(where: \.reread))

        let lines = try read("IMG0004", rereads: true)
        XCTAssertEqual(lines.fields.total?.value.description, "9.31", lines.reading.text)
        XCTAssertEqual(lines.fields.totalCheck, .tenderedMinusChange)
        XCTAssertEqual(lines.fields.date?.value, CivilDate(year: 2015, month: 9, day: 5))
        XCTAssertEqual(lines.fields.doubtful, [])
        XCTAssertTrue(lines.reading.lines.contains { $0.reread && $0.text.contains("SUMME") })
        // Only the line was replaced: the reading has as many lines, the others as they were.
        XCTAssertEqual(lines.reading.lines.count, page.reading.lines.count)
        XCTAssertEqual(lines.reading.lines.filter { !$0.reread }.map(\.text), page.reading.lines.enumerated().filter { !lines.reading.lines[$0.offset].reread }.map(\.element.text))
    }

    /// IMG0007 (PENNY, 06.06.2015): the page reading bends the date (`06.00.2015`, no date) or
    /// reads it with words it is unsure of; the line alone reads it surely.
    func testABentDateIsReadFromItsLineAlone() throws {
        let page = try read("IMG0007", rereads: false)
        XCTAssertLessThan(page.fields.date?.confidence ?? 0, ReceiptFields.reviewThreshold, page.reading.text)
        let lines = try read("IMG0007", rereads: true)
        XCTAssertEqual(lines.fields.date?.value, CivilDate(year: 2015, month: 6, day: 6), lines.reading.text)
        XCTAssertEqual(lines.fields.total?.value.description, "5.03")
        XCTAssertEqual(lines.fields.doubtful, [])
    }

    /// A receipt read clean and confirmed names no line; a settled reading is never reread.
    func testASettledReadingNamesNoLine() throws {
        let page = try read("IMG0001", rereads: true)
        XCTAssertEqual(page.fields.doubtful, [], page.reading.text)
        XCTAssertFalse(page.reading.lines.contains(where: \.reread))
        XCTAssertEqual(extractor.linesToReread(page.reading), [])
    }

    /// A judge that names the lines it is given and prefers what `prefer` says.
    struct Naming: OCRReadingJudge {
        var named: [Int]
        var prefer: Bool
        func isSettled(_ reading: OCRResult) -> Bool { false }
        func prefers(_ a: OCRResult, over b: OCRResult) -> Bool { prefer }
        func linesToReread(_ reading: OCRResult) -> [Int] { named }
    }

    /// A reread line replaces the page's line only when the judge prefers the reading with it;
    /// the other lines, their boxes and the line count stay; a name out of range is ignored.
    func testARereadLineIsKeptOnlyWhenTheJudgePrefersIt() throws {
        let engine = try XCTUnwrap(Self.engine)
        let image = OCRPreprocess.rotate(OCRPreprocess.grayscale(try OCRImage(contentsOf: OCRReadingJudgeTests.scan)), quarterTurns: 1)
        let page = engine.recognize(image)
        XCTAssertGreaterThan(page.lines.count, 5, page.text)
        XCTAssertTrue(page.lines.allSatisfy { $0.box != nil })

        let refused = OCRPipeline.rereadLines(page, image: image, judge: Naming(named: [1, 3, 999], prefer: false), engine: engine)
        XCTAssertEqual(refused, page)

        let kept = OCRPipeline.rereadLines(page, image: image, judge: Naming(named: [1, 3, 999], prefer: true), engine: engine)
        XCTAssertEqual(kept.lines.count, page.lines.count)
        XCTAssertEqual(kept.lines.indices.filter { kept.lines[$0].reread }, [1, 3])
        XCTAssertEqual(kept.lines.map(\.box), page.lines.map(\.box))
        for i in page.lines.indices where ![1, 3].contains(i) { XCTAssertEqual(kept.lines[i], page.lines[i]) }
    }

    // MARK: - Which lines are named (text readings with boxes)

    func reading(_ lines: [(String, Double)]) -> OCRResult {
        OCRResult(lines: lines.enumerated().map { i, l in
            OCRResult.Line(words: l.0.split(separator: " ").map { .init(text: String($0), confidence: l.1) }, box: .init(x: 10, y: 40 * i, width: 500, height: 30))
        }, meanConfidence: 70)
    }

    /// The total's keyword line when the total is doubtful, the line shaped like a date when
    /// there is no date, and never a line read with high confidence.
    func testTheLinesNamedAreThoseOfTheDoubtfulFields() {
        let r = reading([("REWE Markt", 90), ("SUPPENGRUEN 0,99 B", 90), ("SUMME EUR oaSl", 30), ("Geg. BAR EUR 2,00", 90),
                         ("Ruckgeld BAR EUR 1,01", 90), ("06.00.2015 21:45 Bon-Nr. 1338", 40)])
        XCTAssertEqual(extractor.linesToReread(r), [2, 5])
        // The same lines read with high confidence: rereading them would give the same words.
        var sure = r
        for i in sure.lines.indices { for w in sure.lines[i].words.indices { sure.lines[i].words[w].confidence = 95 } }
        XCTAssertEqual(extractor.linesToReread(sure), [])
        // No boxes (text from elsewhere): nothing can be cut out.
        var boxless = r
        for i in boxless.lines.indices { boxless.lines[i].box = nil }
        XCTAssertEqual(extractor.linesToReread(boxless), [])
    }

    /// A fuel slip whose volume is missing: the line with a multiplication and `EUR/` (its `L`
    /// read as `)`); a line beside a sure price-per-litre line that holds numbers (`36.17, lie re
    /// RM 12437` for `36.17 litre RM 121.17`); at most `maxRereadLines`.
    func testAFuelSlipNamesItsFuelLines() {
        let r = reading([("JET Tankstelle", 90), ("Saule 4 Super E10", 90), ("51,45 1 x 4 725, EUR/)", 20), ("99,10 A", 60),
                         ("SUMME EUR 99,10", 95), ("Geg. BAR EUR 100,00", 90), ("Rickgeld EUR 0,90", 90), ("Dat .18.06.2023 Zeit 11:26", 95)])
        let f = extractor.extract(r)
        XCTAssertTrue(f.isFuel)
        XCTAssertNil(f.volume)
        XCTAssertEqual(extractor.linesToReread(r), [2])
        let malay = reading([("SHELL MALAYSIA TRADING", 90), ("15/05/2023 08:18", 95), ("Pam: 08 RON95", 90), ("36.17, lie re RM 12437, 417.", 20),
                             ("3.350 RM / litre", 92), ("JUMLAH RM 121.17", 90), ("TUNAI RM 150.00", 90), ("BAKI RM 28.83", 90)])
        XCTAssertEqual(extractor.linesToReread(malay), [3])
        XCTAssertLessThanOrEqual(extractor.linesToReread(reading((0..<20).map { ("SUMME EUR \($0)x", 10) })).count, ReceiptExtractor.maxRereadLines)
    }

    /// A fuel line read past recognition (`Jes AS Lee Ls OLGELURAL` for `22,43 l X 1,618 EUR/l`):
    /// nothing on it looks like fuel, so the least sure line between the grade and the total is named.
    func testAFuelLineReadPastRecognitionIsNamedBetweenGradeAndTotal() {
        let r = reading([("ARAL Tankstelle", 90), ("Saule 4 Super E10", 90), ("Jes AS Lee Ls OLGELURAL", 20), ("36,29 A", 60),
                         ("SUMME EUR 36,29", 95), ("Geg. BAR EUR 50,00", 90), ("Ruckgeld EUR 13,71", 90), ("Dat.07.05.2024 Zeit 07:49", 95)])
        let f = extractor.extract(r)
        XCTAssertEqual(f.fuelGrade?.line, 1)
        XCTAssertTrue(f.isFuel)
        XCTAssertEqual(extractor.linesToReread(r), [2])
    }

    /// A total read on a sure line that nothing confirms: the card line below it, read past
    /// recognition (`VESA eter tee e tt 3096 ENOROS` for `VISA **** 3096 £19.65`), is named; the
    /// least sure of the three lines below when none names a payment. A confirmed total names none.
    func testThePaymentLineUnderAnUnconfirmedTotalIsNamed() {
        let r = reading([("THE RED LION", 90), ("13/05/2024 12:41", 95), ("SANDWICH ARIS", 60), ("TOTAL £19.65", 95),
                         ("VAT @ 20% incl. Seo", 70), ("VESA eter tee e tt 3096 ENOROS", 30), ("THANK YOU", 90)])
        let f = extractor.extract(r)
        XCTAssertEqual(f.total?.line, 3)
        XCTAssertNil(f.totalCheck)
        XCTAssertEqual(extractor.linesToReread(r), [5])
        var visa = r
        visa.lines[5] = OCRResult.Line(words: "VISA eter tee 3096".split(separator: " ").map { .init(text: String($0), confidence: 30) }, box: r.lines[5].box)
        XCTAssertEqual(extractor.linesToReread(visa), [5], "a payment word first")
        let confirmed = reading([("THE RED LION", 90), ("13/05/2024 12:41", 95), ("TEA £2.40", 60), ("TOTAL £19.65", 95),
                                 ("VISA 3096 £19.65", 95), ("eter tee", 30)])
        XCTAssertNotNil(extractor.extract(confirmed).totalCheck)
        XCTAssertFalse(extractor.linesToReread(confirmed).contains(5))
    }

    /// A total keyword glued to the next word by a lost space (`TOTALTIC` for `TOTAL TTC`) is
    /// not a keyword to the extractor, but its line is worth reading again.
    func testAGluedTotalKeywordLineIsNamed() {
        let r = reading([("APRR AUTOROUTES", 90), ("Date 05/04/2025 15:17", 95), ("Classe 2 PEAGE 7,40 EUR", 90), ("TOTALTIC \\ 7,40 EUR", 60)])
        XCTAssertNil(extractor.extract(r).total)
        XCTAssertEqual(extractor.linesToReread(r), [3])
    }

    /// The reread of that fuel line (`57,45 1 X 1,725 EUR/1`, its two `L`s read as `1`) gives the
    /// volume and price, which multiply to the total.
    func testAFuelLineWithItsLitreSignsReadAsOnesIsCrossChecked() {
        let f = extractor.extract(text: "JET Tankstelle\nSaule 4 Super E10\n57,45 1 X 1,725 EUR/1\n99,10 A\nSUMME EUR 99,10\nDat .18.06.2023 Zeit 11:26")
        XCTAssertEqual(f.volume?.value.amount.description, "57.45")
        XCTAssertEqual(f.unitPrice?.value.description, "1.725")
        XCTAssertEqual(f.totalCheck, .priceTimesVolume)
        XCTAssertEqual(f.doubtful, [])
        // A receipt number with a slash is no price per litre: a grocery slip stays an expense.
        let shop = extractor.extract(text: "REWE\nSUPPENGRUEN 0,99 B\nSUMME EUR 0,99\nBAR EUR 0,99\n04.12.2014 11:26 Bon 1433/1")
        XCTAssertFalse(shop.isFuel)
        XCTAssertNil(shop.unitPrice)
    }

    /// Malay cash (`TUNAI`) read `TUNAT`: still cash tendered, and with the change (`BAKI`) it confirms the total.
    func testAMisreadFiveLetterTenderWordStillConfirms() {
        let f = ReceiptExtractor(defaultCurrency: "MYR").extract(text: "SHELL MALAYSIA\n15/05/2023 08:18\nJUMLAH RM 121.17\nTUNAT RM 150.00\nBAKI RM 28.83")
        XCTAssertEqual(f.total?.value.description, "121.17")
        XCTAssertEqual(f.totalCheck, .tenderedMinusChange)
    }

    /// Between two readings with as many doubtful fields, the field confidences are compared
    /// weakest first: a missing volume (0 in both) does not hide a total raised from doubtful.
    func testTheJudgeComparesFieldConfidencesWeakestFirst() {
        let judge = ReceiptReadingJudge(extractor: extractor)
        let bare = reading([("SHELL", 90), ("Pam: 08 RON95", 90), ("36.17, lie re RM 12437, 417.", 20), ("3.350 RM / litre", 90),
                            ("JUMLAH RM 17", 40), ("15/05/2023 08:18", 95)])
        var cents = bare
        cents.lines[4] = OCRResult.Line(words: [.init(text: "JUMLAH", confidence: 90), .init(text: "RM", confidence: 90), .init(text: "121.17", confidence: 90)], box: bare.lines[4].box)
        let (fb, fc) = (extractor.extract(bare), extractor.extract(cents))
        XCTAssertEqual(fb.doubtful.count, fc.doubtful.count, "\(fb.doubtful) \(fc.doubtful)")
        XCTAssertGreaterThan(fc.total?.confidence ?? 0, fb.total?.confidence ?? 0)
        XCTAssertTrue(judge.prefers(cents, over: bare))
        XCTAssertFalse(judge.prefers(bare, over: cents))
    }

    /// The midpoint threshold lies halfway between ink and paper: a grey line that Tesseract's
    /// own thresholding thickened is cut thin.
    func testTheMidpointThresholdIsHalfwayBetweenInkAndPaper() throws {
        let image = OCRImage(width: 100, height: 20)
        pixSetAllArbitrary(image.pix, 200)
        for x in 10..<20 { for y in 5..<15 { pixSetPixel(image.pix, Int32(x), Int32(y), 30) } }    // ink, 5 % of the pixels
        for x in 30..<34 { for y in 5..<15 { pixSetPixel(image.pix, Int32(x), Int32(y), 120) } }   // a grey edge, 2 % of the pixels
        let (ink, paper) = try XCTUnwrap(OCRPreprocess.inkAndPaper(image))
        // Leptonica's rank value interpolates within a grey level's bin.
        XCTAssertEqual(Double(ink), 30, accuracy: 1)
        XCTAssertEqual(Double(paper), 200, accuracy: 1)
        let binary = OCRPreprocess.binarize(image, method: .midpoint)
        XCTAssertEqual(binary.depth, 1)
        var black: UInt32 = 0
        pixGetPixel(binary.pix, 15, 10, &black)
        XCTAssertEqual(black, 1, "ink is black")
        var edge: UInt32 = 0
        pixGetPixel(binary.pix, 31, 10, &edge)
        XCTAssertEqual(edge, 0, "grey 120 is over the midpoint 115: paper")
    }
}
