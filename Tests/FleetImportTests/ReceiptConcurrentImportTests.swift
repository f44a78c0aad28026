import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// A folder of receipts is read several at a time (`ImportPrefetch`) and written one transaction
/// per file in order: the outcomes and the warehouse are those of importing the files one by one.
final class ReceiptConcurrentImportTests: XCTestCase {
    func receipt(_ name: String) -> URL { ReceiptImporterTests.receipt(name) }

    /// Receipts, a duplicate image, a damaged one and a card export, mixed in one folder.
    func folder(in t: TestWarehouse) throws -> URL {
        let dir = t.directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, copy) in [("r00-us-fuel.png", "a-shell.png"), ("r14-us-fuel.png", "b-chevron.png"), ("r03-us-expense.png", "c-autozone.png"),
                             ("r00-us-fuel.png", "d-shell-again.png"), ("r05-eu-fuel-de.png", "e-de.png")] {
            try FileManager.default.copyItem(at: receipt(name), to: dir.appendingPathComponent(copy))
        }
        try (try Data(contentsOf: receipt("r14-us-fuel.png")).prefix(300) + Data(repeating: 0x41, count: 500)).write(to: dir.appendingPathComponent("c-broken.png"))
        try ("Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Gallons,Total Amount\n"
             + "2025-07-09,07:01,WX-1,XXXXXXXXXXXX4444,T-12,Shell,11.891,46.15\n").write(to: dir.appendingPathComponent("b-card.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT s.path, r.reason, r.message FROM reject r JOIN source_file s ON s.id = r.source_file_id ORDER BY s.path, r.id").map {
            "\(URL(fileURLWithPath: $0["path"] as String).lastPathComponent) \($0["reason"] as String) \($0["message"] as String)"
        }
    }

    func testAFolderReadConcurrentlyEqualsOneFileAtATime() throws {
        let together = try TestWarehouse(), alone = try TestWarehouse()
        let summary = try together.importFiles([try folder(in: together).path])
        XCTAssertEqual(summary.files.count, 7)
        XCTAssertEqual(summary.files.filter { $0.status == .unchanged }.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["d-shell-again.png"])
        XCTAssertEqual(summary.files.filter { $0.status == .failed }.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["c-broken.png"])
        // The same files in the same order, each in a run of its own (one file: nothing read ahead).
        let dir = try folder(in: alone)
        var one: [FileOutcome] = []
        for o in summary.files { one.append(try alone.importFile(dir.appendingPathComponent(URL(fileURLWithPath: o.path).lastPathComponent))) }
        func strip(_ o: FileOutcome) -> String {
            "\(URL(fileURLWithPath: o.path).lastPathComponent) \(o.format ?? "-") \(o.status) \(o.loaded) \(o.updated) \(o.unchanged) \(o.rejected) "
                + (o.error?.replacingOccurrences(of: o.path, with: "PATH") ?? "")
        }
        XCTAssertEqual(summary.files.map(strip), one.map(strip))
        XCTAssertEqual(try together.factDump(), try alone.factDump())
        XCTAssertEqual(try rejects(together), try rejects(alone))
        XCTAssertGreaterThan(try together.count("fuel_purchase"), 2)
    }

    /// A receipt the warehouse already holds is not read ahead (a re-import of a folder would
    /// otherwise read every image again only to find it unchanged); new receipts are, other formats not.
    func testOnlyNewReceiptsAreReadAhead() throws {
        let t = try TestWarehouse()
        let dir = try folder(in: t)
        try t.importFile(dir.appendingPathComponent("a-shell.png"))
        let session = ImportSession(warehouse: t.warehouse)
        let names = ["a-shell.png", "b-card.csv", "b-chevron.png", "c-broken.png"]
        let files: [(URL, String?)] = names.map { (dir.appendingPathComponent($0), nil) }
        let prefetch = try XCTUnwrap(session.prefetch(files, options: ImportOptions()))
        defer { prefetch.stop() }
        let read = names.indices.map { prefetch.take($0) != nil }
        // The damaged PNG is read ahead too: its failure is raised again in its transaction.
        XCTAssertEqual(read, [false, false, true, true])
        XCTAssertNil(session.prefetch([files[2]], options: ImportOptions()), "one file: nothing to overlap")
    }

    /// At most `ahead` files past the one taken are read, by at most `workers` threads, in order.
    func testReadingAheadIsBounded() {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var busy = 0, most = 0, order: [Int] = []
            func count() -> Int { lock.lock(); defer { lock.unlock() }; return order.count }
        }
        let log = Log()
        let urls = (0..<12).map { URL(fileURLWithPath: "/nonexistent/\($0)") }
        let prefetch = ImportPrefetch(files: urls, workers: 3, ahead: 4) { url in
            log.lock.lock(); log.busy += 1; log.most = max(log.most, log.busy); log.order.append(Int(url.lastPathComponent)!); log.lock.unlock()
            Thread.sleep(forTimeInterval: 0.01)
            log.lock.lock(); log.busy -= 1; log.lock.unlock()
            return nil
        }
        for i in urls.indices {
            _ = prefetch.take(i)
            XCTAssertLessThanOrEqual(log.count(), min(urls.count, i + 1 + 4), "claimed past the window after taking \(i)")
        }
        prefetch.stop()
        XCTAssertLessThanOrEqual(log.most, 3)
        XCTAssertGreaterThan(log.most, 1, "read concurrently")
        XCTAssertEqual(log.order.sorted(), Array(0..<12))
    }
}
