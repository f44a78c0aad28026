import XCTest
import CLeptonica
@testable import FleetOCR

/// Perspective correction on small synthetic photos: a slip with dark text bars on a darker
/// table, warped by a known projective transform, is found and straightened; a slip that is
/// already a rectangle is cut to the paper, one cut by a shadow's edge is found whole; a scan
/// (all paper) and a slip cut by the frame are left alone.
final class OCRPerspectiveTests: XCTestCase {
    /// A 600 × 800 photo: table grey 70, a light slip (230) covering `slip` with black bars of
    /// text every 40 px, each bar 16 px tall and 70 % of the slip's width.
    static func upright(slip: (x: Int, y: Int, w: Int, h: Int), width: Int = 600, height: Int = 800) -> OCRImage {
        let img = OCRImage(width: width, height: height)
        pixSetAllArbitrary(img.pix, 70)
        var paper = boxCreate(Int32(slip.x), Int32(slip.y), Int32(slip.w), Int32(slip.h))
        pixSetInRectArbitrary(img.pix, paper, 230)
        boxDestroy(&paper)
        var y = slip.y + 30
        while y + 16 < slip.y + slip.h - 20 {
            var bar = boxCreate(Int32(slip.x + slip.w / 10), Int32(y), Int32(slip.w * 7 / 10), 16)
            pixSetInRectArbitrary(img.pix, bar, 10)
            boxDestroy(&bar)
            y += 40
        }
        return img
    }

    /// `image` with its corners' content moved: the point at `from[i]` lands at `to[i]`.
    static func warp(_ image: OCRImage, from: [(Double, Double)], to: [(Double, Double)]) -> OCRImage {
        var src = ptaCreate(4), dst = ptaCreate(4)
        defer { ptaDestroy(&src); ptaDestroy(&dst) }
        for p in from { ptaAddPt(src, Float(p.0), Float(p.1)) }
        for p in to { ptaAddPt(dst, Float(p.0), Float(p.1)) }
        // Table grey where the warp brings pixels in from outside: a photo has table there too.
        return OCRImage(owning: pixProjectivePtaGray(image.pix, dst, src, 70))
    }

    static let slip = (x: 150, y: 120, w: 300, h: 560)
    static var slipCorners: [(Double, Double)] {
        [(150, 120), (450, 120), (450, 680), (150, 680)]
    }
    /// A photo taken at a slant: the top narrower than the bottom and the whole leaning.
    static let slanted: [(Double, Double)] = [(190, 110), (430, 135), (480, 690), (120, 660)]

    func testASlantedSlipIsFound() throws {
        let photo = Self.warp(Self.upright(slip: Self.slip), from: Self.slipCorners, to: Self.slanted)
        let quad = try XCTUnwrap(OCRPerspective.findPaper(photo))
        for (found, want) in zip(quad.corners, Self.slanted) {
            XCTAssertEqual(found.x, want.0, accuracy: 6, "\(quad)")
            XCTAssertEqual(found.y, want.1, accuracy: 6, "\(quad)")
        }
        XCTAssertGreaterThan(quad.distortion, OCRPerspective.minDistortion)
    }

    func testASlantedSlipIsStraightened() throws {
        let photo = Self.warp(Self.upright(slip: Self.slip), from: Self.slipCorners, to: Self.slanted)
        let (fixed, quad) = OCRPerspective.correct(photo)
        XCTAssertNotNil(quad)
        // The slip's own size again (sides' means of the quadrilateral: within a few per cent).
        XCTAssertEqual(Double(fixed.width), 300, accuracy: 18)
        XCTAssertEqual(Double(fixed.height), 560, accuracy: 25)
        // All paper: no table left along the edges (the table is grey 70, the paper 230).
        XCTAssertGreaterThan(Self.mean(fixed, row: 2), 200)
        XCTAssertGreaterThan(Self.mean(fixed, column: 2), 200)
        XCTAssertGreaterThan(Self.mean(fixed, column: fixed.width - 3), 200)
        // The bars are level again: Leptonica finds (almost) no skew, where the slanted photo's
        // bars lean by several degrees.
        let before = try XCTUnwrap(OCRPreprocess.findSkew(photo))
        let after = try XCTUnwrap(OCRPreprocess.findSkew(fixed))
        XCTAssertGreaterThan(abs(before.degrees), 2)
        XCTAssertLessThan(abs(after.degrees), 0.6)
    }

    func testARectangularSlipIsCutWithoutResampling() throws {
        let photo = Self.upright(slip: Self.slip)
        let quad = try XCTUnwrap(OCRPerspective.findPaper(photo), "the slip is found")
        XCTAssertLessThan(quad.distortion, OCRPerspective.minDistortion)
        let (cut, used) = OCRPerspective.correct(photo)
        XCTAssertNotNil(used)
        // The slip less the inset (0.6 % of 300 px: 2 px a side), within a pixel or two of the
        // found corners.
        XCTAssertEqual(Double(cut.width), 296, accuracy: 3)
        XCTAssertEqual(Double(cut.height), 556, accuracy: 3)
        XCTAssertGreaterThan(Self.mean(cut, column: 0), 200, "no table left")
        XCTAssertGreaterThan(Self.mean(cut, row: cut.height - 1), 200, "no table left")
        // Not resampled: only the photo's own two values, none between them from interpolation.
        var values = Set<UInt32>()
        for y in 0..<cut.height { for x in 0..<cut.width { var v: UInt32 = 0; pixGetPixel(cut.pix, Int32(x), Int32(y), &v); values.insert(v) } }
        XCTAssertEqual(values, [10, 230])
    }

    func testAScanAndACutSlipAreLeftAlone() {
        // All paper: no quadrilateral with table around it.
        let scan = Self.upright(slip: (x: 0, y: 0, w: 600, h: 800))
        XCTAssertNil(OCRPerspective.findPaper(scan))
        XCTAssertEqual(OCRPerspective.correct(scan).image.width, 600)
        // A slanted slip running out of the bottom of the frame: its lower corners are the frame's.
        let whole = Self.warp(Self.upright(slip: (x: 150, y: 300, w: 300, h: 560), height: 900),
                              from: [(150, 300), (450, 300), (450, 860), (150, 860)],
                              to: [(190, 290), (430, 315), (480, 870), (120, 840)])
        var frame = boxCreate(0, 0, 600, 800)
        defer { boxDestroy(&frame) }
        let cut = OCRImage(owning: pixClipRectangle(whole.pix, frame, nil))
        XCTAssertNil(OCRPerspective.findPaper(cut))
        // No paper at all.
        let table = OCRImage(width: 400, height: 300)
        pixSetAllArbitrary(table.pix, 90)
        XCTAssertNil(OCRPerspective.findPaper(table))
    }

    func testASlipCutByAShadowIsFoundWhole() throws {
        // A step in the light across the slip (x > 330 + 0.2 (y − 120) gets 45 %): at Otsu's
        // threshold the shaded paper may fall with the table, and the lit part is a clean
        // quadrilateral of its own whose right side runs through the text bars; a lower
        // threshold finds the whole slip.
        let photo = Self.upright(slip: Self.slip)
        for y in 0..<photo.height {
            for x in 0..<photo.width where Double(x) > 330 + 0.2 * Double(y - 120) {
                var v: UInt32 = 0
                pixGetPixel(photo.pix, Int32(x), Int32(y), &v)
                pixSetPixel(photo.pix, Int32(x), Int32(y), v * 45 / 100)
            }
        }
        let quad = try XCTUnwrap(OCRPerspective.findPaper(photo))
        for (found, want) in zip(quad.corners, Self.slipCorners) {
            XCTAssertEqual(found.x, want.0, accuracy: 4, "\(quad)")
            XCTAssertEqual(found.y, want.1, accuracy: 4, "\(quad)")
        }
        // The texture measure itself: the lit slip's left side is blank margin, the shadow's
        // line runs through the bars.
        let left = OCRPerspective.marginTexture(photo, along: (.init(150, 680), .init(150, 120)))
        let cut = OCRPerspective.marginTexture(photo, along: (.init(330, 120), .init(442, 680)))
        XCTAssertLessThan(left, OCRPerspective.maxMarginTexture)
        XCTAssertGreaterThan(cut, OCRPerspective.maxMarginTexture)
    }

    func testQuadGeometry() {
        let square = OCRPerspective.Quad(topLeft: .init(0, 0), topRight: .init(10, 0), bottomRight: .init(10, 10), bottomLeft: .init(0, 10))
        XCTAssertEqual(square.area, 100, accuracy: 1e-9)
        XCTAssertEqual(square.distortion, 0, accuracy: 1e-9)
        let keystone = OCRPerspective.Quad(topLeft: .init(1, 0), topRight: .init(9, 0), bottomRight: .init(10, 10), bottomLeft: .init(0, 10))
        XCTAssertEqual(keystone.distortion, 0.2, accuracy: 1e-9, "top 8 against bottom 10")
    }

    static func mean(_ image: OCRImage, row: Int? = nil, column: Int? = nil) -> Double {
        var sum = 0.0, n = 0
        let xs = column.map { [$0] } ?? Array(0..<image.width), ys = row.map { [$0] } ?? Array(0..<image.height)
        for y in ys { for x in xs { var v: UInt32 = 0; pixGetPixel(image.pix, Int32(x), Int32(y), &v); sum += Double(v); n += 1 } }
        return sum / Double(max(n, 1))
    }
}
