import Foundation
import CTesseract
import CLeptonica
import FleetCore

/// One Tesseract engine (C API) with the English model loaded, and on demand one engine of
/// another language (`recognize(_:mode:language:)`, docs/FORMATS.md "OCR languages").
///
/// An engine is expensive to create (it loads the traineddata) and not thread-safe, so a worker
/// thread owns one and reuses it for every image; `deinit` ends and deletes it cleanly.
/// `@unchecked Sendable` because an engine moves between threads (`OCRPool` lends it out), but
/// only one thread uses it at a time: the pool guarantees that.
public final class OCREngine: @unchecked Sendable {
    private let handle: OpaquePointer
    private let dataPath: String?
    /// A second engine with Tesseract's orientation model (osd.traineddata), made on first use:
    /// orientation detection needs that model as the engine's main language, and loading it
    /// beside `eng` would make Tesseract read with it too. Nil once it failed to load.
    private var osdHandle: OpaquePointer?
    private var osdTried = false
    /// One engine of another language (`recognize(_:mode:language:)`), made on first use and kept
    /// while that language is asked for: at most one besides `eng`, so memory stays within the
    /// per-receipt budget (a fast model is 1–6 MB on disk, 20–40 MB loaded).
    private var languageHandle: (language: String, handle: OpaquePointer)?
    /// Languages whose engine failed to load: not tried again.
    private var failedLanguages: Set<String> = []

    public enum Error: Swift.Error, CustomStringConvertible {
        case initFailed(dataPath: String?, language: String)

        public var description: String {
            switch self {
            case let .initFailed(path, language):
                return "Tesseract could not load the '\(language)' model from \(path ?? "its default tessdata folder"); install tesseract-ocr-\(language) (make deps does)"
            }
        }
    }

    /// How Tesseract splits the page into text before reading it.
    public enum PageSegmentation: Sendable, CaseIterable {
        /// PSM 6, one uniform block: a receipt is one column of lines, and this mode keeps the
        /// left label and the right-aligned amount of a line together. Best on the fixtures.
        case singleBlock
        /// PSM 4, one column of lines of varying size.
        case singleColumn
        /// PSM 3, full automatic layout analysis (what the `tesseract` command does by default).
        case auto
        /// PSM 7, one line of text: a line cut out of a page and read again on its own.
        case singleLine

        var tess: TessPageSegMode {
            switch self {
            case .singleBlock: return PSM_SINGLE_BLOCK
            case .singleColumn: return PSM_SINGLE_COLUMN
            case .auto: return PSM_AUTO
            case .singleLine: return PSM_SINGLE_LINE
            }
        }
    }

    /// More connected components of ink than this in the image as Tesseract binarised it, and the
    /// image is not read (`OCRResult.inkComponents` says why). Tesseract keeps an outline and a
    /// blob for every one, about 140 bytes each: a 23 MP moiré of 2.8 million specks took it to
    /// 400 MiB (17 bytes a pixel, where receipt text costs 3–4). No receipt comes near: a 23 MP
    /// page of 28 px text has about 50,000 components, the 46 fixtures at most a few thousand.
    public static let maxInkComponents = 300_000
    /// Ink shapes taller than this (pixels) are not letters of a text line (28 px after scaling,
    /// 48 at most): a rule, a border, a logo, or a pattern.
    public static let tallComponentHeight = 100
    /// More vertical edge steps (left-right ink transitions, row by row) in tall shapes than this,
    /// and the image is not read (`OCRResult.tallEdges`). Tesseract holds about 34 bytes for each
    /// step of a shape it has not finished tracing: 2,400 one-pixel vertical lines down a 23 MP
    /// page (8.3 KB as a PNG) took it to 833 MiB; 2,400 horizontal ones cost nothing extra.
    /// Letters close within a text line, so only tall shapes can pile steps up; 1.5 million of
    /// them is 51 MB. Receipts: a few thousand (rules and the paper's edge).
    public static let maxTallEdges = 1_500_000

    /// The Tesseract library version, e.g. "5.3.0".
    public static var version: String { String(cString: TessVersion()) }

    /// - parameter dataPath: the tessdata folder; nil lets Tesseract use its built-in default
    ///   (Debian: /usr/share/tesseract-ocr/5/tessdata) or `TESSDATA_PREFIX`.
    public init(language: String = "eng", dataPath: String? = nil) throws {
        guard let api = TessBaseAPICreate() else { throw Error.initFailed(dataPath: dataPath, language: language) }
        // Tesseract's own diagnostics ("Estimating resolution…", "Empty page!!") go to its debug
        // file rather than fleetkit's stderr; errors come back as values instead.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        let rc = TessBaseAPIInit3(api, dataPath, language)
        guard rc == 0 else {
            TessBaseAPIDelete(api)
            throw Error.initFailed(dataPath: dataPath, language: language)
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        // Tesseract retries every doubtful word as white-on-black text. Receipts are dark print
        // on light paper, and the retries cost 11% of the reading time on the fixtures (most on
        // doubtful pages, such as the first reading of an upside-down slip); a reversed logo
        // banner is lost, and the merchant is then read from the next name line.
        _ = TessBaseAPISetVariable(api, "tessedit_do_invert", "0")
        handle = api
        self.dataPath = dataPath
    }

    /// Tesseract's orientation and script detection (OSD) on `image`: the clockwise quarter turns
    /// that make the text upright, and Tesseract's confidence in that turn against the next best
    /// (0 and up; the `tesseract --psm 0` command prints it as "Orientation confidence"). Nil when
    /// osd.traineddata is not installed (Debian tesseract-ocr-osd) or too little text was found.
    public func detectOrientation(_ image: OCRImage) -> (quarterTurns: Int, confidence: Double)? {
        detectOrientationAndScript(image).map { ($0.quarterTurns, $0.confidence) }
    }

    /// What OSD finds: the turn (as `detectOrientation`), and the script of the text (`Latin`,
    /// `Japanese`, `Han`, `Hangul`, `Cyrillic`, `Arabic`, …) with Tesseract's confidence in it.
    public struct Orientation: Sendable, Equatable {
        public var quarterTurns: Int
        public var confidence: Double
        public var script: String?
        public var scriptConfidence: Double
    }

    /// Tesseract's orientation and script detection: the turn and the script (nil without
    /// osd.traineddata or when too little text was found).
    public func detectOrientationAndScript(_ image: OCRImage) -> Orientation? {
        if !osdTried {
            osdTried = true
            if let api = TessBaseAPICreate() {
                _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
                if TessBaseAPIInit3(api, dataPath, "osd") == 0 {
                    _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
                    osdHandle = api
                } else {
                    TessBaseAPIDelete(api)
                }
            }
        }
        guard let osd = osdHandle else { return nil }
        TessBaseAPISetPageSegMode(osd, PSM_OSD_ONLY)
        TessBaseAPISetImage2(osd, image.pix)
        TessBaseAPISetSourceResolution(osd, 300)
        defer { TessBaseAPIClear(osd) }
        // OSD finds the same blobs a reading does, so an image a reading would refuse (noise, a
        // pattern of lines: `maxInkComponents`, `maxTallEdges`) is not given to it either.
        if Self.mayExceedInkLimits(image), let (components, tallEdges) = inkShape(osd) {
            guard components <= Self.maxInkComponents, tallEdges <= Self.maxTallEdges else { return nil }
        }
        var degrees: Int32 = 0, confidence: Float = 0, scriptConfidence: Float = 0
        var script: UnsafePointer<CChar>? = nil
        guard TessBaseAPIDetectOrientationScript(osd, &degrees, &confidence, &script, &scriptConfidence) != 0 else { return nil }
        // `degrees` is how far the text is turned clockwise from upright (270 for a page stored
        // a quarter turn counter-clockwise: the real German scans); the rest of the circle undoes it.
        return Orientation(quarterTurns: (4 - (Int(degrees) / 90) % 4) % 4, confidence: Double(confidence),
                           script: script.map { String(cString: $0) }, scriptConfidence: Double(scriptConfidence))
    }

    /// The languages whose model is in the engine's tessdata folder (`deu`, `eng`, `osd`, …):
    /// what `recognize(_:mode:language:)` can be asked for (`make deps` installs them).
    public lazy var availableLanguages: Set<String> = {
        guard let list = TessBaseAPIGetAvailableLanguagesAsVector(handle) else { return [] }
        defer { TessDeleteTextArray(list) }
        var out: Set<String> = []
        var i = 0
        while let p = list[i] { out.insert(String(cString: p)); i += 1 }
        return out
    }()

    /// The languages the engine has loaded.
    public var loadedLanguages: [String] {
        guard let list = TessBaseAPIGetLoadedLanguagesAsVector(handle) else { return [] }
        defer { TessDeleteTextArray(list) }
        var out: [String] = []
        var i = 0
        while let p = list[i] { out.append(String(cString: p)); i += 1 }
        return out
    }

    /// Reads the text of `image` (any depth; Tesseract binarises grey images with Otsu itself).
    ///
    /// The resolution is declared as 300 ppi: receipt photos carry none or a meaningless one,
    /// and Tesseract only uses it to judge noise size; the text size is set by `OCRPreprocess`.
    public func recognize(_ image: OCRImage, mode: PageSegmentation = .singleBlock) -> OCRResult {
        recognize(image, mode: mode, with: handle)
    }

    /// Reads `image` with the model of `language` (`deu`, `msa+eng`) instead of the engine's own;
    /// nil when a model of it is not installed or failed to load (nothing is read then).
    public func recognize(_ image: OCRImage, mode: PageSegmentation = .singleBlock, language: String) -> OCRResult? {
        guard let api = engine(for: language) else { return nil }
        var r = recognize(image, mode: mode, with: api)
        r.language = language
        return r
    }

    /// The engine of `language`, loading it (and ending the one of another language) if needed.
    private func engine(for language: String) -> OpaquePointer? {
        if let held = languageHandle, held.language == language { return held.handle }
        guard !failedLanguages.contains(language),
              language.split(separator: "+").allSatisfy({ availableLanguages.contains(String($0)) }) else { return nil }
        releaseLanguageModel()
        guard let api = TessBaseAPICreate() else { return nil }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(api, dataPath, language) == 0 else {
            TessBaseAPIDelete(api)
            failedLanguages.insert(language)
            return nil
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        _ = TessBaseAPISetVariable(api, "tessedit_do_invert", "0")
        languageHandle = (language, api)
        return api
    }

    /// Frees the model of the other language, if one is loaded.
    public func releaseLanguageModel() {
        if let held = languageHandle {
            TessBaseAPIEnd(held.handle)
            TessBaseAPIDelete(held.handle)
        }
        languageHandle = nil
    }

    private func recognize(_ image: OCRImage, mode: PageSegmentation, with api: OpaquePointer) -> OCRResult {
        TessBaseAPISetPageSegMode(api, mode.tess)
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, 300)
        defer { TessBaseAPIClear(api) }
        // Tesseract's own binarisation, checked before it builds anything on it (Recognize reuses it).
        if Self.mayExceedInkLimits(image), let (components, tallEdges) = inkShape(api), components > Self.maxInkComponents || tallEdges > Self.maxTallEdges {
            var refused = OCRResult(lines: [], meanConfidence: 0)
            if components > Self.maxInkComponents { refused.inkComponents = components } else { refused.tallEdges = tallEdges }
            return refused
        }
        guard TessBaseAPIRecognize(api, nil) == 0 else { return OCRResult(lines: [], meanConfidence: 0) }
        let lines = words(api)
        let mean = lines.isEmpty ? 0 : Double(TessBaseAPIMeanTextConf(api))
        return OCRResult(lines: lines, meanConfidence: mean)
    }

    /// Whether `image` is big enough to hold more than `maxInkComponents` components or
    /// `maxTallEdges` edge steps. Two 8-connected components never touch, so a W × H image holds
    /// at most ⌈W/2⌉ × ⌈H/2⌉ of them, and at most W × H edge steps: an image of up to about
    /// 1.2 MP (a scan, a photo decoded at half size and cut to its paper) cannot exceed either,
    /// and is not counted (the count cost 1.5–3 % of the CPU of reading the benchmark's sets).
    static func mayExceedInkLimits(_ image: OCRImage) -> Bool {
        ((image.width + 1) / 2) * ((image.height + 1) / 2) > maxInkComponents || image.width * image.height > maxTallEdges
    }

    /// Of the image Tesseract has just thresholded: its 8-connected components, and the vertical
    /// edge steps of those taller than `tallComponentHeight` (0 when there are too many
    /// components to separate them; nil if it could not be thresholded).
    private func inkShape(_ api: OpaquePointer) -> (components: Int, tallEdges: Int)? {
        guard let binary = TessBaseAPIGetThresholdedImage(api) else { return nil }
        var b: UnsafeMutablePointer<PIX>? = binary
        defer { pixDestroy(&b) }
        var n: Int32 = 0
        guard pixCountConnComp(binary, 8, &n) == 0 else { return nil }
        guard Int(n) <= Self.maxInkComponents else { return (Int(n), 0) }
        var tall = pixSelectBySize(binary, 0, Int32(Self.tallComponentHeight), 8, Int32(L_SELECT_HEIGHT), Int32(L_SELECT_IF_GTE), nil)
        defer { pixDestroy(&tall) }
        guard let tall else { return (Int(n), 0) }
        // Each ink pixel whose left neighbour differs is one vertical edge step.
        var shifted = pixCreateTemplate(tall)
        defer { pixDestroy(&shifted) }
        guard let shifted else { return (Int(n), 0) }
        pixRasterop(shifted, 1, 0, pixGetWidth(tall) - 1, pixGetHeight(tall), PIX_SRC, tall, 0, 0)
        pixXor(shifted, shifted, tall)
        var edges: Int32 = 0
        pixCountPixels(shifted, &edges, nil)
        return (Int(n), Int(edges))
    }

    /// Every word with its confidence, grouped into the text lines Tesseract found, each with its box.
    private func words(_ api: OpaquePointer) -> [OCRResult.Line] {
        guard let it = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(it) }
        var lines: [OCRResult.Line] = []
        var current: [OCRResult.Word] = []
        var box: OCRResult.Box? = nil
        repeat {
            let page = TessResultIteratorGetPageIteratorConst(it)
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                if !current.isEmpty { lines.append(OCRResult.Line(words: current, box: box)) }
                current = []
                var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
                box = TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &l, &t, &r, &b) != 0 && r > l && b > t
                    ? OCRResult.Box(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t)) : nil
            }
            guard let cText = TessResultIteratorGetUTF8Text(it, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            if !text.trimmingCharacters(in: .whitespaces).isEmpty {
                current.append(OCRResult.Word(text: text, confidence: Double(TessResultIteratorConfidence(it, RIL_WORD))))
            }
        } while TessResultIteratorNext(it, RIL_WORD) != 0
        if !current.isEmpty { lines.append(OCRResult.Line(words: current, box: box)) }
        return lines
    }

    /// Frees the orientation model (about 33 MB resident); the next `detectOrientation` loads it
    /// again (0.06 s). For an image so large that the model and the reading together would not
    /// fit the memory budget (`OCRMemoryBudget.maxPixelsBesideOSD`).
    public func releaseOrientationModel() {
        if let osd = osdHandle {
            TessBaseAPIEnd(osd)
            TessBaseAPIDelete(osd)
        }
        osdHandle = nil
        osdTried = false
    }

    deinit {
        releaseOrientationModel()
        releaseLanguageModel()
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }
}
