import XCTest
@testable import FleetOCR

/// Real Leptonica: encode a PNG, decode it again, and refuse what is not an image.
final class OCRImageTests: XCTestCase {
    func testPNGRoundTrip() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pix-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OCRImage(width: 120, height: 40).writePNG(to: path)
        let image = try OCRImage(contentsOf: path)
        XCTAssertEqual([image.width, image.height, image.depth], [120, 40, 8])
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8)
        XCTAssertEqual(Array(header), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testNotAnImageIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pix-\(UUID()).png").path
        try "not a picture".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try OCRImage(contentsOf: path)) { error in
            XCTAssertEqual(error as? OCRImage.Error, .unreadable(path))
        }
    }
}
