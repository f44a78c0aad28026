import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Expected values were read from the fixtures by a separate Python reader (the times in the
/// test warehouse's UTC zone; mph × 1.609344, (°F − 32) × 5/9) and by hand: 2026-10-01T08:00:00Z is
/// 1,790,841,600,000 ms; 25 mph is 40.2336 km/h, 194 °F is 90 °C, 62 mph is 99.779328 km/h.
final class PythonOBDImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func testPrintedValuesInPintUnitsAreConvertedToTheJ1979Units() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-values.log"), options: t12)
        XCTAssertEqual(o.format, "python-obd")
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790841600250|05|80.000000", "T-12|1790841600250|0C|812.250000", "T-12|1790841600250|0D|0.000000",
            "T-12|1790841601500|05|90.000000", "T-12|1790841601500|0B|101.000000", "T-12|1790841601500|0C|1650.000000",
            "T-12|1790841601500|0D|40.233600", "T-12|1790841601500|2F|47.058824",
            "T-12|1790841602750|11|21.960784",
        ])
        XCTAssertEqual(try OBDRows.rejects(t), [])
        XCTAssertEqual(o.notes, ["1 readings of 1 commands were not stored (outside FleetKit's table): FUEL_STATUS",
                                 "1 readings were None (the car did not answer) and were skipped",
                                 "1 lines of other output (not '<date time> - COMMAND: value') were skipped"])
        XCTAssertEqual(try t.rows("SELECT value FROM meter_reading WHERE meter = 'fuel_level'").map { $0[0] as Double }.map { ($0 * 1e6).rounded() / 1e6 }, [47.058824])
    }

    /// Both DST nights of 2026 in America/Chicago, by the rule of every OBD log: 02:30 on
    /// 2026-03-08 was skipped (a `bad_date` reject saying so), and 01:15 after 01:59 on
    /// 2026-11-01 is the second pass (file order). python3 zoneinfo: 01:59 CST → 1772956740000,
    /// 03:10 CDT → 1772957400000, 01:30 fold=0 → 1793514600000, 01:59 fold=0 → 1793516340000,
    /// 01:15 fold=1 → 1793517300000, 02:10 → 1793520600000.
    func testTheSkippedHourIsRejectedAndTheRepeatedHourFollowsFileOrder() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/python-obd-dst.log"), options: options)
        XCTAssertEqual(o.format, "python-obd")
        XCTAssertEqual(try OBDRows.rejects(t), ["line 4 bad_date"])
        XCTAssertEqual(try OBDRows.samples(t).filter { $0.contains("|0C|") }.map { $0.split(separator: "|")[1] },
                       ["1772956740000", "1772957400000", "1793514600000", "1793516340000", "1793517300000", "1793520600000"])
    }

    func testLoggingOutputWithAbbreviatedUnits() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-logging.log"), options: t12)
        XCTAssertEqual(o.format, "python-obd")
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790846101000|05|95.000000", "T-12|1790846101000|0C|2500.500000", "T-12|1790846101000|0D|99.779328",
            "T-12|1790846101000|46|18.000000", "T-12|1790846102000|0C|2480.000000", "T-12|1790846102000|10|12.500000",
            "T-12|1790846102000|42|14.200000",
        ])
        XCTAssertEqual(o.notes, ["1 readings were None (the car did not answer) and were skipped",
                                 "1 lines of other output (not '<date time> - COMMAND: value') were skipped"])
    }

    /// A log with readings and nothing to store says so and exits 1, never "imported" with nothing.
    func testALogOfNoneOnlyIsRefusedSayingWhy() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-all-none.log"), options: t12)
        XCTAssertEqual(o.format, "python-obd")
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("its 3 readings are all None: the car answered none of the commands") ?? false, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), 0)
    }

    func testALogWithoutReadingsIsRefusedSayingWhy() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-no-readings.log"), options: ImportOptions(format: "python-obd", asset: "T-12"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("it holds no reading ('<date time> - COMMAND: value unit'), only 2 lines of other output") ?? false, o.error ?? "")
    }

    func testEachBadReadingIsARejectWithItsReason() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-bad-lines.log"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841600250|0C|800.000000", "T-12|1790841601250|0D|12.000000"])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 2 bad_value", "line 3 bad_number", "line 4 bad_date", "line 6 short_record"])
    }

    func testWithoutAnAssetTheLogIsRefused() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/python-obd-values.log"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("--asset") ?? false, o.error ?? "")
    }

    func testLineShapes() {
        let a = PythonOBDLine.parse("2026-10-01 08:00:00.250123 - RPM: 812.25 revolutions_per_minute")
        XCTAssertEqual(a, PythonOBDLine(time: "2026-10-01 08:00:00.250123", command: "RPM", value: 812.25, unit: "revolutions_per_minute", isNumber: true))
        let b = PythonOBDLine.parse("2026-10-01 08:00:00,125 - obd - WARNING - SHORT_FUEL_TRIM_1: -3.125 percent")
        XCTAssertEqual(b, PythonOBDLine(time: "2026-10-01 08:00:00,125", command: "SHORT_FUEL_TRIM_1", value: -3.125, unit: "percent", isNumber: true))
        XCTAssertEqual(PythonOBDLine.parse("2026-10-01 08:00:00 - SPEED: None")?.value, nil)
        XCTAssertEqual(PythonOBDLine.parse("2026-10-01 08:00:00 - SPEED: fast")?.isNumber, false)
        XCTAssertNil(PythonOBDLine.parse("2026-10-01 08:00:00 - Connected to ELM327"))
        XCTAssertNil(PythonOBDLine.parse("[obd.elm327] write: b'010C\\r'"))
        XCTAssertEqual(PythonOBDLine.unit("kilometer_per_hour"), "km/h")
        XCTAssertEqual(PythonOBDLine.unit("°F"), "°F")
        XCTAssertNil(PythonOBDLine.unit("furlong_per_fortnight"))
    }
}
