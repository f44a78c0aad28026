import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class DVIRImporterTests: XCTestCase {
    func dvirs(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT d.source_key, a.unit_number, dr.employee_id, d.type, d.started_at, d.signed_at, d.safety_status, d.odometer_m, d.location,
                   d.inspector_name, d.mechanic_name, d.mechanic_signed_at, d.mechanic_notes, d.reviewed_at, d.reviewed_by, d.state_at
            FROM dvir d JOIN asset a ON a.id = d.asset_id LEFT JOIN driver dr ON dr.id = d.driver_id ORDER BY d.source_key
            """).map { $0.databaseValues.map { $0.description }.joined(separator: "|") }
    }

    func defects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT f.source_key, d.source_key, f.component, f.defect_type, f.comment, f.safety_critical, f.created_at, f.resolved_at, f.resolved_by,
                   f.certification, f.state_at
            FROM dvir_defect f JOIN dvir d ON d.id = f.dvir_id ORDER BY f.source_key
            """).map { $0.databaseValues.map { $0.description }.joined(separator: "|") }
    }

    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "dvir")
        // 4 DVIRs and 4 defects; the second row of D-1001 reuses its DVIR.
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [8, 0, 0, 0])
        XCTAssertEqual(try dvirs(t), [
            "\"dvir:D-1001\"|\"T-12\"|\"E1001\"|\"pre_trip\"|1790851200000|1790851920000|\"unsafe\"|193765017.6|\"Yard 1, Joliet IL\"|\"Dana Ruiz\"|NULL|NULL|NULL|NULL|NULL|1790851920000",
            "\"dvir:D-1002\"|\"T-14\"|\"E1002\"|\"post_trip\"|1790888400000|1790888820000|\"safe\"|141654458.88|\"Naperville IL\"|\"Lee Chan\"|NULL|NULL|NULL|NULL|NULL|1790888820000",
            "\"dvir:D-1003\"|\"T-15\"|\"E1003\"|\"pre_trip\"|NULL|1790939400000|\"resolved\"|72436573.44|\"Yard 2\"|\"Pat Lee\"|\"Sam Okafor\"|1790951400000|\"Replaced jaw lock\"|1791024300000|\"Lee Chan\"|1791024300000",
            "\"dvir:D-1004\"|\"T-12\"|NULL|\"post_trip\"|NULL|1790978400000|\"safe\"|194247820.8|NULL|\"Jo Park\"|NULL|NULL|NULL|NULL|NULL|1790978400000",
        ])
        XCTAssertEqual(try defects(t), [
            "\"defect:D-1001:DF-1\"|\"dvir:D-1001\"|\"service_brakes\"|\"Air leak\"|\"Audible leak at rear axle\"|1|1790851800000|NULL|NULL|NULL|1790851920000",
            "\"defect:D-1001:DF-2\"|\"dvir:D-1001\"|\"lighting\"|\"Marker light out\"|\"Left rear marker\"|0|1790851860000|NULL|NULL|NULL|1790851920000",
            "\"defect:D-1003:DF-7\"|\"dvir:D-1003\"|\"coupling\"|\"Locking jaw worn\"|NULL|1|1790939100000|1790951400000|\"Sam Okafor\"|\"repaired\"|1791024300000",
            "\"defect:D-1004:other@2026-10-02T21:58:00Z\"|\"dvir:D-1004\"|\"other\"|\"Chip\"|\"Windshield: Small chip passenger side\"|0|1790978280000|NULL|NULL|NULL|1790978400000",
        ])
        // Drivers named by employee id are auto-created; a name alone is kept as the inspector's name only.
        XCTAssertEqual(try t.rows("SELECT employee_id, name, auto_created FROM driver ORDER BY employee_id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as Int)" },
                       ["E1001 Dana Ruiz 1", "E1002 Lee Chan 1", "E1003 Pat Lee 1"])
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("dvir/good.csv"))
        let before = try t.factDump()
        XCTAssertEqual(try t.importFile(fixture("dvir/good.csv")).status, .unchanged)
        let copy = try t.write(try String(contentsOf: fixture("dvir/good.csv"), encoding: .utf8) + "\n", to: "dvir-again.csv")
        let outcome = try t.importFile(copy)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 0, 8, 0])
        XCTAssertEqual(try t.factDump(), before)
    }

    /// The re-export with the defects resolved wins in either import order (docs/FORMATS.md, "Later state wins, not later import").
    func testResolutionWinsWhateverTheImportOrder() throws {
        // Without updated_at, D-2101's state moves forward with each row's later resolution: its DVIR counts one update per row.
        for (pair, updates) in [(("resolved-before.csv", "resolved-after.csv"), 3), (("derived-before.csv", "derived-after.csv"), 4)] {
            var dumps: [[String]] = []
            for order in [[pair.0, pair.1], [pair.1, pair.0]] {
                let t = try TestWarehouse()
                let first = try t.importFile(fixture("dvir/" + order[0]))
                XCTAssertEqual([first.loaded, first.rejected], [3, 0], order[0])
                let second = try t.importFile(fixture("dvir/" + order[1]))
                if order[1] == pair.1 {
                    XCTAssertEqual([second.loaded, second.updated, second.unchanged], [0, updates, 0], "newer after older updates the DVIR and both defects in place")
                } else {
                    XCTAssertEqual([second.loaded, second.updated, second.unchanged], [0, 0, 3], "older after newer changes nothing")
                }
                XCTAssertEqual(try t.count("dvir"), 1)
                XCTAssertEqual(try t.count("dvir_defect"), 2)
                XCTAssertEqual(try t.count("dvir", where: "safety_status = 'resolved'"), 1)
                XCTAssertEqual(try t.count("dvir_defect", where: "resolved_at IS NOT NULL AND certification IS NOT NULL"), 2)
                dumps.append(try t.factDump())
            }
            XCTAssertEqual(dumps[0], dumps[1], pair.0)
        }
    }

    func testResolvedStateWithUpdatedAt() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("dvir/resolved-after.csv"))
        try t.importFile(fixture("dvir/resolved-before.csv"))
        XCTAssertEqual(try dvirs(t), [
            "\"dvir:D-2001\"|\"T-30\"|\"E2001\"|\"pre_trip\"|NULL|1791180000000|\"resolved\"|NULL|NULL|\"Chris Wong\"|\"Sam Okafor\"|1791198000000|NULL|NULL|NULL|1791198300000",
        ])
        XCTAssertEqual(try defects(t), [
            "\"defect:D-2001:DF-21\"|\"dvir:D-2001\"|\"tires\"|NULL|\"Steer tire cut\"|1|1791179880000|1791196800000|\"Sam Okafor\"|\"repaired\"|1791198300000",
            "\"defect:D-2001:DF-22\"|\"dvir:D-2001\"|\"horn\"|NULL|\"Horn inoperative\"|1|1791179940000|1791197700000|\"Sam Okafor\"|\"not_needed\"|1791198300000",
        ])
    }

    func testWithoutUpdatedAtTheLatestTimeOfItsRowsIsTheState() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/derived-after.csv"))
        // The second row's later resolution moves the DVIR's state forward: one update of the DVIR.
        XCTAssertEqual([outcome.loaded, outcome.updated], [3, 1])
        XCTAssertEqual(try t.rows("SELECT state_at FROM dvir").map { $0[0] as Int64 }, [1_791_365_400_000])
        XCTAssertEqual(try t.rows("SELECT component, state_at FROM dvir_defect ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64)" },
                       ["mirrors 1791360000000", "wipers 1791365400000"])
    }

    func testRowsOfOneDVIRMustAgree() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/inconsistent-rows.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 3")
        XCTAssertEqual(r[1] as String, "inconsistent_dvir")
        XCTAssertEqual(r[2] as String, "DVIR D-3001 has safety_status 'safe' here but 'unsafe' on line 2; every row of one DVIR must repeat the same DVIR columns — correct the export")
        XCTAssertEqual(try t.rows("SELECT source_key FROM dvir_defect").map { $0[0] as String }, ["defect:D-3001:DF-41"])
    }

    func testUnknownTypeIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/bad-type.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 2 bad_value 'type' is 'unspecified'; expected one of: mechanic, post_trip, pre_trip; a DVIR is a driver's pre-trip or post-trip inspection or a mechanic's"])
    }

    func testBadDateIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/bad-date.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason, message, raw FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) [\($0[3] as String)]" },
                       ["line 2 bad_date 'signed_at' is 'yesterday 6am'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(FleetZone.utc.identifier)) [D-3201,T-40,pre_trip,yesterday 6am,safe]"])
        XCTAssertEqual(try t.count("asset"), 1)   // the rejected row created no asset
    }

    func testARowWithoutVehicleIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/no-vehicle.csv"))
        XCTAssertEqual(outcome.format, "dvir")   // unit_number and vin are assets columns too, but the DVIR format knows the whole header
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 2 unknown_asset the row names no vehicle; fill unit_number or vin (a DVIR must identify the vehicle, 49 CFR 396.11)"])
    }

    func testAFileWithoutAVehicleColumnFails() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/no-vehicle-column.csv"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(outcome.format, "dvir")
        XCTAssertTrue(outcome.error!.contains("the dvir header names no vehicle column (unit_number or vin)"), outcome.error!)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testDuplicateDefectInOneFile() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/duplicate-defect.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 3 duplicate_key defect DF-51 of DVIR D-3401 already appears on line 2 of this file; the first row was kept"])
    }

    func testOdometerWithoutAUnitIsNotGuessed() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("dvir/odometer-without-unit.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").map { $0[0] as String }, ["missing_field"])
    }

    func testComponentMapping() {
        let cases: [String: String] = [
            "Brakes": "service_brakes", "brake": "service_brakes", "Trailer brake connections": "service_brakes", "Glad hands": "service_brakes",
            "Air brake hose": "service_brakes", "Parking brake": "parking_brake", "Emergency brake": "parking_brake", "Steering": "steering",
            "Steering wheel": "steering", "Lights": "lighting", "Brake lights": "lighting", "Headlight": "lighting", "Reflectors": "lighting",
            "Turn signal": "lighting", "Tyres": "tires", "Steer tire": "tires", "Horn": "horn", "Windshield wipers": "wipers", "Wiper blade": "wipers",
            "Mirror": "mirrors", "Rear vision mirrors": "mirrors", "Fifth wheel": "coupling", "5th wheel": "coupling", "Kingpin": "coupling",
            "Pintle hook": "coupling", "Coupling devices": "coupling", "Wheels and rims": "wheels_rims", "Rim": "wheels_rims", "Lug nuts": "wheels_rims",
            "Fire extinguisher": "emergency_equipment", "Reflective triangles": "emergency_equipment", "Spare fuses": "emergency_equipment",
            "Emergency equipment": "emergency_equipment", "wheels_rims": "wheels_rims", "Windshield": "other", "Air compressor": "other",
            "Engine": "other", "Luggage door": "other", "Trim": "other",
        ]
        for (text, code) in cases { XCTAssertEqual(DVIRImporter.component(text), code, text) }
    }

    func testDetection() throws {
        for name in ["good.csv", "resolved-before.csv", "derived-after.csv", "bad-type.csv"] {
            let head = try Data(contentsOf: fixture("dvir/\(name)"))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv").map { $0.format }, "dvir", name)
        }
    }

    /// The three money-and-inspection formats claim neither each other's files nor the master-data files.
    func testFormatsDoNotClaimEachOthersFiles() throws {
        let mine: [any Importer.Type] = [ExpensesImporter.self, FuelCardImporter.self, DVIRImporter.self]
        let others: [(String, String)] = [
            ("assets", "unit_number,kind,vin,make,model,year,fuel_type,asset_group,cost_center\n"),
            ("assets", try String(contentsOf: fixture("assets/good.csv"), encoding: .utf8)),
            ("maintenance", "unit_number,service_type,performed_at,odometer_mi,cost,currency,vendor,work_order,notes\n"),
            ("maintenance", "Unit,Service,Date,Category,Cost,Vendor\n"),
            ("drivers", "employee_id,name,license_number,license_state,license_expiry,status,phone,email\n"),
            ("assignments", "employee_id,driver_name,unit_number,start_at,end_at,status\n"),
        ]
        for (format, text) in others {
            for importer in mine {
                XCTAssertEqual(importer.sniff(Data(text.utf8), filename: "export.csv"), .no, "\(importer.format) claims a \(format) file: \(text)")
            }
        }
        let files = ["expenses/good.csv": "expenses", "fuel-card/good.csv": "fuel-card", "dvir/good.csv": "dvir"]
        for (path, format) in files {
            let head = try Data(contentsOf: fixture(path))
            for importer in mine where importer.format != format {
                XCTAssertEqual(importer.sniff(head, filename: "export.csv"), .no, "\(importer.format) claims \(path)")
            }
            XCTAssertLessThan(AssetsImporter.sniff(head, filename: "export.csv"), max(FuelCardImporter.sniff(head, filename: "export.csv"), DVIRImporter.sniff(head, filename: "export.csv"), ExpensesImporter.sniff(head, filename: "export.csv")), path)
        }
    }
}
