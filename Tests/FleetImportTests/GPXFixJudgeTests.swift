import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport
@testable import FleetWarehouse

/// Fixes judged on both sides (`FixJudge`, docs/FORMATS.md): a fix impossible against two fixes
/// that agree is dropped with a note wherever it is in the file, so no stored trip is faster
/// than the trip rule allows and `verify` finds nothing the import let through.
///
/// The fixtures (Fixtures/gpx, written by a script from one drive: 240 s parked, 180 s east at
/// 13.9 m/s, 240 s parked, 85 fixes) each hold one bad fix: the first (an eTrex's stale power-on
/// position 39.7 km away, one second before the second fix), one mid-drive (5.6 km off, 5 s on
/// either side) and the last (40.3 km away, one second after the one before). Before the judge,
/// the first and the last each became a trip of about a second at some 40,000 m/s.
final class GPXFixJudgeTests: XCTestCase {
    let options = ImportOptions(asset: "T-12")
    /// 2026-10-01T08:00:00Z.
    let base: Int64 = 1_790_841_600_000

    func testAFixImpossibleAgainstTwoThatAgreeIsDroppedWhereverItIs() throws {
        // file, fixes stored, the dropped fix's time (s after 08:00) and line.
        let cases: [(String, Int, Int64, Int)] = [
            ("gpx/power-on-first-fix.gpx", 85, 0, 5),
            ("gpx/spike-middle-fix.gpx", 84, 336, 48),
            ("gpx/stale-last-fix.gpx", 85, 662, 90),
        ]
        for (file, stored, droppedAt, line) in cases {
            let t = try TestWarehouse()
            let o = try t.importFile(fixture(file), options: options)
            XCTAssertEqual(o.status, .imported, file)
            XCTAssertEqual([o.loaded, o.rejected], [stored, 0], file)
            XCTAssertEqual(try t.count("position", where: "at = \(base + droppedAt * 1000)"), 0, "\(file): the bad fix is not stored")
            let note = (o.notes ?? []).first { $0.hasPrefix(GPXPipeline.droppedKind) }
            XCTAssertNotNil(note, "\(file): \(o.notes ?? [])")
            XCTAssertTrue(note?.contains("'line \(line) ") ?? false, "\(file): \(note ?? "")")
            // The drive is the one trip, and nothing is faster than the speed rule.
            XCTAssertEqual(try t.count("trip"), 1, file)
            let fastest = try t.rows("SELECT MAX(max_speed_mps), MAX(distance_m / MAX(duration_s, 0.001)) FROM trip")[0]
            XCTAssertLessThanOrEqual(fastest[0] as Double, FixJudge<Int>.maxSpeed, file)
            XCTAssertLessThanOrEqual(fastest[1] as Double, FixJudge<Int>.maxSpeed, file)
            // The trip invariants and trips-within-days hold right after the import.
            let verify = try Verifier(checks: [TripInvariantCheck(), TripDayTotalsCheck()])
                .run(t.warehouse, context: VerifyContext(settings: DeriveSettings(zone: .utc)))
            XCTAssertTrue(verify.clean, "\(file): \(verify.checks.flatMap(\.listed).map(\.what))")
            XCTAssertEqual(try t.importFile(fixture(file), options: options).status, .unchanged, file)
        }
    }

    /// The judge on its own: what is dropped, what stays for want of certainty, and that the
    /// fixes it keeps come out in file order.
    func testOnlyAFixAgainstTwoThatAgreeIsDropped() {
        // (seconds, metres east of a point on the equator); 70 m/s less 15 m jitter is the bound.
        typealias Fix = (t: Int64, x: Double)
        func judge(_ fixes: [Fix]) -> (kept: [Int64], dropped: [Int64]) {
            var j = FixJudge<Fix>(time: { $0.t * 1000 }, place: { (0, $0.x / 111_195.08) })
            var kept: [Int64] = [], dropped: [Int64] = []
            for f in fixes { j.add(f, keep: { kept.append($0.t) }, drop: { dropped.append($0.fix.t) }) }
            j.finish(keep: { kept.append($0.t) }, drop: { dropped.append($0.fix.t) })
            return (kept, dropped)
        }
        let drive: [Fix] = (1...5).map { (Int64($0), Double($0) * 20) }
        XCTAssertEqual(judge(drive).dropped, [])
        XCTAssertEqual(judge([(0, 40_000)] + drive).dropped, [0], "first")
        XCTAssertEqual(judge(drive + [(6, 40_000)]).dropped, [6], "last")
        var spiked = drive
        spiked[2].x += 5_000
        XCTAssertEqual(judge(spiked).dropped, [3], "middle")
        XCTAssertEqual(judge(spiked).kept, [1, 2, 4, 5], "file order")
        // Two fixes impossible together and nothing else: either could be wrong.
        XCTAssertEqual(judge([(0, 0), (1, 40_000)]).kept, [0, 1])
        // A neighbour hours away corroborates nothing: the first two disagree, the third is
        // possible against both (the gpx/partial-times.gpx shape), so all stay.
        XCTAssertEqual(judge([(0, 0), (30, 11_000), (19_800, 77_000)]).dropped, [])
        // One jump between two runs of good fixes: no side is the wrong one.
        XCTAssertEqual(judge(drive + (6...9).map { (Int64($0), 50_000 + Double($0) * 20) }).dropped, [])
        // Up to 70 m/s plus the jitter radius is possible (84.9 m in 1 s), beyond it not (86 m).
        XCTAssertEqual(judge([(0, 0), (1, 20), (2, 104.9), (3, 20), (4, 20)]).dropped, [])
        XCTAssertEqual(judge([(0, 0), (1, 20), (2, 106), (3, 20), (4, 20)]).dropped, [2])
    }

    /// The judge's bounds are the trip rule's (GPSPath): one speed everywhere.
    func testTheJudgesBoundsAreTheTripRules() {
        XCTAssertEqual(FixJudge<Int>.maxSpeed, GPSPath().maxSpeed)
        XCTAssertEqual(FixJudge<Int>.jitter, GPSPath().jitter)
    }
}
