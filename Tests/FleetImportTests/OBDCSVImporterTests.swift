import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// `obd-csv`: logger CSVs placed in time by their own clock column (docs/FORMATS.md).
final class OBDCSVImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func samples(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT at, pid, value FROM obd_sample ORDER BY at, pid").map { "\($0[0] as Int64) \($0[1] as Int) \($0[2] as Double)" }
    }

    /// pyobd's shape: an epoch-millisecond `ts` column and python-OBD command names. Refused
    /// before as "a CSV … with no clock column"; now each row is placed at its `ts` (UTC).
    func testPyobdEpochMillisecondsTsColumnIsAClock() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/pyobd-ts-epoch-ms.csv"), options: t12)
        XCTAssertEqual(o.format, "obd-csv")
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        // 4 rows × 5 PIDs (2026-10-02T08:00:00Z on), and 3 engine events: idle at 08:00:00 (812 rpm at 0 km/h), on at
        // 08:00:01, off 60 s after the last RPM sample.
        XCTAssertEqual([o.loaded, o.rejected], [20 + 3, 0], "\(o.notes ?? [])")
        XCTAssertEqual(try t.rows("SELECT at, state FROM engine_event ORDER BY at").map { "\($0[0] as Int64) \($0[1] as String)" },
                       ["1790928000000 idle", "1790928001000 on", "1790928063000 off"])
        XCTAssertEqual(try samples(t).prefix(5), [
            "1790928000000 4 22.4", "1790928000000 5 71.0", "1790928000000 12 812.0", "1790928000000 13 0.0", "1790928000000 17 14.1",
        ])
        XCTAssertEqual(o.notes?.first, "'ts' read as epoch milliseconds (UTC) on 4 rows")
        XCTAssertFalse((o.notes ?? []).contains { $0.contains("no clock") })
        XCTAssertEqual(try t.importFile(fixture("obd/pyobd-ts-epoch-ms.csv"), options: t12).status, .unchanged)
    }

    /// Epoch seconds (one with a fraction), units in parentheses converted (mph, °F), positions,
    /// and a driver column: each run of a driver's rows is an assignment from its first row to its last.
    func testEpochSecondsUnitsPositionsAndDrivers() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/logger-epoch-seconds.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.rejected, 0)
        // 10 mph = 16.09344 km/h; 160 °F = 71.111… °C; 1791014401.5 s = …401500 ms.
        XCTAssertEqual(try t.rows("SELECT value FROM obd_sample WHERE at = 1791014401500 AND pid = 13")[0][0] as Double, 16.09344, accuracy: 1e-9)
        XCTAssertEqual(try t.rows("SELECT value FROM obd_sample WHERE at = 1791014400000 AND pid = 5")[0][0] as Double, 71.1111111, accuracy: 1e-6)
        XCTAssertEqual(try t.count("position"), 5)
        XCTAssertEqual(try t.rows("SELECT i.id_value, a.start_at, a.end_at FROM assignment a JOIN driver_identifier i ON i.driver_id = a.driver_id ORDER BY a.start_at")
            .map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as Int64)" },
                       ["E1001 1791014400000 1791014403000", "E2002 1791018000000 1791018001000"])
        XCTAssertTrue((o.notes ?? []).contains("'time' read as epoch seconds (UTC) on 5 rows"), "\(o.notes ?? [])")
        XCTAssertTrue((o.notes ?? []).contains { $0.hasPrefix("'driver' read as the driver: 2 runs") }, "\(o.notes ?? [])")
    }

    /// Date-times: with `Z` or an offset exact; without a zone in the fleet zone, and said so.
    func testDateTimesWithAndWithoutAZone() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/logger-datetime.csv"), options: options)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        // 08:00:00Z, 10:00:01+02:00 = 08:00:01Z, 03:00:02 in Chicago (CDT, UTC−5) = 08:00:02Z.
        XCTAssertEqual(try t.rows("SELECT DISTINCT at FROM obd_sample ORDER BY at").map { $0[0] as Int64 }, [1_790_841_600_000, 1_790_841_601_000, 1_790_841_602_000])
        XCTAssertTrue((o.notes ?? []).contains("'timestamp' read as date-times with a zone on 2 rows; date-times without a zone, read in the fleet zone (America/Chicago) on 1 row"), "\(o.notes ?? [])")
    }

    /// Issue 35 item 4, obd-csv: a date-time without a zone in the hour skipped on 2026-03-08
    /// (America/Chicago) was shifted onto 03:30 CDT in silence; it is a `bad_date` reject with
    /// the reason, and the same wall time with its own offset loads. python3 zoneinfo:
    /// 01:59 CST = 1772956740000 ms, 02:30-06:00 = 1772958600000, 03:10 CDT = 1772957400000.
    func testADateTimeInTheSpringForwardGapIsRejectedWithTheReason() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/logger-spring-forward-gap.csv"), options: options)
        XCTAssertEqual(o.rejected, 1)
        let reject = try t.rows("SELECT location || ' ' || reason || ' ' || message FROM reject").map { $0[0] as String }
        XCTAssertTrue(reject.first?.hasPrefix("line 3 bad_date 'timestamp' is '2026-03-08 02:30:00' (2026-03-08 02:30:00) does not exist in America/Chicago") ?? false, "\(reject)")
        XCTAssertEqual(try t.rows("SELECT DISTINCT at FROM obd_sample ORDER BY at").map { $0[0] as Int64 }, [1_772_956_740_000, 1_772_957_400_000, 1_772_958_600_000])
    }

    /// The repeated hour of a fall-back night (2026-11-01, America/Chicago): a logger writes in
    /// time order, so 01:15 after 01:59 is the second pass (CST), as in every OBD log. Before,
    /// each took the first occurrence and 01:15/01:45 were placed an hour early, among the first
    /// pass. python3 zoneinfo: 00:59 → 1793512740000, 01:30 fold=0 → 1793514600000, 01:59 fold=0
    /// → 1793516340000, 01:15 fold=1 → 1793517300000, 01:45 fold=1 → 1793519100000, 02:10 →
    /// 1793520600000.
    func testDateTimesInTheRepeatedHourFollowFileOrder() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/logger-fall-back.csv"), options: options)
        XCTAssertEqual(o.rejected, 0, o.error ?? "")
        XCTAssertEqual(try t.rows("SELECT at || '|' || value FROM obd_sample WHERE pid = 12 ORDER BY at").map { $0[0] as String }, [
            "1793512740000|700.0", "1793514600000|710.0", "1793516340000|720.0",
            "1793517300000|730.0", "1793519100000|740.0", "1793520600000|750.0",
        ])
    }

    /// A row whose time is not a time, empty or before 1971, or whose value is not a number, is
    /// a reject with its line; the others load.
    func testBadRowsAreRejectedWithTheirLine() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/logger-bad-rows.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.rejected, 4)
        XCTAssertEqual(try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" },
                       ["line 3 bad_date", "line 4 missing_field", "line 5 out_of_range", "line 6 bad_number"])
        XCTAssertEqual(try t.rows("SELECT DISTINCT at FROM obd_sample ORDER BY at").map { $0[0] as Int64 }, [1_790_841_600_000, 1_790_841_605_000])
    }

    /// Phone fixes are judged as GPX fixes are: the one 5.6 km off its neighbours, a second on
    /// either side, is dropped with a note; its row's RPM is kept.
    func testAFixImpossibleAgainstItsNeighboursIsDropped() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/logger-gps-spike.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try t.count("position"), 4)
        XCTAssertEqual(try t.count("position", where: "at = 1791100802000"), 0)
        XCTAssertEqual(try t.count("obd_sample", where: "pid = 12"), 5)
        XCTAssertTrue((o.notes ?? []).contains { $0.hasPrefix(GPXPipeline.droppedKind + ": '2026-10-04T08:00:02Z: ") }, "\(o.notes ?? [])")
    }

    /// Rows with a clock and no value anywhere store nothing: the file fails, saying so.
    func testRowsWithoutAnyValueFailTheFile() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/logger-no-values.csv"), options: t12)
        XCTAssertEqual(o.format, "obd-csv")
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("its 2 rows have no value in any PID or position column (rpm, speed)") ?? false, o.error ?? "")
    }

    /// The epoch's unit by magnitude: seconds, milliseconds, microseconds, nanoseconds.
    func testEpochUnitByMagnitude() {
        XCTAssertEqual(OBDCSVClock.epoch("1790841600")?.0, 1_790_841_600_000)
        XCTAssertEqual(OBDCSVClock.epoch("1790841600.25")?.0, 1_790_841_600_250)
        XCTAssertEqual(OBDCSVClock.epoch("1790841600123")?.0, 1_790_841_600_123)
        XCTAssertEqual(OBDCSVClock.epoch("1790841600123456")?.0, 1_790_841_600_123)
        XCTAssertEqual(OBDCSVClock.epoch("1790841600123456789")?.0, 1_790_841_600_123)
        XCTAssertNil(OBDCSVClock.epoch("99999999999999999999"))
        XCTAssertNil(OBDCSVClock.epoch("-1790841600"))
        XCTAssertNil(OBDCSVClock.epoch("2026-10-01"))
    }

    /// Files without a clock are still refused for that, and are not claimed by this format.
    func testAFileWithoutAClockIsStillRefusedForIt() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/obd-carloop-1hz.csv"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertNotEqual(o.format, "obd-csv")
        XCTAssertTrue(o.error?.contains("no clock column") ?? false, o.error ?? "")
    }
}
