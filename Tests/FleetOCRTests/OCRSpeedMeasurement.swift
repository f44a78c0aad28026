import XCTest
import FleetCore
@testable import FleetOCR

/// Measures the CPU time of reading each image of a folder (the benchmark's realistic set,
/// `scripts/receipts/realistic.py`) per pipeline variant, and whether a variant reads the same
/// receipt fields as the default. A measurement, not a test: it runs only with
/// FLEETKIT_OCR_SPEED=DIR (FLEETKIT_OCR_SPEED_VARIANTS=a,b to choose variants).
final class OCRSpeedMeasurement: XCTestCase {
    func testMeasureSpeed() throws {
        guard let dir = ProcessInfo.processInfo.environment["FLEETKIT_OCR_SPEED"] else { throw XCTSkip("set FLEETKIT_OCR_SPEED=DIR") }
        let engine = try OCREngine()
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { name in [".jpg", ".png", ".tif"].contains { name.hasSuffix($0) } }.sorted()
        let only = ProcessInfo.processInfo.environment["FLEETKIT_OCR_SPEED_VARIANTS"].map { Set($0.split(separator: ",").map(String.init)) }
        var reference: [String: ReceiptFields] = [:]
        let truth = Self.truth(dir)
        for (variant, options) in Self.variants() where variant == "default" || only == nil || only!.contains(variant) {
            var bySplit: [String: (n: Int, cpu: Double, same: Int)] = [:]
            var scored: [String: (right: Int, wrong: Int)] = [:]
            for file in files {
                let start = clock()
                let judge = variant.hasPrefix("no-judge") ? nil : ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: "USD"))
                let r = try OCRPipeline(options: options).read(contentsOf: dir + "/" + file, engine: engine, judge: judge)
                let cpu = Double(clock() - start) / Double(CLOCKS_PER_SEC)
                let f = ReceiptExtractor(defaultCurrency: "USD").extract(r)
                if variant == "default" { reference[file] = f }
                var same = false
                if let g = reference[file] { same = g.date == f.date && g.total == f.total && g.volume == f.volume && g.merchant == f.merchant }
                let split: String = file.split(separator: "-").prefix(file.hasPrefix("scan") ? 1 : 2).joined(separator: "-")
                let s = bySplit[split, default: (0, 0, 0)]
                bySplit[split] = (s.n + 1, s.cpu + cpu, s.same + (same ? 1 : 0))
                var verdict = "-"
                if let t = truth[file] {
                    let review = !f.doubtful.isEmpty
                    let date = f.date.map { "\($0.value)" == t.date }, total = f.total.map { abs($0.value.double - t.total) < 1e-9 }
                    let right = date == true && total == true && !review, wrong = !review && (date == false || total == false)
                    verdict = right ? "right" : wrong ? "WRONG" : "flagged"
                    let c = scored[split, default: (0, 0)]
                    scored[split] = (c.right + (right ? 1 : 0), c.wrong + (wrong ? 1 : 0))
                }
                print(String(format: "IMG | %@ | %@ | %.2f s | lang=%@ script=%@ | q=%d %@%@ osd=%@ conf=%d | date=%@ total=%@ | same=%@ | %@", variant, file, cpu, r.language ?? "eng", r.script ?? "-", r.quarterTurns,
                             r.orientation.rawValue, r.rereadScaled ? " rescaled" : "", r.orientationConfidence.map { String(format: "%.1f", $0) } ?? "-", Int(r.meanConfidence),
                             f.date.map { "\($0.value)" } ?? "-", f.total.map { "\($0.value)" } ?? "-", same ? "yes" : "NO", verdict))
                for line in r.lines where line.reread { print("  REREAD | \(line.text)") }
                if ProcessInfo.processInfo.environment["FLEETKIT_OCR_SPEED_TRACE"] != nil, let judge {
                    print("  DOUBTFUL | \(f.doubtful) | \(f.notes)")
                    for i in judge.linesToReread(r) { print("  NAMED | \(i) | \(Int(r.lines[i].confidence)) | \(r.lines[i].box.map { "\($0)" } ?? "-") | \(r.lines[i].text)") }
                }
            }
            for (split, s) in bySplit.sorted(by: { $0.key < $1.key }) {
                let t = scored[split].map { String(format: " | date+total right %d, wrong not flagged %d", $0.right, $0.wrong) } ?? ""
                print(String(format: "SPEED | %@ | %@ | %.2f CPU s for %d | same fields %d/%d%@", variant, split, s.cpu, s.n, s.same, s.n, t))
            }
        }
    }

    /// The date and total of each file in the folder's truth.json (`scripts/receipts/realistic.py`), if any.
    static func truth(_ dir: String) -> [String: (date: String, total: Double)] {
        guard let data = FileManager.default.contents(atPath: dir + "/truth.json"),
              let set = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let rows = set["receipts"] as? [[String: Any]] else { return [:] }
        var out: [String: (date: String, total: Double)] = [:]
        for row in rows {
            guard let file = row["file"] as? String, let date = row["date"] as? String, let total = (row["total"] as? String).flatMap(Double.init) else { continue }
            out[file] = (date, total)
        }
        return out
    }

    static func variants() -> [(String, OCRPipeline.Options)] {
        var out: [(String, OCRPipeline.Options)] = [("default", OCRPipeline.Options())]
        var o = OCRPipeline.Options(); o.smallPrintHeight = 0; out.append(("no-judge", o))
        o = OCRPipeline.Options(); o.smallPrintHeight = 0; out.append(("judge-no-small-print", o))
        o = OCRPipeline.Options(); o.checkSmallTextHeight = false; o.unsureLineRatio = nil; out.append(("judge-only", o))
        o = OCRPipeline.Options(); o.smallPrintHeight = 0; o.checkSmallTextHeight = false; o.unsureLineRatio = nil; out.append(("no-judge-before", o))
        o = OCRPipeline.Options(); o.photoPixels = 20_000_000; out.append(("decode-full", o))
        o = OCRPipeline.Options(); o.trialArea = 0.5; out.append(("trial-middle-half", o))
        o = OCRPipeline.Options(); o.estimatePixels = 4_000_000; out.append(("estimate-4MP", o))
        o = OCRPipeline.Options(); o.estimatePixels = 4_000_000; o.trialArea = 0.5; out.append(("estimate-4MP+trial-middle-half", o))
        o = OCRPipeline.Options(); o.trialArea = 1.0; o.estimatePixels = Int.max; out.append(("before", o))
        o = OCRPipeline.Options(); o.sidewaysTrials = true; out.append(("sideways-trials", o))
        o = OCRPipeline.Options(); o.quarterSizeHeight = true; out.append(("quarter-size-height", o))
        o = OCRPipeline.Options(); o.rereadLines = false; out.append(("no-line-rereads", o))
        o = OCRPipeline.Options(); o.osdPixels = 2_000_000; out.append(("osd-2MP", o))
        o = OCRPipeline.Options(); o.osdPixels = 1_000_000; out.append(("osd-1MP", o))
        o = OCRPipeline.Options(); o.secondLanguage = false; out.append(("no-second-language", o))
        o = OCRPipeline.Options(); o.secondLanguageWithEnglish = false; out.append(("second-language-alone", o))
        return out
    }
}
