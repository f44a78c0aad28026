import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// DVIRs and defects, drivers and HOS daily logs, trips, idling and report endpoints.
final class SamsaraRecordsTests: XCTestCase {
    private func lines(_ t: TestWarehouse, _ sql: String) throws -> [String] { try SamsaraImporterTests.lines(t, sql) }

    @discardableResult
    private func load(_ t: TestWarehouse, _ name: String, options: ImportOptions = ImportOptions(), file: StaticString = #filePath, line: UInt = #line) throws -> FileOutcome {
        let o = try t.importFile(fixture("samsara/" + name), options: options)
        XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")", file: file, line: line)
        return o
    }

    private func dvirs(_ t: TestWarehouse) throws -> [String] {
        try lines(t, """
            SELECT d.source_key, a.unit_number, (SELECT id_value FROM driver_identifier WHERE driver_id = d.driver_id), d.type, d.started_at, d.signed_at,
                   d.safety_status, d.odometer_m, d.location, d.inspector_name, d.mechanic_name, d.mechanic_signed_at, d.mechanic_notes,
                   d.reviewed_at, d.reviewed_by, d.state_at
            FROM dvir d JOIN asset a ON a.id = d.asset_id ORDER BY d.source_key
            """)
    }

    private func defects(_ t: TestWarehouse) throws -> [String] {
        try lines(t, """
            SELECT f.source_key, d.source_key, f.component, f.defect_type, f.comment, f.safety_critical, f.created_at, f.resolved_at, f.resolved_by,
                   f.certification, f.state_at
            FROM dvir_defect f JOIN dvir d ON d.id = f.dvir_id ORDER BY f.source_key
            """)
    }

    /// A DVIR re-exported with its defects resolved updates the same rows; imported the other
    /// way round, the older export changes nothing (docs/FORMATS.md, "Later state wins, not later import").
    func testResolvedDVIRWinsInBothImportOrders() throws {
        var dumps: [[String]] = []
        for order in [["dvirs-open.json", "dvirs-resolved.json"], ["dvirs-resolved.json", "dvirs-open.json"]] {
            let t = try TestWarehouse()
            try load(t, "assets.csv")
            let first = try load(t, order[0]), second = try load(t, order[1])
            if order[0] == "dvirs-open.json" {
                XCTAssertEqual([first.loaded, first.updated, first.unchanged, first.rejected], [5, 0, 0, 1])
                XCTAssertEqual([second.loaded, second.updated, second.unchanged], [0, 3, 1], "the DVIR and two defects updated in place")
            } else {
                XCTAssertEqual([first.loaded, first.rejected], [4, 0])
                XCTAssertEqual([second.loaded, second.updated, second.unchanged, second.rejected], [1, 0, 4, 1], "the older export undoes nothing")
            }
            XCTAssertEqual(try dvirs(t), [
                "\"samsara-dvir:7107471\"|\"T-12\"|\"52000074\"|\"pre_trip\"|1791286812000|1791287560000|\"resolved\"|15452300.0|\"1200 W Industrial Dr, Joliet, IL 60431\"|\"Carla Chen\"|\"R. Okafor\"|1791303600000|\"Replaced compressor governor; lamp replaced; tire aired to 100 psi\"|1791371100000|\"Dmitri Diaz\"|1791371100000",
                "\"samsara-dvir:7107488\"|\"T-14\"|\"52000037\"|\"post_trip\"|1791327660000|1791327870000|\"safe\"|NULL|NULL|\"Ben Brooks\"|NULL|NULL|NULL|NULL|NULL|1791327870000",
            ])
            XCTAssertEqual(try defects(t), [
                "\"samsara-defect:91001\"|\"samsara-dvir:7107471\"|\"other\"|\"Air Compressor\"|\"Slow build-up, 90 psi after 5 min; mechanic notes: Governor replaced\"|0|1791287402000|1791303300000|\"R. Okafor\"|\"repaired\"|1791303300000",
                "\"samsara-defect:91002\"|\"samsara-dvir:7107471\"|\"lighting\"|\"Tail Lights\"|\"Left tail lamp out\"|1|1791287470000|1791303480000|\"R. Okafor\"|\"repaired\"|1791303480000",
                "\"samsara-defect:trailer:91003\"|\"samsara-dvir:7107471\"|\"tires\"|\"Tires\"|\"Trailer 53-07: Right rear outer low\"|1|1791287505000|NULL|NULL|NULL|1791287505000",
            ])
            XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0["location"] as String) \($0["reason"] as String): \($0["message"] as String)" },
                           ["data[2].type bad_value: DVIR type 'unspecified' is not preTrip, postTrip or mechanic; the warehouse keeps only those (49 CFR 396.11)"])
            dumps.append(try t.factDump(tables: ["asset", "asset_identifier", "driver", "driver_identifier", "dvir", "dvir_defect"]))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    func testStreamDVIRAndDefectsHistory() throws {
        let t = try TestWarehouse()
        for name in ["assets.csv", "vehicles.json", "dvirs-open.json", "dvirs-resolved.json"] { try load(t, name) }
        let s = try load(t, "dvirs-stream.json")
        XCTAssertEqual([s.loaded, s.rejected], [1, 0])
        XCTAssertTrue(s.notes?.contains("DVIRs without a safety status (or 'unknown'), derived from their defects: 1") ?? false)
        XCTAssertEqual(try dvirs(t).first,
                       "\"samsara-dvir:0b5f6f2e-6c1a-4f1e-9d8e-1f0c2a7d9e11\"|\"T-14\"|\"52000037\"|\"post_trip\"|1791411000000|1791411390000|\"unsafe\"|72844100.0|\"350 N Orleans St, Chicago, IL\"|NULL|NULL|NULL|NULL|NULL|NULL|1791411391000")
        let d = try load(t, "defects-history.json")
        XCTAssertEqual([d.loaded, d.updated, d.unchanged, d.rejected], [2, 1, 0, 0], "defect 99999 loaded as pending")
        XCTAssertEqual(try defects(t).filter { $0.contains("91003") || $0.contains("5d2c") }, [
            // The legacy defects export names no DVIR: the defect keeps the DVIR it was imported with.
            "\"samsara-defect:trailer:91003\"|\"samsara-dvir:7107471\"|\"tires\"|\"Tires\"|\"Trailer 53-07: Right rear outer low\"|1|1791287505000|1791365400000|\"R. Okafor\"|\"repaired\"|1791365400000",
            "\"samsara-defect:5d2c1b7a-0c33-4a6f-a3b2-9f1e7d6c5b41\"|\"samsara-dvir:0b5f6f2e-6c1a-4f1e-9d8e-1f0c2a7d9e11\"|\"wipers\"|\"Windshield wipers\"|\"Passenger wiper streaks\"|0|1791411300000|NULL|NULL|NULL|1791411391000",
        ].sorted())
        // Defect 99999 names no DVIR and none stores it: it waits, visible, instead of being rejected.
        XCTAssertEqual(try lines(t, "SELECT location, dvir_key, source_key FROM dvir_defect_pending"), ["\"data[2]\"|NULL|\"samsara-defect:99999\""])
        XCTAssertEqual(try t.count("reject", where: "source_file_id = \(d.sourceFileID!)"), 0)
        XCTAssertTrue(d.notes?.contains { $0.hasPrefix("defects whose DVIR is not in the warehouse yet") } ?? false, d.notes?.joined(separator: "\n") ?? "")
    }

    /// `location` as an object (newer saves) is read by its fields; a plain string and a top-level
    /// `formattedAddress` are covered by the fixtures above.
    func testDVIRLocationObject() throws {
        let t = try TestWarehouse()
        for name in ["assets.csv", "vehicles.json"] { try load(t, name) }
        let text = try String(contentsOf: fixture("samsara/dvirs-stream.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"formattedAddress\": \"350 N Orleans St, Chicago, IL\"",
                                  with: "\"location\": {\"formattedAddress\": \"1 Yard Rd, Joliet, IL\", \"latitude\": 41.5}")
        let o = try t.importFile(try t.write(text, to: "dvirs-location-object.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try lines(t, "SELECT location FROM dvir WHERE source_key LIKE '%0b5f6f2e%'"), ["\"1 Yard Rd, Joliet, IL\""])
    }

    func testDriversMatchMasterDataAndDailyLogsBecomeAssignments() throws {
        let t = try TestWarehouse()
        try load(t, "assets.csv")
        try load(t, "drivers-master.csv")
        let d = try load(t, "drivers.json")
        XCTAssertEqual([d.loaded, d.updated, d.rejected], [1, 1, 0])
        XCTAssertEqual(try lines(t, "SELECT employee_id, name, license_number, license_state, status, phone, auto_created FROM driver ORDER BY id"), [
            "\"E-1003\"|\"Carla Chen\"|\"D412345678\"|\"IL\"|\"active\"|\"+1 815 555 0142\"|0",
            "NULL|\"Ben Brooks\"|\"D498765432\"|\"IN\"|\"inactive\"|NULL|0",
        ])
        XCTAssertEqual(try lines(t, "SELECT driver_id, source, id_type, id_value FROM driver_identifier ORDER BY driver_id"),
                       ["1|\"samsara\"|\"driver_id\"|\"52000074\"", "2|\"samsara\"|\"driver_id\"|\"52000037\""])
        let h = try load(t, "hos-daily-logs.json")
        XCTAssertEqual([h.loaded, h.rejected], [1, 0])
        // Carla's day in Chicago (CDT) is 05:00Z to 05:00Z; Ben drove no vehicle that day.
        XCTAssertEqual(try lines(t, "SELECT d.employee_id, a.unit_number, s.start_at, s.end_at, s.status FROM assignment s JOIN driver d ON d.id = s.driver_id JOIN asset a ON a.id = s.asset_id"),
                       ["\"E-1003\"|\"T-12\"|1790830800000|1790917200000|\"completed\""])
    }

    func testV1TripsAttributedByFileNameWithSentinelAndZeroOdometer() throws {
        let t = try TestWarehouse()
        try load(t, "assets.csv")
        let o = try load(t, "trips-v1-281474977075805.json")
        XCTAssertEqual([o.loaded, o.rejected], [3, 0])
        XCTAssertEqual(try lines(t, """
            SELECT a.unit_number, (SELECT id_value FROM driver_identifier WHERE driver_id = r.driver_id), r.start_at, r.end_at, r.start_lat, r.start_lon,
                   r.end_lat, r.end_lon, r.distance_m, r.duration_s, r.source FROM trip r JOIN asset a ON a.id = r.asset_id ORDER BY r.start_at
            """), [
            "\"T-12\"|\"52000074\"|1790856000000|1790868600000|41.525031|-88.081725|40.116421|-88.243383|172400.0|12600.0|\"samsara\"",
            "\"T-12\"|NULL|1790875800000|1790894400000|40.116421|-88.243383|NULL|NULL|NULL|18600.0|\"samsara\"",     // odometer 0, driver 0, (0, 0)
            "\"T-12\"|\"52000074\"|1790942400000|1790948100000|NULL|NULL|NULL|NULL|117900.0|5700.0|\"samsara\"",       // distance from odometers
        ])
        XCTAssertEqual(o.notes, [
            "records read: v1 trips 4 (1 page)",
            "ongoing v1 trips (endMs = 9223372036854775807) not stored yet (a later export has them complete): 1",
            "v1 trips with an odometer of 0 (unreadable), not used: 1",
        ])
        XCTAssertEqual(try lines(t, "SELECT day, distance_method, distance_m, trips FROM asset_day ORDER BY day"),
                       ["\"2026-10-01\"|\"trips\"|172400.0|2", "\"2026-10-02\"|\"trips\"|117900.0|1"])
        // The same response under a name without a linked vehicle id cannot be attributed…
        let copy = try t.write(try String(contentsOf: fixture("samsara/trips-v1-281474977075805.json"), encoding: .utf8) + "\n", to: "samsara-trips.json")
        let unattributed = try t.importFile(copy)
        XCTAssertEqual(unattributed.status, .failed)
        XCTAssertTrue(unattributed.error?.contains("does not say which vehicle") ?? false, unattributed.error ?? "")
        // …unless --asset names the unit.
        let forced = try t.importFile(copy, options: ImportOptions(asset: "T-14"))
        XCTAssertEqual([forced.loaded, forced.rejected], [3, 0])
    }

    func testIdlingBecomesIdleEventsAndFuelEnergyIsNotedOnly() throws {
        let t = try TestWarehouse()
        try load(t, "assets.csv")
        try load(t, "vehicles.json")
        let e = try load(t, "idling-events.json"), r = try load(t, "idling-report.json")
        XCTAssertEqual([e.loaded, r.loaded, e.rejected + r.rejected], [2, 2, 0], "an idle_period row and an 'idle' engine event each")
        XCTAssertEqual(try lines(t, "SELECT a.unit_number, e.at, e.state FROM engine_event e JOIN asset a ON a.id = e.asset_id ORDER BY e.at"),
                       ["\"T-14\"|1790866920000|\"idle\"", "\"T-12\"|1790875800000|\"idle\""])
        let f = try load(t, "fuel-energy.json")
        XCTAssertEqual([f.loaded, f.rejected], [0, 0])
        XCTAssertTrue(f.notes?.contains("fuel-energy report rows not stored (period totals have no warehouse table; fuel and distance come from the stats counters): 1") ?? false, "\(f.notes ?? [])")
    }
}
