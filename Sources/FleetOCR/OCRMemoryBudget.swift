/// How reading one receipt stays under 300 MB of peak memory (docs/OPERATIONS.md, "Performance notes") whatever its header
/// declares: every step's memory is known before it runs, from the header and the pixel count.
///
/// Why it is a budget and not a pixel limit: a pixel limit checked once on the header let a
/// 15 KB 1-bit PNG of 39.6 MP through (5 MB decoded), after which preprocessing made it 8-bit
/// and, seeing 7 px "text", scaled it up 4× to 634 MP before Tesseract read it (1.9 GB); and a
/// 192-byte progressive JPEG made libjpeg keep 238 MB of coefficients (442 MB peak). Now:
/// 1. decoding is charged from the header for the decoder's own buffers too (`OCRDecodePlan`),
///    and JPEG is decoded at 1/2, 1/4 or 1/8 size when that brings it within `maxWorkPixels`;
/// 2. the image the pipeline works on, and every scaled copy of it, is at most `maxWorkPixels`:
///    bigger is scaled down after decoding, and text is never scaled up past it.
///
/// Figures measured on Debian 12 (Leptonica 1.82, libjpeg-turbo 2.1.5, Tesseract 5.3.0, eng).
public enum OCRMemoryBudget {
    /// The peak resident memory one `fleetkit import` of a receipt may reach.
    public static let processBytes = 300_000_000
    /// What the process holds before any image: `fleetkit import` of a 502 × 574 receipt peaks at
    /// 71.5 MB (Swift runtime, SQLite, the Tesseract model), rounded up.
    public static let baseBytes = 75_000_000
    /// What the image steps may take: the rest, less 15 MB for malloc's slack.
    public static let imageBytes = processBytes - baseBytes - 15_000_000

    /// Tesseract's own peak per pixel of the 8-bit grey image it is given (its copy, its
    /// binarisation, blobs and layout): measured 4.2 bytes for 2 MP of receipt text, 3.3 for 8 MP,
    /// 3.2 for 16 MP, 3.9 for 8 MP of 7 px specks, 2.2 for 8 MP of 1 px dot noise. Charged at 6,
    /// the most measured plus 40% for content nobody measured: at 4.5 the cap would be 28 MP,
    /// and the 1-bit speck bomb peaked at 278 MB there, too close to 300.
    public static let tesseractBytesPerPixel = 6.0
    /// 8-bit copies of the working image alive at once in `OCRPipeline`: the image as it came,
    /// the current step's input and its output (background, scale, rotation, deskew).
    public static let pipelineCopies = 3.0

    /// The most pixels the pipeline works on: 23 MP, so that 3 grey copies and Tesseract fit.
    public static let maxWorkPixels = Int(Double(imageBytes) / (pipelineCopies + tesseractBytesPerPixel))

    /// Tesseract's orientation model (osd.traineddata) once loaded: `fleetkit import` of a
    /// 502 × 574 receipt peaked at 71.5 MB without it and 105 MB with it (release, 2026-11-25).
    public static let osdBytes = 33_000_000
    /// A working image with more pixels than this (19.7 MP) is read after the orientation model
    /// is freed (`OCREngine.releaseOrientationModel`): the model and the reading would not both
    /// fit the image budget. Smaller images, every receipt photo once decoded, keep it loaded.
    public static let maxPixelsBesideOSD = Int(Double(imageBytes - osdBytes) / (pipelineCopies + tesseractBytesPerPixel))

    /// The factor (at most 1) that brings `pixels` down to `maxPixels`.
    public static func shrinkFactor(pixels: Int, maxPixels: Int = maxWorkPixels) -> Double {
        cappedScale(1, width: pixels, height: 1, maxPixels: maxPixels)
    }

    /// `factor` capped so that a `width` × `height` image scaled by it has at most `maxPixels`,
    /// counted as Leptonica sizes the result (each side rounded, so a hair under the square root).
    public static func cappedScale(_ factor: Double, width: Int, height: Int, maxPixels: Int = maxWorkPixels) -> Double {
        let pixels = Double(width) * Double(height)
        guard pixels > 0, pixels * factor * factor > Double(maxPixels) else { return factor }
        var capped = (Double(maxPixels) / pixels).squareRoot() * 0.999
        while capped > 0.0001 {
            let (w, h) = scaledSize(width: width, height: height, by: capped)
            if w * h <= maxPixels { break }
            capped *= 0.999
        }
        // An image already (nearly) at the cap is left as it is rather than resampled by 0.999
        // or 1.001: that would only blur it.
        return factor > 1 && capped >= 1 && capped < 1.01 ? 1 : capped
    }

    /// The size `pixScale` gives an image scaled by `factor` (Leptonica rounds in single precision).
    public static func scaledSize(width: Int, height: Int, by factor: Double) -> (width: Int, height: Int) {
        (Int(Float(factor) * Float(width) + 0.5), Int(Float(factor) * Float(height) + 0.5))
    }

    /// Bytes of a Leptonica image of this size and depth (rows padded to 32 bits).
    static func pixBytes(width: Int, height: Int, depth: Int) -> Int {
        (width * depth + 31) / 32 * 4 * height
    }
}
