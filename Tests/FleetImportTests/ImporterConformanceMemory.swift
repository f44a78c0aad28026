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
        var figures: [String] = []
        for e in Table.entries {
            guard let large = e.large else {
                XCTAssertEqual(e.format, "receipt", "only a receipt (one photo, bounded by the OCR memory budget) has no large input")
                continue
            }
            var peaks: [Int] = [], rows: [Int] = []
            for bytes in [Self.smallBytes, Self.largeBytes] {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-conformance-\(e.format)-\(UUID().uuidString.prefix(8))")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: dir) }
                let db = dir.appendingPathComponent("fleet.sqlite").path
                let base = dir.appendingPathComponent("base-assets.csv")
                try Data(Table.baseAssets.utf8).write(to: base)
                XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
                XCTAssertEqual(try Fleetkit.run(["import", "--db", db, base.path]).status, 0)
                let file = try large.write(to: dir, bytes: bytes)
                let (r, kb) = try Fleetkit.peakMemory(["import", "--db", db, "--json", "--format", e.format] + (e.asset.map { ["--asset", $0] } ?? []) + [file.path])
                XCTAssertTrue([0, 1].contains(r.status), "\(e.format), \(bytes >> 20) MiB: exit \(r.status): \(r.stderr.prefix(600))")
                let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
                let totals = summary?["totals"] as? [String: Any]
                let read = ["loaded", "updated", "unchanged", "rejected"].reduce(0) { $0 + ((totals?[$1] as? Int) ?? 0) }
                peaks.append(kb)
                rows.append(read)
            }
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
}
