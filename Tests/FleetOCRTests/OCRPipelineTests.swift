import XCTest
import FleetCore
@testable import FleetOCR

/// Real Tesseract on a few generated receipts (the whole set is the benchmark's): the pipeline
/// reads upright, turned and skewed slips, and the engine and pool behave.
final class OCRPipelineTests: XCTestCase {
    nonisolated(unsafe) static var truths: [String: ReceiptTruth] = [:]
    static let engine = try? OCREngine()

    override class func setUp() {
        super.setUp()
        truths = Dictionary(uniqueKeysWithValues: ((try? ReceiptTruth.all()) ?? []).map { ($0.file, $0) })
    }

    func read(_ file: String, options: OCRPipeline.Options = OCRPipeline.Options()) throws -> (OCRResult, ReceiptFields, ReceiptTruth) {
        let truth = try XCTUnwrap(Self.truths[file], "truth.json has \(file)")
        let engine = try XCTUnwrap(Self.engine)
        let result = try OCRPipeline(options: options).read(contentsOf: truth.path, engine: engine)
        return (result, ReceiptExtractor(defaultCurrency: "USD").extract(result), truth)
    }

    func assertRead(_ file: String, _ fields: [String] = ["total", "date", "volume", "merchant"], line: UInt = #line) throws {
        let (result, f, truth) = try read(file)
        let score = truth.score(f)
        for field in fields where score[field] != nil {
            XCTAssertEqual(score[field]!, true, "\(file): \(field) misread\n\(result.text)", line: line)
        }
    }

    func testUprightUSReceipt() throws {
        let (result, f, _) = try read("r00-us-fuel.png")
        XCTAssertEqual(result.quarterTurns, 0)
        XCTAssertGreaterThan(result.meanConfidence, 80)
        XCTAssertTrue(result.lines.first?.text.contains("SHELL") ?? false, result.text)
        XCTAssertTrue(result.lines.allSatisfy { $0.words.allSatisfy { (0...100).contains($0.confidence) } })
        XCTAssertEqual(f.total.map { "\($0.value)" }, "46.15")
        XCTAssertEqual(f.doubtful, [])
    }

    func testEuropeanCommaDecimals() throws { try assertRead("r05-eu-fuel-de.png") }

    func testUpsideDownScanIsTurnedUpright() throws {
        let (result, _, _) = try read("r21-eu-fuel-fr-rot180.png")
        XCTAssertEqual(result.quarterTurns, 2)
        try assertRead("r21-eu-fuel-fr-rot180.png")
    }

    func testSidewaysPhotoIsTurnedUpright() throws {
        let (result, _, _) = try read("r20-us-fuel-rot90.png")
        XCTAssertEqual(result.quarterTurns, 1, "turned 90° counter-clockwise in the pixels: one clockwise quarter turn back")
        try assertRead("r20-us-fuel-rot90.png")
    }

    func testSkewedPhotoIsDeskewed() throws {
        let (result, _, _) = try read("r23-us-fuel-skew.png")
        XCTAssertGreaterThan(abs(result.skewDegrees), 1.5)
        try assertRead("r23-us-fuel-skew.png")
    }

    /// The orientation step's measured effect, on one image: without it the upside-down slip is gibberish.
    func testWithoutOrientationTheTurnedSlipIsUnreadable() throws {
        var options = OCRPipeline.Options()
        options.orient = false
        let (result, f, _) = try read("r21-eu-fuel-fr-rot180.png", options: options)
        XCTAssertLessThan(result.meanConfidence, 60)
        XCTAssertNotEqual(f.total.map { "\($0.value)" }, "52.12")
    }

    func testABlankImageReadsNothing() throws {
        let engine = try XCTUnwrap(Self.engine)
        let result = engine.recognize(OCRImage(width: 300, height: 200))
        XCTAssertEqual(result.lines, [])
        XCTAssertEqual(result.meanConfidence, 0)
    }

    func testANonReceiptPhotoGivesNoFields() throws {
        let engine = try XCTUnwrap(Self.engine)
        let path = ReceiptTruth.folder.deletingLastPathComponent().appendingPathComponent("not-a-receipt/landscape.jpg").path
        let f = ReceiptExtractor().extract(try OCRPipeline().read(contentsOf: path, engine: engine))
        XCTAssertNil(f.total)
        XCTAssertNil(f.date)
        XCTAssertNil(f.volume)
        XCTAssertFalse(f.doubtful.isEmpty)
    }

    // MARK: - Pool

    func testPoolReusesOneEnginePerWorkerAndKeepsOrder() throws {
        let files = ["r00-us-fuel.png", "r05-eu-fuel-de.png", "r03-us-expense.png", "r19-eu-fuel-uk.png"]
        let paths = try files.map { try XCTUnwrap(Self.truths[$0]).path }
        let pool = OCRPool(workers: 2)
        let pipeline = OCRPipeline()
        let first = pool.map(paths) { engine, path in try pipeline.read(contentsOf: path, engine: engine).lines.first?.text ?? "" }
        XCTAssertEqual(try first.map { try $0.get() }, ["SHELL", "ARAL TANKSTELLE", "AUTOZONE #4411", "ESSO EXPRESS"])
        XCTAssertEqual(pool.engineCount, 2)
        _ = pool.map(paths) { engine, _ in ObjectIdentifier(engine) }
        XCTAssertEqual(pool.engineCount, 2, "engines are reused, not created per image")
        let failures = pool.map(["/nonexistent.png"]) { engine, path in try pipeline.read(contentsOf: path, engine: engine) }
        XCTAssertThrowsError(try failures[0].get())
    }

    func testPoolOfOneSerialisesWork() throws {
        let pool = OCRPool(workers: 1)
        let results = pool.map(Array(0..<5)) { engine, i in (i, ObjectIdentifier(engine)) }
        let values = try results.map { try $0.get() }
        XCTAssertEqual(values.map(\.0), [0, 1, 2, 3, 4])
        XCTAssertEqual(Set(values.map(\.1)).count, 1)
        XCTAssertEqual(try pool.withEngine { ObjectIdentifier($0) }, values[0].1)
    }
}
