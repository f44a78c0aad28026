import XCTest
import FleetCore
@testable import FleetOCR

/// The second reading in the receipt's language (`OCRPipeline.Options.secondLanguage`,
/// docs/FORMATS.md "OCR languages"): an engine reads in another installed language on demand,
/// OSD names the script, and the pipeline reads an unsettled image once more in the language the
/// judge names, keeping that reading only when the judge prefers it.
final class OCRLanguagePassTests: XCTestCase {
    static let engine = try? OCREngine()

    /// A judge that is never settled, names `languages`, and prefers readings made in another language.
    final class Naming: OCRReadingJudge {
        let names: [String]
        var asked = 0
        init(_ names: [String]) { self.names = names }
        func isSettled(_ reading: OCRResult) -> Bool { false }
        func prefers(_ a: OCRResult, over b: OCRResult) -> Bool { (a.language != nil) != (b.language != nil) ? a.language != nil : a.meanConfidence > b.meanConfidence }
        func languages(for reading: OCRResult) -> [String] { asked += 1; return names }
    }

    func upright() throws -> OCRImage {
        OCRPreprocess.rotate(OCRPreprocess.grayscale(try OCRImage(contentsOf: OCRReadingJudgeTests.scan)), quarterTurns: 1)
    }

    func testTheEngineReadsInAnInstalledLanguageOnly() throws {
        let engine = try XCTUnwrap(Self.engine)
        let image = try upright()
        let german = try XCTUnwrap(engine.recognize(image, language: "deu+eng"), "tesseract-ocr-deu installed (make deps)")
        XCTAssertEqual(german.language, "deu+eng")
        XCTAssertTrue(german.text.uppercased().contains("SUMME"), german.text)
        XCTAssertNil(engine.recognize(image, language: "xyz"), "no model: nothing read, no error")
        XCTAssertNil(engine.recognize(image).language, "the engine's own English reading")
    }

    func testOSDNamesTheScript() throws {
        let engine = try XCTUnwrap(Self.engine)
        let found = try XCTUnwrap(engine.detectOrientationAndScript(try OCRImage(contentsOf: OCRReadingJudgeTests.scan)))
        XCTAssertEqual(found.script, "Latin")
    }

    func testAnUnsettledReadingIsReadOnceInTheJudgesLanguage() throws {
        let engine = try XCTUnwrap(Self.engine)
        var options = OCRPipeline.Options()
        options.rereadLines = false
        let judge = Naming(["deu"])
        let r = OCRPipeline(options: options).read(try upright(), engine: engine, judge: judge)
        XCTAssertEqual(r.language, "deu+eng")
        XCTAssertEqual(judge.asked, 1, "one language pass, not one per turn")

        options.secondLanguage = false
        XCTAssertNil(OCRPipeline(options: options).read(try upright(), engine: engine, judge: Naming(["deu"])).language)
        options.secondLanguage = true
        XCTAssertNil(OCRPipeline(options: options).read(try upright(), engine: engine, judge: Naming(["kor", "eng"])).language,
                     "a language not installed is not read, nor English again")
        options.secondLanguagePixelBudget = 1
        XCTAssertNil(OCRPipeline(options: options).read(try upright(), engine: engine, judge: Naming(["deu"])).language, "over the pixel budget: no pass")
    }
}
