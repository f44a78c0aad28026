import Foundation
import CLeptonica

/// A decoded image (a Leptonica `Pix`), owned and freed by this value's lifetime.
///
/// Leptonica decodes PNG, JPEG and TIFF and does the preprocessing Tesseract needs (grey,
/// scale, binarise, deskew); receipts are read through it rather than through Tesseract's own
/// file loading so each step can be measured and tested.
public final class OCRImage {
    let pix: UnsafeMutablePointer<PIX>

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case writeFailed(String)

        public var description: String {
            switch self {
            case let .unreadable(path): return "\(path): not an image Leptonica can decode (PNG, JPEG or TIFF expected), or the file is damaged"
            case let .writeFailed(path): return "\(path): the image could not be written"
            }
        }
    }

    public init(contentsOf path: String) throws {
        guard let p = pixRead(path) else { throw Error.unreadable(path) }
        pix = p
    }

    /// A blank image, `depth` bits per pixel, white.
    public init(width: Int, height: Int, depth: Int = 8) {
        pix = pixCreate(Int32(width), Int32(height), Int32(depth))
        pixSetAllArbitrary(pix, depth == 1 ? 0 : (1 << UInt32(depth)) - 1)
    }

    public var width: Int { Int(pixGetWidth(pix)) }
    public var height: Int { Int(pixGetHeight(pix)) }
    public var depth: Int { Int(pixGetDepth(pix)) }

    public func writePNG(to path: String) throws {
        guard pixWrite(path, pix, Int32(IFF_PNG)) == 0 else { throw Error.writeFailed(path) }
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&p)
    }
}
