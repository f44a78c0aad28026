import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class ISO15143ImporterTests: XCTestCase {
    /// Meter readings as `machine meter time value raw unit`, the machine named by PIN, VIN or name.
    func meters(_ t: TestWarehouse, _ meter: String? = nil) throws -> [String] {
        try t.rows("""
            SELECT COALESCE(a.pin, a.vin, a.name), m.meter, m.at, m.value, m.raw_value, m.raw_unit
            FROM meter_reading m JOIN asset a ON a.id = m.asset_id WHERE ?1 IS NULL OR m.meter = ?1 ORDER BY 1, 2, 3
            """, [meter]).map { "\($0[0] as String) \($0[1] as String) \(Timestamp.iso($0[2])) \($0[3] as Double) \($0[4] as String) \($0[5] as String)" }
    }

    func positions(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT COALESCE(a.pin, a.vin, a.name), p.at, p.lat, p.lon, p.alt_m FROM position p JOIN asset a ON a.id = p.asset_id ORDER BY 1, 2")
            .map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as Double) \($0[3] as Double) \(($0[4] as Double?).map { "\($0)" } ?? "NULL")" }
    }

    func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" }
    }

    func engineSeconds(_ t: TestWarehouse, pin: String) throws -> [String] {
        try t.rows("SELECT d.day, d.engine_s FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE a.pin = ? AND d.engine_s IS NOT NULL ORDER BY d.day", [pin])
            .map { "\($0[0] as String) \($0[1] as Double)" }
    }

    func testJDLinkSnapshotLoadsEveryElementInSIAtItsOwnTime() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/jdlink-fleet-2026-10-01.xml"))
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        XCTAssertEqual(outcome.format, "iso15143")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [13, 0, 0, 0])
        XCTAssertEqual(outcome.notes, ["read but not stored (the warehouse has no column for them): CumulativeLoadCount ×1, CumulativePayloadTotals ×1, FuelUsedLast24 ×1"])
        XCTAssertEqual(try t.rows("SELECT kind, name, vin, pin, make, model, auto_created FROM asset ORDER BY id").map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"equipment\"|\"1DW260EXJEF001076\"|NULL|\"1DW260EXJEF001076\"|\"JOHN DEERE\"|\"260E\"|1",
            "\"equipment\"|\"Loader 7 - Yard North\"|NULL|\"1DW644KXCKE654321\"|\"JOHN DEERE\"|\"644K\"|1",
        ])
        XCTAssertEqual(try t.count("asset_identifier"), 0, "a PIN is the key; make+model+serial is only the fallback")
        XCTAssertEqual(try meters(t), [
            "1DW260EXJEF001076 def_level 2026-10-01T18:00:00Z 34.4 34.4 percent",
            "1DW260EXJEF001076 engine_hours 2026-10-01T18:00:00Z 1570320.0 436.2 hours",
            "1DW260EXJEF001076 fuel_level 2026-10-01T18:00:00Z 48.8 48.8 percent",
            "1DW260EXJEF001076 fuel_used 2026-10-01T18:00:00Z 63119000.0 63119 litre",
            "1DW260EXJEF001076 idle_hours 2026-10-01T18:00:00Z 655560.0 182.1 hours",
            "1DW260EXJEF001076 odometer 2026-10-01T18:00:00Z 18871799.0 18871.799 kilometre",
            // The stale element keeps its own (older) time; nothing is added at the snapshot time.
            "1DW644KXCKE654321 engine_hours 2026-09-30T17:00:00Z 7957440.0 2210.4 hours",
            "1DW644KXCKE654321 fuel_level 2026-10-01T16:42:10Z 71.0 71 percent",
            "1DW644KXCKE654321 fuel_used 2026-10-01T16:42:10Z 118240500.0 118240.5 litre",
        ])
        XCTAssertEqual(try t.count("meter_reading", where: "at = \(Timestamp.parse("2026-10-01T19:00:00Z")!)"), 0)
        XCTAssertEqual(try positions(t), [
            "1DW260EXJEF001076 2026-10-01T18:00:00Z 41.597164 -90.343621 176.5",
            "1DW644KXCKE654321 2026-10-01T16:42:10Z 41.512207 -90.578819 181.0",
        ])
        XCTAssertEqual(try t.rows("SELECT a.pin, e.at, e.state FROM engine_event e JOIN asset a ON a.id = e.asset_id ORDER BY 1")
            .map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as String)" },
                       ["1DW260EXJEF001076 2026-10-01T18:00:00Z off", "1DW644KXCKE654321 2026-10-01T16:42:10Z on"])
        XCTAssertEqual(try t.count("source_file", where: "format = 'iso15143' AND loaded = 13"), 1)
    }

    func testKOMTRAXNamespacedFeedDecodesFaultsAndFallsBackToMakeModelSerial() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/komtrax-fleet-p1.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [13, 0])
        XCTAssertEqual(outcome.notes, [
            "2 placeholder values read as no value: DEFRemaining/DEFTankCapacity 0 ×1, EquipmentHeader/PIN ×1",
            "this page links to a next page (/Fleet/2); each saved page is imported as its own file, so import that page too",
        ])
        // PIN "missing": the machine is KOMATSU + WA380-8 + A78123, case kept.
        XCTAssertEqual(try t.rows("SELECT a.name, i.source, i.id_type, i.id_value, a.pin FROM asset_identifier i JOIN asset a ON a.id = i.asset_id")
            .map { "\($0[0] as String) \($0[1] as String)/\($0[2] as String)/\($0[3] as String) \(($0[4] as String?) ?? "no PIN")" },
                       ["WL-22 oem/make_model_serial/KOMATSU|WA380-8|A78123 no PIN", "WL-22 iso15143/oem_serial/KOMATSU|A78123 no PIN",
                        "WL-22 iso15143/serial_number/A78123 no PIN"])
        XCTAssertEqual(try t.rows("""
            SELECT COALESCE(a.pin, a.name), d.at, d.code, d.system, d.spn, d.fmi, d.description, d.status, d.cleared_at
            FROM dtc_event d JOIN asset a ON a.id = d.asset_id ORDER BY d.at
            """).map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"KMTPC243J52012345\"|\(Timestamp.parse("2026-10-01T22:05:00Z")!)|\"3226-2\"|\"j1939\"|3226|2|\"NOx sensor (aftertreatment outlet) erratic\"|\"Medium\"|\(Timestamp.parse("2026-10-02T06:30:00Z")!)",
            "\"KMTPC243J52012345\"|\(Timestamp.parse("2026-10-02T09:12:31Z")!)|\"CA234\"|\"oem\"|NULL|NULL|\"Eng Overspeed [source: Engine controller]\"|\"High\"|NULL",
            "\"WL-22\"|\(Timestamp.parse("2026-10-02T10:01:00Z")!)|\"3251-0\"|\"j1939\"|3251|0|\"DPF differential pressure high\"|\"3\"|NULL",
        ])
        XCTAssertEqual(try meters(t, "odometer"), ["WL-22 odometer 2026-10-02T11:50:12Z 3412600.0 3412.6 km"])
        XCTAssertEqual(try meters(t, "idle_hours"), ["KMTPC243J52012345 idle_hours 2026-10-02T11:48:00Z 5048100.0 1402.25 hours"])
    }

    func testTakeuchiQuirksChildDatetimeSpellingsAndPlaceholders() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/takeuchi-fleet.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [6, 0])
        XCTAssertEqual(outcome.notes, ["6 placeholder values read as no value: DEFRemaining/Percent ×1, EngineStatus/EngineNumber ×1, EquipmentHeader/Model ×1, EquipmentHeader/SerialNumber ×1, EquipmentHeader/UnitInstallDateTime ×1, FuelRemaining/FuelTankCapacity 0 ×1"])
        // The PIN is trimmed, upper-cased and stripped of its dash.
        XCTAssertEqual(try meters(t), [
            "TB29012325678 engine_hours 2026-10-02T21:14:07Z 4638240.0 1288.4 hours",
            "TB29012325678 fuel_level 2026-10-02T21:14:07Z 55.0 55 percent",
            "TB29012325678 fuel_used 2026-10-02T21:14:07Z 20417250.0 20417.25 liter",
            "TB29012325678 odometer 2026-10-02T21:14:07Z 612900.0 612.9 kilometer",
        ])
        XCTAssertEqual(try positions(t), ["TB29012325678 2026-10-02T21:14:07Z 47.606209 -122.332071 54.2"])
        XCTAssertEqual(try t.rows("SELECT model, name FROM asset").map { "\(($0[0] as String?) ?? "NULL") \($0[1] as String)" }, ["NULL TL12V2 #3"])
    }

    func testSamsaraJSONFeedPINIsAVINAndUndatedElementsUseTheSnapshotTime() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/samsara-aemp-fleet.json"))
        XCTAssertEqual(outcome.format, "iso15143")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [9, 0])
        XCTAssertEqual(outcome.notes, ["6 elements have no datetime of their own and were read at the file's snapshotTime"])
        XCTAssertEqual(try t.rows("SELECT kind, vin, pin, name FROM asset ORDER BY id").map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"vehicle\"|\"3AKJHHDR4NSNA1234\"|\"3AKJHHDR4NSNA1234\"|\"281474977075805\"",
            "\"equipment\"|NULL|\"CAT0TL943CTLN0123\"|\"281474977075806\"",
        ])
        XCTAssertEqual(try meters(t), [
            "3AKJHHDR4NSNA1234 def_level 2026-10-03T14:05:00Z 71.0 71 percent",
            "3AKJHHDR4NSNA1234 engine_hours 2026-10-03T14:05:00Z 22033800.0 6120.5 hours",
            "3AKJHHDR4NSNA1234 fuel_level 2026-10-03T14:05:00Z 43.0 43 percent",
            "3AKJHHDR4NSNA1234 odometer 2026-10-03T14:05:00Z 412988400.0 412988.4 kilometers",
            "CAT0TL943CTLN0123 engine_hours 2026-10-03T13:40:00.001Z 11556900.0 3210.25 hours",
            "CAT0TL943CTLN0123 fuel_level 2026-10-03T14:05:00Z 64.0 64 percent",
        ])
        XCTAssertEqual(try positions(t), [
            "3AKJHHDR4NSNA1234 2026-10-03T14:02:11Z 33.749001 -84.387978 NULL",
            "CAT0TL943CTLN0123 2026-10-03T13:40:00.001Z 33.85122 -84.210433 NULL",
        ])
        // A Samsara vehicle known by VIN from master data is the same asset.
        let master = try t.write("unit_number,vin,make\nT-31,3AKJHHDR4NSNA1234,Freightliner\n", to: "assets.csv")
        XCTAssertEqual(try t.importFile(master).status, .imported)
        XCTAssertEqual(try t.count("asset"), 2)
        XCTAssertEqual(try t.rows("SELECT unit_number, auto_created FROM asset WHERE vin = '3AKJHHDR4NSNA1234'").map { "\($0[0] as String) \($0[1] as Int)" }, ["T-31 0"])
    }

    func testBoschJSONTimeSeriesWithTheHeaderAfterTheItemsAndTimesWithoutZone() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bosch-fuel-timeseries.json"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [3, 0])
        XCTAssertNil(outcome.notes, "a next link equal to self is the last page (Bosch)")
        XCTAssertEqual(try meters(t), [
            "SNP50123123456789 fuel_used 2026-10-02T06:00:00Z 730000.0 730 liter",
            "SNP50123123456789 fuel_used 2026-10-02T12:00:00Z 748500.0 748.5 liter",
            "SNP50123123456789 fuel_used 2026-10-02T18:00:00Z 761000.0 761 liter",
        ])
        XCTAssertEqual(try t.rows("SELECT day, fuel_ml FROM asset_day").map { "\($0[0] as String) \($0[1] as Double)" }, ["2026-10-02 31000.0"])
    }

    /// Saved pages import one by one; a re-export of the same days plus one adds only that day.
    func testTimeSeriesPagesAndAnOverlappingReexport() throws {
        let t = try TestWarehouse()
        let p1 = try t.importFile(fixture("iso15143/ts-hours-page1.xml"))
        XCTAssertEqual([p1.loaded, p1.rejected], [4, 0])
        XCTAssertEqual(p1.notes, ["this page links to a next page (https://partneraemp.deere.com/Fleet/Equipment/1DW260EXJEF001076/CumulativeOperatingHours/2026-10-01T00:00:00Z/2026-10-04T00:00:00Z/2); each saved page is imported as its own file, so import that page too"])
        // Page 2 has no EquipmentHeader: its self link names the machine.
        let p2 = try t.importFile(fixture("iso15143/ts-hours-page2.xml"))
        XCTAssertEqual([p2.loaded, p2.rejected], [2, 0])
        XCTAssertNil(p2.notes)
        XCTAssertEqual(try t.count("asset"), 1)
        XCTAssertEqual(try engineSeconds(t, pin: "1DW260EXJEF001076"), ["2026-10-01 27000.0", "2026-10-02 31680.0", "2026-10-03 23040.0"])

        let again = try t.importFile(fixture("iso15143/ts-hours-reexport.xml"))
        XCTAssertEqual([again.loaded, again.updated, again.unchanged, again.rejected], [2, 0, 6, 0])
        XCTAssertEqual(try meters(t).count, 8)
        XCTAssertEqual(try engineSeconds(t, pin: "1DW260EXJEF001076"), ["2026-10-01 27000.0", "2026-10-02 31680.0", "2026-10-03 23040.0", "2026-10-04 30600.0"])
    }

    func testSnapshotsOfSeveralDaysAndTimeSeriesAgree() throws {
        let t = try TestWarehouse()
        for name in ["jdlink-fleet-2026-10-01.xml", "jdlink-fleet-2026-10-02.xml", "ts-hours-page1.xml"] {
            XCTAssertEqual(try t.importFile(fixture("iso15143/" + name)).rejected, 0)
        }
        // The snapshot's 18:00 readings are the time series' 18:00 readings: one row each.
        XCTAssertEqual(try meters(t, "engine_hours").filter { $0.hasPrefix("1DW260") }, [
            "1DW260EXJEF001076 engine_hours 2026-10-01T06:00:00Z 1543320.0 428.7 hours",
            "1DW260EXJEF001076 engine_hours 2026-10-01T18:00:00Z 1570320.0 436.2 hours",
            "1DW260EXJEF001076 engine_hours 2026-10-02T06:00:00Z 1570320.0 436.2 hours",
            "1DW260EXJEF001076 engine_hours 2026-10-02T18:00:00Z 1602000.0 445.0 hours",
        ])
        XCTAssertEqual(try engineSeconds(t, pin: "1DW260EXJEF001076"), ["2026-10-01 27000.0", "2026-10-02 31680.0"])
        // The loader's stale reading (Sep 30) stays at its own time next to the next day's.
        XCTAssertEqual(try meters(t, "engine_hours").filter { $0.hasPrefix("1DW644") }, [
            "1DW644KXCKE654321 engine_hours 2026-09-30T17:00:00Z 7957440.0 2210.4 hours",
            "1DW644KXCKE654321 engine_hours 2026-10-02T17:55:03Z 7991640.0 2219.9 hours",
        ])
    }

    func testImportingTheSameExportAgainChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("iso15143/komtrax-fleet-p1.xml"))
        let before = try t.factDump(tables: ["asset", "asset_identifier", "meter_reading", "position", "engine_event", "dtc_event"])
        XCTAssertEqual(try t.importFile(fixture("iso15143/komtrax-fleet-p1.xml")).status, .unchanged)
        let copy = try t.write(try Data(contentsOf: fixture("iso15143/komtrax-fleet-p1.xml")) + Data("\n".utf8), to: "komtrax-copy.xml")
        let outcome = try t.importFile(copy)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 0, 13, 0])
        XCTAssertEqual(try t.factDump(tables: ["asset", "asset_identifier", "meter_reading", "position", "engine_event", "dtc_event"]), before)
    }

    /// The machine in the ISO feed and in assets.csv (by PIN) is one asset, in either order.
    func testFeedAndMasterDataAreOneAssetInEitherOrder() throws {
        let files = ["iso15143/jdlink-fleet-2026-10-01.xml", "iso15143/komtrax-fleet-p1.xml", "iso15143/assets-master.csv"]
        var dumps: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order { XCTAssertEqual(try t.importFile(fixture(f)).status, .imported) }
            XCTAssertEqual(try t.count("asset"), 4)
            XCTAssertEqual(try t.rows("SELECT unit_number, pin, kind, auto_created FROM asset WHERE unit_number IS NOT NULL ORDER BY unit_number")
                .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as Int)" },
                           ["ADT-03 1DW260EXJEF001076 equipment 0", "EX-14 KMTPC243J52012345 equipment 0"])
            XCTAssertEqual(try t.count("meter_reading", where: "asset_id = (SELECT id FROM asset WHERE unit_number = 'ADT-03')"), 6)
            dumps.append(try t.factDump())
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    // MARK: Malformed input: one small file per failure mode

    func testTruncatedXMLFailsWithItsLineAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-truncated.xml"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("bad-truncated.xml at line 14, column 15: the XML is not well-formed"), outcome.error!)
        XCTAssertTrue(outcome.error!.contains("<Location> (line 12)"), outcome.error!)
        XCTAssertTrue(outcome.error!.contains("truncated"), outcome.error!)
        for table in ["source_file", "asset", "meter_reading", "position", "reject"] { XCTAssertEqual(try t.count(table), 0, table) }
    }

    func testXMLThatIsNotWellFormedFailsWithItsLine() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-not-well-formed.xml"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("at line 10, column 26: the XML is not well-formed: an end tag does not match its start tag"), outcome.error!)
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testEntityExpansionBombIsRefusedBeforeParsing() throws {
        let t = try TestWarehouse()
        let started = Date()
        let outcome = try t.importFile(fixture("iso15143/bad-entity-bomb.xml"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("at line 2: the XML declares entities in its DOCTYPE"), outcome.error!)
        XCTAssertEqual(try t.count("asset"), 0)
    }

    /// The external entity points at a real file; its content must appear nowhere.
    func testExternalEntityIsNeverRead() throws {
        let t = try TestWarehouse()
        let secret = "FLEETKIT-EXTERNAL-SECRET-7f3a9c"
        XCTAssertTrue(try String(contentsOf: fixture("iso15143/external-secret.txt"), encoding: .utf8).contains(secret))
        let absolute = try t.write("ABSOLUTE-\(secret)\n", to: "secret.txt")
        let variants = [
            fixture("iso15143/bad-external-entity.xml"),
            try t.write("""
                <?xml version="1.0"?>
                <!DOCTYPE Fleet SYSTEM "\(absolute.absoluteString)">
                <Fleet><Equipment><EquipmentHeader><PIN>1DW260EXJEF001076</PIN><Model>&secret;</Model></EquipmentHeader></Equipment></Fleet>
                """, to: "external-dtd.xml"),
            try t.write("""
                <?xml version="1.0"?>
                <!DOCTYPE Fleet [<!ENTITY % remote SYSTEM "\(absolute.absoluteString)"> %remote;]>
                <Fleet><Equipment><EquipmentHeader><PIN>1DW260EXJEF001076</PIN></EquipmentHeader></Equipment></Fleet>
                """, to: "parameter-entity.xml"),
        ]
        for url in variants {
            let outcome = try t.importFile(url)
            XCTAssertEqual(outcome.status, .failed, url.lastPathComponent)
            XCTAssertTrue(outcome.error!.contains("FleetKit never"), outcome.error!)
            XCTAssertFalse(outcome.error!.contains(secret))
        }
        // An entity used without any declaration is not well-formed.
        let undeclared = try t.write("<Fleet><Equipment><EquipmentHeader><PIN>&secret;</PIN></EquipmentHeader></Equipment></Fleet>", to: "undeclared.xml")
        XCTAssertTrue(try t.importFile(undeclared, options: ImportOptions(format: "iso15143")).error!.contains("refers to an entity that is not declared"))
        let everything = try t.warehouse.pool.read { db -> String in
            var text = ""
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") { text += row.description }
            }
            return text
        }
        XCTAssertFalse(everything.contains(secret))
        XCTAssertEqual(try t.count("asset"), 0)
    }

    func testUnknownElementsAreCountedInANoteNotRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-unknown-element.xml"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, [
            "3 unknown elements ignored: AutoGreaseLevel ×1 (first at /Fleet/Equipment[2]/AutoGreaseLevel), HydraulicOilTemperature ×2 (first at /Fleet/Equipment[1]/HydraulicOilTemperature)",
            "read but not stored (the warehouse has no column for them): Metadata ×1",
        ])
        XCTAssertEqual(try t.count("asset"), 2)
    }

    func testPlaceholdersBecomeNoValueAndAreCounted() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-placeholders.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 0])
        XCTAssertEqual(outcome.notes, ["12 placeholder values read as no value: CumulativeIdleHours/Hour ×1, CumulativeOperatingHours/datetime ×1, Distance/datetime ×1, EngineStatus/EngineNumber ×1, EngineStatus/Running ×1, EquipmentHeader/EquipmentID ×1, EquipmentHeader/PIN ×1, EquipmentHeader/UnitInstallDateTime ×1, FuelRemaining/FuelTankCapacity 0 ×1, FuelRemaining/Percent ×1, FuelUsed/FuelConsumed ×1, Location/Latitude,Longitude 0,0 (no fix) ×1"])
        for table in ["meter_reading", "position", "engine_event"] { XCTAssertEqual(try t.count(table), 0, table) }
        XCTAssertEqual(try t.rows("SELECT name, pin, model FROM asset").map { $0.databaseValues.map(\.description).joined(separator: "|") }, ["NULL|NULL|\"TB290\""])
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier").map { $0[0] as String }, ["TAKEUCHI|TB290|290001234", "TAKEUCHI|290001234", "290001234"])
    }

    func testBadDatetimesAreRejectedWithTheirLocation() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-datetime.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 3])
        XCTAssertEqual(try rejects(t), [
            "/Fleet/Equipment[1]/CumulativeOperatingHours | bad_date | datetime '10/01/2026 18:00' is not an ISO 8601 date-time such as 2026-10-01T14:30:00Z",
            "/Fleet/Equipment[1]/CumulativeIdleHours | bad_date | datetime '2126-13-01T18:00:00Z' is not an ISO 8601 date-time such as 2026-10-01T14:30:00Z",
            "/Fleet/Equipment[1]/FuelUsed | out_of_range | datetime '2300-01-01T00:00:00Z' is outside the years 1971–2200",
        ])
        XCTAssertEqual(try t.rows("SELECT raw FROM reject ORDER BY id LIMIT 1")[0][0] as String,
                       "<CumulativeOperatingHours datetime=\"10/01/2026 18:00\"><Hour>436.2</Hour></CumulativeOperatingHours>")
        XCTAssertEqual(try meters(t), ["1DW260EXJEF001076 fuel_level 2026-10-01T18:00:00Z 48.8 48.8 percent"])
        XCTAssertEqual(try t.count("source_file", where: "status = 'partial' AND rejected = 3"), 1)
    }

    func testUnusableValuesAndMachinesWithoutIdentityAreRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-values.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 5])
        XCTAssertEqual(try rejects(t), [
            "/Fleet/Equipment[1]/Location | out_of_range | Latitude 141.597164 is outside -90…90",
            "/Fleet/Equipment[1]/CumulativeOperatingHours | bad_number | Hour is '436,2', neither decimal hours (written with a decimal point) nor an xs:duration such as PT13H28M30S",
            "/Fleet/Equipment[1]/Distance | missing_field | Odometer 18871.799 has no OdometerUnits; a quantity is never read without its unit",
            "/Fleet/Equipment[1]/FuelRemaining | out_of_range | Percent 148.8 is outside 0–100",
            "/Fleet/Equipment[2]/EquipmentHeader | unknown_asset | the EquipmentHeader names no machine: no PIN, no SerialNumber and no EquipmentID shaped like a VIN; the feed must send the machine's PIN or SerialNumber (ask the telematics provider to fill them); 2 data elements of it were not loaded",
        ])
        XCTAssertEqual(try t.count("asset"), 1)
        XCTAssertEqual(try meters(t), ["1DW260EXJEF001076 def_level 2026-10-01T18:00:00Z 34.4 34.4 percent"])
    }

    func testTruncatedJSONFailsWithItsLineAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/bad-truncated.json"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("bad-truncated.json at line 1: the JSON ends before its values are closed; the file is truncated"), outcome.error!)
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testAPageWithoutAnyIdentityIsOneRejectUnlessAnAssetIsGiven() throws {
        let xml = """
            <CumulativeOperatingHoursMessages>
              <CumulativeOperatingHours datetime="2026-10-01T06:00:00Z"><Hour>10.5</Hour></CumulativeOperatingHours>
              <CumulativeOperatingHours datetime="2026-10-01T18:00:00Z"><Hour>18.0</Hour></CumulativeOperatingHours>
            </CumulativeOperatingHoursMessages>
            """
        let t = try TestWarehouse()
        let outcome = try t.importFile(try t.write(xml, to: "hours.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["/CumulativeOperatingHoursMessages | unknown_asset | this page has no EquipmentHeader and no link naming the machine (/Fleet/Equipment/{PIN}/…), and no --asset was given; its 2 data elements were not loaded"])
        let u = try TestWarehouse()
        var options = ImportOptions()
        options.asset = "EX-99"
        XCTAssertEqual(try u.importFile(try u.write(xml, to: "hours.xml"), options: options).loaded, 2)
        XCTAssertEqual(try u.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["EX-99"])
    }

    func testEmptyPagesImportNothing() throws {
        let t = try TestWarehouse()
        let empty = try t.importFile(try t.write("[]\n", to: "page-3.json"), options: ImportOptions(format: "iso15143"))
        XCTAssertEqual([empty.loaded, empty.rejected], [0, 0])
        XCTAssertEqual(empty.status, .imported)
        // Bosch's page past the end: no machines, and a next link that points back at page 1.
        let past = try t.importFile(try t.write("""
            [{"Equipment": [], "links": [{"rel": "self", "href": "/f/Fleet/2"}, {"rel": "next", "href": "/f/Fleet/1"}, {"rel": "last", "href": "/f/Fleet/1"}]}]
            """, to: "page-2.json"))
        XCTAssertEqual(past.format, "iso15143")
        XCTAssertEqual([past.loaded, past.rejected], [0, 0])
        XCTAssertNil(past.notes)
        let xml = try t.importFile(try t.write("<Fleet xmlns=\"http://standards.iso.org/iso/15143/-3\" version=\"1\"/>", to: "fleet-empty.xml"))
        XCTAssertEqual([xml.loaded, xml.rejected], [0, 0])
        XCTAssertEqual(try t.count("asset"), 0)
    }

    func testForcingTheFormatOnAnotherXMLFailsWithItsRoot() throws {
        let t = try TestWarehouse()
        let gpx = try t.write("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk/></gpx>\n", to: "t.gpx")
        let outcome = try t.importFile(gpx, options: ImportOptions(format: "iso15143"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("the root element <gpx> is not an ISO 15143-3 or AEMP 1.2 document"), outcome.error!)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testDetection() throws {
        func detected(_ path: String) throws -> String? {
            let url = fixture(path)
            return ImporterRegistry.detect(try FileWalker.head(of: url), filename: url.lastPathComponent)?.format
        }
        for f in ["jdlink-fleet-2026-10-01.xml", "komtrax-fleet-p1.xml", "takeuchi-fleet.xml", "samsara-aemp-fleet.json",
                  "bosch-fuel-timeseries.json", "ts-hours-page1.xml", "ts-hours-page2.xml", "bad-entity-bomb.xml"] {
            XCTAssertEqual(try detected("iso15143/" + f), "iso15143", f)
        }
        XCTAssertEqual(try detected("iso15143/assets-master.csv"), "assets")
        XCTAssertEqual(ISO15143Importer.sniff(Data("<gpx version=\"1.1\"><trk/></gpx>".utf8), filename: "a.gpx"), .no)
        XCTAssertEqual(ISO15143Importer.sniff(Data("{\"data\": [], \"pagination\": {}}".utf8), filename: "vehicles.json"), .no)
    }
}
