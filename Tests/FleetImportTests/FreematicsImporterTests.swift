import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Expected values were read from the fixtures by a separate Python reader (per device start:
/// the anchor is the first instant with the GPS time PID 10 and a date PID 11, ddmmyy and
/// hhmmsscc in UTC; every reading at anchor + its device ms − the anchor's device ms), and by hand:
/// 2026-10-01T00:00:00Z is 1,790,812,800,000 ms; 13:00:00.50 adds 46,800,500. Readings of a start
/// before its anchor are at the anchor − (the anchor's device ms − theirs): the same clock.
final class FreematicsImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func positions(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT at || '|' || lat || '|' || lon || '|' || ifnull(speed_mps, '-') || '|' || ifnull(alt_m, '-') FROM position ORDER BY at").map { $0[0] as String }
    }

    func testEachDeviceStartIsTimedByItsOwnGPSDateAndTime() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-restarts.csv"), options: t12)
        XCTAssertEqual(o.format, "freematics")
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        // Lines 2–3 (device 1000 ms) are 1.5 s before the first start's fix at 2500 ms; line 19
        // (800 ms) 0.4 s before the second's at 1200 ms (13:10:00.00).
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790859599000|05|80.000000", "T-12|1790859599000|0C|812.000000",
            "T-12|1790859601500|05|88.000000", "T-12|1790859601500|0C|1650.000000", "T-12|1790859601500|0D|40.000000",
            "T-12|1790859602500|0C|1700.500000", "T-12|1790859602500|0D|45.000000",
            "T-12|1790860199600|0C|900.000000", "T-12|1790860201000|0C|820.000000", "T-12|1790860201000|0D|0.000000",
            "T-12|1790860800000|0D|10.000000",
        ])
        // 36 km/h is 10 m/s.
        XCTAssertEqual(try positions(t), ["1790859600500|41.8781|-87.6298|10.0|181.0", "1790860200000|41.88|-87.63|-|-"])
        XCTAssertEqual(try OBDRows.rejects(t), [])
        XCTAssertEqual(o.notes, [
            "the device started 3 times in this log; each start is timed by its own GPS date and time (3 found)",
            "3 readings came before the first GPS fix of their device start and are timed from it by the device clock",
            "3 readings were not stored (the device's own sensors, or PIDs outside FleetKit's table): satellites, accelerometer, PID 24",
        ])
        // The header's VIN is the vehicle's and joins the asset named by --asset.
        XCTAssertEqual(try t.rows("SELECT unit_number || '|' || vin FROM asset").map { $0[0] as String }, ["T-12|1HGCM82633A004352"])
    }

    func testTheHeaderVINAloneNamesTheVehicle() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-restarts.csv"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try t.rows("SELECT vin FROM asset").map { $0[0] as String }, ["1HGCM82633A004352"])
        XCTAssertEqual(try t.count("obd_sample"), 11)
    }

    /// The ONE's datalogger: `#` absolute milliseconds, otherwise milliseconds since the line before.
    func testRelativeTimesOfTheOneDatalogger() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-one-relative.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        // #60000 is 500 ms before the fix at 60500 (08:00:00.00 on 2026-10-05).
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1791187199500|0C|800.000000", "T-12|1791187199500|0D|0.000000",
            "T-12|1791187201000|0C|850.000000", "T-12|1791187201000|0D|5.000000", "T-12|1791187201000|31|1234.000000",
            "T-12|1791187262000|0C|900.000000",
        ])
        XCTAssertEqual(try positions(t), ["1791187200000|-33.86882|151.209296|0.0|-"])
        XCTAssertEqual(try OBDRows.rejects(t), [])
    }

    func testWithoutAVINOrAssetTheLogIsRefused() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-one-relative.csv"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("--asset") ?? false, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), 0)
    }

    /// No GPS fix in the whole log: nothing can be placed in time, and the import says so
    /// (exit 1), not "imported" with nothing in it.
    func testALogWithoutAnyGPSTimeIsRefusedSayingWhy() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-no-gps.csv"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("none of its 5 readings could be stored: 5 are in device starts without any GPS date and time") ?? false, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), 0)
        XCTAssertEqual(try t.count("reject"), 0, "nothing of a refused file is kept")
    }

    /// The ONE+ telelogger's shape: a header holding its login event (`#FREEMATICSEV=1,TS=…,VIN=…`),
    /// readings before the first fix, an `EV=3` sync record among the readings, and a second start
    /// that never gets a fix. Events are no readings (a note counts them, nothing is rejected);
    /// the first start's early readings are placed from its fix; the second start's are rejected.
    func testTeleloggerEventsAndAStartWithoutAFix() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-telelogger.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        // The fix at device 69390 ms is 00:00:32.40 on 2018-01-01 (1,514,764,800,000): the
        // readings at 40620 ms are 28.77 s before it.
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1514764803630|0C|0.000000", "T-12|1514764803630|0D|12.000000",
            "T-12|1514764832400|0C|1879.000000", "T-12|1514764832400|0D|55.000000",
            "T-12|1514764865450|0D|60.000000",
        ])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 18 bad_date", "line 19 bad_date"])
        XCTAssertEqual(try t.rows("SELECT message FROM reject ORDER BY id").map { $0[0] as String }.first,
                       "device time 1000 ms has no GPS date and time in its device start (boot 2): the reading cannot be placed in time")
        XCTAssertTrue(o.notes?.contains("1 device event records (the telelogger's login, logout and sync lines, EV=…) are not readings and were not stored") ?? false, "\(o.notes ?? [])")
        XCTAssertTrue(o.notes?.contains("2 readings of device starts without a GPS date and time were rejected: they cannot be placed in time") ?? false, "\(o.notes ?? [])")
        // A header VIN of 16 characters is no VIN: --asset names the vehicle.
        XCTAssertEqual(try t.rows("SELECT unit_number || '|' || ifnull(vin, '-') FROM asset").map { $0[0] as String }, ["T-12|-"])
    }

    /// At most `earlyLimit` readings wait for a start's first fix; the ones after are rejected
    /// saying so, and the held ones are still placed when the fix comes.
    func testReadingsBeyondTheEarlyLimitAreRejectedSayingWhy() throws {
        let limit = FreematicsState.earlyLimit
        var text = "#FREEMATICS\n"
        for i in 0..<(limit + 3) { text += "\(1000 + i):10D=\(i % 100)\n" }
        let fix = 1000 + limit + 3
        text += "\(fix):10=8000000\n\(fix):11=51026\n\(fix):10D=7\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("freematics-early-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let t = try TestWarehouse()
        let o = try t.importFile(url, options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), limit + 1)
        XCTAssertEqual(try t.count("reject"), 3)
        let first = try t.rows("SELECT message FROM reject ORDER BY id").map { $0[0] as String }.first ?? ""
        XCTAssertTrue(first.contains("after more than \(limit) such readings"), first)
        // The first held reading is (limit + 3) ms before the fix at 08:00:00.00 on 2026-10-05.
        XCTAssertEqual(try t.rows("SELECT min(at) FROM obd_sample").map { $0[0] as Int64 }, [1_791_187_200_000 - Int64(limit + 3)])
    }

    /// The device ends every line: a last line without its end is a cut file, and its value
    /// (`16` of `1650`?) is rejected rather than stored.
    func testALastLineWithoutItsEndIsRejected() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-cut.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790859601500|0C|1650.000000", "T-12|1790859601500|0D|40.000000"])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 6 short_record"])
    }

    func testEachBadLineIsARejectWithItsReason() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/freematics-bad-lines.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790859602500|0D|30.000000"])
        // A line that is no reading is rejected when read; the readings of an instant when the
        // instant is complete (its GPS time may come last), so line 10 is rejected before line 8.
        XCTAssertEqual(try OBDRows.rejects(t), ["line 2 bad_date", "line 3 bad_value", "line 6 bad_date", "line 7 missing_field",
                                                "line 10 bad_value", "line 8 bad_number"])
        XCTAssertEqual(try t.rows("SELECT raw FROM reject ORDER BY id").map { $0[0] as String },
                       [",10C=800", "hello", "3000:11=999999", "3500:A=41.9", "5500:10C,700", "4500:10C=abc"])
    }

    func testLineShapesAndGPSFields() {
        XCTAssertEqual(FreematicsLine.parse("12345:10D=50"), FreematicsLine(time: .absolute(12345), id: 0x10D, values: ["50"]))
        XCTAssertEqual(FreematicsLine.parse("#12345,10D=50"), FreematicsLine(time: .absolute(12345), id: 0x10D, values: ["50"]))
        XCTAssertEqual(FreematicsLine.parse("200,10C=850"), FreematicsLine(time: .delta(200), id: 0x10C, values: ["850"]))
        XCTAssertEqual(FreematicsLine.parse(",20=1/-2/98"), FreematicsLine(time: .delta(0), id: 0x20, values: ["1", "-2", "98"]))
        XCTAssertEqual(FreematicsLine.parse("12345,10D,50\r"), FreematicsLine(time: .absolute(12345), id: 0x10D, values: ["50"]))
        XCTAssertEqual(FreematicsLine.parse("12345,20,1,-2,98"), FreematicsLine(time: .absolute(12345), id: 0x20, values: ["1", "-2", "98"]))
        for bad in ["", "12345", "12345:10D", "x:10D=5", "12345678901:10D=5", "1:XYZ=5", "1:10D=", "1:10D=1/2", "1,10D", "#20,-33=1", "1:+1=5", ",1\u{0605}=5"] {
            XCTAssertNil(FreematicsLine.parse(Substring(bad)), bad)
        }
        XCTAssertEqual(FreematicsGPS.date("11026"), CivilDate(year: 2026, month: 10, day: 1)!.daysSinceEpoch)
        XCTAssertEqual(FreematicsGPS.date("311299"), CivilDate(year: 2099, month: 12, day: 31)!.daysSinceEpoch)
        XCTAssertNil(FreematicsGPS.date("0"))
        XCTAssertNil(FreematicsGPS.date("310226"), "no 31 February")
        XCTAssertEqual(FreematicsGPS.time("13000050"), 46_800_500)
        XCTAssertEqual(FreematicsGPS.time("0"), 0)
        XCTAssertNil(FreematicsGPS.time("24000000"))
        XCTAssertEqual(FreematicsGPS.coordinate("-33.868820"), -33.86882)
        XCTAssertEqual(FreematicsGPS.coordinate("-33868820"), -33.86882)
    }
}
