import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class CarScannerImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func testLongRowsFromTheRecordingStartInTheFileName() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner 2026-10-01 08-00-00.csv"), options: t12)
        XCTAssertEqual(o.format, "car-scanner")
        XCTAssertEqual(OBDRows.counts(o), [9, 0, 0, 2])
        XCTAssertEqual(o.notes, ["1 readings of 1 names that are not J1979 PIDs were not stored: Boost pressure",
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

    func testRelativeSecondsWithoutAStartTimeFailTheFile() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/car-scanner-no-start.csv"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("holds no start time"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)
    }

    func testStartTimeFromFileNames() {
        let utc = TimeZone(identifier: "UTC")!
        XCTAssertEqual(CarScannerImporter.startTime("2026-10-01 08-00-00.csv", zone: utc), 1_790_841_600_000)
        XCTAssertEqual(CarScannerImporter.startTime("log_2026-10-01_080000.csv", zone: utc), 1_790_841_600_000)
        XCTAssertNil(CarScannerImporter.startTime("log.csv", zone: utc))
    }

    func testSniffing() throws {
        let head = try Data(contentsOf: fixture("obd/car-scanner-gps-epoch.csv"))
        XCTAssertEqual(ImporterRegistry.detect(head, filename: "x.csv").map { $0.format }, "car-scanner")
        XCTAssertEqual(CarScannerImporter.sniff(try Data(contentsOf: fixture("obd/torque-basic.csv")), filename: "t.csv"), .no)
    }
}
