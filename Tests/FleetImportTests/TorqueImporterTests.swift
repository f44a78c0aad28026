import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class TorqueImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")

    func testWideRowsUnitsMissingValuesGPSAndZoneAbbreviations() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/torque-basic.csv"), options: t12)
        XCTAssertEqual(o.format, "torque")
        XCTAssertEqual(OBDRows.counts(o), [23, 0, 0, 2])
        XCTAssertEqual(o.notes, ["7 columns were not stored (GPS and sensor extras, values the app computes, PIDs outside FleetKit's table): CO₂ in g/km (Instantaneous)(g/km), G(calibrated), G(x), G(y), G(z), Horizontal Dilution of Precision, Trip average KPL(kpl)"])
        // 08:00 CDT is 13:00 UTC; '-' is no value; GPS only once it has a fix.
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790859600000|05|88.000000", "T-12|1790859600000|0C|812.500000", "T-12|1790859600000|0D|0.000000", "T-12|1790859600000|2F|62.500000",
            "T-12|1790859605000|05|88.000000", "T-12|1790859605000|0C|1500.000000", "T-12|1790859605000|0D|12.000000",
            "T-12|1790859610500|05|89.000000", "T-12|1790859610500|0C|2000.000000", "T-12|1790859610500|0D|20.000000", "T-12|1790859610500|2F|62.000000",
            "T-12|1790859615000|05|90.000000", "T-12|1790859615000|0C|0.000000", "T-12|1790859615000|0D|0.000000", "T-12|1790859615000|2F|62.000000",
        ])
        XCTAssertEqual(try t.rows("SELECT at || '|' || lat || '|' || lon || '|' || printf('%.3f', speed_mps) || '|' || heading_deg || '|' || alt_m FROM position ORDER BY at").map { $0[0] as String },
                       ["1790859610500|41.8781|-87.6298|5.500|90.0|181.5", "1790859615000|41.8785|-87.629|0.000|92.5|181.0"])
        XCTAssertEqual(try OBDRows.events(t), ["1790859600000|idle", "1790859605000|on", "1790859615000|off"])
        XCTAssertEqual(try OBDRows.rejects(t), ["line 6 bad_number", "line 7 bad_date"])
        XCTAssertTrue(try t.rows("SELECT message FROM reject WHERE reason = 'bad_date'").map { $0[0] as String }[0].contains("the zone 'XYZT'"))
    }

    func testDSTNightWithAbbreviationsIsExact() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(try t.importFile(fixture("obd/torque-dst-abbreviations.csv"), options: t12).rejected, 0)
        XCTAssertEqual(try t.rows("SELECT at || '|' || value FROM obd_sample ORDER BY at").map { $0[0] as String },
                       ["1793514600000|800.0", "1793516399000|810.0", "1793516400000|820.0", "1793518200000|830.0"])
    }

    func testDSTNightWithoutAbbreviationsUsesFileOrderInTheRepeatedHour() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        XCTAssertEqual(try t.importFile(fixture("obd/torque-dst-fleet-zone.csv"), options: options).rejected, 0)
        // 00:59 CDT, 01:30 CDT, 01:59 CDT, then 01:15 and 01:45 are the second (CST) pass, 02:10 CST.
        XCTAssertEqual(try t.rows("SELECT at || '|' || value FROM obd_sample ORDER BY at").map { $0[0] as String }, [
            "1793512740000|700.0", "1793514600000|710.0", "1793516340000|720.0",
            "1793517300000|730.0", "1793519100000|740.0", "1793520600000|750.0",
        ])
    }

    /// Issue 35 item 4: Device Times in the hour skipped on 2026-03-08 (America/Chicago) were
    /// folded onto 03:xx and merged with the real 03:xx readings in silence. They name no instant:
    /// each is a `bad_date` reject saying so; times around the gap, and one with its own zone
    /// abbreviation, load. Expected instants: python3 zoneinfo, datetime(2026,3,8,1,59,
    /// tzinfo=America/Chicago).timestamp() = 1772956740, (3,10) = 1772957400; 02:20 CDT = 07:20Z.
    func testDeviceTimesInTheSpringForwardGapAreRejectedWithTheReason() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/torque-spring-forward-gap.csv"), options: options)
        XCTAssertEqual(o.rejected, 2)
        let rejects = try t.rows("SELECT location || ' ' || reason || ' ' || message FROM reject ORDER BY id").map { $0[0] as String }
        XCTAssertEqual(rejects.count, 2)
        XCTAssertTrue(rejects[0].hasPrefix("line 3 bad_date 'Device Time' is '08-Mar-2026 02:10:00.000' (2026-03-08 02:10:00), a time that does not exist in America/Chicago"), rejects[0])
        XCTAssertTrue(rejects[1].hasPrefix("line 4 bad_date"), rejects[1])
        XCTAssertEqual(try t.rows("SELECT at || '|' || value FROM obd_sample ORDER BY at").map { $0[0] as String },
                       ["1772954400000|740.0", "1772956740000|700.0", "1772957400000|730.0"])
    }

    /// A log that starts after the clocks went back (01:10 on 2026-11-01, America/Chicago): file
    /// order alone takes the first pass (CDT, 06:10Z); GPS Time names CST, so it is 07:10Z. The
    /// row without a GPS fix falls back to the fleet zone and file order (07:12Z after 07:11Z).
    func testGPSTimeZoneDecidesTheRepeatedHourOverTheFleetZone() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/torque-dst-gps-zone.csv"), options: options)
        XCTAssertEqual(o.rejected, 0)
        XCTAssertEqual(try t.rows("SELECT at || '|' || value FROM obd_sample ORDER BY at").map { $0[0] as String },
                       ["1793517000000|800.0", "1793517060000|900.0", "1793517120000|1000.0"])
        XCTAssertEqual(o.notes, ["Device Time of 2 rows placed by the zone GPS Time names, CST (UTC−06:00), not the fleet zone America/Chicago",
                                 "Device Time of 1 rows without a GPS Time that agrees with it placed in the fleet zone America/Chicago"])
    }

    func testUnitConversionsAndARepeatedHeader() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/torque-units-reheader.csv"), options: t12)
        XCTAssertEqual(OBDRows.counts(o), [10, 0, 0, 0])
        XCTAssertEqual(o.notes, ["PID columns with a unit FleetKit does not convert, not stored: 'Fuel pressure(furlongs)'"])
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790841600000|05|90.000000", "T-12|1790841600000|0B|99.973981", "T-12|1790841600000|0C|1000.000000",
            "T-12|1790841600000|0D|50.000065", "T-12|1790841600000|A6|16093.440000",
            "T-12|1790841601000|0C|1200.000000", "T-12|1790841601000|0D|50.000000",
        ])
        XCTAssertEqual(try t.rows("SELECT value FROM meter_reading WHERE meter = 'odometer'").map { $0[0] as Double }, [16_093_440])
    }

    func testOtherLayoutsFailNamingTheSupportedOnes() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/other-pid-dump.txt"), options: t12)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("FleetKit reads OBD-II logs in six layouts: Torque Pro CSV") == true, o.error ?? "")
        // `INDEX,ENGINE_RPM (),SPEED ()`: a timeless 1 Hz logger, said as such.
        let indexed = try t.importFile(fixture("obd/other-empty-units.csv"), options: t12)
        XCTAssertEqual(indexed.status, .failed)
        XCTAssertTrue(indexed.error?.contains("with no clock column") == true, indexed.error ?? "")
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    /// A 1 Hz logger's CSV with no clock column (Carloop-style `NAME ()` headers) and a
    /// `seconds:hex` dump: the error says what the file is and why it cannot be placed in time,
    /// with or without --asset, never "which vehicle".
    func testTimelessLoggersAreRefusedForWhatTheyAreBeforeAnyAsset() throws {
        let t = try TestWarehouse()
        for options in [ImportOptions(), t12] {
            let carloop = try t.importFile(fixture("obd/obd-carloop-1hz.csv"), options: options)
            XCTAssertEqual(carloop.status, .failed)
            XCTAssertTrue(carloop.error!.contains("a CSV from a logger that samples once a second (Carloop-style columns such as 'ENGINE_RUN_TINE ()', 'ENGINE_RPM ()') with no clock column"), carloop.error!)
            XCTAssertTrue(carloop.error!.contains("cannot be placed in time"), carloop.error!)
            XCTAssertFalse(carloop.error!.contains("which vehicle"), carloop.error!)
            let dump = try t.importFile(fixture("obd/obd-seconds-hex.txt"), options: options)
            XCTAssertEqual(dump.status, .failed)
            XCTAssertTrue(dump.error!.contains("a dump of 'seconds:hex' OBD answers"), dump.error!)
            XCTAssertTrue(dump.error!.contains("nothing in the file says when that was"), dump.error!)
            XCTAssertFalse(dump.error!.contains("which vehicle"), dump.error!)
        }
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testNoAssetFailsTheFile() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/torque-basic.csv"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("A torque log does not say which vehicle it came from"), o.error!)
    }

    func testSniffingLeavesOtherCSVsAlone() throws {
        XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: fixture("obd/torque-basic.csv")), filename: "trackLog.csv").map { $0.format }, "torque")
        XCTAssertEqual(TorqueImporter.sniff(Data("unit_number,vin,make\nT-12,1FT,Ford\n".utf8), filename: "assets.csv"), .no)
        XCTAssertEqual(TorqueImporter.sniff(Data("\"SECONDS\";\"PID\";\"VALUE\";\"UNITS\";\n".utf8), filename: "c.csv"), .low)
        for dir in ["assets", "drivers", "fuel-card", "maintenance", "expenses"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: fixture(dir).path).filter { $0.hasSuffix(".csv") }
            for file in files {
                let head = try Data(contentsOf: fixture("\(dir)/\(file)"))
                XCTAssertLessThan(TorqueImporter.sniff(head, filename: file), Confidence.medium, "\(dir)/\(file)")
                XCTAssertEqual(CarScannerImporter.sniff(head, filename: file), .no, "\(dir)/\(file)")
                XCTAssertLessThan(ELM327Importer.sniff(head, filename: file), Confidence.medium, "\(dir)/\(file)")
            }
        }
    }
}
