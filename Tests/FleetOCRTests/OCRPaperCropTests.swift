import XCTest
@testable import FleetOCR

/// The paper crop on a phone-like photo (slip on a grey table) and on flat scans (nothing to cut).
final class OCRPaperCropTests: XCTestCase {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/photos")

    func testAPhotoIsCutToTheSlip() throws {
        let photo = try OCRPipeline.decode(Self.photos.appendingPathComponent("lt-fuel-phone-upright.jpg").path, options: OCRPipeline.Options())
        let crop = OCRPreprocess.paperCrop(photo)
        // The slip fills about half the frame's width (photo-transforms.py: 45–65 %).
        XCTAssertLessThan(crop.width, photo.width * 8 / 10)
        XCTAssertGreaterThan(crop.width, photo.width * 3 / 10)
        XCTAssertLessThan(crop.width * crop.height, photo.width * photo.height * 8 / 10)
    }

    func testFlatScansAreNotCut() throws {
        // r32 and r38 are unevenly lit: their shaded side falls under the threshold, and was cut
        // away with the totals before the crop required table on three sides.
        for name in ["r00-us-fuel.png", "r05-eu-fuel-de.png", "r26-us-expense-noise.png", "r32-asia-fuel-myr-uneven-noise.png", "r38-eu-fuel-nl-rot270-uneven.png"] {
            let scan = try OCRPipeline.decode(ReceiptTruth.folder.appendingPathComponent(name).path, options: OCRPipeline.Options())
            let crop = OCRPreprocess.paperCrop(scan)
            XCTAssertEqual([crop.width, crop.height], [scan.width, scan.height], name)
        }
        let real = try OCRPipeline.decode(Self.photos.appendingPathComponent("de-penny-scan-sideways.jpg").path, options: OCRPipeline.Options())
        let crop = OCRPreprocess.paperCrop(real)
        XCTAssertEqual([crop.width, crop.height], [real.width, real.height], "a real scan is all paper")
    }
}
