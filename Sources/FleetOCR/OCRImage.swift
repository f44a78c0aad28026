import Foundation
import CLeptonica

/// A decoded image (a Leptonica `Pix`), owned and freed by this value's lifetime.
///
/// Leptonica decodes PNG, JPEG and TIFF and does the preprocessing Tesseract needs (grey,
/// scale, binarise, deskew); receipts are read through it rather than through Tesseract's own
/// file loading so each step can be measured and tested.
///
/// Files are checked before they are decoded: the format from the first bytes (a PDF or a HEIC
/// photo is named as such, not reported as "damaged"), and the pixel count from the header, so
/// a 10,000 × 10,000 scan is refused without allocating the 400 MB its pixels would take.
public final class OCRImage {
    let pix: UnsafeMutablePointer<PIX>

    /// The most pixels decoded: 40 MP covers a 5000 × 7000 flatbed scan.
    public static let defaultMaxPixels = 40_000_000
    /// The most memory decoding may take, so that OCR of one image stays under 300 MB (DESIGN §9)
    /// with the Tesseract model and the rest of the process (about 64 MB). Measured peaks of a
    /// whole `fleetkit import`: a 40 MP colour JPEG 256 MB, a 27.7 MP colour PNG 250 MB, a 40 MP
    /// colour PNG 333 MB (libpng holds its own copy of the rows while Leptonica fills the 4-byte
    /// pixels), hence a bound in bytes besides the pixel count. 220 MB leaves a margin for the
    /// estimate: the largest colour PNG accepted (31 MP) peaks near 275 MB.
    public static let maxDecodeBytes = 220_000_000

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case writeFailed(String)
        case empty(String)
        /// A known format that is not a raster image FleetKit reads (PDF, HEIC, GIF…).
        case unsupported(String, format: String)
        case tooLarge(String, width: Int, height: Int, maxPixels: Int)
        case tooLargeToDecode(String, width: Int, height: Int, bytes: Int, maxBytes: Int)

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
                return "\(path): \(w) × \(h) pixels in colour would take \(bytes / 1_000_000) MB to decode, over the \(limit / 1_000_000) MB FleetKit allows one receipt; "
                    + "scan in greyscale or at 300 dpi, save it as JPEG, or downscale it"
            }
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
        public var pixels: Int { width * height }

        /// The peak memory of decoding and turning grey: colour becomes 4 bytes a pixel, grey 1;
        /// libpng also holds the file's rows (up to 8 bits a sample) while Leptonica copies them;
        /// and the grey copy joins the colour one.
        public var decodeBytes: Int {
            let colour = samplesPerPixel >= 3 || colormap
            let pix = colour ? 4 : bitsPerSample == 1 ? 0 : 1
            let pngRows = format == "PNG" ? samplesPerPixel * min(bitsPerSample, 8) / 8 : 0
            return pixels * (pix + max(pngRows, colour ? 1 : 0))
        }
    }

    /// Takes ownership of `pix` (it is destroyed with this value).
    init(owning pix: UnsafeMutablePointer<PIX>) {
        self.pix = pix
    }

    /// Decodes a PNG, JPEG or TIFF file after checking its format and size.
    public convenience init(contentsOf path: String, maxPixels: Int = OCRImage.defaultMaxPixels, maxDecodeBytes: Int = OCRImage.maxDecodeBytes) throws {
        let header = try OCRImage.header(of: path)
        guard header.pixels <= maxPixels else {
            throw Error.tooLarge(path, width: header.width, height: header.height, maxPixels: maxPixels)
        }
        guard header.decodeBytes <= maxDecodeBytes else {
            throw Error.tooLargeToDecode(path, width: header.width, height: header.height, bytes: header.decodeBytes, maxBytes: maxDecodeBytes)
        }
        OCRImage.quietLeptonica
        guard let p = pixRead(path) else { throw Error.unreadable(path) }
        self.init(owning: p)
    }

    /// A blank image, `depth` bits per pixel, white.
    public init(width: Int, height: Int, depth: Int = 8) {
        pix = pixCreate(Int32(width), Int32(height), Int32(depth))
        pixSetAllArbitrary(pix, depth == 1 ? 0 : (1 << UInt32(depth)) - 1)
    }

    /// The format and size of an image file, from its first bytes and header only.
    public static func header(of path: String) throws -> Header {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Error.unreadable(path) }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard !head.isEmpty else { throw Error.empty(path) }
        guard let format = rasterFormat(head) else {
            if let other = otherFormat(head) { throw Error.unsupported(path, format: other) }
            throw Error.unreadable(path)
        }
        if format == "PNG", !pngIsComplete(path) { throw Error.unreadable(path) }
        quietLeptonica
        var f: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        guard pixReadHeader(path, &f, &w, &h, &bps, &spp, &cmap) == 0, w > 0, h > 0 else { throw Error.unreadable(path) }
        return Header(format: format, width: Int(w), height: Int(h), bitsPerSample: Int(bps), samplesPerPixel: Int(spp), colormap: cmap != 0)
    }

    /// PNG, JPEG or TIFF from magic bytes; nil for anything else.
    public static func rasterFormat(_ head: Data) -> String? {
        let b = [UInt8](head.prefix(8))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        return nil
    }

    /// Whether a PNG's chunks run whole to `IEND`. A cut-off upload is the usual damaged
    /// receipt; caught here it is a plain error, where libpng would print its own complaint on
    /// stderr (into the nightly log) before failing.
    static func pngIsComplete(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return false }
        var offset: UInt64 = 8
        while offset + 12 <= size {
            guard (try? handle.seek(toOffset: offset)) != nil, let head = try? handle.read(upToCount: 8), head.count == 8 else { return false }
            let length = head.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if head.suffix(4).elementsEqual("IEND".utf8) { return true }
            offset += 12 + length
        }
        return false
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

    public var width: Int { Int(pixGetWidth(pix)) }
    public var height: Int { Int(pixGetHeight(pix)) }
    public var depth: Int { Int(pixGetDepth(pix)) }

    public func writePNG(to path: String) throws {
        guard pixWrite(path, pix, Int32(IFF_PNG)) == 0 else { throw Error.writeFailed(path) }
    }

    /// Leptonica prints every failed decode to stderr; fleetkit reports errors itself.
    static let quietLeptonica: Void = { _ = setMsgSeverity(Int32(L_SEVERITY_NONE)) }()

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&p)
    }
}
