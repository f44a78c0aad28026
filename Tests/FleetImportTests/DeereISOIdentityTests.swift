import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The same machine seen through the JDLink ISO 15143-3 feed (by PIN) and the Operations Center
/// (equipment list by serial number, machine endpoints by principal id) is one asset, and the
/// warehouse is the same whatever order the files arrive in.
final class DeereISOIdentityTests: XCTestCase {
    static let files = ["iso15143/jdlink-fleet-2026-10-01.xml", "deere/engine-hours-1234567.json", "deere/hours-of-operation-1234567.json",
                        "deere/location-history-1234567.json", "deere/equipment.json", "deere/breadcrumbs-2345678.json", "deere/alerts-2345678.json"]
    static let tables = ["asset", "asset_identifier", "meter_reading", "position", "engine_event", "dtc_event"]

    private func build(_ order: [String], file: StaticString = #filePath, line: UInt = #line) throws -> TestWarehouse {
        let t = try TestWarehouse()
        for f in order {
            let o = try t.importFile(fixture(f))
            XCTAssertEqual(o.status, .imported, "\(f): \(o.error ?? "")", file: file, line: line)
            XCTAssertEqual(o.rejected, 0, f, file: file, line: line)
        }
        return t
    }

    func testISOFeedAndOperationsCenterAreOneAssetInBothOrders() throws {
        let forward = try build(Self.files)
        let backward = try build(Self.files.reversed())
        for t in [forward, backward] {
            // Two machines in both sources, the combine only in the equipment list.
            XCTAssertEqual(try t.rows("SELECT pin, kind, name, make, model, year, auto_created FROM asset ORDER BY pin")
                .map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
                "\"1DW260EXJEF001076\"|\"equipment\"|NULL|\"JOHN DEERE\"|\"260E\"|2014|1",
                "\"1DW644KXCKE654321\"|\"equipment\"|\"Loader 7 - Yard North\"|\"JOHN DEERE\"|\"644K\"|2019|1",
                "\"1H0S680SCE0766303\"|\"equipment\"|NULL|\"JOHN DEERE\"|\"S680\"|2014|1",
            ])
            // The 260E's hour meter from both sources on one timeline: ISO at 18:00, Deere around it.
            XCTAssertEqual(try DeereImporterTests.meters(t, "engine_hours").filter { $0.hasPrefix("1DW260") }, [
                "1DW260EXJEF001076 engine_hours 2026-10-01T12:00:00Z 1549800.0 430.5 Hours",
                "1DW260EXJEF001076 engine_hours 2026-10-01T18:00:00Z 1570320.0 436.2 hours",
                "1DW260EXJEF001076 engine_hours 2026-10-01T20:00:00Z 1575900.0 437.75 Hours",
                "1DW260EXJEF001076 engine_hours 2026-10-02T12:00:00Z 1580400.0 439.0 hours",
                "1DW260EXJEF001076 engine_hours 2026-10-02T21:30:15.500Z 1597500.0 443.75 Hours",
            ])
            XCTAssertEqual(try t.count("position", where: "asset_id = (SELECT id FROM asset WHERE pin = '1DW644KXCKE654321')"), 6)
            XCTAssertEqual(try t.count("engine_event", where: "asset_id = (SELECT id FROM asset WHERE pin = '1DW260EXJEF001076')"), 6)
        }
        XCTAssertEqual(try forward.factDump(tables: Self.tables), try backward.factDump(tables: Self.tables))
        let days = "SELECT a.pin, d.day, d.distance_m, d.distance_method, d.engine_s, d.idle_s, d.fuel_ml, d.first_at, d.last_at, d.trips FROM asset_day d JOIN asset a ON a.id = d.asset_id ORDER BY 1, 2"
        XCTAssertEqual(try forward.rows(days).map(\.description), try backward.rows(days).map(\.description))
        XCTAssertFalse(try forward.rows(days).isEmpty)
    }
}
