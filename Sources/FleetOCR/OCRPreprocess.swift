import Foundation
import CLeptonica

/// The Leptonica steps that turn a photo or scan of a receipt into what Tesseract reads best.
///
/// Each step is a separate function, so tests can check it on its own and the accuracy
/// benchmark (`scripts/bench-receipts.sh`) can switch it off to measure what it is worth;
/// `OCRPipeline` chains them. Every function returns a new image and leaves its input alone.
public enum OCRPreprocess {
    /// Capital letters between these heights (pixels) are read well; outside them the image is
    /// scaled to `targetTextHeight`. Much smaller loses strokes; much larger only costs time.
    /// The lower bound is low on purpose: the fixtures' 13 px capitals read as well as when
    /// scaled up to 28 px, and scaling them up cost 20 ms a receipt (the benchmark).
    public static let textHeightRange = 12.0...48.0
    public static let targetTextHeight = 28.0
    /// More ink components than this and the text height is not estimated (nil): a box for each
    /// takes about 40 bytes (5.8 million specks of a 23 MP dot pattern: 215 MiB), and so many
    /// are noise or a halftone, not letters. Counting them first costs a pass without boxes.
    public static let maxTextHeightComponents = 500_000

    public enum Binarization: String, Sendable, CaseIterable {
        /// Sauvola's local threshold: follows the paper's brightness across the slip.
        case sauvola
        /// Otsu's global threshold after background normalisation.
        case otsu
        /// One threshold halfway between the ink (the 2nd percentile of grey) and the paper (the
        /// 90th). For one line cut out of a page (`OCRPipeline`'s line rereads): clean print
        /// that Tesseract's own thresholding of the grey line thickened until `121.17` read
        /// `22457` and `37,85` read `87/35)` read right so.
        case midpoint
    }

    /// 8-bit grey from any input: colour is averaged to luminance, a colour map removed, and a
    /// 1-bit image spread to 0/255.
    public static func grayscale(_ image: OCRImage) -> OCRImage {
        if image.depth == 8, pixGetColormap(image.pix) == nil { return OCRImage(owning: pixClone(image.pix)) }
        return OCRImage(owning: pixConvertTo8(image.pix, 0))
    }

    /// Evens out the paper: divides by a smoothed background estimate, so a shadow across the
    /// slip or faded thermal paper becomes ink on a uniform light background.
    public static func normalizeBackground(_ gray: OCRImage) -> OCRImage {
        guard gray.width >= 32, gray.height >= 32, let p = pixBackgroundNormSimple(gray.pix, nil, nil) else {
            return OCRImage(owning: pixClone(gray.pix))
        }
        return OCRImage(owning: p)
    }

    /// The sheet of paper in a photo: the bounding box of the largest light region of a small
    /// copy (Otsu's global threshold; text holes closed), with a margin of 2 % of the image, as a
    /// crop of `gray`. The image itself when the paper fills most of it (a scan: over 85 % of the
    /// area), nothing paper-like is found (under 5 %), or the paper runs into more than one edge
    /// of the image: then there is no table around it to cut away.
    public static func paperCrop(_ gray: OCRImage) -> OCRImage {
        let same = OCRImage(owning: pixClone(gray.pix))
        let factor = min(1, (250_000 / Double(max(gray.width * gray.height, 1))).squareRoot())
        let small = scale(gray, by: factor)
        var threshold: UnsafeMutablePointer<PIX>? = nil, binary: UnsafeMutablePointer<PIX>? = nil
        guard pixOtsuAdaptiveThreshold(small.pix, Int32(small.width), Int32(small.height), 0, 0, 0.1, &threshold, &binary) == 0, let binary else { return same }
        defer { pixDestroy(&threshold); var b: UnsafeMutablePointer<PIX>? = binary; pixDestroy(&b) }
        // Ink is ON in Leptonica's 1-bit images; the paper is what is OFF: invert, then close
        // the holes the letters leave.
        pixInvert(binary, binary)
        var closed = pixCloseBrick(nil, binary, 7, 7)
        defer { pixDestroy(&closed) }
        guard let closed, let boxes = pixConnCompBB(closed, 4) else { return same }
        var bx: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&bx) }
        var best = (x: Int32(0), y: Int32(0), w: Int32(0), h: Int32(0))
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h)
            if Int(w) * Int(h) > Int(best.w) * Int(best.h) { best = (x, y, w, h) }
        }
        let share = Double(best.w) * Double(best.h) / Double(small.width * small.height)
        guard share >= 0.05, share <= 0.85 else { return same }
        // Table must show on at least three sides: light paper that runs into three or four
        // edges of the image is a scan or a close-up whose shaded side fell under the threshold
        // (two unevenly lit generated slips lost their totals to that), not a slip on a table.
        let edge = Int32(max(1, small.width / 100))
        let touches = [best.x <= edge, best.y <= edge, best.x + best.w >= Int32(small.width) - edge, best.y + best.h >= Int32(small.height) - edge]
        guard touches.filter({ $0 }).count <= 1 else { return same }
        let margin = 0.02 * Double(max(gray.width, gray.height))
        let x = max(0, Double(best.x) / factor - margin), y = max(0, Double(best.y) / factor - margin)
        let w = min(Double(gray.width) - x, Double(best.w) / factor + 2 * margin), h = min(Double(gray.height) - y, Double(best.h) / factor + 2 * margin)
        var box = boxCreate(Int32(x), Int32(y), Int32(w), Int32(h))
        defer { boxDestroy(&box) }
        guard let box, let p = pixClipRectangle(gray.pix, box, nil) else { return same }
        return OCRImage(owning: p)
    }

    /// The height of capital letters, in pixels, estimated from the ink's connected components:
    /// the 75th percentile of the larger side of character-sized boxes (the larger side, so the
    /// estimate holds for a sideways photo too). Nil when there are too few to tell.
    public static func textHeight(_ gray: OCRImage) -> Double? {
        guard let binary = pixConvertTo1(gray.pix, 128) else { return nil }
        var b: UnsafeMutablePointer<PIX>? = binary
        defer { pixDestroy(&b) }
        var count: Int32 = 0
        guard pixCountConnComp(binary, 8, &count) == 0, Int(count) <= maxTextHeightComponents,
              let boxes = pixConnCompBB(binary, 8) else { return nil }
        var bx: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&bx) }
        var sizes: [Int32] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h)
            let long = max(w, h), short = min(w, h)
            // A glyph: not a speck, not a rule or a merged word (aspect at most 3:1).
            if long >= 6, long <= 600, short * 3 >= long { sizes.append(long) }
        }
        guard sizes.count >= 10 else { return nil }
        sizes.sort()
        return Double(sizes[sizes.count * 3 / 4])
    }

    /// The factor that brings `textHeight` into `textHeightRange` (1 when it already is, or is unknown).
    public static func scaleFactor(textHeight: Double?) -> Double {
        guard let h = textHeight, h > 0, !textHeightRange.contains(h) else { return 1 }
        return min(max(targetTextHeight / h, 0.2), 4)
    }

    public static func scale(_ image: OCRImage, by factor: Double) -> OCRImage {
        guard factor != 1, let p = pixScale(image.pix, Float(factor), Float(factor)) else { return OCRImage(owning: pixClone(image.pix)) }
        return OCRImage(owning: p)
    }

    /// A 1-bit image. Sauvola's window spans about two text heights, so each letter is judged
    /// against the paper right around it.
    public static func binarize(_ gray: OCRImage, method: Binarization = .sauvola, textHeight: Double? = nil) -> OCRImage {
        let g = gray.depth == 8 ? gray : grayscale(gray)
        switch method {
        case .sauvola:
            let window = Int32(min(max((textHeight ?? targetTextHeight) * 1.5, 8), 60))
            var out: UnsafeMutablePointer<PIX>? = nil
            if g.width > 2 * Int(window) + 2, g.height > 2 * Int(window) + 2,
               pixSauvolaBinarizeTiled(g.pix, window, 0.34, 1, 1, nil, &out) == 0, let out { return OCRImage(owning: out) }
            return OCRImage(owning: pixConvertTo1(g.pix, 128))
        case .midpoint:
            guard let (ink, paper) = inkAndPaper(g), paper - ink >= 16 else { return OCRImage(owning: pixConvertTo1(g.pix, 128)) }
            return OCRImage(owning: pixConvertTo1(g.pix, Int32((ink + paper) / 2)))
        case .otsu:
            if let p = pixOtsuThreshOnBackgroundNorm(g.pix, nil, 10, 15, 100, 50, 255, 2, 2, 0.1, nil) { return OCRImage(owning: p) }
            return OCRImage(owning: pixConvertTo1(g.pix, 128))
        }
    }

    /// The grey levels of the 2nd and 90th percentiles of an 8-bit image: its ink and its paper.
    static func inkAndPaper(_ gray: OCRImage) -> (ink: Int, paper: Int)? {
        guard gray.depth == 8 else { return nil }
        var ink: UInt32 = 0, paper: UInt32 = 0
        guard pixGetRankValue(gray.pix, 1, 0.02, &ink) == 0, pixGetRankValue(gray.pix, 1, 0.9, &paper) == 0 else { return nil }
        return (Int(ink), Int(paper))
    }

    /// The skew of the text lines in degrees (positive: counter-clockwise) and Leptonica's
    /// confidence in it; nil when no line structure was found (a sideways photo, a blank page).
    public static func findSkew(_ image: OCRImage) -> (degrees: Double, confidence: Double)? {
        let binary = image.depth == 1 ? pixClone(image.pix) : pixConvertTo1(image.pix, 128)
        var b: UnsafeMutablePointer<PIX>? = binary
        defer { pixDestroy(&b) }
        var angle: Float = 0, conf: Float = 0
        guard let binary, pixFindSkew(binary, &angle, &conf) == 0, conf > 0 else { return nil }
        return (Double(angle), Double(conf))
    }

    /// Rotates the text lines level when a skew between 0.5 and 10 degrees is found with some
    /// confidence (2.0: a 2.5° skewed slip of the fixtures scored 2.4, below Leptonica's own
    /// 3.0). Smaller angles do not hurt Tesseract and are left, sparing a resampling blur.
    /// Returns the angle corrected.
    public static func deskew(_ image: OCRImage) -> (image: OCRImage, degrees: Double) {
        guard let (angle, conf) = findSkew(image), conf >= 2.0, abs(angle) >= 0.5, abs(angle) <= 10 else {
            return (OCRImage(owning: pixClone(image.pix)), 0)
        }
        let radians = Float(angle * .pi / 180)
        guard let p = pixRotate(image.pix, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0) else {
            return (OCRImage(owning: pixClone(image.pix)), 0)
        }
        return (OCRImage(owning: p), angle)
    }

    /// Whether the text lines run across the image (an upright or upside-down slip, ratio below 1)
    /// or up and down it (a sideways photo, above 1): the ink's connected components are counted
    /// after closing gaps of about a third of the text height, once horizontally and once
    /// vertically. Letters of a line are closer than lines are to each other, so closing along
    /// the lines merges far more. On the fixtures, upright slips scored 0.19–0.86 and sideways
    /// ones 2.2–5.7, at a few milliseconds per image, where a Tesseract trial costs a reading.
    /// Nil when there is too little ink to tell.
    public static func lineDirectionRatio(_ gray: OCRImage, textHeight: Double?) -> Double? {
        guard let textHeight, let binary = gray.depth == 1 ? pixClone(gray.pix) : pixConvertTo1(gray.pix, 128) else { return nil }
        var b: UnsafeMutablePointer<PIX>? = binary
        defer { pixDestroy(&b) }
        let gap = Int32(max(2, (textHeight * 0.35).rounded()))
        func components(_ h: Int32, _ v: Int32) -> Int32 {
            var closed = pixCloseBrick(nil, binary, h, v)
            defer { pixDestroy(&closed) }
            var n: Int32 = 0
            guard let closed, pixCountConnComp(closed, 8, &n) == 0 else { return 0 }
            return n
        }
        let across = components(gap, 1), down = components(1, gap)
        guard across + down >= 20, down > 0 else { return nil }
        return Double(across) / Double(down)
    }

    /// Turns the image clockwise by `quarterTurns` × 90°.
    public static func rotate(_ image: OCRImage, quarterTurns: Int) -> OCRImage {
        let q = ((quarterTurns % 4) + 4) % 4
        guard q != 0, let p = pixRotateOrth(image.pix, Int32(q)) else { return OCRImage(owning: pixClone(image.pix)) }
        return OCRImage(owning: p)
    }
}
