import XCTest
import FleetCore
import FleetWarehouse
@testable import FleetImport

/// A sink that records every call, in order, and can be told to fail on its n-th batch.
private struct RecordingSink: RecordSink {
    struct Failure: Error, Equatable { var call: Int }
    var log: [String] = []
    var failOnBatch = Int.max
    var batches = 0
    var sourceFileID: Int64 = 7
    var notes: [String] = []
    var counts = LoadCounts()

    mutating func asset(_ ref: AssetRef) throws -> Int64 { 3 }
    func findAsset(_ ref: AssetRef) throws -> Int64? { nil }
    mutating func defineAsset(_ ref: AssetRef, fields: Asset) throws -> LoadOutcome { .inserted }
    mutating func driver(_ ref: DriverRef) throws -> Int64 { 1 }
    mutating func defineDriver(_ ref: DriverRef, fields: Driver) throws -> LoadOutcome { .inserted }
    mutating func load<R: LoadableRecord>(_ record: R) throws -> LoadOutcome {
        log.append("row \(record)")
        counts.loaded += 1
        return .inserted
    }
    mutating func load<R: LoadableRecord>(contentsOf records: [R]) throws {
        batches += 1
        if batches == failOnBatch { throw Failure(call: batches) }
        log.append("batch \(records.count): " + records.map { "\($0)" }.joined(separator: ";"))
        counts.loaded += records.count
    }
    func id<R: LoadableRecord>(of record: R) throws -> Int64? { nil }
    mutating func atomically(_ body: (inout RecordingSink) throws -> Void) throws { try body(&self) }
    mutating func reject(_ issue: Issue) throws {
        log.append("reject \(issue.reason.rawValue) \(issue.location) \(issue.message) | \(issue.raw)")
        counts.rejected += 1
    }
    mutating func note(_ message: String) { notes.append(message) }
    mutating func note(_ kind: String, example: String) { notes.append("\(kind): \(example)") }
    func receiptCorrections(sha256: String) throws -> [String: String] { [:] }
    mutating func attachPendingDefects(dvirKey: String?, dvirID: Int64) throws -> Int { 0 }
}

/// The two-thread GPX import (`GPXPipeline`) must make exactly the sink calls the one-thread
/// importer made: same batches, same rejects with the same raw text, same order, same error.
final class GPXPipelineTests: XCTestCase {
    let start: Int64 = 1_790_841_600   // 2026-10-01T00:00:00Z

    /// `count` track points one second apart, 11 m apart along a meridian (a drive: no fix is
    /// impossible against its neighbours, so `FixJudge` holds none back); `edit` may replace a point's line.
    private func gpx(_ count: Int, tail: String = "</trkseg></trk></gpx>", edit: (Int, String) -> String = { $1 }) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for i in 1...count {
            let time = Date(timeIntervalSince1970: TimeInterval(start + Int64(i))).ISO8601Format()
            let line = "<trkpt lat=\"\(41 + Double(i) / 10_000)\" lon=\"-87.6\"><ele>\(i % 300).5</ele><time>\(time)</time><speed>\(i % 20)</speed></trkpt>\n"
            text += edit(i, line)
        }
        return Array((text + tail).utf8)
    }

    /// The one-thread importer's loop, as it was before the pipeline: the reference.
    private func oneThread(_ bytes: [UInt8], chunkSize: Int, batchSize: Int, into sink: inout RecordingSink) throws {
        let scanner = GPXScanner(bytes: bytes, chunkSize: chunkSize)
        var batch: [Position] = []
        try scanner.scan { point in
            guard point.problem == nil, let at = point.time, let lat = point.lat, let lon = point.lon else {
                try sink.load(contentsOf: batch)
                batch.removeAll()
                let problem = point.problem ?? GPXPoint.Problem(reason: .badValue, message: "unusable point")
                try sink.reject(Issue(problem.reason, at: "\(point.path), line \(point.line)", problem.message, raw: scanner.rawText()))
                return
            }
            batch.append(Position(assetID: 3, at: at, lat: lat, lon: lon, speedMps: point.speed, headingDeg: point.course, altM: point.ele, sourceFileID: 7))
            if batch.count == batchSize { try sink.load(contentsOf: batch); batch.removeAll() }
        }
        try sink.load(contentsOf: batch)
    }

    private func pipeline(_ bytes: [UInt8], chunkSize: Int, batchSize: Int, into sink: inout RecordingSink) throws -> GPXPipeline {
        let p = GPXPipeline(scanner: GPXScanner(bytes: bytes, chunkSize: chunkSize), asset: 3, file: 7, batchSize: batchSize)
        try p.run(into: &sink)
        return p
    }

    /// Scattered rejects, a run of 150 rejects (more than a chunk's worth) and a point split over
    /// two windows (tiny read chunks), with small batches so that many chunks wait in the queue.
    func testSameSinkCallsAsOneThreadWithRejects() throws {
        let bytes = gpx(3000) { i, line in
            switch i {
            case 5, 999: return line.replacingOccurrences(of: #"<time>[^<]*</time>"#, with: "", options: .regularExpression)
            case 1000...1149: return line.replacingOccurrences(of: "lon=\"-87.6\"", with: "lon=\"-187.6\"")
            case 2048: return line.replacingOccurrences(of: "<ele>", with: "<ele>x")
            default: return line
            }
        }
        for (chunkSize, batchSize) in [(1 << 20, 1024), (97, 16)] {
            var expected = RecordingSink(), actual = RecordingSink()
            try oneThread(bytes, chunkSize: chunkSize, batchSize: batchSize, into: &expected)
            let p = try pipeline(bytes, chunkSize: chunkSize, batchSize: batchSize, into: &actual)
            XCTAssertEqual(actual.log, expected.log, "chunk \(chunkSize)")
            XCTAssertEqual(actual.counts, LoadCounts(loaded: 2847, rejected: 153))
            XCTAssertEqual(p.pointsScanned, 3000)
        }
        var sink = RecordingSink()
        _ = try pipeline(bytes, chunkSize: 1 << 20, batchSize: 1024, into: &sink)
        let rejects = sink.log.filter { $0.hasPrefix("reject") }
        XCTAssertEqual(rejects.count, 153)
        XCTAssertEqual(rejects[0], "reject missing_time trk[1]/trkseg[1]/trkpt[5], line 7 the point has no <time>; a position needs one (position.at) | "
                       + "<trkpt lat=\"41.0005\" lon=\"-87.6\"><ele>5.5</ele><speed>5</speed></trkpt>")
        XCTAssertTrue(rejects[152].hasPrefix("reject bad_number trk[1]/trkseg[1]/trkpt[2048], line 2050 <ele>x248.5</ele> is not a decimal number"), rejects[152])
        // 4 points, then a reject's flush; 993 (6…998); 0 between the rejects at 999 and 1000…1149.
        XCTAssertEqual(sink.log.filter { $0.hasPrefix("batch") }.prefix(5).map { $0.prefix(while: { $0 != ":" }) },
                       ["batch 4", "batch 993", "batch 0", "batch 0", "batch 0"])
    }

    /// A fatal XML error half-way: the batches before it are loaded, as one thread loaded them,
    /// then the scanner thread's error is thrown here.
    func testFatalXMLErrorHalfWayIsRethrownAfterTheEarlierBatches() throws {
        let bytes = gpx(5000, tail: "") { i, line in i == 2600 ? "<trkpt lat=\"41\" lon=\"-87\"><ele>1</time></trkpt>\n" : line }
        var expected = RecordingSink(), actual = RecordingSink()
        var reference: GPXFileError?
        XCTAssertThrowsError(try oneThread(bytes, chunkSize: 4096, batchSize: 1024, into: &expected)) { reference = $0 as? GPXFileError }
        XCTAssertThrowsError(try pipeline(bytes, chunkSize: 4096, batchSize: 1024, into: &actual)) { error in
            XCTAssertEqual(error as? GPXFileError, reference)
            XCTAssertEqual((error as? GPXFileError)?.line, 2602)
            XCTAssertEqual((error as? GPXFileError)?.message.hasPrefix("closing tag </time> does not match <ele>"), true, "\(error)")
        }
        XCTAssertEqual(actual.log, expected.log)
        XCTAssertEqual(actual.counts.loaded, 2048)   // two full batches; the 551 points after them were never loaded
    }

    /// A sink that fails stops the scanner thread early (it blocks on the full queue and is told
    /// to stop), and its error, not a scan error, reaches the caller; nothing hangs.
    func testFailingSinkStopsTheScannerThread() throws {
        let bytes = gpx(100_000)
        for failOn in [1, 3] {
            var sink = RecordingSink()
            sink.failOnBatch = failOn
            let p = GPXPipeline(scanner: GPXScanner(bytes: bytes), asset: 3, file: 7, batchSize: 1024)
            XCTAssertThrowsError(try p.run(into: &sink)) { XCTAssertEqual($0 as? RecordingSink.Failure, RecordingSink.Failure(call: failOn)) }
            XCTAssertEqual(sink.counts.loaded, (failOn - 1) * 1024)
            // At most the batch being loaded, a full queue and the batch being read: never the file.
            XCTAssertLessThanOrEqual(p.pointsScanned, (failOn + GPXPipeline.maxChunks + 1) * 1024)
            XCTAssertGreaterThanOrEqual(p.pointsScanned, failOn * 1024)
        }
        // Every point rejected: a chunk ends at 64 sink calls (32 empty batches and 32 rejects),
        // so the queue still holds a few chunks, not the file.
        let rejects = gpx(20_000) { _, line in line.replacingOccurrences(of: #"<time>[^<]*</time>"#, with: "", options: .regularExpression) }
        var sink = RecordingSink()
        sink.failOnBatch = 1
        let p = GPXPipeline(scanner: GPXScanner(bytes: rejects), asset: 3, file: 7, batchSize: 1024)
        XCTAssertThrowsError(try p.run(into: &sink)) { XCTAssertEqual($0 as? RecordingSink.Failure, RecordingSink.Failure(call: 1)) }
        XCTAssertEqual(sink.log, [])
        XCTAssertLessThanOrEqual(p.pointsScanned, (GPXPipeline.maxChunks + 2) * GPXPipeline.chunkItems / 2)
        XCTAssertGreaterThanOrEqual(p.pointsScanned, GPXPipeline.chunkItems / 2)
    }

    /// The notes the importer takes from the scanner after the pipeline are still complete.
    func testImporterNotesAfterThePipeline() throws {
        let bytes = gpx(2500) { i, line in i % 1000 == 0 ? line.replacingOccurrences(of: "<speed>0</speed>", with: "<speed>-1</speed>") : line }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpx-pipeline-\(UUID().uuidString).gpx")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var sink = RecordingSink()
        try GPXImporter().read(InputFile(url: url, head: Data(bytes.prefix(4096)), asset: AssetRef(unitNumber: "T-1")), into: &sink)
        XCTAssertEqual(sink.counts, LoadCounts(loaded: 2500))
        XCTAssertEqual(sink.notes, ["2 negative speed or course values (devices write -1 for unknown) were stored as unknown"])
        XCTAssertEqual(sink.log.map { $0.prefix(while: { $0 != ":" }) }, ["batch 1024", "batch 1024", "batch 452"])
    }
}
