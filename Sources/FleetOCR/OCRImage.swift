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

    /// The most pixels decoded. 40 MP covers a 5000 × 7000 flatbed scan; decoded as 32-bit RGB
    /// it takes 160 MB, which keeps OCR of one image under the 300 MB budget (DESIGN §9).
    public static let defaultMaxPixels = 40_000_000

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case writeFailed(String)
        case empty(String)
        /// A known format that is not a raster image FleetKit reads (PDF, HEIC, GIF…).
        case unsupported(String, format: String)
        case tooLarge(String, width: Int, height: Int, maxPixels: Int)

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
            }
        }
    }

    /// What the first bytes and the header say, without decoding the pixels.
    public struct Header: Equatable, Sendable {
        public var format: String        // "PNG", "JPEG", "TIFF"
        public var width: Int
        public var height: Int
        public var pixels: Int { width * height }
    }

    /// Takes ownership of `pix` (it is destroyed with this value).
    init(owning pix: UnsafeMutablePointer<PIX>) {
        self.pix = pix
    }

    /// Decodes a PNG, JPEG or TIFF file after checking its format and size.
    public convenience init(contentsOf path: String, maxPixels: Int = OCRImage.defaultMaxPixels) throws {
        let header = try OCRImage.header(of: path)
        guard header.pixels <= maxPixels else {
            throw Error.tooLarge(path, width: header.width, height: header.height, maxPixels: maxPixels)
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
        quietLeptonica
        var f: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        guard pixReadHeader(path, &f, &w, &h, &bps, &spp, &cmap) == 0, w > 0, h > 0 else { throw Error.unreadable(path) }
        return Header(format: format, width: Int(w), height: Int(h))
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
