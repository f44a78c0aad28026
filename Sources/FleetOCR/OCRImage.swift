import Foundation
import CLeptonica

/// A decoded image (a Leptonica `Pix`), owned and freed by this value's lifetime.
///
/// Leptonica decodes PNG, JPEG and TIFF and does the preprocessing Tesseract needs (grey,
/// scale, binarise, deskew); receipts are read through it rather than through Tesseract's own
/// file loading so each step can be measured and tested.
///
/// Files are checked before they are decoded: the format from the first bytes (a PDF or a HEIC
/// photo is named as such, not reported as "damaged"), and from the header the pixel count and
/// the peak memory of decoding (`OCRDecodePlan`), so a 10,000 × 10,000 scan or a progressive
/// JPEG bomb is refused without allocating what its pixels would take, and a large JPEG photo
/// is decoded at a reduced size instead of at full size.
public final class OCRImage {
    let pix: UnsafeMutablePointer<PIX>

    /// The most pixels decoded (after a JPEG's reduction): 40 MP covers a 5000 × 7000 flatbed scan.
    public static let defaultMaxPixels = 40_000_000
    /// The most memory decoding may take (`OCRDecodePlan.bytes`), so that OCR of one image stays
    /// under 300 MB with the Tesseract model and the rest of the process: `OCRMemoryBudget.imageBytes`.
    /// Before the decoder's own buffers were counted, a 40 MP colour PNG peaked at 333 MB and a
    /// 39.6 MP progressive colour JPEG at 442 MB.
    public static let maxDecodeBytes = OCRMemoryBudget.imageBytes

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case writeFailed(String)
        case empty(String)
        /// A known format that is not a raster image FleetKit reads (PDF, HEIC, GIF…).
        case unsupported(String, format: String)
        case tooLarge(String, width: Int, height: Int, maxPixels: Int)
        case tooLargeToDecode(String, width: Int, height: Int, bytes: Int, maxBytes: Int)
        /// A PNG whose text chunks (metadata, not the image) would take too much memory to read.
        case textChunks(String, bytes: Int)
        /// The file could not be opened or read (the system's reason): not a judgement of its
        /// content, so never reported as a damaged or foreign image.
        case cannotRead(String, reason: String)

        public var description: String {
            switch self {
            case let .unreadable(path): return "\(path): not an image Leptonica can decode (PNG, JPEG or TIFF expected), or the file is damaged"
            case let .writeFailed(path): return "\(path): the image could not be written"
            case let .empty(path): return "\(path): the file is empty"
            case let .unsupported(path, format):
                return "\(path): a \(format) file, not a PNG, JPEG or TIFF image; "
                    + (format == "PDF" ? "export the receipt page as PNG or JPEG (e.g. `pdftoppm -r 300 -png`)" : "save the photo as JPEG or PNG")
            case let .tooLarge(path, w, h, limit):
                return "\(path): \(w) × \(h) pixels (\(w * h / 1_000_000) MP) is over the \(limit / 1_000_000) MP FleetKit decodes for one receipt; "
                    + "scan at 300 dpi or downscale the photo"
            case let .tooLargeToDecode(path, w, h, bytes, limit):
                return "\(path): " + Self.tooLargeToDecodeReason(width: w, height: h, bytes: bytes, maxBytes: limit)
            case let .cannotRead(path, reason):
                return "\(path): the file cannot be read (\(reason)); check that it is a readable file and import it again"
            case let .textChunks(path, bytes):
                return "\(path): the PNG carries text chunks (metadata, not the image) that could take \(bytes / 1_000_000) MB to read, more than one receipt may use; save the image again without metadata (e.g. `optipng -strip all` or any editor's export)"
            }
        }

        /// "the image is W × H pixels, which would need N MB to read, …; scale it down below … or
        /// crop it": the size suggested is the same shape scaled to fit the budget.
        public static func tooLargeToDecodeReason(width w: Int, height h: Int, bytes: Int, maxBytes limit: Int) -> String {
            let f = bytes > 0 ? (Double(limit) / Double(bytes)).squareRoot() : 1
            return "the image is \(w) × \(h) pixels, which would need \(bytes / 1_000_000) MB to read, over the \(limit / 1_000_000) MB FleetKit allows one receipt; "
                + "scale it down below \(Int(Double(w) * f)) × \(Int(Double(h) * f)) pixels or crop it (a progressive JPEG costs most: save it as baseline JPEG)"
        }
    }

    /// What the first bytes and the header say, without decoding the pixels.
    public struct Header: Equatable, Sendable {
        public var format: String        // "PNG", "JPEG", "TIFF"
        public var width: Int
        public var height: Int
        public var bitsPerSample = 8
        public var samplesPerPixel = 1
        public var colormap = false
        /// A JPEG's frame and first scan (whether libjpeg will buffer the whole image); nil for
        /// other formats, or a JPEG whose markers could not be followed (charged as the worst kind).
        public var jpeg: JPEGFrame? = nil
        /// What libpng may allocate for a PNG's text chunks (`tEXt`, `zTXt`, `iTXt`), which it
        /// reads and keeps beside the pixels: a plain chunk its length, a compressed one up to
        /// libpng's limit per chunk (`PNGChunkScan.textChunkLimit`). Charged to decoding: 80 zTXt chunks
        /// of a few KB once took a receipt's read to 673 MiB.
        public var textBytes = 0
        public var pixels: Int { width * height }

        /// The peak memory of decoding and turning grey (`OCRDecodePlan`).
        public var decodeBytes: Int { OCRDecodePlan(self).bytes }
    }

    /// Takes ownership of `pix` (it is destroyed with this value).
    init(owning pix: UnsafeMutablePointer<PIX>) {
        self.pix = pix
    }

    /// Decodes a PNG, JPEG or TIFF file after checking its format, size and decoding memory
    /// (`OCRDecodePlan`). A JPEG comes out as 8-bit luminance, at 1/2, 1/4 or 1/8 size when it
    /// has more than `maxWorkPixels`; other formats at full size and depth.
    public convenience init(contentsOf path: String, maxPixels: Int = OCRImage.defaultMaxPixels, maxDecodeBytes: Int = OCRImage.maxDecodeBytes,
                            maxWorkPixels: Int = OCRMemoryBudget.maxWorkPixels) throws {
        let header = try OCRImage.header(of: path)
        let plan = OCRDecodePlan(header, maxWorkPixels: maxWorkPixels)
        guard plan.pixels <= maxPixels else {
            throw Error.tooLarge(path, width: header.width, height: header.height, maxPixels: maxPixels)
        }
        guard plan.bytes <= maxDecodeBytes else {
            throw Error.tooLargeToDecode(path, width: header.width, height: header.height, bytes: plan.bytes, maxBytes: maxDecodeBytes)
        }
        guard plan.bytes + header.textBytes <= maxDecodeBytes else { throw Error.textChunks(path, bytes: header.textBytes) }
        OCRImage.quietLeptonica
        let decoded: UnsafeMutablePointer<PIX>?
        if header.format == "JPEG" {
            var warnings: Int32 = 0
            decoded = pixReadJpeg(path, 0, Int32(plan.reduction), &warnings, plan.luminanceOnly ? Int32(L_JPEG_READ_LUMINANCE) : 0)
        } else {
            decoded = pixRead(path)
        }
        guard let p = decoded else { throw Error.unreadable(path) }
        self.init(owning: p)
        reduced = plan.reduction > 1
    }

    /// Whether the file was decoded at a reduced size (a large JPEG, `OCRDecodePlan.reduction`).
    public private(set) var reduced = false

    /// A blank image, `depth` bits per pixel, white.
    public init(width: Int, height: Int, depth: Int = 8) {
        pix = pixCreate(Int32(width), Int32(height), Int32(depth))
        pixSetAllArbitrary(pix, depth == 1 ? 0 : (1 << UInt32(depth)) - 1)
    }

    /// The format and size of an image file, from its first bytes and header only.
    public static func header(of path: String) throws -> Header {
        let head = try PNGChunkScan.File(path).read(at: 0, count: 16)
        guard !head.isEmpty else { throw Error.empty(path) }
        guard let format = rasterFormat(head) else {
            if let other = otherFormat(head) { throw Error.unsupported(path, format: other) }
            throw Error.unreadable(path)
        }
        var textBytes = 0
        if format == "PNG" {
            guard let chunks = try PNGChunkScan.scan(path) else { throw Error.unreadable(path) }
            textBytes = chunks.textBytes
        }
        quietLeptonica
        var f: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        guard pixReadHeader(path, &f, &w, &h, &bps, &spp, &cmap) == 0, w > 0, h > 0 else { throw Error.unreadable(path) }
        return Header(format: format, width: Int(w), height: Int(h), bitsPerSample: Int(bps), samplesPerPixel: Int(spp), colormap: cmap != 0,
                      jpeg: format == "JPEG" ? JPEGFrame.read(path: path) : nil, textBytes: textBytes)
    }

    /// PNG, JPEG or TIFF from magic bytes; nil for anything else.
    public static func rasterFormat(_ head: Data) -> String? {
        let b = [UInt8](head.prefix(8))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        return nil
    }

    /// Formats a receipt often arrives in that FleetKit does not read, named for the error message.
    public static func otherFormat(_ head: Data) -> String? {
        let b = [UInt8](head.prefix(16))
        if b.starts(with: Array("%PDF".utf8)) { return "PDF" }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            return ["heic", "heix", "mif1", "msf1", "hevc"].contains(brand) ? "HEIC" : brand == "avif" ? "AVIF" : "ISO media (\(brand))"
        }
        if b.starts(with: Array("GIF8".utf8)) { return "GIF" }
        if b.starts(with: Array("BM".utf8)) { return "BMP" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        return nil
    }

    /// The middle `fraction` of the image across and down (0.5: the central quarter of its
    /// area), as a new image; the image itself (a clone) when `fraction` is 1 or more.
    public func middle(_ fraction: Double) -> OCRImage {
        let w = Int((Double(width) * fraction).rounded()), h = Int((Double(height) * fraction).rounded())
        guard fraction < 1, w > 0, h > 0 else { return OCRImage(owning: pixClone(pix)) }
        var box = boxCreate(Int32((width - w) / 2), Int32((height - h) / 2), Int32(w), Int32(h))
        defer { boxDestroy(&box) }
        guard let box, let p = pixClipRectangle(pix, box, nil) else { return OCRImage(owning: pixClone(pix)) }
        return OCRImage(owning: p)
    }

    /// The rectangle `x, y, width, height` of the image (clipped to it) as a new image; nil
    /// when it lies outside.
    public func crop(x: Int, y: Int, width w: Int, height h: Int) -> OCRImage? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return nil }
        var box = boxCreate(Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
        defer { boxDestroy(&box) }
        guard let box, let p = pixClipRectangle(pix, box, nil) else { return nil }
        return OCRImage(owning: p)
    }

    public var width: Int { Int(pixGetWidth(pix)) }
    public var height: Int { Int(pixGetHeight(pix)) }
    public var depth: Int { Int(pixGetDepth(pix)) }

    public func writePNG(to path: String) throws {
        guard pixWrite(path, pix, Int32(IFF_PNG)) == 0 else { throw Error.writeFailed(path) }
    }

    /// A JPEG (baseline, or progressive: the kind libjpeg must buffer whole to read back).
    public func writeJPEG(to path: String, quality: Int = 90, progressive: Bool = false) throws {
        guard pixWriteJpeg(path, pix, Int32(quality), progressive ? 1 : 0) == 0 else { throw Error.writeFailed(path) }
    }

    /// Leptonica prints every failed decode to stderr; fleetkit reports errors itself.
    static let quietLeptonica: Void = { _ = setMsgSeverity(Int32(L_SEVERITY_NONE)) }()

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&p)
    }
}
