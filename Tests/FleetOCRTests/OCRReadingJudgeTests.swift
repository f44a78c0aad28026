import XCTest
import FleetCore
import CLeptonica
@testable import FleetOCR

/// The pipeline reads until the caller's judge is settled, not until the text looks clean:
/// a poor-looking reading whose receipt fields are confirmed ends the search, and unsettled
/// small print is read a second time scaled. The receipt judge ranks readings by the fields the
/// import needs, counting the volume for both readings when either sees a fuel sale.
final class OCRReadingJudgeTests: XCTestCase {
    static let engine = try? OCREngine()
    static let scan = OCROrientationTests.folder.appendingPathComponent("de-penny-scan-sideways.jpg").path

    /// A judge that is never settled and counts what it was asked, preferring what `prefer` says.
    final class Counting: OCRReadingJudge {
        var settledCalls = 0, comparisons = 0
        let prefer: (OCRResult, OCRResult) -> Bool
        init(prefer: @escaping (OCRResult, OCRResult) -> Bool) { self.prefer = prefer }
        func isSettled(_ reading: OCRResult) -> Bool { settledCalls += 1; return false }
        func prefers(_ a: OCRResult, over b: OCRResult) -> Bool { comparisons += 1; return prefer(a, b) }
    }

    func reading(_ lines: [String], confidence: Double = 90) -> OCRResult {
        OCRResult(lines: lines.map { OCRResult.Line(words: $0.split(separator: " ").map { .init(text: String($0), confidence: confidence) }) },
                  meanConfidence: confidence)
    }

    /// Every first reading made unsure (`uprightConfidence` above 100): without a judge OSD is
    /// asked (the orientation test of that name); with the receipt judge the confirmed total and
    /// sure date of the first reading end the search there.
    func testAReadingWhoseFieldsAreSureIsNotFollowedByOSD() throws {
        let engine = try XCTUnwrap(Self.engine)
        var options = OCRPipeline.Options()
        options.uprightConfidence = 101
        let image = try OCRPipeline.decode(Self.scan, options: options)
        let judge = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: "EUR"))
        let judged = OCRPipeline(options: options).read(image, engine: engine, judge: judge)
        XCTAssertEqual(judged.quarterTurns, 1, judged.text)
        XCTAssertEqual(judged.orientation, .settledReading)
        XCTAssertNil(judged.orientationConfidence, "OSD did not run")
        XCTAssertTrue(judge.isSettled(judged))
        let plain = OCRPipeline(options: options).read(image, engine: engine)
        XCTAssertEqual(plain.orientation, .osd, "without a judge the unsure reading goes to OSD")
        XCTAssertEqual(plain.text, judged.text, "the same turn read the same way")
    }

    /// Text under `smallPrintHeight` that the judge is not settled by is read again scaled, and
    /// the judge chooses; with the option at 0, or text above it, it is read once.
    func testUnsettledSmallPrintIsReadAgainScaledAndTheJudgeChooses() throws {
        let engine = try XCTUnwrap(Self.engine)
        let stored = try OCRPipeline.decode(Self.scan, options: OCRPipeline.Options())
        let h = try XCTUnwrap(OCRPreprocess.textHeight(OCRPreprocess.normalizeBackground(stored)))
        let small = OCRPreprocess.scale(stored, by: 16 / h)       // capitals of about 16 px: read unscaled, under 24
        var options = OCRPipeline.Options()
        options.uprightConfidence = 0                              // one turn only: the reread is all that is measured
        let takesSecond = Counting { a, _ in a.rereadScaled == false }
        let r = OCRPipeline(options: options).read(small, engine: engine, judge: takesSecond)
        XCTAssertEqual(takesSecond.comparisons, 1, "one second reading compared")
        XCTAssertTrue(r.rereadScaled, "the judge preferred the scaled reading")
        let keepsFirst = Counting { _, _ in false }
        XCTAssertFalse(OCRPipeline(options: options).read(small, engine: engine, judge: keepsFirst).rereadScaled)
        XCTAssertEqual(keepsFirst.comparisons, 1)
        // The first reading and the scaled one together over `smallPrintPixelBudget`: read once.
        var budgeted = options
        budgeted.smallPrintPixelBudget = 2 * small.width * small.height
        let overBudget = Counting { _, _ in true }
        XCTAssertFalse(OCRPipeline(options: budgeted).read(small, engine: engine, judge: overBudget).rereadScaled)
        XCTAssertEqual(overBudget.comparisons, 0, "over the budget: read once")
        options.smallPrintHeight = 0
        let off = Counting { _, _ in true }
        XCTAssertFalse(OCRPipeline(options: options).read(small, engine: engine, judge: off).rereadScaled)
        XCTAssertEqual(off.comparisons, 0, "switched off: read once")
        options.smallPrintHeight = 24
        let large = OCRPreprocess.scale(stored, by: 30 / h)
        let big = Counting { _, _ in true }
        XCTAssertFalse(OCRPipeline(options: options).read(large, engine: engine, judge: big).rereadScaled)
        XCTAssertEqual(big.comparisons, 0, "text of 30 px is read once")
    }

    let judge = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: "EUR", now: Date(timeIntervalSince1970: 1_800_000_000)))
    /// Price × volume confirms the total: all sure.
    lazy var fuel = reading(["ARAL Tankstelle", "Diesel", "45,32 L X 1,789 EUR/l", "SUMME EUR 81,08", "12.03.2024 10:15"])
    /// The fuel line lost: a fuel slip (the grade) with its total unconfirmed and no volume.
    lazy var lostFuelLine = reading(["ARAL Tankstelle", "Diesel", "4S,3Z L X l,7B9 EUR/", "SUMME EUR 81,08", "12.03.2024 10:15"])
    /// The grade and fuel line lost, a card line confirming the total: sure as an expense.
    lazy var asExpense = reading(["ARAL Tankstelle", "SUMME EUR 81,08", "Karte EUR 81,08", "12.03.2024 10:15"])

    func testTheReceiptJudgeIsSettledOnlyByConfirmedFields() {
        XCTAssertTrue(judge.isSettled(fuel))
        XCTAssertFalse(judge.isSettled(lostFuelLine))
        XCTAssertTrue(judge.isSettled(asExpense), "an expense needs no volume")
        XCTAssertFalse(judge.isSettled(reading(["ARAL Tankstelle", "SUMME EUR 81,08", "12.03.2024 10:15"])), "a total nothing confirms")
    }

    func testTheReceiptJudgeCountsTheVolumeWhenEitherReadingSeesFuel() {
        XCTAssertTrue(judge.prefers(fuel, over: lostFuelLine))
        XCTAssertFalse(judge.prefers(lostFuelLine, over: fuel))
        // The expense reading is settled alone, but beside a fuel reading its missing volume counts.
        XCTAssertTrue(judge.prefers(fuel, over: asExpense))
        XCTAssertFalse(judge.prefers(asExpense, over: fuel))
        // Against the fuel reading that lost its line: one doubtful field (volume) against two.
        XCTAssertTrue(judge.prefers(asExpense, over: lostFuelLine))
        // Equal fields: the higher mean word confidence.
        var clearer = fuel
        clearer.meanConfidence = 95
        XCTAssertTrue(judge.prefers(clearer, over: fuel))
        XCTAssertFalse(judge.prefers(fuel, over: clearer))
    }
}

/// The two photo checks that came with the judge: an unsure line direction asks OSD first, and a
/// small text height on a photo is checked on a half-size copy.
final class OCRPhotoChecksTests: XCTestCase {
    /// The upside-down photo with every reading accepted (`uprightConfidence` 0), so only the first
    /// guess is read: with every ratio counted unsure, OSD's sure half turn is that guess; with
    /// none, the line direction's (upright, no turn) is, and the slip stays upside down.
    func testAnUnsureLineDirectionAsksOSDFirst() throws {
        let engine = try XCTUnwrap(OCRReadingJudgeTests.engine)
        let photo = OCRPreprocess.rotate(try OCRPipeline.decode(OCROrientationTests.folder.appendingPathComponent("lt-fuel-phone-upright.jpg").path,
                                                                options: OCRPipeline.Options()), quarterTurns: 2)
        var options = OCRPipeline.Options()
        options.uprightConfidence = 0
        options.unsureLineRatio = 0...1_000
        let osdFirst = OCRPipeline(options: options).read(photo, engine: engine)
        XCTAssertEqual(osdFirst.quarterTurns, 2, osdFirst.text)
        XCTAssertEqual(osdFirst.orientation, .osd)
        options.unsureLineRatio = nil
        let guessFirst = OCRPipeline(options: options).read(photo, engine: engine)
        XCTAssertEqual(guessFirst.quarterTurns, 0)
        XCTAssertEqual(guessFirst.orientation, .confidentReading)
    }

    /// A 2000 × 1500 white image with `letters` black blocks of `w` × `h` px and `specks` 7 × 7 px dots.
    func page(letters: Int, w: Int, h: Int, specks: Int) -> OCRImage {
        let img = OCRImage(width: 2000, height: 1500)
        pixSetAllArbitrary(img.pix, 255)
        func block(_ x: Int, _ y: Int, _ bw: Int, _ bh: Int) {
            var b = boxCreate(Int32(x), Int32(y), Int32(bw), Int32(bh))
            pixSetInRectArbitrary(img.pix, b, 0)
            boxDestroy(&b)
        }
        for i in 0..<letters { block(40 + (i % 20) * (w * 2), 40 + (i / 20) * (h * 2), w, h) }
        for i in 0..<specks { block(20 + (i * 37) % 1950, 900 + (i * 53) % 580, 7, 7) }
        return img
    }

    func testASmallHeightOnAPhotoIsCheckedAtHalfSize() throws {
        let options = OCRPipeline.Options()
        // Specks outnumber the letters: the full-size estimate is the specks', the half-size one the letters'.
        let noisy = page(letters: 200, w: 36, h: 54, specks: 2_000)
        let measured = try XCTUnwrap(OCRPreprocess.textHeight(noisy))
        XCTAssertLessThan(measured, 12, "the specks are measured")
        let checked = try XCTUnwrap(OCRPipeline.checkedTextHeight(measured, of: noisy, options: options))
        XCTAssertEqual(checked, 54, accuracy: 4, "the letters are measured at half size")
        // Small print that really is small (20 px) measures the same at half size: kept.
        let small = page(letters: 300, w: 13, h: 20, specks: 0)
        let h = try XCTUnwrap(OCRPreprocess.textHeight(small))
        XCTAssertEqual(OCRPipeline.checkedTextHeight(h, of: small, options: options), h)
        // Text in range is not checked.
        XCTAssertEqual(OCRPipeline.checkedTextHeight(30, of: noisy, options: options), 30)
        // Under 2 MP (a photo decoded at half size): the letters measured at half size are taken too...
        let halfDecoded = OCRPreprocess.scale(noisy, by: 0.5)
        XCTAssertLessThan(halfDecoded.width * halfDecoded.height, 2_000_000)
        XCTAssertEqual(try XCTUnwrap(OCRPipeline.checkedTextHeight(4, of: halfDecoded, options: options)), 27, accuracy: 3)
        // ...but small print that finds no letters at half size keeps its estimate there, to be
        // scaled up (over 2 MP it would be read as it is).
        let tiny = OCRPreprocess.scale(page(letters: 300, w: 9, h: 14, specks: 0), by: 0.5)
        let t = try XCTUnwrap(OCRPreprocess.textHeight(tiny))
        XCTAssertLessThan(t, 8)
        XCTAssertNil(OCRPreprocess.textHeight(OCRPreprocess.scale(tiny, by: 0.5)))
        XCTAssertEqual(OCRPipeline.checkedTextHeight(t, of: tiny, options: options), t)
    }
}
