import XCTest
import Foundation
import FleetTestSupport
@testable import FleetImport

extension ImporterConformanceTests {
    /// Peak RSS of `fleetkit import` in a child process (the kernel's figure, `/usr/bin/time`)
    /// for every format's generated input at two sizes: three times the bytes may not cost more
    /// than `allowedGrowthKB` more, while the rows read grow with the bytes (so the large file was
    /// really read). An importer that held its file, its rows or its keys would grow by at least
    /// the 4 MiB between the sizes. Sizes keep each debug import to a few seconds.
    static let smallBytes = 2 << 20, largeBytes = 6 << 20
    static let allowedGrowthKB = 4 * 1024
    /// Measured: 6–9 MB for assignments, maintenance, expenses and fuel cards crossing 50,000
    /// rows between 2 and 6 MiB; none between 3 and 12 MiB, where both sizes are past it.
    static let ledgerSpillKB = 10 * 1024

    func testMemoryStaysBoundedOnALargeInput() throws {
        for e in Table.entries where e.large == nil {
            XCTAssertEqual(e.format, "receipt", "only a receipt (one photo, bounded by the OCR memory budget) has no large input")
        }
        // Each import is a child process whose peak is its own, so two formats are measured at
        // once (one per core): the figures are those of one at a time, in half the wall time.
        let entries = Table.entries.filter { $0.large != nil }
        let measured = MeasuredBox(count: entries.count)
        DispatchQueue.concurrentPerform(iterations: entries.count) { i in
            measured.set(i, Result { try Self.measure(entries[i]) })
        }
        var figures: [String] = []
        for (e, result) in zip(entries, measured.all) {
            let m: Measured
            do { m = try result.get() } catch { XCTFail("\(e.format): \(error)"); continue }
            for failure in m.failures { XCTFail(failure) }
            let (peaks, rows) = (m.peaks, m.rows)
            figures.append("\(e.format) \(peaks[0] / 1024)→\(peaks[1] / 1024) MB (\(rows[0])→\(rows[1]) rows\(e.knownGrowth == nil ? "" : ", known growth"))")
            XCTAssertGreaterThan(rows[1], rows[0] * 2, "\(e.format): the large input is read whole (rows \(rows[0]), \(rows[1]))")
            // The per-file key ledger holds its first 50,000 keys in memory, then moves to a
            // temporary SQLite file with its own page cache (KeyLedger, KeyLedgerTests): a file
            // whose two sizes fall either side of that point grows by up to that cache, once.
            let crossesLedger = rows[0] < KeyLedger.defaultMemoryLimit && rows[1] >= KeyLedger.defaultMemoryLimit
            let allowed = Self.allowedGrowthKB + (crossesLedger ? Self.ledgerSpillKB : 0)
                + (e.knownGrowth.map { (rows[1] - rows[0]) * $0.bytesPerRow / 1024 } ?? 0)
            XCTAssertLessThan(peaks[1] - peaks[0], allowed,
                              "\(e.format): peak RSS \(peaks[0]) KB for \(Self.smallBytes >> 20) MiB, \(peaks[1]) KB for \(Self.largeBytes >> 20) MiB")
        }
        print("fleetkit import peak RSS, \(Self.smallBytes >> 20) MiB → \(Self.largeBytes >> 20) MiB: " + figures.joined(separator: "; "))
    }

    /// One format's peak RSS and rows read at both sizes, and what went wrong on the way (kept
    /// as text: failures are recorded on the test's thread, not the worker's).
    struct Measured: Sendable {
        var peaks: [Int] = [], rows: [Int] = [], failures: [String] = []
    }

    static func measure(_ e: ConformanceEntry) throws -> Measured {
        var m = Measured()
        guard let large = e.large else { return m }
        for bytes in [Self.smallBytes, Self.largeBytes] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-conformance-\(e.format)-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let db = dir.appendingPathComponent("fleet.sqlite").path
            let base = dir.appendingPathComponent("base-assets.csv")
            try Data(Table.baseAssets.utf8).write(to: base)
            for setup in [["init", "--db", db, "--tz", "America/Chicago"], ["import", "--db", db, base.path]] {
                let r = try Fleetkit.run(setup)
                if r.status != 0 { m.failures.append("\(e.format): `\(setup[0])` exit \(r.status): \(r.stderr.prefix(600))") }
            }
            let file = try large.write(to: dir, bytes: bytes)
            let (r, kb) = try Fleetkit.peakMemory(["import", "--db", db, "--json", "--format", e.format] + (e.asset.map { ["--asset", $0] } ?? []) + [file.path])
            if ![0, 1].contains(r.status) { m.failures.append("\(e.format), \(bytes >> 20) MiB: exit \(r.status): \(r.stderr.prefix(600))") }
            var summary: [String: Any]?
            do {
                summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
                if summary == nil { m.failures.append("\(e.format), \(bytes >> 20) MiB: the summary is not a JSON object: \(r.stdout.prefix(300))") }
            } catch {
                m.failures.append("\(e.format), \(bytes >> 20) MiB: the summary is not JSON (\(error)): \(r.stdout.prefix(300))")
            }
            let totals = summary?["totals"] as? [String: Any]
            m.peaks.append(kb)
            m.rows.append(["loaded", "updated", "unchanged", "rejected"].reduce(0) { $0 + ((totals?[$1] as? Int) ?? 0) })
        }
        return m
    }
}

/// Results written by `concurrentPerform`'s workers, one slot each.
private final class MeasuredBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<ImporterConformanceTests.Measured, Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ r: Result<ImporterConformanceTests.Measured, Error>) {
        lock.lock(); defer { lock.unlock() }
        slots[i] = r
    }

    var all: [Result<ImporterConformanceTests.Measured, Error>] {
        lock.lock(); defer { lock.unlock() }
        return slots.map { $0 ?? .failure(NotMeasured()) }
    }

    struct NotMeasured: Error, CustomStringConvertible {
        var description: String { "no worker measured this format" }
    }
}
