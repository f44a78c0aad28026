import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// John Deere Operations Center saves: every shape, units, identity, overlapping re-exports,
/// rejects and whole-file failures. The ISO + Deere "one asset" test is in
/// DeereISOIdentityTests.
final class DeereImporterTests: XCTestCase {
    private func imported(_ t: TestWarehouse, _ names: [String], options: ImportOptions = ImportOptions(),
                          file: StaticString = #filePath, line: UInt = #line) throws -> [FileOutcome] {
        try names.map { name in
            let o = try t.importFile(fixture("deere/" + name), options: options)
            XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")", file: file, line: line)
            XCTAssertEqual(o.format, "deere", name, file: file, line: line)
            return o
        }
    }

    /// `machine meter time value raw unit`, the machine named by its PIN or its Deere principal id.
    static func meters(_ t: TestWarehouse, _ meter: String? = nil) throws -> [String] {
        try t.rows("""
            SELECT COALESCE(a.pin, (SELECT id_value FROM asset_identifier i WHERE i.asset_id = a.id AND i.id_type = 'principal_id')),
                   m.meter, m.at, m.value, m.raw_value, m.raw_unit
            FROM meter_reading m JOIN asset a ON a.id = m.asset_id WHERE ?1 IS NULL OR m.meter = ?1 ORDER BY 1, 2, 3
            """, [meter]).map { "\($0[0] as String) \($0[1] as String) \(Timestamp.iso($0[2])) \($0[3] as Double) \($0[4] as String) \($0[5] as String)" }
    }

    static func positions(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT COALESCE(a.pin, '?'), p.at, p.lat, p.lon, p.speed_mps, p.heading_deg, p.alt_m FROM position p JOIN asset a ON a.id = p.asset_id ORDER BY 1, 2")
            .map { r in
                func opt(_ i: Int) -> String { (r[i] as Double?).map { String(format: "%.4f", $0) } ?? "NULL" }
                return "\(r[0] as String) \(Timestamp.iso(r[1])) \(r[2] as Double) \(r[3] as Double) \(opt(4)) \(opt(5)) \(opt(6))"
            }
    }

    static func events(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT COALESCE(a.pin, '?'), e.at, e.state FROM engine_event e JOIN asset a ON a.id = e.asset_id ORDER BY 1, 2")
            .map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as String)" }
    }

    static func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" }
    }

    // MARK: Identity

    func testEquipmentListLinksPrincipalIdIdERIDAndSerialAsPIN() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json"])
        XCTAssertEqual(o[0].rejected, 0)
        XCTAssertEqual(try t.rows("SELECT kind, name, vin, pin, make, model, year, auto_created FROM asset ORDER BY pin")
            .map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"equipment\"|NULL|NULL|\"1DW260EXJEF001076\"|\"JOHN DEERE\"|\"260E\"|2014|1",
            // Serial from alternateIdentifiers, trimmed and upper-cased; modelYear sent as a string.
            "\"equipment\"|NULL|NULL|\"1DW644KXCKE654321\"|\"JOHN DEERE\"|\"644K\"|2019|1",
            "\"equipment\"|NULL|NULL|\"1H0S680SCE0766303\"|\"JOHN DEERE\"|\"S680\"|2014|1",
        ])
        XCTAssertEqual(try t.rows("""
            SELECT a.pin, i.source, i.id_type, i.id_value FROM asset_identifier i JOIN asset a ON a.id = i.asset_id ORDER BY a.pin, i.id_type
            """).map { "\($0[0] as String) \($0[1] as String)/\($0[2] as String)/\($0[3] as String)" }, [
            "1DW260EXJEF001076 deere/equipment_id/10048776",
            "1DW260EXJEF001076 deere/erid/7b1e0d7c-3f52-4c1a-9e0b-7c5b1b2a9f01",
            "1DW260EXJEF001076 deere/principal_id/1234567",
            "1DW260EXJEF001076 deere/serial_number/1DW260EXJEF001076",
            "1DW644KXCKE654321 deere/equipment_id/10048777",
            "1DW644KXCKE654321 deere/erid/0c6f3a52-91d4-4b7e-a3c2-5e8d9f1a2b03",
            "1DW644KXCKE654321 deere/principal_id/2345678",
            "1DW644KXCKE654321 deere/serial_number/1DW644KXCKE654321",
            "1H0S680SCE0766303 deere/equipment_id/10048790",
            "1H0S680SCE0766303 deere/erid/5d2b8e61-0a7f-4c39-8b14-2f6e7a9c0d45",
            "1H0S680SCE0766303 deere/principal_id/3456789",
            "1H0S680SCE0766303 deere/serial_number/1H0S680SCE0766303",
        ])
        XCTAssertEqual(o[0].notes, [
            "records read: equipment 3 (2 pages)",
            "machines not yet known, created as auto_created assets (add them to assets.csv with their PIN): 3",
            "1 unknown key ignored: equipment.precisionAgCapable (1)",
        ])
    }

    /// Machine-endpoint files know only the principal id; the equipment list merges their asset
    /// into the PIN's, in either order, with the same result.
    func testMachineDataBeforeOrAfterTheEquipmentListIsOneAsset() throws {
        let files = ["engine-hours-1234567.json", "location-history-1234567.json", "equipment.json", "alerts-2345678.json"]
        var dumps: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            _ = try imported(t, order)
            XCTAssertEqual(try t.count("asset"), 3, order.description)
            XCTAssertEqual(try t.count("meter_reading", where: "asset_id = (SELECT id FROM asset WHERE pin = '1DW260EXJEF001076')"), 4)
            XCTAssertEqual(try t.count("dtc_event", where: "asset_id = (SELECT id FROM asset WHERE pin = '1DW644KXCKE654321')"), 2)
            dumps.append(try t.factDump(tables: ["asset", "asset_identifier", "meter_reading", "position", "engine_event", "dtc_event"]))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// `/organizations/{id}/machines`: the machine's `id` is the principal id and `vin` its PIN.
    func testOperationsCenterMachineListLinksThePrincipalIdToThePIN() throws {
        let t = try TestWarehouse()
        let machines = try t.write("""
            {"links": [{"rel": "self", "uri": "https://partnerapi.deere.com/platform/organizations/412345/machines"}], "total": 2,
             "values": [{"@type": "Machine", "id": "1234567", "name": "ADT 3", "vin": " 1dw260exjef001076", "equipmentMake": {"name": "JOHN DEERE"},
                         "equipmentModel": {"name": "260E"}, "equipmentType": {"name": "Articulated Dump Truck"}, "modelYear": "2014", "telematicsState": "active"},
                        {"@type": "Machine", "id": "999", "vin": "A-B"}]}
            """, to: "machines.json")
        let states = try t.write("""
            {"links": [{"rel": "self", "uri": "https://partnerapi.deere.com/platform/machines/1234567/deviceStateReports"}], "total": 1,
             "values": [{"@type": "DeviceStateReport", "terminal": {"serialNumber": "PCXM4GA123456"}, "engineState": "on", "time": "2026-10-01T08:00:00.000Z"}]}
            """, to: "device-states.json")
        let o = [try t.importFile(states), try t.importFile(machines)]
        XCTAssertEqual(o.map(\.format), ["deere", "deere"])
        XCTAssertEqual([o[1].loaded, o[1].rejected], [0, 1])
        XCTAssertEqual(try Self.rejects(t), ["values[1].vin | bad_value | serial number 'A-B' is not a product identification number (4 to 30 letters and digits)"])
        XCTAssertEqual(try t.rows("SELECT a.pin, a.make, a.model, a.year, i.id_type, i.id_value FROM asset a JOIN asset_identifier i ON i.asset_id = a.id ORDER BY i.id_type")
            .map { $0.databaseValues.map(\.description).joined(separator: "|") },
                       ["\"1DW260EXJEF001076\"|\"JOHN DEERE\"|\"260E\"|2014|\"principal_id\"|\"1234567\"",
                        "\"1DW260EXJEF001076\"|\"JOHN DEERE\"|\"260E\"|2014|\"serial_number\"|\"1DW260EXJEF001076\""])
        XCTAssertEqual(o[0].notes, ["records read: device state reports 1 (1 page)", "device state reports not stored (terminal health has no warehouse table): 1"])
    }

    // MARK: Machine data

    func testEngineHoursAreSecondsAtUTCTimesAndNumbersMayBeStrings() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json", "engine-hours-1234567.json"])
        XCTAssertEqual([o[1].loaded, o[1].updated, o[1].unchanged, o[1].rejected], [4, 0, 0, 0])
        XCTAssertEqual(try Self.meters(t), [
            "1DW260EXJEF001076 engine_hours 2026-10-01T12:00:00Z 1549800.0 430.5 Hours",
            "1DW260EXJEF001076 engine_hours 2026-10-01T20:00:00Z 1575900.0 437.75 Hours",
            "1DW260EXJEF001076 engine_hours 2026-10-02T12:00:00Z 1580400.0 439.0 hours",
            "1DW260EXJEF001076 engine_hours 2026-10-02T21:30:15.500Z 1597500.0 443.75 Hours",
        ])
        XCTAssertEqual(o[1].notes, ["records read: engine hours readings 4 (1 page)", "1 unknown key ignored: engineHours.machineLinearTime (1)"])
        // The rollup: 7.25 h between the day's readings, plus 4/16 of the 1.25 h until the next noon.
        XCTAssertEqual(try t.rows("SELECT d.day, d.engine_s FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE a.pin = '1DW260EXJEF001076' ORDER BY d.day")
            .map { "\($0[0] as String) \(($0[1] as Double?).map { String(format: "%.1f", $0) } ?? "NULL")" }.prefix(1), ["2026-10-01 27225.0"])
    }

    func testOverlappingReExportAddsOnlyTheNewDayEvenWithLinksAfterValues() throws {
        let t = try TestWarehouse()
        _ = try imported(t, ["equipment.json", "engine-hours-1234567.json"])
        let o = try imported(t, ["engine-hours-1234567-overlap.json"])[0]
        XCTAssertEqual([o.loaded, o.updated, o.unchanged, o.rejected], [2, 0, 4, 0])
        XCTAssertEqual(try Self.meters(t).suffix(2), [
            "1DW260EXJEF001076 engine_hours 2026-10-03T12:00:00Z 1603800.0 445.5 Hours",
            "1DW260EXJEF001076 engine_hours 2026-10-03T21:00:00Z 1620000.0 450.0 Hours",
        ])
        XCTAssertEqual(try t.count("asset"), 3)
        XCTAssertEqual(try t.importFile(fixture("deere/engine-hours-1234567-overlap.json")).status, .unchanged)
    }

    func testHoursOfOperationBecomeEngineStateChanges() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json", "hours-of-operation-1234567.json"])
        XCTAssertEqual([o[1].loaded, o[1].rejected], [5, 0])
        XCTAssertEqual(try Self.events(t), [
            "1DW260EXJEF001076 2026-10-01T11:58:00Z on",
            "1DW260EXJEF001076 2026-10-01T12:10:00Z idle",
            "1DW260EXJEF001076 2026-10-01T12:40:00Z on",     // engineState "1" as a string
            "1DW260EXJEF001076 2026-10-01T17:00:00Z off",
            "1DW260EXJEF001076 2026-10-01T18:30:00Z on",
        ])
    }

    func testLocationHistoryUsesTheFixTimeAndSkipsPointsWithoutAFix() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json", "location-history-1234567.json"])
        // The third point re-sends the 14:30 fix (stale): same key, unchanged. The fourth has no fix.
        XCTAssertEqual([o[1].loaded, o[1].updated, o[1].unchanged, o[1].rejected], [3, 0, 1, 0])
        XCTAssertEqual(try Self.positions(t), [
            "1DW260EXJEF001076 2026-10-01T12:00:00Z 41.597164 -90.343621 NULL NULL 176.5000",
            "1DW260EXJEF001076 2026-10-01T14:30:00Z 41.6012 -90.35187 NULL NULL 181.0000",
            "1DW260EXJEF001076 2026-10-01T21:15:07.250Z 41.598 -90.3441 NULL NULL 175.8696",   // 577 ft
        ])
        XCTAssertTrue(o[1].notes!.contains("location points without a GPS fix (gpsFixTimestamp 1970-01-01), not stored: 1"), "\(o[1].notes!)")
    }

    func testBreadcrumbsPagesSpeedHeadingFuelAndStateChanges() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json", "breadcrumbs-2345678.json"])
        XCTAssertEqual([o[1].loaded, o[1].rejected], [11, 0])
        XCTAssertEqual(try Self.positions(t), [
            "1DW644KXCKE654321 2026-10-01T13:00:00Z 41.512207 -90.578819 0.0000 0.0000 181.0000",
            "1DW644KXCKE654321 2026-10-01T13:05:00Z 41.51301 -90.577302 5.0000 33.0000 182.5000",   // 18 km/h
            "1DW644KXCKE654321 2026-10-01T13:10:00Z 41.514436 -90.575918 2.6389 47.0000 183.0000",  // 9.5 km/h
            "1DW644KXCKE654321 2026-10-01T13:40:00Z 41.514436 -90.575918 0.0000 47.0000 183.0000",
        ])
        XCTAssertEqual(try Self.meters(t, "fuel_level"), [
            "1DW644KXCKE654321 fuel_level 2026-10-01T13:00:00Z 71.0 71 prcnt",
            "1DW644KXCKE654321 fuel_level 2026-10-01T13:05:00Z 70.0 70 prcnt",
            "1DW644KXCKE654321 fuel_level 2026-10-01T13:10:00Z 69.5 69.5 prcnt",
            "1DW644KXCKE654321 fuel_level 2026-10-01T13:40:00Z 69.0 69 prcnt",
        ])
        // Working → Working is no change.
        XCTAssertEqual(try Self.events(t), [
            "1DW644KXCKE654321 2026-10-01T13:00:00Z idle", "1DW644KXCKE654321 2026-10-01T13:05:00Z on", "1DW644KXCKE654321 2026-10-01T13:40:00Z off",
        ])
        XCTAssertEqual(o[1].notes, ["records read: breadcrumbs 4 (2 pages)", "1 unknown key ignored: breadcrumb.operatorId (1)"])
    }

    func testAlertsBecomeDecodedJ1939DTCsWithTheirEngineHours() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["equipment.json", "alerts-2345678.json"])
        XCTAssertEqual([o[1].loaded, o[1].rejected], [4, 0])
        XCTAssertEqual(try t.rows("""
            SELECT a.pin, d.at, d.code, d.system, d.spn, d.fmi, d.description, d.status FROM dtc_event d JOIN asset a ON a.id = d.asset_id ORDER BY d.at
            """).map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as String) \($0[3] as String) \($0[4] as Int) \($0[5] as Int) \($0[6] as String) \($0[7] as String)" }, [
            "1DW644KXCKE654321 2026-09-30T09:15:00Z 110-0 j1939 110 0 Engine Coolant Temperature - Data Valid But Above Normal Operational Range [source: ECU, SA 0] HIGH",
            "1DW644KXCKE654321 2026-10-01T14:02:11Z 524019-31 j1939 524019 31 Hydraulic Oil Filter Restriction - Condition Exists [source: AIC, SA 140] MEDIUM",
        ])
        XCTAssertEqual(try Self.meters(t), ["1DW644KXCKE654321 engine_hours 2026-10-01T14:02:11Z 7965900.0 2212.75 Hours"])
        XCTAssertEqual(try Self.positions(t), ["1DW644KXCKE654321 2026-10-01T14:02:11Z 41.514436 -90.575918 NULL NULL NULL"])
        XCTAssertTrue(o[1].notes!.contains("alerts without an SPN/FMI definition (not diagnostic trouble codes), not stored: 1"), "\(o[1].notes!)")
    }

    // MARK: Machine naming

    func testAPageWithoutAMachineLinkIsOneRejectUnlessAnAssetIsGiven() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["no-links.json"])[0]
        XCTAssertEqual([o.loaded, o.rejected], [0, 1])
        XCTAssertEqual(try Self.rejects(t), [
            "links | unknown_asset | this page has no link naming its machine (…/machines/{principalId}/…) and no --asset was given; its 2 records were not loaded",
        ])
        var options = ImportOptions()
        options.asset = "M-01"
        let again = try t.importFile(try t.write(try Data(contentsOf: fixture("deere/no-links.json")) + Data("\n".utf8), to: "M-01/hours.json"), options: options)
        XCTAssertEqual([again.loaded, again.rejected], [2, 0])
        XCTAssertEqual(try t.rows("SELECT unit_number, auto_created FROM asset").map { "\($0[0] as String) \($0[1] as Int)" }, ["M-01 1"])
    }

    func testALastPageThatStillHasANextPageLinkIsNoted() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            {"links": [{"rel": "self", "uri": "https://partnerapi.deere.com/platform/machines/42/engineHours"},
                       {"rel": "nextPage", "uri": "https://partnerapi.deere.com/platform/machines/42/engineHours?pageKey=Mg"}],
             "total": 2, "values": [{"reading": {"valueAsDouble": "12.5", "unit": "Hours"}, "reportTime": "2026-10-01T08:00:00Z"}]}
            """, to: "deere-page1.json")
        let o = try t.importFile(url)
        XCTAssertEqual([o.loaded, o.rejected], [1, 0])
        XCTAssertEqual(o.notes, ["records read: engine hours readings 1 (1 page)",
                                 "the last page has a nextPage link (https://partnerapi.deere.com/platform/machines/42/engineHours?pageKey=Mg), so the save may stop before the end of the data; fetch the remaining pages"])
        XCTAssertEqual(try Self.meters(t), ["42 engine_hours 2026-10-01T08:00:00Z 45000.0 12.5 Hours"])
    }

    // MARK: Malformed input

    func testWrongShapesAreRejectedWithTheirPathAndTheRestLoads() throws {
        let t = try TestWarehouse()
        let o = try imported(t, ["bad-wrong-shapes.json"])[0]
        XCTAssertEqual([o.loaded, o.rejected], [1, 7])
        XCTAssertEqual(try Self.rejects(t), [
            "values[0].reading | wrong_type | 'reading' should be an object but is a string",
            "values[1].reading.valueAsDouble | bad_number | 'valueAsDouble' is \"12,5\", which is not a number",
            "values[2].reading.unit | bad_value | engine hours unit 'furlongs' is not one FleetKit knows (Hours, Minutes, Seconds)",
            "values[3].reportTime | bad_date | 'reportTime' is '01/10/2026 15:00', not an ISO 8601 date-time (2026-10-01T14:05:00.000Z)",
            "values[4] | wrong_type | an Operations Center record is a JSON object, this is an array",
            "values[5] | unknown_shape | not an Operations Center record FleetKit reads (keys: machineId, hours); see docs/FORMATS.md for the endpoints read",
            "values[6].point.lat | out_of_range | 'lat' is 95.2 °, outside -90…90 °",
        ])
        XCTAssertEqual(try t.rows("SELECT raw FROM reject ORDER BY id LIMIT 1").map { $0[0] as String },
                       [#"{"@type":"EngineHours","reading":"430.5 Hours","reportTime":"2026-10-01T12:00:00.000Z"}"#])
        XCTAssertEqual(try Self.meters(t), ["1234567 engine_hours 2026-10-01T17:00:00Z 1560600.0 433.5 Hours"])
        XCTAssertEqual(o.notes?.last, "2 unknown keys ignored: engineHours.confidence (1), page.exportedBy (1)")
    }

    func testTruncatedJSONFailsWithItsLocationAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("deere/bad-truncated.json"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("values[2].reading.valueAsDouble"), o.error!)
        XCTAssertTrue(o.error!.contains("truncated"), o.error!)
        for table in ["source_file", "asset", "meter_reading", "reject"] { XCTAssertEqual(try t.count(table), 0, table) }
    }

    func testAnObjectWithoutValuesFailsWhole() throws {
        let t = try TestWarehouse()
        var options = ImportOptions()
        options.format = "deere"
        let o = try t.importFile(fixture("deere/bad-no-values.json"), options: options)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("the page has no 'values' member"), o.error!)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    // MARK: Detection

    func testSniffing() throws {
        func detect(_ path: String) throws -> String? {
            let url = fixture(path)
            return ImporterRegistry.detect(try FileWalker.head(of: url), filename: url.lastPathComponent)?.format
        }
        for f in ["equipment.json", "engine-hours-1234567.json", "engine-hours-1234567-overlap.json", "hours-of-operation-1234567.json",
                  "location-history-1234567.json", "breadcrumbs-2345678.json", "alerts-2345678.json", "bad-wrong-shapes.json", "no-links.json"] {
            XCTAssertEqual(try detect("deere/" + f), "deere", f)
        }
        for f in try FileManager.default.contentsOfDirectory(atPath: fixture("samsara").path) where f.hasSuffix(".json") {
            XCTAssertEqual(DeereImporter.sniff(try FileWalker.head(of: fixture("samsara/" + f)), filename: f), .no, f)
        }
        for f in ["samsara-aemp-fleet.json", "bosch-fuel-timeseries.json", "bad-truncated.json"] {
            XCTAssertEqual(DeereImporter.sniff(try FileWalker.head(of: fixture("iso15143/" + f)), filename: f), .no, f)
        }
        XCTAssertEqual(DeereImporter.sniff(Data("<Fleet/>".utf8), filename: "deere.xml"), .no)
    }
}
