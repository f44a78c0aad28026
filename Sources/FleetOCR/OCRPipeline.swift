import Foundation

/// Reads one receipt image: decode within the pixel budget, preprocess, find the upright
/// orientation, recognise. Which steps run is an option, so the benchmark can measure each.
///
/// Orientation tries all four turns (docs/FORMATS.md, "Reading the image"):
/// 1. Tesseract's orientation detection (OSD, osd.traineddata) on a copy of at most 4 MP; when
///    its confidence is at least `osdConfidence` its turn is applied;
/// 2. the image is read; a confident reading (mean word confidence `uprightConfidence`) is the
///    answer, so an upright slip OSD was unsure about is never turned on a guess;
/// 3. otherwise a reduced copy is read in each of the other three turns, and a turn whose mean
///    word confidence beats the current one by `turnMargin` is deskewed and read in full.
/// Why both: on the measured images OSD was right on every sideways scan and photo it was sure
/// about (confidence ≥ 2) but unsure (< 2) on a third of them, and it took clean slips upside
/// down at confidence 2–4 (then step 3 turns them back); the reading alone cannot tell a slip
/// upside down from a blurred one without trials, which cost about a reading each.
/// The result records the turn and which step chose it (`OCRResult.orientation`).
public struct OCRPipeline: Sendable {
    public struct Options: Sendable, Equatable {
        public var normalizeBackground = true
        /// Cut a photo to the sheet of paper in it (`OCRPreprocess.paperCrop`). Off: it read 3 more
        /// dates and 1 more total of 21 phone-like photos, but on two unevenly lit generated slips
        /// it took the shaded side of the paper for table and cut the totals off (docs/FORMATS.md).
        public var cropPaper = false
        public var scale = true
        public var deskew = true
        public var orient = true
        /// How the first turn is guessed before reading: Tesseract's OSD, or (the earlier method,
        /// kept to measure against) the direction of the ink's lines, which only tells sideways
        /// from not and then tries 180° only.
        public var orientation = OrientationGuess.osd
        /// OSD's confidence from which its turn is taken as the first guess.
        public var osdConfidence = 2.0
        /// OSD looks at a copy of at most this many pixels: it needs far less detail than reading.
        public var osdPixels = 4_000_000
        /// A trial turn must beat the current one's mean word confidence by this much.
        public var turnMargin = 10.0
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
        /// A JPEG with more pixels than this is decoded at 1/2, 1/4 or 1/8 size (libjpeg's DCT
        /// scaling, nearly free): a 12 MP phone photo at 3 MP, where a slip's text is still
        /// 15–30 px high; decoded again at full size when its text came out under 12 px.
        public var photoPixels = 6_000_000

        public init() {}
    }

    public enum OrientationGuess: String, Sendable {
        case osd, lineDirection
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
        let decoded = try OCRImage(contentsOf: path, maxPixels: options.maxPixels, maxWorkPixels: min(options.maxWorkPixels, options.photoPixels))
        let reduced = decoded.reduced
        var gray = OCRPreprocess.grayscale(decoded)
        // A photo decoded at a reduced size whose text came out smaller than Tesseract reads well
        // (a slip far from the lens) is decoded again at the size the memory budget allows.
        if options.photoPixels < options.maxWorkPixels, reduced,
           let h = OCRPreprocess.textHeight(gray), h < OCRPreprocess.textHeightRange.lowerBound {
            gray = OCRPreprocess.grayscale(try OCRImage(contentsOf: path, maxPixels: options.maxPixels, maxWorkPixels: options.maxWorkPixels))
        }
        let factor = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        return OCRPreprocess.scale(gray, by: factor)
    }

    public func read(_ image: OCRImage, engine: OCREngine) -> OCRResult {
        var gray = OCRPreprocess.grayscale(image)
        // An image handed in bigger than the cap (not through `decode`, which already did this)
        // is scaled down before any step makes a copy of it.
        let shrink = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        if shrink != 1 { gray = OCRPreprocess.scale(gray, by: shrink) }
        if options.cropPaper { gray = OCRPreprocess.paperCrop(gray) }
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
        var method = OCRResult.Orientation.notTried
        var osdConfidence: Double? = nil
        if options.orient {
            switch options.orientation {
            case .osd:
                let osdImage = OCRPreprocess.scale(gray, by: OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.osdPixels))
                if let (q, confidence) = engine.detectOrientation(osdImage) {
                    osdConfidence = confidence
                    if confidence >= options.osdConfidence { turns = q; method = .osd }
                }
                if gray.width * gray.height > OCRMemoryBudget.maxPixelsBesideOSD { engine.releaseOrientationModel() }
            case .lineDirection:
                if let ratio = OCRPreprocess.lineDirectionRatio(gray, textHeight: textHeight), ratio > 1 { turns = 1 }
            }
            if turns != 0 { gray = OCRPreprocess.rotate(gray, quarterTurns: turns) }
        }
        // Skew is found on the image as it will be read: text lines across it.
        let turnedGray = gray
        var skew = 0.0
        if options.deskew { (gray, skew) = OCRPreprocess.deskew(gray) }
        var result = recognize(gray, textHeight: textHeight, engine: engine)
        func mark(_ r: inout OCRResult, turns: Int, method: OCRResult.Orientation, skew: Double = skew) {
            r.quarterTurns = turns
            r.skewDegrees = skew
            r.orientation = method
            r.orientationConfidence = osdConfidence
        }
        mark(&result, turns: turns, method: method)
        guard options.orient, !result.refused else { return result }
        guard result.meanConfidence < options.uprightConfidence else {
            if method != .osd { mark(&result, turns: turns, method: .confidentReading) }
            return result
        }
        let candidates = options.orientation == .osd ? [1, 2, 3] : [2]
        guard let extra = betterTurn(gray, textHeight: textHeight, candidates: candidates, engine: engine) else {
            mark(&result, turns: turns, method: options.orientation == .osd ? .wordConfidence : .notTried)
            return result
        }
        var again = OCRPreprocess.rotate(turnedGray, quarterTurns: extra), skewAgain = 0.0
        if options.deskew { (again, skewAgain) = OCRPreprocess.deskew(again) }
        var turned = recognize(again, textHeight: textHeight, engine: engine)
        mark(&turned, turns: (turns + extra) % 4, method: .wordConfidence, skew: skewAgain)
        mark(&result, turns: turns, method: .wordConfidence)
        return turned.meanConfidence > result.meanConfidence ? turned : result
    }

    private func recognize(_ gray: OCRImage, textHeight: Double?, engine: OCREngine) -> OCRResult {
        guard let method = options.binarize else { return engine.recognize(gray, mode: options.mode) }
        return engine.recognize(OCRPreprocess.binarize(gray, method: method, textHeight: textHeight), mode: options.mode)
    }

    /// The extra clockwise turn (one of `candidates`) whose reading of a reduced copy beats the
    /// image as it is by `turnMargin` in mean word confidence, or nil. Half size, or smaller for
    /// large text: capitals of about 10 px still read confidently the right way up (65–90 on the
    /// fixtures) while text upside down or sideways scores far lower at any size, so small
    /// readings decide, each at about a quarter of the cost of a full one.
    func betterTurn(_ gray: OCRImage, textHeight: Double?, candidates: [Int], engine: OCREngine) -> Int? {
        let factor = min(0.5, 10 / (textHeight ?? 20))
        let small = OCRPreprocess.scale(gray, by: max(factor, 0.1))
        let current = engine.recognize(small, mode: options.mode).meanConfidence
        var best: (turn: Int, confidence: Double)? = nil
        for q in candidates {
            let c = engine.recognize(OCRPreprocess.rotate(small, quarterTurns: q), mode: options.mode).meanConfidence
            if c > current + options.turnMargin, c > best?.confidence ?? -1 { best = (q, c) }
        }
        return best?.turn
    }
}
