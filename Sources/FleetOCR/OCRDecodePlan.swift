/// How an image file will be decoded and what that costs at its peak, worked out from the
/// header alone, before a byte of pixels is allocated.
///
/// The cost is the decoder's own buffers plus the image Leptonica makes plus the 8-bit grey copy
/// the pipeline makes of it (the decoded image is freed once that copy exists):
/// - JPEG: libjpeg's whole-image DCT coefficients when it buffers them (progressive; see
///   `JPEGFrame`), its strip buffers, and the output. Colour and grey JPEGs are decoded straight
///   to 8-bit luminance (libjpeg then skips the chroma upsampling and colour conversion), and at
///   1/2, 1/4 or 1/8 size, libjpeg's DCT scaling, when that brings the pixels within
///   `OCRMemoryBudget.maxWorkPixels`: a 40 MP photo is never held at full size.
/// - PNG: libpng holds every row of the file (8 bits a sample at most: Leptonica strips 16)
///   while Leptonica fills its image: 4 bytes a pixel for colour, grey with alpha or a palette;
///   1, 2, 4 or 8 bits for grey. Then the 8-bit copy, unless it already is 8-bit.
/// - TIFF: one decoded strip, which can be the whole image (libtiff decodes a strip at a time),
///   Leptonica's image and the 8-bit copy; colour, grey with alpha and palette images go through
///   libtiff's RGBA reader into a 4-byte raster of their own besides Leptonica's 4-byte image:
///   12 bytes a pixel for 8-bit RGB (a 26 MP RGB TIFF measured 285 MB to decode alone).
public struct OCRDecodePlan: Equatable, Sendable {
    /// libjpeg's DCT scaling denominator: 1, 2, 4 or 8 (always 1 for PNG and TIFF).
    public var reduction = 1
    /// The size Leptonica will produce.
    public var width: Int
    public var height: Int
    /// JPEG decoded straight to 8-bit luminance (1 and 3 components; CMYK is not).
    public var luminanceOnly = false
    /// The peak bytes of decoding and making the 8-bit grey copy.
    public var bytes: Int

    public var pixels: Int { width * height }

    public init(_ header: OCRImage.Header, maxWorkPixels: Int = OCRMemoryBudget.maxWorkPixels) {
        let w = header.width, h = header.height
        func pix(_ w: Int, _ h: Int, _ depth: Int) -> Int { OCRMemoryBudget.pixBytes(width: w, height: h, depth: depth) }
        switch header.format {
        case "JPEG":
            // A frame that cannot be parsed is charged as the worst kind: progressive, unsubsampled.
            let frame = header.jpeg ?? JPEGFrame(width: w, height: h, progressive: true,
                                                  components: Array(repeating: .init(horizontal: 1, vertical: 1), count: max(header.samplesPerPixel, 1)),
                                                  firstScanComponents: nil)
            var r = 1
            while r < 8, ((w + r - 1) / r) * ((h + r - 1) / r) > maxWorkPixels { r *= 2 }
            reduction = r
            width = (w + r - 1) / r
            height = (h + r - 1) / r
            luminanceOnly = frame.components.count == 1 || frame.components.count == 3
            let out = luminanceOnly ? pix(width, height, 8) : pix(width, height, 32) + pix(width, height, 8)
            bytes = frame.coefficientBytes + frame.stripBytes + out
        case "PNG":
            width = w
            height = h
            let bits = min(header.bitsPerSample, 8)
            let rows = (w * header.samplesPerPixel * bits + 7) / 8 * h
            let depth = header.samplesPerPixel >= 2 || header.colormap ? 32 : bits
            let image = pix(w, h, depth), grey = depth == 8 ? 0 : pix(w, h, 8)
            bytes = max(rows + image, image + grey)
        default: // TIFF
            width = w
            height = h
            let bits = header.bitsPerSample
            let strip = (w * max(header.samplesPerPixel, 1) * bits + 7) / 8 * h
            if header.samplesPerPixel >= 2 || header.colormap {
                bytes = strip + 2 * pix(w, h, 32) + pix(w, h, 8)
            } else {
                bytes = strip + pix(w, h, bits) + (bits == 8 ? 0 : pix(w, h, 8))
            }
        }
    }
}
