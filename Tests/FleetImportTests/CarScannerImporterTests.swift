import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class CarScannerImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    /// A log whose readings are all of names FleetKit does not read (the app's Russian names
    /// here) stored nothing and said "imported", exit 0; now the file fails, saying why.
    func testALogWithReadingsAndNothingStoredFailsSayingWhy() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner-names-unknown 2026-10-01 08-00-00.csv"), options: t12)
        XCTAssertEqual(o.format, "car-scanner")
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("its 4 readings are of 2 names, none a PID FleetKit reads (Обороты двигателя, Скорость автомобиля)") ?? false, o.error ?? "")
        XCTAssertTrue(o.error?.contains("set the app's language to English") ?? false, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), 0)
        XCTAssertEqual(try t.count("asset", where: "unit_number = 'T-12'"), 0, "nothing of the file is kept")
    }

    func testLongRowsFromTheRecordingStartInTheFileName() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner 2026-10-01 08-00-00.csv"), options: t12)
        XCTAssertEqual(o.format, "car-scanner")
        XCTAssertEqual(OBDRows.counts(o), [9, 0, 0, 2])
        XCTAssertEqual(o.notes, ["1 readings of 1 names were not stored (values the app computes, or PIDs outside FleetKit's table): Boost pressure",
                                 "SECONDS read as seconds since the start time in the file name (its first value is far below that time of day), in UTC",
                                 "1 readings without a value ('-' or empty) were skipped"])
        // Mixed line endings, a PID name with a trailing space, rows of one SECONDS are one instant.
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790841600512|0C|812.000000", "T-12|1790841600512|0D|0.000000",
            "T-12|1790841601024|05|85.000000",
            "T-12|1790841602000|0C|1650.000000", "T-12|1790841602000|0D|27.000000",
            "T-12|1790841604000|42|14.200000",
        ])
        XCTAssertEqual(try OBDRows.events(t), ["1790841600512|idle", "1790841602000|on", "1790841662000|off"])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 9 bad_number", "line 11 bad_value"])
        // The daily rollup counts the engine time between the OBD engine events (no hour meter here).
        XCTAssertEqual(try t.rows("SELECT day || '|' || engine_s FROM asset_day").map { $0[0] as String }, ["2026-10-01|61.488"])
    }

    func testEpochSecondsAndGPSColumns() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/car-scanner-gps-epoch.csv"), options: t12)), [8, 0, 0, 0])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841600500|0C|900.000000", "T-12|1790841600500|0D|0.000000", "T-12|1790841601500|A6|45678.900000"])
        XCTAssertEqual(try t.rows("SELECT at || '|' || lat || '|' || lon FROM position ORDER BY at").map { $0[0] as String },
                       ["1790841600500|52.520008|13.404954", "1790841601500|52.5201|13.405"])
        XCTAssertEqual(try t.rows("SELECT value FROM meter_reading WHERE meter = 'odometer'").map { $0[0] as Double }, [45_678_900])
    }

    /// Issue 35 item 10: a SECONDS above about 9.2e15 trapped converting to milliseconds (and
    /// `import DIR` died there). Such a row is an out-of-range reject; the rest of the file
    /// loads, whether the huge value comes first or later.
    func testSecondsBeyondAnyTimeAreRowRejectsNotATrap() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner-huge-seconds.csv"), options: t12)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.rejects(t), ["line 3 out_of_range", "line 4 out_of_range"])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841600500|0C|900.000000", "T-12|1790841601500|0C|950.000000"])
        let first = try TestWarehouse()
        let f = try first.importFile(fixture("obd/car-scanner-huge-first-seconds.csv"), options: t12)
        XCTAssertEqual(f.status, .imported, f.error ?? "")
        XCTAssertEqual(try OBDRows.rejects(first), ["line 2 out_of_range"])
        XCTAssertEqual(try OBDRows.samples(first), ["T-12|1790841601500|0C|950.000000"])
    }

    func testRelativeSecondsWithoutAStartTimeFailTheFile() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner-no-start.csv"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("holds no date"), o.error!)
        XCTAssertTrue(o.error!.contains("'2026-10-01 08-00-00.csv'"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)
    }

    /// An older log counting from the start time in its name, where that start (02:30:00 on
    /// 2026-03-08) is in the hour America/Chicago skipped: it names no instant, so no row can
    /// be placed and the file fails saying so, where the start used to be folded onto 03:30.
    /// In UTC the same file loads from 02:30:00Z (python3: 1772937000000 + 500 ms).
    func testAStartTimeInTheSpringForwardGapFailsTheFile() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let name = "car-scanner-relative 2026-03-08 02-30-00.csv"
        let o = try t.importFile(fixture("obd/" + name), options: options)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("'2026-03-08 02:30:00' (2026-03-08 02:30:00) does not exist in America/Chicago") ?? false, o.error ?? "")
        XCTAssertEqual(try t.count("obd_sample"), 0)
        let u = try TestWarehouse()
        XCTAssertEqual(try u.importFile(fixture("obd/" + name), options: t12).status, .imported)
        XCTAssertEqual(try OBDRows.samples(u).map { $0.split(separator: "|")[1] }, ["1772937000500", "1772937001500"])
    }

    /// Real Car Scanner logs count SECONDS from local midnight (57975.062 = 16:06:15.062, a minute
    /// after the 16-05-09 in the name); the day comes from the name. Expected instants:
    /// python3 zoneinfo, datetime(2026,10,1,tzinfo=America/Chicago).timestamp() + SECONDS.
    func testSecondsSinceLocalMidnightOfTheDateInTheFileName() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/car-scanner-midnight 2026-10-01 16-05-09.csv"), options: options)
        XCTAssertEqual(o.status, .imported)
        XCTAssertEqual(o.rejected, 0)
        XCTAssertTrue((o.notes ?? []).contains("SECONDS read as seconds since local midnight of 2026-10-01 (the date in the file name), in America/Chicago"), "\(o.notes)")
        // mph → km/h ×1.609344, ℉ → °C; "Barometric pressure" is Car Scanner's name for PID 33.
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790888775062|0C|709.000000", "T-12|1790888775062|0D|0.000000",
            "T-12|1790888776500|33|101.000000",
            "T-12|1790888777000|0C|1500.000000", "T-12|1790888777000|0D|40.233600", "T-12|1790888777000|0F|20.000000",
        ])
        XCTAssertFalse((o.notes ?? []).contains { $0.contains("Barometric") }, "\(o.notes)")
    }

    /// SECONDS is a time of day: 7201.5 on 2026-03-08 is 02:00:01.5, which America/Chicago skipped
    /// (clocks went from 02:00 CST to 03:00 CDT). That row is rejected with the reason; the rows
    /// around it land (python3 zoneinfo: 01:59:55.5 CST = 1772956795500, 03:00:01.5 CDT = 1772956801500).
    func testATimeOfDayInTheSpringForwardGapIsRejectedNotFolded() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/car-scanner-dst-gap 2026-03-08 01-59-50.csv"), options: options)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t).map { $0.split(separator: "|")[1] }, ["1772956795500", "1772956801500"])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 3 bad_date"])
        let message = try XCTUnwrap(try t.rows("SELECT message FROM reject").first?[0] as String?)
        XCTAssertTrue(message.contains("'2026-03-08 02:00:01' (2026-03-08 02:00:01.500) does not exist in America/Chicago"), message)
    }

    /// SECONDS since midnight on a fall-back night (2026-11-01, America/Chicago): 4500.5 after
    /// 7140.5 is 01:15:00.5 again, the second pass (CST), by file order as in every OBD log.
    /// Before, it took the first occurrence, an hour early among the first pass. python3
    /// zoneinfo (the first candidate not before the previous row): 1793512740500,
    /// 1793514600500, 1793516340500, 1793517300500 (fold=1), 1793519100500 (fold=1), 1793520600500.
    func testSecondsInTheRepeatedHourFollowFileOrder() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/car-scanner-fall-back 2026-11-01 00-59-00.csv"), options: options)
        XCTAssertEqual(o.rejected, 0, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t).map { $0.split(separator: "|")[1] },
                       ["1793512740500", "1793514600500", "1793516340500", "1793517300500", "1793519100500", "1793520600500"])
    }

    func testSecondsWrapAtMidnightIntoTheNextDay() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        _ = try t.importFile(fixture("obd/car-scanner-past-midnight 2026-10-01 23-59-50.csv"), options: options)
        XCTAssertEqual(try OBDRows.samples(t).map { $0.split(separator: "|")[1] }, ["1790917195500", "1790917199500", "1790917201500"])
    }

    func testAMonthAndDayWithoutAYearFailTheFileWithTheRename() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/Car_scanner_oct_1.csv"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("gives the day (Oct 1) but no year"), o.error!)
        // Without --asset the missing year is still what the error says first: --asset would not help.
        let bare = try t.importFile(fixture("obd/Car_scanner_oct_1.csv"))
        XCTAssertTrue(bare.error!.contains("gives the day (Oct 1) but no year"), bare.error!)
        XCTAssertFalse(bare.error!.contains("which vehicle"), bare.error!)
        XCTAssertTrue(o.error!.contains("'YYYY-10-01 16-06-15.csv'"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)
        // With the year in the name (here after the month and day) the same log imports.
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        XCTAssertEqual(try t.importFile(fixture("obd/car_scanner_oct_1_2026.csv"), options: options).status, .imported)
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790888775062|0C|709.000000"])
    }

    func testDatesInFileNames() {
        func read(_ n: String) -> String {
            let d = CarScannerFileDate(name: n)
            return "\(d.date.map { "\($0)" } ?? "-") \(d.startSecond.map(String.init) ?? "-") \(d.monthDayOnly.map { "\($0.month)/\($0.day)" } ?? "-")"
        }
        XCTAssertEqual(read("2026-10-01 08-00-00.csv"), "2026-10-01 28800 -")
        XCTAssertEqual(read("log_2026-10-01_080000.csv"), "2026-10-01 28800 -")
        XCTAssertEqual(read("carscanner__sauprankul_2025-11-20_16-05-09.csv"), "2025-11-20 57909 -")
        XCTAssertEqual(read("20251120.csv"), "2025-11-20 - -")
        XCTAssertEqual(read("Car_scanner_nov_4.csv"), "- - 11/4")
        XCTAssertEqual(read("4 November 2025.csv"), "2025-11-04 - -")
        XCTAssertEqual(read("log.csv"), "- - -")
        XCTAssertEqual(read("2026-13-01 08-00-00.csv"), "- - -")
    }

    func testSniffing() throws {
        let head = try Data(contentsOf: fixture("obd/car-scanner-gps-epoch.csv"))
        XCTAssertEqual(ImporterRegistry.detect(head, filename: "x.csv").map { $0.format }, "car-scanner")
        XCTAssertEqual(CarScannerImporter.sniff(try Data(contentsOf: fixture("obd/torque-basic.csv")), filename: "t.csv"), .no)
    }
}
