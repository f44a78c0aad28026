import XCTest
import CLeptonica
@testable import FleetOCR

/// Images whose headers promise far more memory than their bytes (Fixtures/hostile, made by
/// `make-bombs.py`, one per failure mode), and real photos, read by the real pipeline with real
/// Tesseract: the peak resident memory of the process stays under the 300 MB budget
/// (`OCRMemoryBudget`) in every case, measured by the kernel (VmHWM, reset before each run).
final class OCRDecompressionBombTests: XCTestCase {
    static let engine = try? OCREngine()
    static let hostile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-bomb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Reads `path` through the whole pipeline twice. In a child process that reads only it
    /// (`PeakMemory`), the peak of the whole process must be at most 300 MB, and the child must
    /// get the same outcome; here, the peak above what this process held before must be at
    /// most the image budget. Returns this process's result.
    @discardableResult
    func readWithinBudget(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Result<OCRResult, Swift.Error> {
        let engine = try XCTUnwrap(Self.engine)
        let name = (path as NSString).lastPathComponent
        // The high-water mark is reset first and the resident size read after it: read before,
        // memory freed in between (52 KB once, on an idle CI machine) left the mark under it.
        PeakMemory.reset()
        let before = PeakMemory.current
        let result = Result { try OCRPipeline().read(contentsOf: path, engine: engine) }
        let peak = PeakMemory.peak
        XCTAssertGreaterThan(before, 0, "VmRSS read from /proc/self/status", file: file, line: line)
        XCTAssertGreaterThanOrEqual(peak, before, "VmHWM read from /proc/self/status", file: file, line: line)
        XCTAssertLessThanOrEqual(peak - before, OCRMemoryBudget.imageBytes, "\(name): \(before / 1_000_000) MB -> \(peak / 1_000_000) MB", file: file, line: line)

        let child = try PeakMemory.runChild(test: "FleetOCRTests.OCRDecompressionBombTests/testChildReadsTheImageItIsGiven",
                                            environment: ["FLEETKIT_CHILD_IMAGE": path])
        XCTAssertTrue(child.passed, "\(name): the child process failed or was killed", file: file, line: line)
        let lines = child.output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let childPeak = lines.first.flatMap { Int($0.dropFirst("peak ".count)) } ?? 0
        XCTAssertGreaterThan(childPeak, 20_000_000, "\(name): the child's VmHWM", file: file, line: line)
        XCTAssertLessThanOrEqual(childPeak, OCRMemoryBudget.processBytes, "\(name): peak \(childPeak / 1_000_000) MB in a child process", file: file, line: line)
        XCTAssertEqual(lines.dropFirst().first.map(String.init), Self.outcome(result), "\(name): the child read the same", file: file, line: line)
        return result
    }

    /// Run by `readWithinBudget` in a child process: reads the image `FLEETKIT_CHILD_IMAGE`
    /// names and writes its own peak memory and the outcome to `FLEETKIT_CHILD_OUT`.
    func testChildReadsTheImageItIsGiven() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env["FLEETKIT_CHILD_IMAGE"], let out = env["FLEETKIT_CHILD_OUT"] else {
            throw XCTSkip("runs in a child process of the peak-memory tests, which set FLEETKIT_CHILD_IMAGE")
        }
        let engine = try XCTUnwrap(Self.engine)
        let result = Result { try OCRPipeline().read(contentsOf: path, engine: engine) }
        try "peak \(PeakMemory.peak)\n\(Self.outcome(result))".write(toFile: out, atomically: false, encoding: .utf8)
    }

    /// A reading as text: the error, or the total found and the words read.
    static func outcome(_ result: Result<OCRResult, Swift.Error>) -> String {
        switch result {
        case let .success(r) where r.refused:
            return "refused: ink components \(r.inkComponents ?? 0), tall edges \(r.tallEdges ?? 0)"
        case let .success(r):
            return "total " + (ReceiptExtractor(defaultCurrency: "USD").extract(r).total.map { "\($0.value)" } ?? "none") + "\n" + r.text
        case let .failure(error):
            return "error \(error)"
        }
    }

    func hostile(_ name: String) -> String { Self.hostile.appendingPathComponent(name).path }

    /// 192 bytes declaring 6000 × 6600 progressive colour, unsubsampled: libjpeg would keep
    /// 238 MB of coefficients (442 MB peak before); refused from the header, nothing allocated.
    func testProgressiveColourJPEGBombIsRefusedFromItsHeader() throws {
        let path = hostile("jpeg-progressive-444-bomb.jpg")
        let header = try OCRImage.header(of: path)
        let frame = try XCTUnwrap(header.jpeg)
        XCTAssertTrue(frame.progressive && frame.buffersWholeImage)
        XCTAssertEqual(frame.coefficientBytes, 750 * 825 * 128 * 3)
        // Planned as the pipeline decodes a photo: at 1/4 size (over 3.1 MP at half), which
        // spares the output buffer but not libjpeg's coefficients.
        let plan = OCRDecodePlan(header, maxWorkPixels: OCRPipeline.Options().photoPixels)
        XCTAssertEqual(plan.reduction, 4)
        XCTAssertGreaterThan(plan.bytes, OCRImage.maxDecodeBytes)
        guard case let .failure(error) = try readWithinBudget(path) else { return XCTFail("a 238 MB decode was attempted") }
        XCTAssertEqual(error as? OCRImage.Error, .tooLargeToDecode(path, width: 6000, height: 6600, bytes: plan.bytes, maxBytes: OCRImage.maxDecodeBytes))
        let message = "\(error)"
        XCTAssertTrue(message.contains("the image is 6000 × 6600 pixels, which would need 241 MB to read"), message)
        XCTAssertTrue(message.contains("scale it down below 5") && message.contains("or crop it"), message)
    }

    /// The same at 4:2:0 (119 MB of coefficients, 329 MB peak before): within budget, decoded at
    /// half size straight to 8-bit luminance. The file is cut off after its first scan, so it
    /// ends unreadable, but only after libjpeg has taken all it takes.
    func testSubsampledProgressiveJPEGIsDecodedHalfSizeWithinBudget() throws {
        let path = hostile("jpeg-progressive-420-big.jpg")
        let header = try OCRImage.header(of: path)
        XCTAssertEqual(header.jpeg?.coefficientBytes, 750 * 826 * 128 + 2 * 375 * 413 * 128, "luma blocks rounded up to whole MCUs")
        let plan = OCRDecodePlan(header)
        XCTAssertEqual([plan.reduction, plan.width, plan.height], [2, 3000, 3300])
        XCTAssertTrue(plan.luminanceOnly)
        XCTAssertLessThanOrEqual(plan.bytes, OCRImage.maxDecodeBytes)
        guard case let .failure(error) = try readWithinBudget(path) else { return XCTFail("a cut-off JPEG decoded") }
        XCTAssertEqual(error as? OCRImage.Error, .unreadable(path))
    }

    /// A 13 KB 1-bit PNG of 39.6 MP with 7 px specks (2 GB peak and 20 s before: it was scaled
    /// up 4× to 634 MP): decoded, scaled down to the work cap, never up past it, and read.
    func testOneBitPNGIsNeverScaledPastTheWorkCap() throws {
        let path = hostile("png-1bit-upscale-bomb.png")
        let header = try OCRImage.header(of: path)
        XCTAssertEqual([header.width, header.height, header.bitsPerSample], [6000, 6600, 1])
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max, 16_000)
        do {
            let gray = try OCRPipeline.decode(path, options: OCRPipeline.Options())
            XCTAssertEqual(gray.depth, 8)
            XCTAssertLessThanOrEqual(gray.width * gray.height, OCRMemoryBudget.maxWorkPixels)
            XCTAssertGreaterThan(gray.width * gray.height, OCRMemoryBudget.maxWorkPixels * 99 / 100)
            XCTAssertEqual(OCRMemoryBudget.cappedScale(4, width: gray.width, height: gray.height), 1, "7 px specks want 4×, the cap allows none")
        }
        let result = try readWithinBudget(path)
        XCTAssertNoThrow(try result.get())
    }

    /// The same specks as a 9.8 KB CCITT G4 fax TIFF (made here from the PNG by Leptonica):
    /// 2068 MB and 14 s before; the same budget holds for TIFF.
    func testG4TIFFIsNeverScaledPastTheWorkCap() throws {
        let path = folder.appendingPathComponent("fax-bomb.tif").path
        do {
            let bits = try OCRImage(contentsOf: hostile("png-1bit-upscale-bomb.png"))
            XCTAssertEqual(pixWrite(path, bits.pix, Int32(IFF_TIFF_G4)), 0)
        }
        let header = try OCRImage.header(of: path)
        XCTAssertEqual([header.format, "\(header.width)", "\(header.height)", "\(header.bitsPerSample)"], ["TIFF", "6000", "6600", "1"])
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max, 16_000)
        XCTAssertNoThrow(try readWithinBudget(path).get())
    }

    /// An RGB TIFF takes 12 bytes a pixel to decode (libtiff's strip and RGBA raster besides
    /// Leptonica's image; a 26 MP one peaked at 336 MiB before this was counted): 26 MP is
    /// refused from the header, 16.8 MP is read within budget.
    func testColourTIFFIsChargedForLibtiffsRaster() throws {
        func tiff(_ w: Int, _ h: Int) throws -> String {
            let path = folder.appendingPathComponent("rgb-\(w)x\(h).tif").path
            let rgb = OCRImage(owning: pixCreate(Int32(w), Int32(h), 32))
            pixSetAllArbitrary(rgb.pix, 0xF0E8_D000)
            pixRasterop(rgb.pix, Int32(w / 4), Int32(h / 4), Int32(w / 2), 20, PIX_CLR, nil, 0, 0)
            XCTAssertEqual(pixWrite(path, rgb.pix, Int32(IFF_TIFF_ZIP)), 0)
            return path
        }
        let big = try tiff(5000, 5200)
        let header = try OCRImage.header(of: big)
        XCTAssertEqual([header.format, "\(header.samplesPerPixel)", "\(header.bitsPerSample)"], ["TIFF", "3", "8"])
        XCTAssertEqual(header.decodeBytes, 26_000_000 * 12)
        guard case let .failure(error) = try readWithinBudget(big) else { return XCTFail("a 312 MB decode was attempted") }
        XCTAssertEqual(error as? OCRImage.Error, .tooLargeToDecode(big, width: 5000, height: 5200, bytes: 312_000_000, maxBytes: OCRImage.maxDecodeBytes))
        XCTAssertNoThrow(try readWithinBudget(try tiff(4000, 4200)).get())
    }

    /// 5.8 million one-pixel specks at the work cap (8.9 KB): the text height is not estimated
    /// (boxing them took 215 MiB) and Tesseract is not run on them (329 MiB before, in all).
    func testDotNoiseIsNotBoxedNorRead() throws {
        let path = hostile("png-1bit-dot-noise.png")
        do {
            let gray = try OCRPipeline.decode(path, options: OCRPipeline.Options())
            XCTAssertEqual([gray.width, gray.height], [4800, 4800])
            XCTAssertNil(OCRPreprocess.textHeight(gray), "5.8 million components are not text")
        }
        let result = try readWithinBudget(path).get()
        XCTAssertEqual(result.inkComponents, 2400 * 2400)
        XCTAssertEqual(result.lines, [])
    }

    /// The ink counts are skipped on an image too small to exceed them: the densest pattern of
    /// 8-connected specks (every other pixel of every other row) on the largest such image has no
    /// more components than allowed, and one pixel more each way has more.
    func testInkIsNotCountedWhereItCannotExceedTheLimits() throws {
        func dots(_ side: Int) -> (image: OCRImage, components: Int) {
            let image = OCRImage(width: side, height: side, depth: 1)
            for y in stride(from: 0, to: side, by: 2) { for x in stride(from: 0, to: side, by: 2) { pixSetPixel(image.pix, Int32(x), Int32(y), 1) } }
            var n: Int32 = 0
            pixCountConnComp(image.pix, 8, &n)
            return (image, Int(n))
        }
        let largest = dots(1094)
        XCTAssertFalse(OCREngine.mayExceedInkLimits(largest.image))
        XCTAssertEqual(largest.components, 547 * 547)
        XCTAssertLessThanOrEqual(largest.components, OCREngine.maxInkComponents)
        let over = dots(1096)
        XCTAssertTrue(OCREngine.mayExceedInkLimits(over.image))
        XCTAssertGreaterThan(over.components, OCREngine.maxInkComponents)
        XCTAssertTrue(OCREngine.mayExceedInkLimits(OCRImage(width: 1300, height: 1200)), "1.56 M edge steps possible")
    }

    /// The same dots at 6000 × 6600 become a moiré of 2.5 million specks when scaled down to
    /// the cap; Tesseract took 400 MiB and 290 s on it (652 MiB in all). Now it is never run.
    func testMoireIsRefusedBeforeTesseractBuildsOnIt() throws {
        let result = try readWithinBudget(hostile("png-1bit-dot-moire.png")).get()
        XCTAssertGreaterThan(result.inkComponents ?? 0, OCREngine.maxInkComponents)
        XCTAssertEqual(result.lines, [])
    }

    /// One comb-shaped component of 2,400 one-pixel teeth down a 23 MP page (8.3 KB): Tesseract
    /// held every edge step of it until it had traced the shape to the bottom (833 MiB; 864 MiB
    /// in all). The vertical edge steps of shapes taller than a text line are counted first.
    func testCombOfTallLinesIsRefusedBeforeTesseractTracesIt() throws {
        let result = try readWithinBudget(hostile("png-1bit-comb.png")).get()
        XCTAssertNil(result.inkComponents)
        XCTAssertGreaterThan(result.tallEdges ?? 0, 20_000_000)
        XCTAssertEqual(result.lines, [])
    }

    /// A 3000 × 4000 colour phone photo of a receipt, baseline and progressive: read within
    /// budget (decoded straight to luminance) with the fields right.
    func testPhonePhotoIsReadWithinBudget() throws {
        for progressive in [false, true] {
            let path = try photo(width: 3000, height: 4000, receiptScale: 4, progressive: progressive)
            let plan = OCRDecodePlan(try OCRImage.header(of: path))
            XCTAssertEqual([plan.reduction, plan.width, plan.height], [1, 3000, 4000])
            XCTAssertEqual(try OCRImage.header(of: path).jpeg?.progressive, progressive)
            let result = try readWithinBudget(path).get()
            let fields = ReceiptExtractor(defaultCurrency: "USD").extract(result)
            XCTAssertEqual(fields.total.map { "\($0.value)" }, "46.15", result.text)
            XCTAssertTrue(result.text.contains("SHELL"), result.text)
        }
    }

    /// A 12 MP photo is decoded at half size: its slip's capitals (about 52 px) measure 26 there.
    /// A slip far from the lens, whose text comes out under 12 px at half size (8 px; 16 px at
    /// full size), is decoded again at full size.
    func testTwelveMegapixelPhotoIsDecodedAtHalfSizeUnlessItsTextIsSmall() throws {
        let options = OCRPipeline.Options()
        let near = try OCRPipeline.decode(try photo(width: 3000, height: 4000, receiptScale: 4, progressive: false), options: options)
        XCTAssertEqual([near.width, near.height], [1500, 2000])
        let far = try OCRPipeline.decode(try photo(width: 3000, height: 4000, receiptScale: 1, progressive: false), options: options)
        XCTAssertEqual([far.width, far.height], [3000, 4000])
    }

    /// A 6024 × 6888 JPEG (41.5 MP, over the 40 MP a PNG may have) is decoded at half size
    /// and read; it was refused before.
    func testJPEGOverFortyMegapixelsIsReadAtHalfSize() throws {
        let receipt = try OCRImage(contentsOf: ReceiptTruth.folder.appendingPathComponent("r00-us-fuel.png").path)
        let path = folder.appendingPathComponent("big.jpg").path
        try OCRPreprocess.scale(receipt, by: 12).writeJPEG(to: path)
        let header = try OCRImage.header(of: path)
        XCTAssertGreaterThan(header.pixels, OCRImage.defaultMaxPixels)
        XCTAssertEqual(OCRDecodePlan(header).reduction, 2)
        let result = try readWithinBudget(path).get()
        XCTAssertEqual(ReceiptExtractor(defaultCurrency: "USD").extract(result).total.map { "\($0.value)" }, "46.15", result.text)
    }

    /// Scaling never makes more than the work cap: text-height upscaling is cut short, a bigger
    /// image comes down to it, an image within it is left alone.
    func testScaleIsCappedAtTheWorkPixels() {
        let cap = OCRMemoryBudget.maxWorkPixels
        XCTAssertEqual(cap, 23_333_333)
        XCTAssertEqual(OCRMemoryBudget.cappedScale(4, width: 1000, height: 1000), 4, "16 MP is within the cap")
        XCTAssertEqual(OCRMemoryBudget.cappedScale(0.5, width: 3000, height: 4000), 0.5)
        XCTAssertEqual(OCRMemoryBudget.cappedScale(1, width: 3000, height: 4000), 1)
        for (w, h, f) in [(3000, 3000, 4.0), (6000, 6600, 1.0), (6000, 6600, 4.0), (60000, 60000, 0.5), (100_000, 100, 3.0)] {
            let s = OCRMemoryBudget.cappedScale(f, width: w, height: h)
            let size = OCRMemoryBudget.scaledSize(width: w, height: h, by: s)
            let scaled = size.width * size.height
            XCTAssertLessThanOrEqual(scaled, cap, "\(w) × \(h) × \(f)")
            XCTAssertGreaterThan(scaled, cap * 99 / 100, "\(w) × \(h) × \(f): as large as the cap allows")
        }
        let pipeline = OCRPipeline(options: { var o = OCRPipeline.Options(); o.maxWorkPixels = 100_000; return o }())
        let engine = try? XCTUnwrap(Self.engine)
        let big = OCRImage(width: 2000, height: 2000)
        XCTAssertNotNil(engine.map { pipeline.read(big, engine: $0) }, "a 4 MP blank image read under a 0.1 MP cap")
        // What Leptonica makes is what was counted.
        let s = OCRMemoryBudget.cappedScale(1, width: 2000, height: 2000, maxPixels: 100_000)
        let shrunk = OCRPreprocess.scale(big, by: s)
        XCTAssertEqual([shrunk.width, shrunk.height], [OCRMemoryBudget.scaledSize(width: 2000, height: 2000, by: s).width, OCRMemoryBudget.scaledSize(width: 2000, height: 2000, by: s).height])
        XCTAssertLessThanOrEqual(shrunk.width * shrunk.height, 100_000)
    }

    /// The memory model on headers alone: what each kind of file costs to decode.
    func testDecodeCostCountsTheDecodersOwnBuffers() {
        let oneBit = OCRImage.Header(format: "PNG", width: 6000, height: 6600, bitsPerSample: 1, samplesPerPixel: 1)
        XCTAssertEqual(oneBit.decodeBytes, 752 * 6600 + 6000 * 6600, "the 1-bit image and its 8-bit copy")
        let colourPNG = OCRImage.Header(format: "PNG", width: 6000, height: 6600, bitsPerSample: 8, samplesPerPixel: 3)
        XCTAssertEqual(colourPNG.decodeBytes, 39_600_000 * 7, "libpng's rows and the 4-byte pixels")
        let greyAlpha = OCRImage.Header(format: "PNG", width: 1000, height: 1000, bitsPerSample: 8, samplesPerPixel: 2)
        XCTAssertEqual(greyAlpha.decodeBytes, 6_000_000, "grey with alpha becomes 4 bytes a pixel")
        let baseline = JPEGFrame(width: 4000, height: 3000, progressive: false, components: [.init(horizontal: 2, vertical: 2), .init(horizontal: 1, vertical: 1), .init(horizontal: 1, vertical: 1)], firstScanComponents: 3)
        XCTAssertEqual(baseline.coefficientBytes, 0, "a baseline JPEG is decoded a strip at a time")
        var separateScans = baseline
        separateScans.firstScanComponents = 1
        XCTAssertEqual(separateScans.coefficientBytes, 500 * 376 * 128 + 2 * 250 * 188 * 128, "components in separate scans are buffered whole")
        let unknown = OCRImage.Header(format: "JPEG", width: 6000, height: 6600, bitsPerSample: 8, samplesPerPixel: 3)
        XCTAssertGreaterThan(unknown.decodeBytes, 6000 * 6600 * 6, "a frame that could not be read is charged as progressive colour")
    }

    /// A phone photo of the r00 slip: scaled up, on a brown table, in colour.
    func photo(width: Int, height: Int, receiptScale: Double, progressive: Bool) throws -> String {
        let receipt = try OCRImage(contentsOf: ReceiptTruth.folder.appendingPathComponent("r00-us-fuel.png").path)
        let slip = OCRPreprocess.scale(receipt, by: receiptScale)
        var colour: UnsafeMutablePointer<PIX>? = pixConvertTo32(slip.pix)
        defer { pixDestroy(&colour) }
        let canvas = OCRImage(owning: pixCreate(Int32(width), Int32(height), 32))
        pixSetAllArbitrary(canvas.pix, 0x8C7A_6400)
        pixRasterop(canvas.pix, Int32((width - slip.width) / 2), Int32((height - slip.height) / 2), Int32(slip.width), Int32(slip.height), PIX_SRC, colour, 0, 0)
        let path = folder.appendingPathComponent("photo-\(progressive ? "progressive" : "baseline").jpg").path
        try canvas.writeJPEG(to: path, quality: 88, progressive: progressive)
        return path
    }
}
