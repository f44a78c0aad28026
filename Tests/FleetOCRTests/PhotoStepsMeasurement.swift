import XCTest
import FleetCore
@testable import FleetOCR

/// Measures what each image step is worth on phone photos and real scans: total and date read
/// right, mean word confidence, orientation found and time, per pipeline variant. A measurement,
/// not a test: it runs only with FLEETKIT_PHOTO_STEPS set to a folder written by
/// `scripts/receipts/photo-transforms.py` (truth.json beside the photos); the real scans in
/// ../shared/realdata/receipts are added with the transcriptions of its README (read off the images).
final class PhotoStepsMeasurement: XCTestCase {
    struct Case { var path: String; var total: String; var date: String; var turns: Int }

    /// The real scans: flatbed scans stored sideways (one clockwise quarter turn upright); totals
    /// and dates as read off the images (../shared/realdata/README.md, checked by eye).
    static func realScans() -> [Case] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/realdata/receipts").standardized.path
        let rows: [(String, String, String)] = [("0001", "0.99", "2014-12-04"), ("0003", "10.56", "2014-10-18"), ("0004", "9.31", "2015-09-05"),
                                                ("0006", "15.95", "2015-08-31"), ("0007", "5.03", "2015-06-06"), ("0008", "5.85", "2014-12-11")]
        return rows.map { Case(path: "\(dir)/de-supermarket__receipt-parser-legacy_IMG\($0.0).jpg", total: $0.1, date: $0.2, turns: 1) }
    }

    static func generated(_ dir: String) throws -> [Case] {
        try ReceiptTruth.all(in: URL(fileURLWithPath: dir)).map { t in
            let d = t.degradations
            let q = d.contains("turn90") ? 3 : d.contains("turn180") ? 2 : d.contains("turn270") ? 1
                : d.contains("rot90") ? 1 : d.contains("rot180") ? 2 : d.contains("rot270") ? 3 : 0
            return Case(path: t.path, total: t.total, date: t.date, turns: q)
        }
    }

    func testMeasureSteps() throws {
        guard let dir = ProcessInfo.processInfo.environment["FLEETKIT_PHOTO_STEPS"] else { throw XCTSkip("set FLEETKIT_PHOTO_STEPS=DIR") }
        let engine = try OCREngine()
        var sets: [(String, [Case])] = [("real scans", Self.realScans())]
        for d in dir.split(separator: ":") { sets.append((String(d), try Self.generated(String(d)))) }
        let only = ProcessInfo.processInfo.environment["FLEETKIT_PHOTO_VARIANTS"].map { Set($0.split(separator: ",").map(String.init)) }
        for (variant, options) in Self.variants() where only == nil || only!.contains(variant) {
            for (name, cases) in sets {
                var totals = 0, dates = 0, turnsRight = 0, conf = 0.0, seconds = 0.0
                var notes: [String] = []
                for c in cases {
                    // CPU time (one thread: OMP_THREAD_LIMIT=1), not wall time, which other work on a
                    // shared machine inflates.
                    let start = clock()
                    let r = try OCRPipeline(options: options).read(contentsOf: c.path, engine: engine)
                    seconds += Double(clock() - start) / Double(CLOCKS_PER_SEC)
                    let f = ReceiptExtractor(defaultCurrency: "USD").extract(r)
                    let tOK = f.total.map { abs($0.value.double - Double(c.total)!) < 1e-9 } ?? false
                    let dOK = f.date?.value.description == c.date
                    totals += tOK ? 1 : 0
                    dates += dOK ? 1 : 0
                    turnsRight += r.quarterTurns == c.turns ? 1 : 0
                    conf += r.meanConfidence
                    notes.append("\((c.path as NSString).lastPathComponent): q=\(r.quarterTurns)/\(c.turns) \(r.orientation.rawValue) osd=\(r.orientationConfidence.map { String(format: "%.1f", $0) } ?? "-") conf=\(Int(r.meanConfidence)) total=\(tOK) date=\(dOK)")
                }
                let n = cases.count
                print(String(format: "STEP | %@ | %@ | total %d/%d | date %d/%d | turn %d/%d | conf %.1f | %.2f CPU s/img", variant, name, totals, n, dates, n, turnsRight, n, conf / Double(n), seconds / Double(n)))
                if ProcessInfo.processInfo.environment["FLEETKIT_PHOTO_VERBOSE"] != nil { notes.forEach { print("  " + $0) } }
            }
        }
    }

    static func variants() -> [(String, OCRPipeline.Options)] {
        var out: [(String, OCRPipeline.Options)] = [("default", OCRPipeline.Options())]
        var o = OCRPipeline.Options(); o.orientation = .lineDirection; out.append(("line-direction", o))
        o = OCRPipeline.Options(); o.orientation = .osd; out.append(("osd-first", o))
        o = OCRPipeline.Options(); o.osdPixels = 1_000_000; out.append(("osd-1MP", o))
        o = OCRPipeline.Options(); o.photoPixels = Int.max; out.append(("full-size-decode", o))
        o = OCRPipeline.Options(); o.osdConfidence = 1000; out.append(("no-osd", o))
        o = OCRPipeline.Options(); o.osdConfidence = 5; out.append(("osd-5", o))
        o = OCRPipeline.Options(); o.cropPaper = false; out.append(("no-paper-crop", o))
        o = OCRPipeline.Options(); o.normalizeBackground = false; out.append(("no-background", o))
        o = OCRPipeline.Options(); o.binarize = .sauvola; out.append(("sauvola", o))
        o = OCRPipeline.Options(); o.deskew = false; out.append(("no-deskew", o))
        o = OCRPipeline.Options(); o.scale = false; out.append(("no-scale", o))
        o = OCRPipeline.Options(); o.orient = false; out.append(("no-orient", o))
        return out
    }
}
