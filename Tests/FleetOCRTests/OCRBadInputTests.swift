import XCTest
@testable import FleetOCR

/// Files that are not a receipt image Leptonica should decode: each is a clear error, never a
/// crash, and the oversized one is refused from its header, before its pixels are allocated.
final class OCRBadInputTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func write(_ data: Data, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func load(_ path: String) -> OCRImage.Error? {
        do { _ = try OCRImage(contentsOf: path); return nil } catch { return error as? OCRImage.Error }
    }

    func testEmptyFile() throws {
        let path = try write(Data(), "empty.png")
        XCTAssertEqual(load(path), .empty(path))
    }

    /// A file that cannot be read is said to be unreadable with the system's reason, never "the
    /// file is empty" or "not an image" (before, a failed read was taken for no bytes, and the
    /// PNG chunk scan's read error for a damaged PNG). A folder and /proc/self/mem (whose page 0 is
    /// unmapped: EIO) are read errors any user can make.
    func testAFileThatCannotBeReadSaysSoWithTheReason() throws {
        let dir = folder.appendingPathComponent("receipt.png").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        guard case let .cannotRead(p, reason)? = load(dir) else { return XCTFail("\(String(describing: load(dir)))") }
        XCTAssertEqual(p, dir)
        XCTAssertEqual(reason, String(cString: strerror(EISDIR)))
        XCTAssertThrowsError(try PNGChunkScan.scan(dir)) { error in
            XCTAssertEqual(error as? OCRImage.Error, .cannotRead(dir, reason: "it is a folder, not a file"))
        }
        XCTAssertEqual(load("/proc/self/mem"), .cannotRead("/proc/self/mem", reason: String(cString: strerror(EIO))))
        XCTAssertEqual(load(folder.appendingPathComponent("gone.png").path),
                       .cannotRead(folder.appendingPathComponent("gone.png").path, reason: String(cString: strerror(ENOENT))))
        XCTAssertTrue("\(OCRImage.Error.cannotRead(dir, reason: "Is a directory"))".contains("cannot be read (Is a directory)"))
    }

    func testPDFIsNamed() throws {
        let path = try write(Data("%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n".utf8), "receipt.png")
        XCTAssertEqual(load(path), .unsupported(path, format: "PDF"))
        XCTAssertTrue("\(OCRImage.Error.unsupported(path, format: "PDF"))".contains("pdftoppm"))
    }

    func testHEICPhotoIsNamed() throws {
        var heic = Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8)
        heic.append(Data(count: 32))
        let path = try write(heic, "IMG_0001.HEIC")
        XCTAssertEqual(load(path), .unsupported(path, format: "HEIC"))
    }

    func testTruncatedPNG() throws {
        let good = try Data(contentsOf: ReceiptTruth.folder.appendingPathComponent("r00-us-fuel.png"))
        let path = try write(good.prefix(good.count / 3), "cut.png")
        XCTAssertEqual(load(path), .unreadable(path))
    }

    func testGarbageAfterAPNGSignature() throws {
        let path = try write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0x5A, count: 4000), "junk.png")
        XCTAssertEqual(load(path), .unreadable(path))
    }

    func testTruncatedJPEGDoesNotCrash() throws {
        let jpeg = try Data(contentsOf: ReceiptTruth.folder.deletingLastPathComponent().appendingPathComponent("not-a-receipt/landscape.jpg"))
        let path = try write(jpeg.prefix(jpeg.count / 2), "cut.jpg")
        // libjpeg fills a cut-off JPEG with grey; whether it decodes or not, it is an answer, not a crash.
        if let image = try? OCRImage(contentsOf: path) {
            XCTAssertGreaterThan(image.width, 0)
        } else {
            XCTAssertEqual(load(path), .unreadable(path))
        }
    }

    func testOversizedImageIsRefusedFromItsHeader() throws {
        let path = folder.appendingPathComponent("huge.png").path
        try OCRImage(width: 10_000, height: 10_000, depth: 1).writePNG(to: path)
        let header = try OCRImage.header(of: path)
        XCTAssertEqual([header.format, "\(header.width)", "\(header.height)"], ["PNG", "10000", "10000"])
        let before = Self.peakRSS()
        XCTAssertEqual(load(path), .tooLarge(path, width: 10_000, height: 10_000, maxPixels: OCRImage.defaultMaxPixels))
        XCTAssertLessThan(Self.peakRSS() - before, 50 << 20, "refused before decoding 100 MP")
        XCTAssertTrue("\(OCRImage.Error.tooLarge(path, width: 10_000, height: 10_000, maxPixels: 40_000_000))".contains("100 MP"))
    }

    /// The peak memory of decoding, from the header: a 40 MP baseline colour JPEG is decoded at
    /// half size straight to luminance (10 MB), the same pixels as a colour PNG do not fit
    /// (libpng's row copy), a greyscale PNG scan does.
    func testDecodeMemoryIsBoundedFromTheHeader() {
        let frame = JPEGFrame(width: 6000, height: 6600, progressive: false,
                              components: [.init(horizontal: 2, vertical: 2), .init(horizontal: 1, vertical: 1), .init(horizontal: 1, vertical: 1)],
                              firstScanComponents: 3)
        let jpeg = OCRImage.Header(format: "JPEG", width: 6000, height: 6600, bitsPerSample: 8, samplesPerPixel: 3, jpeg: frame)
        let png = OCRImage.Header(format: "PNG", width: 6000, height: 6600, bitsPerSample: 8, samplesPerPixel: 3)
        let grey = OCRImage.Header(format: "PNG", width: 6000, height: 6600, bitsPerSample: 8, samplesPerPixel: 1)
        XCTAssertEqual(OCRDecodePlan(jpeg).reduction, 2)
        XCTAssertEqual(jpeg.decodeBytes, 3000 * 3300 + 6000 * 3 * 64, "half-size luminance and libjpeg's strip buffers")
        XCTAssertEqual(png.decodeBytes, 39_600_000 * 7)
        XCTAssertLessThanOrEqual(jpeg.decodeBytes, OCRImage.maxDecodeBytes)
        XCTAssertGreaterThan(png.decodeBytes, OCRImage.maxDecodeBytes)
        XCTAssertLessThanOrEqual(grey.decodeBytes, OCRImage.maxDecodeBytes)
    }

    func testTextFileIsUnreadable() throws {
        let path = try write(Data("total 42.00\n".utf8), "notes.png")
        XCTAssertEqual(load(path), .unreadable(path))
    }

    /// The process's peak resident set, in bytes (Linux reports kilobytes).
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// A PNG chunk with its CRC (RFC 2083 §3.4).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for b in body {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return be(UInt32(data.count)) + body + be(crc)
    }

    /// Issue 35 item 15: 80 zTXt chunks took a receipt's read to 673 MiB (libpng inflates each
    /// up to 8 MB and keeps it). Text chunks are charged from their headers before decoding: so
    /// many are refused with what to do; a few plain ones (a scanner's comment) read as before.
    func testPNGTextChunksAreChargedBeforeDecoding() throws {
        let good = [UInt8](try Data(contentsOf: ReceiptTruth.folder.appendingPathComponent("r00-us-fuel.png")))
        let afterIHDR = 8 + 25
        let zTXt = Self.chunk("zTXt", Array("Comment".utf8) + [0, 0] + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        let bomb = Array(good[..<afterIHDR]) + Array((0..<80).map { _ in zTXt }.joined()) + Array(good[afterIHDR...])
        let path = try write(Data(bomb), "ztxt-bomb.png")
        XCTAssertEqual(try OCRImage.header(of: path).textBytes, 80 * PNGChunkScan.textChunkLimit)
        XCTAssertEqual(load(path), .textChunks(path, bytes: 80 * PNGChunkScan.textChunkLimit))
        XCTAssertTrue("\(OCRImage.Error.textChunks(path, bytes: 640_000_000))".contains("without metadata"))
        // An uncompressed iTXt (XMP) is charged its length; a tEXt comment too: the image reads.
        let iTXt = Self.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x:xmpmeta/>".utf8))
        let tEXt = Self.chunk("tEXt", Array("Comment".utf8) + [0] + Array("scanned".utf8))
        let plain = Array(good[..<afterIHDR]) + iTXt + tEXt + Array(good[afterIHDR...])
        let ok = try write(Data(plain), "plain-text.png")
        XCTAssertEqual(try OCRImage.header(of: ok).textBytes, iTXt.count - 12 + tEXt.count - 12)
        XCTAssertNil(load(ok))
    }

}
