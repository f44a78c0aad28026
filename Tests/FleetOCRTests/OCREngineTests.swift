import XCTest
@testable import FleetOCR

/// Real Tesseract: a missing libtesseract or eng model fails here, not in a later issue.
final class OCREngineTests: XCTestCase {
    func testVersionIsTesseract5() {
        XCTAssertTrue(OCREngine.version.hasPrefix("5."), OCREngine.version)
    }

    func testEngineLoadsTheEnglishModel() throws {
        let engine = try OCREngine()
        XCTAssertEqual(engine.loadedLanguages, ["eng"])
    }

    func testAMissingModelIsAClearError() {
        XCTAssertThrowsError(try OCREngine(language: "xxx")) { error in
            XCTAssertTrue("\(error)".contains("tesseract-ocr-xxx"), "\(error)")
        }
    }
}
