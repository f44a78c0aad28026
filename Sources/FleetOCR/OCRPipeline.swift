import Foundation

/// Reads one receipt image: decode within the pixel budget, preprocess, find the upright
/// orientation, recognise. Which steps run is an option, so the benchmark can measure each.
///
/// Orientation is found without Tesseract's OSD: on the fixtures OSD (osd.traineddata) judged
/// clean upright slips to be turned 180° and took about as long as reading them, and
/// Leptonica's `pixOrientDetect` needs more lines of text than a receipt has. Instead:
/// 1. sideways or not from the image's geometry (`OCRPreprocess.lineDirectionRatio`, a few
///    milliseconds); a sideways image is turned a quarter clockwise;
/// 2. the image is read; a confident reading (mean word confidence `uprightConfidence`) is the
///    answer, one pass, as for every clean upright slip;
/// 3. otherwise a half-size copy turned 180° is read, and if it reads clearly better (text
///    upside down scores 25–50, the right way up 65–90 even at half size), the turned image is
///    read in full.
public struct OCRPipeline: Sendable {
    public struct Options: Sendable, Equatable {
        public var normalizeBackground = true
        public var scale = true
        public var deskew = true
        public var orient = true
        /// nil: Tesseract gets the normalised grey image and binarises it itself (Otsu), which
        /// read the fixtures best; a Leptonica binarisation can be chosen instead.
        public var binarize: OCRPreprocess.Binarization? = nil
        public var mode: OCREngine.PageSegmentation = .singleBlock
        /// A first reading at least this confident (mean word confidence) is taken as upright.
        public var uprightConfidence = 70.0
        public var maxPixels = OCRImage.defaultMaxPixels
        /// The most pixels any image in the pipeline has (`OCRMemoryBudget`): a bigger decoded
        /// image is scaled down to it first, and small text is scaled up only as far as it allows.
        public var maxWorkPixels = OCRMemoryBudget.maxWorkPixels

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Decodes and reads the image file at `path`. Throws `OCRImage.Error` for files that are
    /// not a readable PNG, JPEG or TIFF within the pixel and memory budget.
    public func read(contentsOf path: String, engine: OCREngine) throws -> OCRResult {
        read(try Self.decode(path, options: options), engine: engine)
    }

    /// The file as 8-bit grey of at most `maxWorkPixels`: grey at once, so the colour pixels
    /// (4 bytes each) are freed before anything else is allocated, then scaled down if bigger
    /// (a 40 MP 1-bit scan or PNG photo; a JPEG is already decoded at a reduced size).
    static func decode(_ path: String, options: Options) throws -> OCRImage {
        let gray = OCRPreprocess.grayscale(try OCRImage(contentsOf: path, maxPixels: options.maxPixels, maxWorkPixels: options.maxWorkPixels))
        let factor = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        return OCRPreprocess.scale(gray, by: factor)
    }

    public func read(_ image: OCRImage, engine: OCREngine) -> OCRResult {
        var gray = OCRPreprocess.grayscale(image)
        // An image handed in bigger than the cap (not through `decode`, which already did this)
        // is scaled down before any step makes a copy of it.
        let shrink = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        if shrink != 1 { gray = OCRPreprocess.scale(gray, by: shrink) }
        if options.normalizeBackground { gray = OCRPreprocess.normalizeBackground(gray) }
        let height = OCRPreprocess.textHeight(gray)
        var textHeight = height
        // Scaled to the text height, never past `maxWorkPixels` (and down to it when bigger):
        // a 1-bit bomb of 7 px specks was once scaled up 4× to 634 MP here.
        let wanted = options.scale ? OCRPreprocess.scaleFactor(textHeight: height) : 1
        let factor = OCRMemoryBudget.cappedScale(wanted, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        if factor != 1 {
            gray = OCRPreprocess.scale(gray, by: factor)
            textHeight = height.map { $0 * factor }
        }
        var turns = 0
        if options.orient, let ratio = OCRPreprocess.lineDirectionRatio(gray, textHeight: textHeight), ratio > 1 {
            gray = OCRPreprocess.rotate(gray, quarterTurns: 1)
            turns = 1
        }
        var skew = 0.0
        if options.deskew { (gray, skew) = OCRPreprocess.deskew(gray) }
        var result = recognize(gray, textHeight: textHeight, engine: engine)
        result.quarterTurns = turns
        result.skewDegrees = skew
        guard options.orient, !result.refused, result.meanConfidence < options.uprightConfidence,
              upsideDown(gray, textHeight: textHeight, confidence: result.meanConfidence, engine: engine) else {
            return result
        }
        var flipped = recognize(OCRPreprocess.rotate(gray, quarterTurns: 2), textHeight: textHeight, engine: engine)
        flipped.quarterTurns = turns + 2
        flipped.skewDegrees = skew
        return flipped.meanConfidence > result.meanConfidence ? flipped : result
    }

    private func recognize(_ gray: OCRImage, textHeight: Double?, engine: OCREngine) -> OCRResult {
        guard let method = options.binarize else { return engine.recognize(gray, mode: options.mode) }
        return engine.recognize(OCRPreprocess.binarize(gray, method: method, textHeight: textHeight), mode: options.mode)
    }

    /// Whether a half-size copy turned 180° reads clearly better than the full-size reading did.
    /// Half size, or smaller for large text: capitals of about 10 px still read confidently the
    /// right way up (65–90 on the fixtures) while text upside down scores 25–50 at any size, so
    /// one small reading decides, at about a quarter of the cost of a full one.
    func upsideDown(_ gray: OCRImage, textHeight: Double?, confidence: Double, engine: OCREngine) -> Bool {
        let factor = min(0.5, 10 / (textHeight ?? 20))
        let small = OCRPreprocess.scale(gray, by: max(factor, 0.1))
        let turned = engine.recognize(OCRPreprocess.rotate(small, quarterTurns: 2), mode: options.mode).meanConfidence
        return turned > confidence + 10
    }
}
