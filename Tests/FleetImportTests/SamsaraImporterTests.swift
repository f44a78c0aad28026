import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Vehicles, stats and locations; identity; overlapping re-exports; rejects and whole-file
/// failures. DVIRs, drivers, trips and reports are in SamsaraRecordsTests.
final class SamsaraImporterTests: XCTestCase {
    static func lines(_ t: TestWarehouse, _ sql: String) throws -> [String] {
        try t.rows(sql).map { $0.databaseValues.map { $0.description }.joined(separator: "|") }
    }

    private func imported(_ t: TestWarehouse, _ names: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [FileOutcome] {
        try names.map { name in
            let o = try t.importFile(fixture("samsara/" + name))
            XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")", file: file, line: line)
            return o
        }
    }

    func testStatsHistoryLoadsEveryStatInSIAtUTCTimes() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["assets.csv", "vehicles.json", "stats-history.json"])
        XCTAssertEqual(o[2].format, "samsara")
        XCTAssertEqual([o[2].loaded, o[2].updated, o[2].unchanged, o[2].rejected], [32, 0, 0, 0])
        XCTAssertEqual(try Self.lines(t, """
            SELECT a.unit_number, m.meter, m.at, m.value, m.raw_value, m.raw_unit FROM meter_reading m JOIN asset a ON a.id = m.asset_id
            ORDER BY a.unit_number, m.meter, m.at
            """), [
            // GPS odometer readings of T-12 are not used: it has OBD odometer readings.
            "\"T-12\"|\"def_level\"|1790856300000|99.001|\"99001\"|\"milli-%\"",
            "\"T-12\"|\"engine_hours\"|1790856300000|9723103.0|\"9723103\"|\"s\"",
            "\"T-12\"|\"engine_hours\"|1790894400000|9761403.0|\"9761403\"|\"s\"",
            "\"T-12\"|\"engine_hours\"|1790942400000|9761403.0|\"9761403\"|\"s\"",
            "\"T-12\"|\"engine_hours\"|1790982600000|9801603.0|\"9801603\"|\"s\"",
            "\"T-12\"|\"fuel_level\"|1790856300000|54.0|\"54\"|\"%\"",
            "\"T-12\"|\"fuel_level\"|1790894400000|31.0|\"31\"|\"%\"",
            "\"T-12\"|\"fuel_used\"|1790856300000|1200000.0|\"1200000\"|\"mL\"",
            "\"T-12\"|\"fuel_used\"|1790894400000|1335000.0|\"1335000\"|\"mL\"",
            "\"T-12\"|\"idle_hours\"|1790856300000|3600.0|\"3600000\"|\"ms\"",
            "\"T-12\"|\"idle_hours\"|1790894400000|4500.0|\"4500000\"|\"ms\"",
            "\"T-12\"|\"odometer\"|1790856300000|14010293.0|\"14010293\"|\"m\"",
            "\"T-12\"|\"odometer\"|1790894400000|14402810.0|\"14402810\"|\"m\"",
            "\"T-12\"|\"odometer\"|1790942400000|14402810.0|\"14402810\"|\"m\"",
            "\"T-12\"|\"odometer\"|1790982600000|14798100.0|\"14798100\"|\"m\"",
            // T-14 has no OBD odometer, so its GPS odometer is used; its id came after the array.
            "\"T-14\"|\"engine_hours\"|1790859600000|8040000.0|\"8040000\"|\"s\"",
            "\"T-14\"|\"engine_hours\"|1790888400000|8061600.0|\"8061600\"|\"s\"",
            "\"T-14\"|\"odometer\"|1790859600000|72436573.0|\"72436573\"|\"m\"",
            "\"T-14\"|\"odometer\"|1790888400000|72598873.0|\"72598873\"|\"m\"",
        ])
        XCTAssertEqual(try Self.lines(t, "SELECT at, lat, lon, speed_mps, heading_deg FROM position ORDER BY at"), [
            "1790856600000|41.525031|-88.081725|0.0|92.0",
            "1790866800250|40.116421|-88.243383|27.94|181.5",        // 62.5 mph, time with milliseconds
            "1790951400000|39.781721|-89.650148|24.5872|NULL",       // 09:30-05:00 is 14:30Z
        ])
        XCTAssertEqual(try Self.lines(t, "SELECT at, state FROM engine_event ORDER BY at"), [
            "1790856000000|\"on\"", "1790875800000|\"idle\"", "1790876700000|\"on\"", "1790894700000|\"off\"",
            "1790942100000|\"on\"", "1790982900000|\"off\"",
        ])
        XCTAssertEqual(try Self.lines(t, """
            SELECT a.unit_number, d.at, d.code, d.system, d.spn, d.fmi, d.description, d.status, d.mil_on FROM dtc_event d JOIN asset a ON a.id = d.asset_id
            ORDER BY a.unit_number, d.code
            """), [
            "\"T-12\"|1790868000000|\"110-0\"|\"j1939\"|110|0|\"Engine Coolant Temperature — Data valid but above normal operational range [source: Engine #1]\"|\"active\"|1",
            "\"T-12\"|1790868000000|\"3031-9\"|\"j1939\"|3031|9|\"Aftertreatment 1 SCR Intake Temperature — Abnormal update rate [source: Engine #1]\"|\"active\"|0",
            "\"T-14\"|1790873100000|\"P0171\"|\"obd2\"|NULL|NULL|\"System Too Lean (Bank 1)\"|\"permanent\"|1",
            "\"T-14\"|1790873100000|\"P0300\"|\"obd2\"|NULL|NULL|\"Random/Multiple Cylinder Misfire Detected\"|\"pending\"|1",
        ])
        XCTAssertEqual(try Self.lines(t, """
            SELECT a.unit_number, d.day, d.distance_m, d.distance_method, d.engine_s, d.idle_s, d.fuel_ml FROM asset_day d JOIN asset a ON a.id = d.asset_id
            ORDER BY a.unit_number, d.day
            """), [
            "\"T-12\"|\"2026-10-01\"|392517.0|\"odometer\"|38300.0|900.0|135000.0",
            "\"T-12\"|\"2026-10-02\"|395290.0|\"odometer\"|40200.0|NULL|NULL",
            "\"T-14\"|\"2026-10-01\"|162300.0|\"odometer\"|21600.0|NULL|NULL",
        ])
        XCTAssertEqual(o[2].notes, [
            "records read: vehicle stat series 2 (1 page)",
            "gpsOdometerMeters readings not used because the asset has obdOdometerMeters, which is preferred: 2",
            "stat types with no warehouse table were not stored: engineRpm (2), faultCodes.oem (1)",
            "1 unknown key ignored: gps.altitudeMeters (1)",
        ])
    }

    func testVehiclesLinkSamsaraIdsToMasterDataByVIN() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["assets.csv", "vehicles.json"])
        XCTAssertEqual([o[1].loaded, o[1].rejected], [0, 0])
        XCTAssertEqual(try Self.lines(t, "SELECT unit_number, vin, name, make, model, year, auto_created FROM asset ORDER BY id"), [
            "\"T-12\"|\"3AKJHHDR1MP100262\"|\"T-12 Cascadia\"|\"Freightliner\"|\"Cascadia 126\"|2021|0",
            "\"T-14\"|\"1FTBR1Y86NP100131\"|\"Transit 14\"|\"Ford\"|\"Transit 250\"|2022|0",   // linked by externalIds samsara.vin (lower case)
            "NULL|NULL|\"Spare pickup\"|\"Ford\"|\"F-150\"|NULL|1",                           // malformed VIN not used as identity
        ])
        XCTAssertEqual(try Self.lines(t, "SELECT a.unit_number, i.source, i.id_type, i.id_value FROM asset_identifier i JOIN asset a ON a.id = i.asset_id ORDER BY i.id_value"), [
            "\"T-12\"|\"samsara\"|\"vehicle_id\"|\"281474977075805\"",
            "\"T-14\"|\"samsara\"|\"vehicle_id\"|\"281474977075822\"",
            "NULL|\"samsara\"|\"vehicle_id\"|\"281474977075839\"",
        ])
        XCTAssertEqual(o[1].notes, [
            "records read: vehicles 3 (2 pages)",
            "vehicle 281474977075839 (Spare pickup): vin '1FTFW1E5IPP10000' is not used as identity: a VIN has 17 characters, this one has 16",
            "vehicle 281474977075839: year 'twenty-three' is not a model year and was not used",
            "vehicles not in master data, created as auto_created assets (add them to assets.csv with their samsara_id): 1",
            "1 unknown key ignored: vehicle.engineHp (1)",
        ])
    }

    /// Stats first create placeholder assets; master data and the vehicle list then merge them:
    /// the same facts as importing master data first.
    func testIdentityIsTheSameWhateverTheImportOrder() throws {
        var dumps: [[String]] = []
        for order in [["assets.csv", "vehicles.json", "stats-history.json"], ["stats-history.json", "assets.csv", "vehicles.json"],
                      ["vehicles.json", "stats-history.json", "assets.csv"]] {
            let t = try TestWarehouse()
            _ = try imported(t, order)
            XCTAssertEqual(try t.count("asset"), 3, "\(order)")
            // `position` declares no foreign keys (migration v4): the merges must leave none orphaned.
            XCTAssertGreaterThan(try t.count("position"), 0)
            XCTAssertEqual(try t.count("position", where: "asset_id NOT IN (SELECT id FROM asset) OR source_file_id NOT IN (SELECT id FROM source_file)"), 0, "\(order)")
            dumps.append(try t.factDump(tables: ["asset", "asset_identifier", "meter_reading", "position", "engine_event"])
                         + (try Self.lines(t, "SELECT (SELECT COALESCE(unit_number, 'auto') FROM asset WHERE id = asset_id), day, distance_m, engine_s FROM asset_day ORDER BY 1, 2")))
        }
        XCTAssertEqual(dumps[0], dumps[1])
        XCTAssertEqual(dumps[0], dumps[2])
    }

    func testOverlappingReExportAddsOnlyTheNewDay() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["assets.csv", "vehicles.json", "stats-history.json"])
        let o = try t.importFile(fixture("samsara/stats-history-overlap.json"))
        XCTAssertEqual([o.loaded, o.updated, o.unchanged, o.rejected], [7, 0, 32, 0])
        XCTAssertEqual(try Self.lines(t, "SELECT day, distance_m, engine_s FROM asset_day WHERE asset_id = (SELECT id FROM asset WHERE unit_number = 'T-12') ORDER BY day"), [
            "\"2026-10-01\"|392517.0|38300.0", "\"2026-10-02\"|395290.0|40200.0", "\"2026-10-03\"|303250.0|32400.0",
        ])
        XCTAssertEqual(try t.importFile(fixture("samsara/stats-history-overlap.json")).status, .unchanged, "identical bytes are a no-op")
    }

    func testUnusablePointsAreRejectedWithTheirPathAndRawText() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["assets.csv"])
        let o = try t.importFile(fixture("samsara/stats-bad-points.json"))
        XCTAssertEqual([o.loaded, o.rejected], [2, 13])
        XCTAssertEqual(try Self.lines(t, "SELECT location, reason FROM reject ORDER BY id"), [
            "\"data[0].obdOdometerMeters[1].time\"|\"bad_date\"",
            "\"data[0].obdOdometerMeters[2].value\"|\"bad_number\"",
            "\"data[0].obdOdometerMeters[3].value\"|\"missing_field\"",
            "\"data[0].gps[1].latitude\"|\"out_of_range\"",
            "\"data[0].gps[2].time\"|\"bad_date\"",
            "\"data[0].gps[3]\"|\"wrong_type\"",
            "\"data[0].fuelPercents[0].value\"|\"wrong_type\"",
            "\"data[0].fuelPercents[1].value\"|\"out_of_range\"",
            "\"data[0].engineStates[0].value\"|\"bad_value\"",
            "\"data[0].faultCodes[0].obdii.diagnosticTroubleCodes[0].confirmedDtcs[0].dtcShortCode\"|\"bad_value\"",
            "\"data[1]\"|\"unknown_shape\"",
            "\"data[2]\"|\"wrong_type\"",
            "\"data[3]\"|\"missing_field\"",
        ])
        let latitude = try t.rows("SELECT message, raw FROM reject WHERE location = 'data[0].gps[1].latitude'")[0]
        XCTAssertEqual(latitude["message"] as String, "'latitude' is 91.2°, outside -90…90°")
        XCTAssertEqual(latitude["raw"] as String, #"{"time":"2026-10-04T13:10:00Z","latitude":91.2,"longitude":-88.081725}"#)
        XCTAssertEqual(try t.rows("SELECT message FROM reject WHERE location = 'data[3]'").map { $0["message"] as String },
                       ["the vehicle has no 'id' (1 stat points of this vehicle were not loaded)"])
        XCTAssertTrue(o.notes?.contains("1 unknown key ignored: stats.tachographDriverState (1)") ?? false, "\(o.notes ?? [])")
    }

    func testSnapshotAndLocationsUseSingularKeysAndMilesPerHour() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["assets.csv", "vehicles.json"])
        let s = try t.importFile(fixture("samsara/stats-snapshot.json"))
        XCTAssertEqual([s.loaded, s.rejected], [6, 0])
        XCTAssertEqual(try Self.lines(t, "SELECT meter, at, value FROM meter_reading ORDER BY meter"), [
            "\"def_level\"|1791208840000|87.5", "\"engine_hours\"|1791208950000|9850000.0", "\"fuel_level\"|1791208840000|48.0",
            "\"odometer\"|1791208950000|15398000.0",
        ])
        XCTAssertEqual(try Self.lines(t, "SELECT at, state FROM engine_event"), ["1791208931000|\"idle\""])
        let l = try t.importFile(fixture("samsara/locations-history.json"))
        XCTAssertEqual([l.loaded, l.rejected], [4, 0])
        XCTAssertEqual(try Self.lines(t, "SELECT a.unit_number, p.at, p.lat, p.lon, round(p.speed_mps, 6), p.heading_deg FROM position p JOIN asset a ON a.id = p.asset_id ORDER BY p.at"), [
            "\"T-14\"|1790859600000|41.76058|-88.32007|0.0|45.0",
            "\"T-14\"|1790860800000|41.85003|-88.31257|17.076928|5.5",
            "\"T-14\"|1790862000000|41.93587|-88.76785|27.26944|NULL",
            "\"T-12\"|1790877600000|40.48425|-88.99367|28.61056|200.0",
            "\"T-12\"|1791208950000|41.60123|-87.91234|0.0|270.0",
        ])
    }

    func testWrongTypesAreRejectedNotReadAsMissing() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["assets.csv"])
        let o = try t.importFile(fixture("samsara/wrong-types.json"))
        XCTAssertEqual([o.loaded, o.rejected], [0, 4])
        XCTAssertEqual(try Self.lines(t, "SELECT location, reason FROM reject ORDER BY id"), [
            "\"data[0].obdOdometerMeters.value\"|\"wrong_type\"", "\"data[1].endTime\"|\"wrong_type\"",
            "\"data[2].name\"|\"wrong_type\"", "\"data[3].vehicle\"|\"wrong_type\"",
        ])
    }

    func testUnreadableFilesFailWholeAndLeaveNothing() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["assets.csv"])
        for (name, expected) in [("truncated.json", "at byte 1495 (data[0].gps[0].headingDegrees): the document ends inside a string (truncated)"),
                                 ("invalid-utf8.json", "at byte 50 (data[0].name): a string has a byte (0xFF) that is not valid UTF-8")] {
            let o = try t.importFile(fixture("samsara/" + name))
            XCTAssertEqual(o.status, .failed, name)
            XCTAssertEqual(o.format, "samsara", name)
            XCTAssertTrue(o.error?.contains(expected) ?? false, o.error ?? "")
        }
        var options = ImportOptions(format: "samsara")
        options.attributeByFolder = false
        let other = try t.importFile(fixture("samsara/feature-collection.json"), options: options)
        XCTAssertTrue(other.error?.contains("has no 'data' member") ?? false, other.error ?? "")
        XCTAssertEqual(try t.count("source_file"), 1)
        XCTAssertEqual(try t.count("meter_reading") + t.count("position") + t.count("reject"), 0)
    }

    func testSniffing() throws {
        func detect(_ name: String) throws -> String? {
            let url = fixture("samsara/" + name)
            return ImporterRegistry.detect(try Data(contentsOf: url).prefix(InputFile.headLength), filename: url.lastPathComponent)?.format
        }
        for name in ["vehicles.json", "stats-history.json", "stats-snapshot.json", "locations-history.json", "dvirs-open.json", "dvirs-stream.json",
                     "defects-history.json", "drivers.json", "hos-daily-logs.json", "trips-v1-281474977075805.json", "idling-events.json",
                     "idling-report.json", "fuel-energy.json"] {
            XCTAssertEqual(try detect(name), "samsara", name)
        }
        XCTAssertNil(try detect("feature-collection.json"))
        XCTAssertEqual(SamsaraImporter.sniff(Data("{\"anything\": 1}".utf8), filename: "samsara-export.json"), Confidence(50))
        XCTAssertEqual(SamsaraImporter.sniff(Data("unit,vin\n".utf8), filename: "samsara.csv"), .no)
        let iso = Data(#"{"Fleet": {"Equipment": [{"EquipmentHeader": {"PIN": "1FTFW1E53PP100000"}}], "Links": []}}"#.utf8)
        XCTAssertEqual(ImporterRegistry.detect(iso, filename: "samsara-aemp.json")?.format, "iso15143", "Samsara's ISO feed goes to the ISO importer")
    }

    func testLastPageWithMorePagesIsNoted() throws {
        let t = try TestWarehouse()
        let url = try t.write(#"{"data": [{"id": "281474977075805", "name": "T-12"}], "pagination": {"endCursor": "MjkY", "hasNextPage": true}}"#, to: "samsara-vehicles-p1.json")
        let o = try t.importFile(url)
        XCTAssertTrue(o.notes?.contains { $0.hasPrefix("the last page says hasNextPage: true") } ?? false, "\(o.notes ?? [])")
    }
}
