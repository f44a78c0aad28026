import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Tracks long enough for the GPX importer's multi-row INSERT batches (the fixtures hold a few
/// points, which load row by row): rejects in the middle of a batch and an overlapping second
/// export must count and store exactly what row-by-row loading did.
final class GPXBatchImportTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")
    let start: Int64 = 1_790_841_600   // 2026-10-01T00:00:00Z

    /// Points `range` one second apart; `edit` may replace a point's line.
    private func gpx(_ range: ClosedRange<Int>, edit: (Int, String) -> String = { $1 }) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"]
        for i in range {
            let time = Date(timeIntervalSince1970: TimeInterval(start + Int64(i))).ISO8601Format()
            let lat = String(format: "%.4f", 41 + Double(i) / 10_000)
            lines.append(edit(i, "<trkpt lat=\"\(lat)\" lon=\"-87.6\"><ele>180.5</ele><time>\(time)</time><speed>\(i % 20)</speed></trkpt>"))
        }
        lines.append("</trkseg></trk></gpx>")
        return lines.joined(separator: "\n")
    }

    private func counts(_ o: FileOutcome) -> [Int] { [o.loaded, o.updated, o.unchanged, o.rejected] }

    func testRejectsInsideBatchesAndAnOverlappingReexport() throws {
        let t = try TestWarehouse()
        let first = gpx(1...300) { i, line in
            switch i {
            case 100: return line.replacingOccurrences(of: #"<time>[^<]*</time>"#, with: "", options: .regularExpression)
            case 200: return line.replacingOccurrences(of: "lat=\"41.0200\"", with: "lat=\"95\"")
            default: return line
            }
        }
        let a = try t.importFile(try t.write(first, to: "a.gpx"), options: t12)
        XCTAssertEqual(counts(a), [298, 0, 0, 2])
        XCTAssertEqual(try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" },
                       ["trk[1]/trkseg[1]/trkpt[100], line 102 missing_time", "trk[1]/trkseg[1]/trkpt[200], line 202 out_of_range"])
        XCTAssertEqual(try t.count("position"), 298)

        // 151…450: 148 unchanged, 160 moved 33 m (updated; a move no vehicle could make in a
        // second would be a dropped fix, FixJudge), 200 (rejected before) and 301…450 new.
        let second = gpx(151...450) { i, line in
            i == 160 ? line.replacingOccurrences(of: "lat=\"41.0160\"", with: "lat=\"41.0163\"") : line
        }
        let b = try t.importFile(try t.write(second, to: "b.gpx"), options: t12)
        XCTAssertEqual(counts(b), [151, 1, 148, 0])
        XCTAssertEqual(try t.count("position"), 449)
        let rows = try t.rows("SELECT at, lat, speed_mps, source_file_id FROM position WHERE at IN (?, ?, ?, ?) ORDER BY at",
                              [(start + 150) * 1000, (start + 160) * 1000, (start + 200) * 1000, (start + 450) * 1000])
        XCTAssertEqual(rows.map { "\(($0[0] as Int64) - start * 1000) \($0[1] as Double) \($0[2] as Double) \($0[3] as Int64)" },
                       ["150000 41.015 10.0 1", "160000 41.0163 0.0 2", "200000 41.02 0.0 2", "450000 41.045 10.0 2"])
    }
}
