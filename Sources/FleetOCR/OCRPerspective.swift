import Foundation
import CLeptonica

/// Perspective correction for a phone photo of a slip lying on a table: the paper's four corners
/// are found and the quadrilateral between them is warped to an upright rectangle, so every text
/// line is straight and level again (deskew can level one angle for the whole slip, not the
/// fanning lines of a photo taken at a slant), and the table around the slip is cut away.
///
/// The step is deliberately timid: it changes the image only when the paper's outline is a
/// clean quadrilateral (the light region fills the quadrilateral between its extreme points
/// almost exactly), lies inside the frame with table on every side, and is measurably not a
/// rectangle already. A scan (all paper), a slip running out of the frame, or a shadow that cut
/// the light region apart leave the image as it is. The paper crop (`OCRPreprocess.paperCrop`)
/// cut into flat photos because it trusted any light region's bounding box; this checks the shape.
public enum OCRPerspective {
    public struct Point: Equatable, Sendable {
        public var x: Double, y: Double
        public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
        func distance(to p: Point) -> Double { ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot() }
    }

    /// The paper's corners in image coordinates, clockwise from the top left.
    public struct Quad: Equatable, Sendable {
        public var topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point
        /// The most texture found just inside any side (`marginTexture(_:along:)`), for the record.
        public var marginTexture = 0.0
        public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

        /// Shoelace area.
        public var area: Double {
            let c = corners
            var s = 0.0
            for i in 0..<4 { let a = c[i], b = c[(i + 1) % 4]; s += a.x * b.y - b.x * a.y }
            return abs(s) / 2
        }

        /// The interior angles in degrees, at each corner in `corners`' order.
        public var angles: [Double] {
            let c = corners
            return (0..<4).map { i in
                let p = c[i], a = c[(i + 3) % 4], b = c[(i + 1) % 4]
                let v = (a.x - p.x, a.y - p.y), w = (b.x - p.x, b.y - p.y)
                let cos = (v.0 * w.0 + v.1 * w.1) / max(1e-9, (v.0 * v.0 + v.1 * v.1).squareRoot() * (w.0 * w.0 + w.1 * w.1).squareRoot())
                return acos(min(1, max(-1, cos))) * 180 / .pi
            }
        }

        /// How far from a rectangle: the largest of the corner angles' distance from 90° and of
        /// the relative difference between opposite sides, both as a fraction (1° ≈ 0.011).
        public var distortion: Double {
            let top = topLeft.distance(to: topRight), bottom = bottomLeft.distance(to: bottomRight)
            let left = topLeft.distance(to: bottomLeft), right = topRight.distance(to: bottomRight)
            let sides = max(abs(top - bottom) / max(top, bottom, 1), abs(left - right) / max(left, right, 1))
            let corner = angles.map { abs($0 - 90) / 90 }.max() ?? 0
            return max(sides, corner)
        }

        func scaled(by f: Double) -> Quad {
            Quad(topLeft: Point(topLeft.x * f, topLeft.y * f), topRight: Point(topRight.x * f, topRight.y * f),
                 bottomRight: Point(bottomRight.x * f, bottomRight.y * f), bottomLeft: Point(bottomLeft.x * f, bottomLeft.y * f),
                 marginTexture: marginTexture)
        }
    }

    /// The paper is looked for on a copy of about this many pixels: its outline needs no detail,
    /// and the reduction averages text and sensor noise away.
    static let searchPixels = 250_000.0
    /// The light region must fill its quadrilateral within this fraction (row by row, so text
    /// inside does not count against it): a shadow biting into the slip or table merged into it
    /// makes the outline no quadrilateral, and such a photo is left alone.
    static let fillTolerance = 0.035
    /// A quadrilateral closer to a rectangle than this (`Quad.distortion`: about 2.7° at a corner
    /// or 3 % between opposite sides) is cut to its inner rectangle, not warped: deskew levels a
    /// rotated rectangle, and a slight keystone tilts lines by a degree or so, which Tesseract
    /// reads. Measured (docs/FORMATS.md, "Perspective"): warped from 0.01, the flat phone photos'
    /// mild keystones (0.011–0.023) gained nothing and one slip of twenty was lost, while cut
    /// without resampling they read two more; the distorted photos measured 0.026–0.28.
    public static let minDistortion = 0.03

    /// The paper's quadrilateral in `gray`, or nil when no confident one is found.
    public static func findPaper(_ gray: OCRImage) -> Quad? {
        let factor = min(1, (searchPixels / Double(max(gray.width * gray.height, 1))).squareRoot())
        let small = OCRPreprocess.scale(gray.depth == 8 ? gray : OCRPreprocess.grayscale(gray), by: factor)
        let w = small.width, h = small.height
        guard w >= 32, h >= 32 else { return nil }
        var threshold: UnsafeMutablePointer<PIX>? = nil, binary: UnsafeMutablePointer<PIX>? = nil
        guard pixOtsuAdaptiveThreshold(small.pix, Int32(w), Int32(h), 0, 0, 0.1, &threshold, &binary) == 0, threshold != nil else { return nil }
        var otsu: UInt32 = 0
        pixGetPixel(threshold, 0, 0, &otsu)
        pixDestroy(&threshold); pixDestroy(&binary)
        for share in thresholdShares {
            var b = pixThresholdToBinary(small.pix, Int32(Double(otsu) * share))
            defer { pixDestroy(&b) }
            if let b, let quad = paper(in: b, small: small) { return quad.scaled(by: 1 / factor) }
        }
        return nil
    }

    /// Otsu's threshold splits table from paper where the light is even; where a shadow's edge
    /// crosses the slip, its shaded part falls under it and the outline fails the checks. Lower
    /// thresholds are tried then, at these shares of Otsu's: too low, and the table joins the
    /// paper, which fails the checks too.
    /// On the benchmark's distorted photos this found two slips whole that a shadow had cut
    /// (the same fields, one wrong merchant fewer, less CPU: docs/FORMATS.md, "Perspective").
    static let thresholdShares = [1, 0.8, 0.65]

    /// The confident quadrilateral of the largest paper region of `binary` (ink ON, as Leptonica
    /// thresholds), in the coordinates of `small`, or nil.
    static func paper(in binary: UnsafeMutablePointer<PIX>, small: OCRImage) -> Quad? {
        let w = small.width, h = small.height
        // Ink (dark) is ON in Leptonica's 1-bit images: invert so the paper is ON, and open a
        // little so a thin light bridge (a glare on the table) does not join the paper.
        pixInvert(binary, binary)
        var opened = pixOpenBrick(nil, binary, 3, 3)
        defer { pixDestroy(&opened) }
        guard let opened else { return nil }
        var pixa: UnsafeMutablePointer<PIXA>? = nil
        guard let boxes = pixConnComp(opened, &pixa, 8), let pixa else { return nil }
        var bx: UnsafeMutablePointer<BOXA>? = boxes, px: UnsafeMutablePointer<PIXA>? = pixa
        defer { boxaDestroy(&bx); pixaDestroy(&px) }
        var best = -1, bestCount: Int32 = 0
        for i in 0..<pixaGetCount(pixa) {
            var c: Int32 = 0
            var comp = pixaGetPix(pixa, i, Int32(L_CLONE))
            pixCountPixels(comp, &c, nil)
            pixDestroy(&comp)
            if c > bestCount { best = Int(i); bestCount = c }
        }
        guard best >= 0 else { return nil }
        var bxX: Int32 = 0, bxY: Int32 = 0, bxW: Int32 = 0, bxH: Int32 = 0
        boxaGetBoxGeometry(boxes, Int32(best), &bxX, &bxY, &bxW, &bxH)
        var comp = pixaGetPix(pixa, Int32(best), Int32(L_CLONE))
        defer { pixDestroy(&comp) }
        guard let comp else { return nil }
        // Row by row: the outermost paper pixels (the outline of a convex region) and the area
        // between them (the region with the holes the text leaves filled).
        guard let words = pixGetData(comp) else { return nil }
        let wpl = Int(pixGetWpl(comp))
        var outline: [Point] = [], area = 0.0
        for y in 0..<Int(bxH) {
            let row = words + y * wpl
            func on(_ x: Int) -> Bool { (row[x >> 5] >> (31 - UInt32(x & 31))) & 1 == 1 }
            guard let left = (0..<Int(bxW)).first(where: on), let right = (0..<Int(bxW)).reversed().first(where: on) else { continue }
            area += Double(right - left + 1)
            outline.append(Point(Double(left + Int(bxX)), Double(y + Int(bxY))))
            outline.append(Point(Double(right + Int(bxX)) + 1, Double(y + Int(bxY))))
        }
        guard !outline.isEmpty else { return nil }
        // The corners are the outline's extreme points along the diagonals: exact for any
        // quadrilateral turned less than 45° from upright.
        func extreme(_ score: (Point) -> Double) -> Point { outline.max { score($0) < score($1) }! }
        var quad = Quad(topLeft: extreme { -$0.x - $0.y }, topRight: extreme { $0.x - $0.y },
                        bottomRight: extreme { $0.x + $0.y }, bottomLeft: extreme { -$0.x + $0.y })
        // The bottom row's pixels reach down to y + 1.
        quad.bottomRight.y += 1; quad.bottomLeft.y += 1
        let share = quad.area / Double(w * h)
        guard share >= 0.08, share <= 0.9, abs(area / quad.area - 1) <= fillTolerance else { return nil }
        guard quad.angles.allSatisfy({ (60.0...120.0).contains($0) }) else { return nil }
        // Table on every side: a slip cut by the frame has a false corner on the image's edge.
        let edge = 0.01 * Double(max(w, h))
        guard quad.corners.allSatisfy({ $0.x > edge && $0.y > edge && $0.x < Double(w) - edge && $0.y < Double(h) - edge }) else { return nil }
        let c = quad.corners
        quad.marginTexture = (0..<4).map { marginTexture(small, along: (c[$0], c[($0 + 1) % 4])) }.max() ?? 0
        guard quad.marginTexture <= maxMarginTexture else { return nil }
        return quad
    }

    /// A side of the paper has a blank margin just inside it; a side that runs through text is no
    /// edge of the paper but where a threshold gave up: a step in the light across the slip (a
    /// shadow's edge) leaves the shaded part darker than the threshold, and the light part alone
    /// is as clean a quadrilateral as the whole slip. Warping that would cut the shaded text away.
    /// Measured on 40 photos: real sides 0.002–0.010, the two sides cut through text 0.024 and 0.078.
    static let maxMarginTexture = 0.015

    /// How much the brightness varies along a line 3 and 5 pixels inside the side from `a` to
    /// `b` (corners clockwise, so inside is to the right): the mean absolute difference from the
    /// mean of the 13 pixels around, relative to the brightness, the larger of the two lines.
    /// Illumination changes slowly along a side and leaves this near 0; letters make it jump.
    static func marginTexture(_ small: OCRImage, along side: (Point, Point)) -> Double {
        let (a, b) = side
        let length = a.distance(to: b)
        guard length >= 20 else { return 0 }
        let n = Point((a.y - b.y) / length, (b.x - a.x) / length)
        return [3.0, 5.0].map { d -> Double in
            var values: [Double] = []
            for i in stride(from: 0.08 * length, through: 0.92 * length, by: 1) {
                let t = i / length
                let x = Int(a.x + t * (b.x - a.x) + d * n.x), y = Int(a.y + t * (b.y - a.y) + d * n.y)
                guard x >= 0, y >= 0, x < small.width, y < small.height else { continue }
                var v: UInt32 = 0
                pixGetPixel(small.pix, Int32(x), Int32(y), &v)
                values.append(Double(v))
            }
            guard values.count > 13 else { return 0 }
            var deviation = 0.0
            for i in 6..<(values.count - 6) {
                let around = values[(i - 6)...(i + 6)].reduce(0, +) / 13
                deviation += abs(values[i] - around)
            }
            let mean = values.reduce(0, +) / Double(values.count)
            return deviation / Double(values.count - 12) / max(mean, 1)
        }.max() ?? 0
    }

    /// `gray` cut to the paper: a quadrilateral at least `minDistortion` from a rectangle is
    /// warped to an upright rectangle (its sides the means of the quadrilateral's opposite sides),
    /// a near-rectangle is cut to its inner rectangle without resampling; either is cut in by
    /// `inset` of the shorter side, so that no table shows along an edge. `gray` itself when no
    /// confident quadrilateral is found (a scan, a slip cut by the frame or by a shadow). Returns
    /// the quadrilateral used, if any.
    ///
    /// Why the table goes: its grain and edges read as lines of noise among the slip's and pull
    /// Tesseract's global threshold, and a photo read poorly costs OSD and four trial readings.
    public static func correct(_ gray: OCRImage, inset: Double = 0.006) -> (image: OCRImage, quad: Quad?) {
        let same = (OCRImage(owning: pixClone(gray.pix)), nil as Quad?)
        guard let quad = findPaper(gray) else { return same }
        let c = quad.corners
        if quad.distortion < minDistortion {
            // The paper's inner rectangle, cut in as a warp is: no resampling for a rectangle.
            let x0 = max(c[0].x, c[3].x), y0 = max(c[0].y, c[1].y), x1 = min(c[1].x, c[2].x), y1 = min(c[2].y, c[3].y)
            let cut = (inset * min(x1 - x0, y1 - y0)).rounded()
            guard x1 - x0 > 2 * cut + 16, y1 - y0 > 2 * cut + 16 else { return same }
            var box = boxCreate(Int32(x0 + cut), Int32(y0 + cut), Int32(x1 - x0 - 2 * cut), Int32(y1 - y0 - 2 * cut))
            defer { boxDestroy(&box) }
            guard let box, let p = pixClipRectangle(gray.pix, box, nil) else { return same }
            return (OCRImage(owning: p), quad)
        }
        var width = (c[0].distance(to: c[1]) + c[3].distance(to: c[2])) / 2
        var height = (c[0].distance(to: c[3]) + c[1].distance(to: c[2])) / 2
        // Warp within the quadrilateral's bounding box (Leptonica's output is the size of its
        // input), grown to hold the rectangle, so the pixels outside are never resampled.
        let minX = c.map(\.x).min()!, minY = c.map(\.y).min()!
        let boxW = min(Double(gray.width) - minX, max(c.map(\.x).max()! - minX, width)).rounded(.down)
        let boxH = min(Double(gray.height) - minY, max(c.map(\.y).max()! - minY, height)).rounded(.down)
        let fit = min(1, boxW / width, boxH / height)
        width *= fit; height *= fit
        var box = boxCreate(Int32(minX), Int32(minY), Int32(boxW), Int32(boxH))
        defer { boxDestroy(&box) }
        guard let box, let clipped = pixClipRectangle(gray.pix, box, nil) else { return same }
        var cl: UnsafeMutablePointer<PIX>? = clipped
        defer { pixDestroy(&cl) }
        var src = ptaCreate(4), dst = ptaCreate(4)
        defer { ptaDestroy(&src); ptaDestroy(&dst) }
        for p in c { ptaAddPt(src, Float(p.x - Double(Int32(minX))), Float(p.y - Double(Int32(minY)))) }
        for (x, y) in [(0.0, 0.0), (width, 0), (width, height), (0, height)] { ptaAddPt(dst, Float(x), Float(y)) }
        guard let warped = pixProjectivePta(clipped, dst, src, Int32(L_BRING_IN_WHITE)) else { return same }
        var wp: UnsafeMutablePointer<PIX>? = warped
        defer { pixDestroy(&wp) }
        let cut = (inset * min(width, height)).rounded()
        var inner = boxCreate(Int32(cut), Int32(cut), Int32(width - 2 * cut), Int32(height - 2 * cut))
        defer { boxDestroy(&inner) }
        guard let inner, let out = pixClipRectangle(warped, inner, nil) else { return same }
        return (OCRImage(owning: out), quad)
    }
}
