import Foundation

/// Reads one receipt image: decode within the pixel budget, preprocess, find the upright
/// orientation, recognise. Which steps run is an option, so the benchmark can measure each.
///
/// Orientation tries all four turns (docs/FORMATS.md, "Reading the image"):
/// 1. sideways or not from the image's geometry (`OCRPreprocess.lineDirectionRatio`, a few
///    milliseconds; OSD's sure turn instead when the ratio is in `unsureLineRatio` or there is
///    none), and the image is read so; a confident reading (mean word confidence
///    `uprightConfidence`), or one the caller's judge is settled by, is the answer, one reading,
///    as for every clean slip;
/// 2. otherwise Tesseract's orientation detection (OSD, osd.traineddata) on a copy of at most
///    4 MP; when its confidence is at least `osdConfidence`, its turn is read if not read yet,
///    and the first reading is the answer if it was (a poor reading OSD confirms upright);
/// 3. still not confident: a reduced copy is read in the best turn so far and in its half turn
///    (upside down; every turn not read yet with `sidewaysTrials`), and one whose mean word
///    confidence beats the best so far by `turnMargin` is deskewed and read in full.
/// Why OSD is not first: it costs 0.1–0.6 s of CPU an image (it doubled the CPU per receipt on
/// the fixtures and real scans) and was unsure (< 2) on a third of the measured images, while
/// the geometry guess is right on every measured one and a wrong guess reads poorly, which sends
/// the image to OSD and the trials anyway. On real phone photos the geometry guess alone had
/// turned upright slips sideways (before step 2 existed, with only a 180° retry).
/// The result records the turn and which step chose it (`OCRResult.orientation`). Small print
/// the judge is not settled by is then read once more, scaled (`Options.smallPrintHeight`), and
/// a reading it is still not settled by is read once more in the language the judge names
/// (`Options.secondLanguage`: the OSD script, the receipt's country), then has the lines the judge
/// names read again alone (`Options.rereadLines`).
public struct OCRPipeline: Sendable {
    public struct Options: Sendable, Equatable {
        public var normalizeBackground = true
        /// Cut a photo to the sheet of paper in it (`OCRPreprocess.paperCrop`). Off: on the
        /// benchmark's realistic set (`make bench` row 7) it cost 3 of 10 flat phone photos their
        /// date and total and gained nothing elsewhere, although it helped the simpler photos of
        /// `photo-transforms.py` (docs/FORMATS.md, "What each step is worth").
        public var cropPaper = false
        /// Cut a photographed slip to its paper, warping a slanted one to an upright rectangle
        /// (`OCRPerspective`: only where the paper's outline is a clean quadrilateral with table
        /// all round; scans are left as they are). On the benchmark's distorted phone photos 3 → 7
        /// of 10 read, the rest as before (docs/FORMATS.md, "Perspective").
        public var correctPerspective = true
        public var scale = true
        public var deskew = true
        public var orient = true
        /// How the turn is guessed before and after the first reading (`OrientationGuess`).
        public var orientation = OrientationGuess.lineDirectionThenOSD
        /// OSD's confidence from which its turn is taken as the first guess.
        public var osdConfidence = 2.0
        /// OSD's confidence in the script from which the script names a language to read in.
        public var osdScriptConfidence = 1.0
        /// OSD looks at a copy of at most this many pixels: it needs far less detail than reading.
        public var osdPixels = 4_000_000
        /// A trial turn must beat the current one's mean word confidence by this much.
        public var turnMargin = 10.0
        /// Whether the trial readings also read the two sideways turns, or only the half turn of
        /// the best reading so far (is the slip upside down?). Off: on the benchmark's 20 photos
        /// and 28 turned copies the sideways trials cost over half of all trial CPU (a noisy photo
        /// read across its lines is the dearest reading) and never chose a right turn the half
        /// turn, OSD or the line direction had not (docs/FORMATS.md, "Speed").
        public var sidewaysTrials = false
        /// The trial readings of `betterTurn` read the middle of the image, this fraction across
        /// and down (1: all of it). Measured and not switched on (docs/FORMATS.md, "Speed"): at
        /// 0.5 the trials cost a quarter as much, but chose another turn on 3 of 10 distorted
        /// photos, whose full readings in that turn ate the saving (one of them, upside down, was
        /// then read right where it had not been).
        public var trialArea = 1.0
        /// The text height and the line direction are estimated on a copy of at most this many
        /// pixels, which OSD then looks at too (Int.max: at full size). Measured and not switched
        /// on at 4 MP (docs/FORMATS.md, "Speed"): the estimates moved enough to change which
        /// photos were scaled and read confidently, 14 of 20 photos read other fields, and the
        /// CPU saved was within the noise of the shared machine.
        public var estimatePixels = Int.max
        /// On an image of over 6 MP, the text height is estimated on a quarter-size copy too, and
        /// that estimate is taken when it is over 1.5× the full-size one: the table's noise specks
        /// on a distorted photo make the full-size estimate small (16–34 px for capitals of about
        /// 55), so such a photo is read unscaled at 12 MP, where averaging to a quarter leaves the
        /// letters. Measured and not switched on (docs/FORMATS.md, "Speed"): 20 % less CPU on the
        /// benchmark's set and one more distorted photo read, but that photo's merchant read wrong
        /// and not flagged.
        public var quarterSizeHeight = false
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
        /// scaling, nearly free), and again at full size when its text came out under 12 px.
        /// 3.1 MP: a 12 MP phone photo is decoded at half size (1500 × 2000). A slip filling the
        /// frame has capitals of 50–70 px there, which the pipeline scaled down to 28 px anyway;
        /// at half size a noisy photo's specks average away, so its text height is measured and
        /// it is read scaled, where at full size it was often read unscaled at 2–12 MP (0.5–1.2 s
        /// a reading). On the benchmark's two realistic sets (seeds 11 and 2, 40 photos) 12 % less
        /// CPU, distorted photos 13 → 15 of 20 read right, flat 19 → 18 (one total left
        /// unconfirmed, flagged; right again since the payment line under such a total is reread),
        /// none wrong; on the 21 photos of `photo-transforms.py` totals 19 → 21 and turns
        /// 20 → 21 (docs/FORMATS.md, "Speed"). 20 MP read them at full size.
        public var photoPixels = 3_100_000
        /// Text measured under this height (px, after scaling) is read a second time scaled to
        /// `OCRPreprocess.targetTextHeight` when a judge (`read(_:engine:judge:)`) finds the
        /// reading unsettled, and the judge keeps the better of the two (0: never). Small print
        /// read as it is and read scaled lose different digits: on the 200 dpi scans of the
        /// benchmark (capitals 19–21 px) the scaled reading mends a fuel line the first lost,
        /// while three real scans of 15–22 px read worse scaled (docs/FORMATS.md, "Small print").
        public var smallPrintHeight = 24.0
        /// The small-print reading is skipped when it and the full readings already made would
        /// read more pixels than this together. Tesseract takes about 0.1 s of CPU a megapixel of
        /// a noisy photo (0.58 s at 3 MP, 1.2 s at 12 MP), and the 2 s a photo may take
        /// (issue 17) also holds OSD, the trials and the preprocessing: an unreadable distorted
        /// photo (mean word confidence 25–29) read at 3 MP, then scaled up to 7.3 MP for its
        /// 14 px text, took 2.2 s and read nothing more. The scans' small print (0.4 MP read,
        /// 0.8 MP scaled) is far under it.
        public var smallPrintPixelBudget = 8_000_000
        /// Check a text height under `OCRPreprocess.textHeightRange` or `smallPrintHeight` on a
        /// half-size copy too, and take that one when it is over 1.5× as tall or (on an image of
        /// 2 MP or more) finds no letters: noise specks were measured, not letters, and the image
        /// would be scaled up or read twice for nothing (`checkedTextHeight`).
        public var checkSmallTextHeight = true
        /// A line-direction ratio (`OCRPreprocess.lineDirectionRatio`) in this range, or none,
        /// does not tell sideways from upright, and OSD guesses the first turn instead (with
        /// `OrientationGuess.lineDirectionThenOSD`). Scans and flat photos cut to their paper
        /// measure under 0.5 or over 2 on the benchmark's set; three distorted photos 1.02–1.06.
        /// Nil: the line direction's guess is always read first.
        public var unsureLineRatio: ClosedRange<Double>? = 0.8...1.25
        /// The lines a judge names (`OCRReadingJudge.linesToReread`) of a reading it is not
        /// settled by are read again one by one, cut out of the image and read as a single line
        /// (thresholded halfway between ink and paper, as they are, at half size); a reread line
        /// is kept when the judge prefers the reading with it (docs/FORMATS.md, "Reading a line again").
        public var rereadLines = true
        /// A reading the judge is not settled by is read once more in the language the judge names
        /// (`OCRReadingJudge.languages(for:)`: the OSD script, the receipt's country), when its
        /// model is installed, in the same turn and scale; the judge keeps the better reading
        /// (docs/FORMATS.md, "OCR languages"). One pass at most, and none when the readings so far
        /// and it would read more than `secondLanguagePixelBudget` pixels.
        public var secondLanguage = true
        /// The second language is read together with English (`deu+eng`): receipts abroad print
        /// English words and brand names, which a model of another language alone misreads.
        public var secondLanguageWithEnglish = true
        public var secondLanguagePixelBudget = 10_000_000

        public init() {}
    }

    public enum OrientationGuess: String, Sendable {
        /// The line direction first (sideways or not, a few milliseconds), Tesseract's OSD only
        /// when that reading is not confident, then trial turns.
        case lineDirectionThenOSD
        /// OSD first, then trial turns (OSD costs 0.1–0.6 s of CPU on every image).
        case osd
        /// The line direction, then a 180° trial only (the method before OSD; to measure against).
        case lineDirection
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Decodes and reads the image file at `path`. Throws `OCRImage.Error` for files that are
    /// not a readable PNG, JPEG or TIFF within the pixel and memory budget.
    /// With a `judge`, a reading that settles what the caller needs ends the search (no OSD, no
    /// trial turns, whatever its mean word confidence), and an unsettled reading of small print is
    /// read again scaled (`Options.smallPrintHeight`); without one, readings are judged by their
    /// mean word confidence alone.
    public func read(contentsOf path: String, engine: OCREngine, judge: (any OCRReadingJudge)? = nil) throws -> OCRResult {
        read(try Self.decode(path, options: options), engine: engine, judge: judge)
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

    public func read(_ image: OCRImage, engine: OCREngine, judge: (any OCRReadingJudge)? = nil) -> OCRResult {
        var gray = OCRPreprocess.grayscale(image)
        // An image handed in bigger than the cap (not through `decode`, which already did this)
        // is scaled down before any step makes a copy of it.
        let shrink = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        if shrink != 1 { gray = OCRPreprocess.scale(gray, by: shrink) }
        if options.correctPerspective { gray = OCRPerspective.correct(gray).image }
        if options.cropPaper { gray = OCRPreprocess.paperCrop(gray) }
        if options.normalizeBackground { gray = OCRPreprocess.normalizeBackground(gray) }
        // The copy the estimates are made on, `reduction` of the size of `gray` (1: `gray` itself).
        let reduction = OCRMemoryBudget.cappedScale(1, width: gray.width, height: gray.height, maxPixels: options.estimatePixels)
        let estimate = reduction < 1 ? OCRPreprocess.scale(gray, by: reduction) : gray
        var height = OCRPreprocess.textHeight(estimate).map { $0 / reduction }
        if options.quarterSizeHeight, gray.width * gray.height > 6_000_000, let h = height,
           let quarter = OCRPreprocess.textHeight(OCRPreprocess.scale(gray, by: 0.25)).map({ $0 * 4 }), quarter > 1.5 * h {
            height = quarter
        }
        if options.checkSmallTextHeight { height = Self.checkedTextHeight(height, of: gray, options: options) }
        var textHeight = height
        // Scaled to the text height, never past `maxWorkPixels` (and down to it when bigger):
        // a 1-bit bomb of 7 px specks was once scaled up 4× to 634 MP here.
        let wanted = options.scale ? OCRPreprocess.scaleFactor(textHeight: height) : 1
        let factor = OCRMemoryBudget.cappedScale(wanted, width: gray.width, height: gray.height, maxPixels: options.maxWorkPixels)
        if factor != 1 {
            gray = OCRPreprocess.scale(gray, by: factor)
            textHeight = height.map { $0 * factor }
        }
        // Orientation. Every reading is of the image turned from here, then deskewed (skew is
        // found with the text lines across the image).
        let unturned = gray
        var osdConfidence: Double? = nil
        /// The script OSD found, when it ran and was sure of it.
        var osdScript: String? = nil
        /// The images read in full, by turn and whether scaled for small print, kept for line
        /// rereads (only with a judge that may ask for them).
        var readImages: [Int: OCRImage] = [:]
        /// The pixels of the full readings made so far (`smallPrintPixelBudget`).
        var pixelsRead = 0
        let keepImages = judge != nil && (options.rereadLines || options.secondLanguage)
        func readTurned(_ q: Int, _ how: OCRResult.Orientation, of source: OCRImage? = nil) -> OCRResult {
            var g = OCRPreprocess.rotate(source ?? unturned, quarterTurns: q), skew = 0.0
            if options.deskew { (g, skew) = OCRPreprocess.deskew(g) }
            if keepImages { readImages[q + (source == nil ? 0 : 4)] = g }
            pixelsRead += g.width * g.height
            var r = recognize(g, textHeight: textHeight, engine: engine)
            r.quarterTurns = q
            r.skewDegrees = skew
            r.orientation = how
            r.orientationConfidence = osdConfidence
            return r
        }
        /// OSD's turn when it is sure, on a copy of at most `osdPixels`; run once.
        var osdRun: Int?? = nil
        func osd() -> Int? {
            if let done = osdRun { return done }
            let q = detectOrientation()
            osdRun = .some(q)
            return q
        }
        func detectOrientation() -> Int? {
            // The estimates' copy when it is of the image as read (not scaled since) and small enough.
            let small = factor == 1 && reduction < 1 && estimate.width * estimate.height <= options.osdPixels ? estimate
                : OCRPreprocess.scale(unturned, by: OCRMemoryBudget.cappedScale(1, width: unturned.width, height: unturned.height, maxPixels: options.osdPixels))
            let found = engine.detectOrientationAndScript(small)
            if unturned.width * unturned.height > OCRMemoryBudget.maxPixelsBesideOSD { engine.releaseOrientationModel() }
            osdConfidence = found?.confidence
            if let found, found.scriptConfidence >= options.osdScriptConfidence { osdScript = found.script }
            guard let found, found.confidence >= options.osdConfidence else { return nil }
            return found.quarterTurns
        }
        /// The reading settles what the judge needs.
        func settled(_ r: OCRResult) -> Bool { judge?.isSettled(r) ?? false }
        /// `a` is the better reading: the judge's settled one first, then the higher mean word confidence.
        func better(_ a: OCRResult, _ b: OCRResult) -> Bool {
            if let judge { let (sa, sb) = (judge.isSettled(a), judge.isSettled(b)); if sa != sb { return sa } }
            return a.meanConfidence > b.meanConfidence
        }
        /// Small print the judge is not settled by, read again scaled to the target height in
        /// the same turn; the judge keeps the better reading.
        func smallPrint(_ r: OCRResult) -> OCRResult {
            guard let judge, !r.refused, let h = textHeight, h > 0, h < options.smallPrintHeight, !settled(r) else { return r }
            let up = OCRMemoryBudget.cappedScale(OCRPreprocess.targetTextHeight / h, width: unturned.width, height: unturned.height, maxPixels: options.maxWorkPixels)
            guard up > 1.05, pixelsRead + Int(Double(unturned.width * unturned.height) * up * up) <= options.smallPrintPixelBudget else { return r }
            var again = readTurned(r.quarterTurns, r.orientation, of: OCRPreprocess.scale(unturned, by: up))
            again.orientationConfidence = r.orientationConfidence
            guard judge.prefers(again, over: r) else { return r }
            again.rereadScaled = true
            return again
        }
        /// The lines the judge names, reread alone, in the image the reading was made of.
        /// Then, still unsettled, the image read in the judge's language (`secondLanguage`).
        func finish(_ reading: OCRResult) -> OCRResult {
            var r = reading
            r.script = r.script ?? osdScript
            guard let judge, keepImages, !r.refused, !settled(r), let image = readImages[r.quarterTurns + (r.rereadScaled ? 4 : 0)] else { return r }
            if options.secondLanguage, pixelsRead + image.width * image.height <= options.secondLanguagePixelBudget {
                pixelsRead += image.width * image.height
                r = Self.readInLanguage(r, image: image, judge: judge, engine: engine, options: options)
                if settled(r) { return r }
            }
            guard options.rereadLines else { return r }
            return Self.rereadLines(r, image: image, judge: judge, engine: engine)
        }
        guard options.orient else { return finish(smallPrint(readTurned(0, .notTried))) }
        var first = 0, how = OCRResult.Orientation.confidentReading
        switch options.orientation {
        case .osd:
            if let q = osd() { first = q; how = .osd }
        case .lineDirection, .lineDirectionThenOSD:
            // On the estimates' copy when there is one, with the text height as it is there: a ratio of counts.
            let lines = reduction < 1 ? (image: estimate, height: height.map { $0 * reduction }) : (image: unturned, height: textHeight)
            let ratio = OCRPreprocess.lineDirectionRatio(lines.image, textHeight: lines.height)
            if let ratio, ratio > 1 { first = 1 }
            // Lines that run as much one way as the other (a grainy or curled photo), or none
            // found: the guess is a coin toss, and a noisy photo read across its lines is the
            // dearest reading of all (0.9–1.4 s on the benchmark's distorted photos, against
            // 0.2–0.4 s for OSD), so OSD guesses first.
            if options.orientation == .lineDirectionThenOSD, let unsure = options.unsureLineRatio, ratio.map({ unsure.contains($0) }) ?? true, let q = osd() {
                first = q
                how = .osd
            }
        }
        var best = readTurned(first, how)
        guard !best.refused else { return best }
        if settled(best) {
            // Its fields are sure: another turn cannot read them better, whatever the mean confidence.
            if best.meanConfidence < options.uprightConfidence { best.orientation = .settledReading }
            best.script = osdScript
            return best
        }
        guard best.meanConfidence < options.uprightConfidence else { return finish(smallPrint(best)) }
        var tried: Set<Int> = [first]
        if options.orientation == .lineDirectionThenOSD, let q = osd() {
            // OSD sure of the turn already read: the image is as upright as it gets and only
            // reads poorly (noise, blur), which no other turn mends. The trial readings cost
            // about one more full reading; on the benchmark's set they never chose another turn
            // after OSD had confirmed (docs/FORMATS.md, "Reading the image").
            if tried.contains(q) {
                best.orientation = .osd
                best.orientationConfidence = osdConfidence
                return finish(smallPrint(best))
            }
            tried.insert(q)
            let r = readTurned(q, .osd)
            if better(r, best) { best = r }
            guard !settled(best), best.meanConfidence < options.uprightConfidence else { return finish(smallPrint(best)) }
        }
        let candidates = Self.trialTurns(first: first, best: best.quarterTurns, tried: tried, options: options)
        guard let q = betterTurn(unturned, current: best.quarterTurns, candidates: candidates, textHeight: textHeight, engine: engine) else {
            if options.orientation != .lineDirection { best.orientation = .wordConfidence }
            return finish(smallPrint(best))
        }
        let turned = readTurned(q, .wordConfidence)
        if better(turned, best) { return finish(smallPrint(turned)) }
        if options.orientation != .lineDirection { best.orientation = .wordConfidence }
        return finish(smallPrint(best))
    }

    /// A small text height measured on a photo, checked on a half-size copy. Small text measured
    /// on a photo is more often the noise specks of a blurred or grainy photo than print that
    /// small. A half-size copy averages the specks away: it measures the letters (phone-hard-007
    /// of the benchmark: 13 px at full size, 26 at half), or finds no letter shapes at all in a
    /// heavy blur (phone-hard-001: 7 px, then none; read as it is rather than scaled up 2.5× to
    /// 23 MP), while print really that small measures about the same on it (phone-hard-002: 20
    /// and 28 px). Print under 12 px also finds no letter shapes at half size (they fall under
    /// the 6 px a glyph needs), so on an image of 2 MP or more it is read unscaled too.
    /// A smaller image (a scan, or a photo decoded at half size and cut to its paper: about
    /// 1 MP) is checked the same way, but kept at its own estimate when the half-size copy finds
    /// nothing: small print on a small image is scaled up. Only photos decoded at half size
    /// measured taller there (9 px, then 26 px: without the check such a slip was scaled up
    /// 3.1× to 12 MP and read at 84 px capitals, 0.5 s a reading).
    static func checkedTextHeight(_ measured: Double?, of gray: OCRImage, options: Options) -> Double? {
        guard let h = measured, h < max(OCRPreprocess.textHeightRange.lowerBound, options.smallPrintHeight) else { return measured }
        let half = OCRPreprocess.textHeight(OCRPreprocess.scale(gray, by: 0.5)).map { $0 * 2 }
        // No letters at half size: read unscaled from 2 MP, scaled up below.
        return half.map({ $0 > 1.5 * h }) ?? (gray.width * gray.height >= 2_000_000) ? half : h
    }

    /// `reading` with the lines `judge` names read again one by one from `image` (the image it was
    /// read from): each line's box with a margin, read as a single line thresholded halfway
    /// between ink and paper (`OCRPreprocess.Binarization.midpoint`), as it is, and at half size,
    /// each reading the judge prefers to the best so far kept. Stops once settled.
    static func rereadLines(_ reading: OCRResult, image: OCRImage, judge: any OCRReadingJudge, engine: OCREngine) -> OCRResult {
        var best = reading
        for i in judge.linesToReread(reading) where i < best.lines.count {
            guard let box = best.lines[i].box else { continue }
            // A quarter of the line's height above and below (not into the next line's letters),
            // and a line height each side.
            let padY = max(2, box.height / 4), padX = box.height
            guard let cut = image.crop(x: box.x - padX, y: box.y - padY, width: box.width + 2 * padX, height: box.height + 2 * padY) else { continue }
            let variants: [() -> OCRImage] = [{ OCRPreprocess.binarize(cut, method: .midpoint) }, { cut }, { OCRPreprocess.scale(cut, by: 0.5) }]
            for variant in variants {
                let words = engine.recognize(variant(), mode: .singleLine).lines.flatMap(\.words)
                guard !words.isEmpty else { continue }
                var candidate = best
                candidate.lines[i] = OCRResult.Line(words: words, box: box)
                candidate.lines[i].reread = true
                guard judge.prefers(candidate, over: best) else { continue }
                best = candidate
                if judge.isSettled(best) { return best }
            }
        }
        return best
    }

    /// `reading` read again from `image` in the first language the judge names that is
    /// installed and not English, kept when the judge prefers it; `reading` otherwise.
    static func readInLanguage(_ reading: OCRResult, image: OCRImage, judge: any OCRReadingJudge, engine: OCREngine, options: Options) -> OCRResult {
        guard let language = judge.languages(for: reading).first(where: { $0 != "eng" && engine.availableLanguages.contains($0) }),
              var again = engine.recognize(image, mode: options.mode, language: options.secondLanguageWithEnglish ? language + "+eng" : language),
              !again.refused, !again.lines.isEmpty else { return reading }
        again.quarterTurns = reading.quarterTurns
        again.skewDegrees = reading.skewDegrees
        again.orientation = reading.orientation
        again.orientationConfidence = reading.orientationConfidence
        again.rereadScaled = reading.rereadScaled
        again.script = reading.script
        return judge.prefers(again, over: reading) ? again : reading
    }

    /// The turns the trial readings read besides `best`, none read in full yet: the half turn of
    /// `best`, or with `sidewaysTrials` every turn not `tried` (the line-direction-only method:
    /// the half turn of its one guess).
    static func trialTurns(first: Int, best: Int, tried: Set<Int>, options: Options) -> [Int] {
        if options.orientation == .lineDirection { return [(first + 2) % 4] }
        let untried = (0..<4).filter { !tried.contains($0) }
        return options.sidewaysTrials ? untried : untried.filter { $0 == (best + 2) % 4 }
    }

    private func recognize(_ gray: OCRImage, textHeight: Double?, engine: OCREngine) -> OCRResult {
        guard let method = options.binarize else { return engine.recognize(gray, mode: options.mode) }
        return engine.recognize(OCRPreprocess.binarize(gray, method: method, textHeight: textHeight), mode: options.mode)
    }

    /// The clockwise turn of `unturned` (one of `candidates`) whose reading of a reduced copy
    /// beats the `current` turn's by `turnMargin` in mean word confidence, or nil. Half size, or
    /// smaller for large text: capitals of about 10 px still read confidently the right way up
    /// (65–90 on the fixtures) while text upside down or sideways scores far lower at any size,
    /// so small readings decide, each at about a quarter of the cost of a full one.
    func betterTurn(_ unturned: OCRImage, current: Int, candidates: [Int], textHeight: Double?, engine: OCREngine) -> Int? {
        guard !candidates.isEmpty else { return nil }
        let factor = min(0.5, 10 / (textHeight ?? 20))
        let small = OCRPreprocess.scale(unturned.middle(options.trialArea), by: max(factor, 0.1))
        let now = engine.recognize(OCRPreprocess.rotate(small, quarterTurns: current), mode: options.mode).meanConfidence
        var best: (turn: Int, confidence: Double)? = nil
        for q in candidates {
            let c = engine.recognize(OCRPreprocess.rotate(small, quarterTurns: q), mode: options.mode).meanConfidence
            if c > now + options.turnMargin, c > best?.confidence ?? -1 { best = (q, c) }
        }
        return best?.turn
    }
}
