import XCTest
import CLeptonica
@testable import FleetOCR

/// Each Leptonica step on its own, on the generated fixtures.
final class OCRPreprocessTests: XCTestCase {
    func image(_ file: String) throws -> OCRImage {
        try OCRImage(contentsOf: ReceiptTruth.folder.appendingPathComponent(file).path)
    }

    func testGrayscaleMakesEightBitGreyFromColour() throws {
        let jpeg = try OCRImage(contentsOf: ReceiptTruth.folder.deletingLastPathComponent().appendingPathComponent("not-a-receipt/landscape.jpg").path)
        XCTAssertEqual(jpeg.depth, 8, "a colour JPEG is decoded straight to luminance")
        let photo = OCRImage(owning: pixConvertTo32(jpeg.pix))
        XCTAssertEqual(photo.depth, 32)
        let gray = OCRPreprocess.grayscale(photo)
        XCTAssertEqual([gray.depth, gray.width, gray.height], [8, photo.width, photo.height])
        XCTAssertEqual(OCRPreprocess.grayscale(OCRImage(width: 10, height: 10, depth: 1)).depth, 8)
    }

    func testTextHeightFollowsTheFontSize() throws {
        // r00 is set in 22 px type, r11 in 40 px: capitals about 16 and 29 px tall.
        let small = try XCTUnwrap(OCRPreprocess.textHeight(OCRPreprocess.grayscale(image("r00-us-fuel.png"))))
        let large = try XCTUnwrap(OCRPreprocess.textHeight(OCRPreprocess.grayscale(image("r11-us-fuel.png"))))
        XCTAssertEqual(small, 16, accuracy: 4)
        XCTAssertEqual(large, 29, accuracy: 6)
        // Sideways, the estimate holds: it reads the glyphs' longer side.
        let sideways = try XCTUnwrap(OCRPreprocess.textHeight(OCRPreprocess.grayscale(image("r20-us-fuel-rot90.png"))))
        XCTAssertGreaterThan(sideways, 10)
        XCTAssertNil(OCRPreprocess.textHeight(OCRImage(width: 100, height: 100)), "no ink, no estimate")
    }

    func testScaleFactorBringsTextIntoRange() {
        XCTAssertEqual(OCRPreprocess.scaleFactor(textHeight: nil), 1)
        XCTAssertEqual(OCRPreprocess.scaleFactor(textHeight: 25), 1)
        XCTAssertEqual(OCRPreprocess.scaleFactor(textHeight: 10), 2.8, accuracy: 1e-9)     // a far-away phone photo
        XCTAssertEqual(OCRPreprocess.scaleFactor(textHeight: 140), 0.2, accuracy: 1e-9)    // a 600 dpi scan
        XCTAssertEqual(OCRPreprocess.scaleFactor(textHeight: 2), 4, "never more than 4x")
        let scaled = OCRPreprocess.scale(OCRImage(width: 100, height: 50), by: 2)
        XCTAssertEqual([scaled.width, scaled.height], [200, 100])
    }

    func testBinarizationGivesOneBit() throws {
        let gray = OCRPreprocess.grayscale(try image("r28-eu-fuel-nl-uneven.png"))
        for method in OCRPreprocess.Binarization.allCases {
            let b = OCRPreprocess.binarize(gray, method: method, textHeight: 18)
            XCTAssertEqual([b.depth, b.width, b.height], [1, gray.width, gray.height], method.rawValue)
        }
    }

    func testDeskewLevelsASkewedSlip() throws {
        let gray = OCRPreprocess.grayscale(try image("r23-us-fuel-skew.png"))
        let before = try XCTUnwrap(OCRPreprocess.findSkew(gray))
        XCTAssertGreaterThan(abs(before.degrees), 2)
        let (level, corrected) = OCRPreprocess.deskew(gray)
        XCTAssertEqual(corrected, before.degrees)
        XCTAssertLessThan(abs(OCRPreprocess.findSkew(level)?.degrees ?? 0), 0.5)
        // A straight slip is left alone (no resampling blur).
        XCTAssertEqual(OCRPreprocess.deskew(OCRPreprocess.grayscale(try image("r00-us-fuel.png"))).degrees, 0)
    }

    func testRotateTurnsClockwise() {
        let image = OCRImage(width: 30, height: 10)
        XCTAssertEqual([OCRPreprocess.rotate(image, quarterTurns: 1).width, OCRPreprocess.rotate(image, quarterTurns: 1).height], [10, 30])
        XCTAssertEqual(OCRPreprocess.rotate(image, quarterTurns: 2).width, 30)
        XCTAssertEqual(OCRPreprocess.rotate(image, quarterTurns: 4).width, 30)
    }

    /// Background normalisation's measured effect on an unevenly lit slip: Tesseract reads it with more confidence.
    func testBackgroundNormalisationHelpsAShadowedSlip() throws {
        let engine = try OCREngine()
        let gray = OCRPreprocess.grayscale(try image("r32-asia-fuel-myr-uneven-noise.png"))
        let raw = engine.recognize(gray).meanConfidence
        let normalised = engine.recognize(OCRPreprocess.normalizeBackground(gray)).meanConfidence
        XCTAssertGreaterThan(normalised, raw)
    }
}
