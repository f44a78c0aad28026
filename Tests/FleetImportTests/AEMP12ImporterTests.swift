import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class AEMP12ImporterTests: XCTestCase {
    func meters(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT COALESCE(a.vin, a.pin, a.name), m.meter, m.at, m.value, m.raw_value, m.raw_unit
            FROM meter_reading m JOIN asset a ON a.id = m.asset_id ORDER BY 1, 2, 3
            """).map { "\($0[0] as String) \($0[1] as String) \(Timestamp.iso($0[2])) \($0[3] as Double) \($0[4] as String) \($0[5] as String)" }
    }

    func testGPSInsightFeedDurationsMilesAndTheEquipmentIDVINRule() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("aemp12/gpsinsight-fleet.xml"))
        XCTAssertEqual(outcome.format, "aemp12")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [6, 0, 0, 0])
        XCTAssertNil(outcome.notes)
        // 5TDKK3DC2BS123422 has a correct check digit: it is the VIN. 1GKS1MEF3CR123457 does not:
        // it stays a label (the name, and a `vin_label` that only matches an asset with exactly
        // that VIN), and the machine is Make + Model + SerialNumber, OEM + serial, and the serial.
        XCTAssertEqual(try t.rows("SELECT kind, name, vin, pin, make, model FROM asset ORDER BY id").map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"vehicle\"|\"5TDKK3DC2BS123422\"|\"5TDKK3DC2BS123422\"|NULL|\"Toyota\"|\"Sienna\"",
            "\"equipment\"|\"1GKS1MEF3CR123457\"|NULL|NULL|\"GMC\"|\"Yukon Denali\"",
        ])
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier ORDER BY asset_id").map { $0[0] as String },
                       ["Toyota|Sienna|4572072000", "Toyota|4572072000", "4572072000",
                        "GMC|Yukon Denali|4674929000", "GMC|4674929000", "4674929000", "1GKS1MEF3CR123457"])
        XCTAssertEqual(try meters(t), [
            "1GKS1MEF3CR123457 engine_hours 2026-10-02T15:35:31Z 111723.0 P1DT7H2M3S xs:duration",
            "1GKS1MEF3CR123457 odometer 2026-10-02T15:35:31Z 187493725.9008 116503.2 miles",
            "5TDKK3DC2BS123422 engine_hours 2026-10-02T15:22:29Z 48510.0 PT13H28M30S xs:duration",
            "5TDKK3DC2BS123422 odometer 2026-10-02T15:22:29Z 328190786.0352 203928.3 miles",
        ])
        // Altitude/Meters, and the -05:00 offset converted to UTC.
        XCTAssertEqual(try t.rows("SELECT at, alt_m FROM position ORDER BY at").map { "\(Timestamp.iso($0[0])) \($0[1] as Double)" },
                       ["2026-10-02T15:22:29Z 0.0", "2026-10-02T15:35:31Z 287.0"])
    }

    func testDeereLegacyFeedFractionalSecondsDuration() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("aemp12/deere-legacy-aemp.xml"))
        XCTAssertEqual(outcome.format, "aemp12")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [3, 0])
        XCTAssertEqual(try meters(t), [
            "Backhoe 12 engine_hours 2026-10-03T12:58:40Z 1124759.999 P13DT0H25M59.999S xs:duration",
            "Backhoe 12 fuel_used 2026-10-03T12:58:40Z 3120400.0 3120.4 litre",
        ])
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier").map { $0[0] as String }, ["JOHN DEERE|310SL|1T0310SLPKF385111", "JOHN DEERE|1T0310SLPKF385111", "1T0310SLPKF385111"])
    }

    /// The same machine in an AEMP 1.2 feed and in an ISO feed (no PIN there either) is one asset.
    func testMakeModelSerialLinksTheTwoDialects() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("aemp12/deere-legacy-aemp.xml"))
        let iso = try t.write("""
            <Fleet xmlns="http://standards.iso.org/iso/15143/-3" version="1" snapshotTime="2026-10-04T13:00:00Z">
              <Equipment>
                <EquipmentHeader><OEMName>JOHN DEERE</OEMName><Model>310SL</Model><SerialNumber>1T0310SLPKF385111</SerialNumber></EquipmentHeader>
                <CumulativeOperatingHours datetime="2026-10-04T12:00:00Z"><Hour>318.5</Hour></CumulativeOperatingHours>
              </Equipment>
            </Fleet>
            """, to: "iso.xml")
        XCTAssertEqual(try t.importFile(iso).loaded, 1)
        XCTAssertEqual(try t.count("asset"), 1)
        XCTAssertEqual(try t.count("meter_reading", where: "meter = 'engine_hours'"), 2)
    }

    func testBadDurationsAreRejectedAndTheRestLoads() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("aemp12/bad-duration.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        XCTAssertEqual(try t.rows("SELECT location, reason, message, raw FROM reject ORDER BY id").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String) | \($0[3] as String)" }, [
            "/Fleet/Equipment[1]/CumulativeOperatingHours | bad_number | Hour: 'P1Y2M3D' counts years or months, which have no fixed length in hours | <CumulativeOperatingHours datetime=\"2026-10-02T15:00:00+00:00\"><Hour>P1Y2M3D</Hour></CumulativeOperatingHours>",
            "/Fleet/Equipment[1]/CumulativeOperatingHours[2] | bad_number | Hour: 'PT13H28M30' is not an xs:duration such as PT13H28M30S or P1DT7H2M3S | <CumulativeOperatingHours datetime=\"2026-10-02T16:00:00+00:00\"><Hour>PT13H28M30</Hour></CumulativeOperatingHours>",
        ])
        XCTAssertEqual(try meters(t), ["Crane truck 4 engine_hours 2026-10-02T17:00:00Z 50520.0 PT14H2M xs:duration"])
    }

    func testDetection() throws {
        for f in ["gpsinsight-fleet.xml", "deere-legacy-aemp.xml", "bad-duration.xml"] {
            let url = fixture("aemp12/" + f)
            XCTAssertEqual(ImporterRegistry.detect(try FileWalker.head(of: url), filename: f)?.format, "aemp12", f)
        }
        let iso = fixture("iso15143/jdlink-fleet-2026-10-01.xml")
        XCTAssertEqual(AEMP12Importer.sniff(try FileWalker.head(of: iso), filename: iso.lastPathComponent), .no)
    }
}
