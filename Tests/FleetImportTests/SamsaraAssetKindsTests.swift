import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Samsara's trailers and equipment are not vehicles: their stats land on a trailer or a
/// machine, under the id the DVIRs (trailers) or the equipment endpoints use, and a machine's
/// gateway engine seconds are its hour meter. Expected figures are read off the fixtures.
final class SamsaraAssetKindsTests: XCTestCase {
    static let tables = ["asset", "asset_identifier", "meter_reading", "position", "engine_event", "dvir"]

    func assets(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT a.kind, a.name, i.id_type, i.id_value FROM asset a JOIN asset_identifier i ON i.asset_id = a.id ORDER BY i.id_value
            """).map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)=\($0[3] as String)" }
    }

    func meters(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT a.name, m.meter, m.at, m.value, m.raw_value, m.raw_unit FROM meter_reading m JOIN asset a ON a.id = m.asset_id ORDER BY 1, 2, 3
            """).map { "\($0[0] as String) \($0[1] as String) \(Timestamp.iso($0[2])) \($0[3] as Double) \($0[4] as String) \($0[5] as String)" }
    }

    /// A reefer trailer's stats, and a DVIR of the same trailer, in both orders: one trailer.
    func testTrailerStatsLandOnTheTrailerTheDVIRsName() throws {
        let files = ["samsara/trailer-stats-reefer.json", "samsara/trailer-dvir.json"]
        var dumps: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order {
                let o = try t.importFile(fixture(f))
                XCTAssertEqual(o.rejected, 0, "\(f): \(o.notes ?? [])")
            }
            XCTAssertEqual(try assets(t), ["trailer Reefer 53-07 trailer_id=281474977300412"])
            // No OBD odometer on a trailer: the GPS odometer is its distance counter.
            XCTAssertEqual(try meters(t), [
                "Reefer 53-07 odometer 2026-10-01T06:00:00Z 412330250.0 412330250 m",
                "Reefer 53-07 odometer 2026-10-01T18:00:00Z 412781900.0 412781900 m",
            ])
            XCTAssertEqual(try t.count("position"), 1)
            XCTAssertEqual(try t.count("dvir", where: "asset_id = (SELECT id FROM asset WHERE kind = 'trailer')"), 1)
            dumps.append(try t.factDump(tables: Self.tables))
        }
        XCTAssertEqual(dumps[0], dumps[1])
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/trailer-stats-reefer.json"))
        XCTAssertTrue(o.notes?.contains { $0.contains("reeferAmbientAirTemperatureMilliC (1)") && $0.contains("reeferObdEngineSeconds (1)") } ?? false,
                      "\(o.notes ?? [])")
    }

    /// A dry van's stats have no reefer keys: the saved file's name says it is the trailers endpoint.
    func testTheFileNameTellsADryVanTrailer() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(try t.importFile(fixture("samsara/trailers-stats-dry-van.json")).loaded, 1)
        XCTAssertEqual(try assets(t), ["trailer Dry van 28 trailer_id=281474977300977"])
    }

    func testEquipmentStatsAreMachinesWithTheirBestHourMeter() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/equipment-stats.json"))
        XCTAssertEqual([o.loaded, o.rejected], [9, 0], "\(o.notes ?? [])")
        XCTAssertEqual(try assets(t), ["equipment Excavator 14 equipment_id=281474977410001", "equipment Loader 3 equipment_id=281474977410002"])
        XCTAssertEqual(try meters(t), [
            // No OBD count: the J1939 gateway count is used; the plain gateway count and the
            // deprecated engineSeconds, on other baselines, are not mixed into the same meter.
            "Excavator 14 engine_hours 2026-10-01T06:00:00Z 15118200.0 15118200 s",
            "Excavator 14 engine_hours 2026-10-01T18:00:00Z 15147000.0 15147000 s",
            // 61230 minutes of total idle time.
            "Excavator 14 idle_hours 2026-10-01T18:00:00Z 3673800.0 61230 min",
            // The ECU's own count wins over the gateway's, whichever comes first in the record.
            "Loader 3 engine_hours 2026-10-01T06:00:00Z 8996400.0 8996400 s",
            "Loader 3 engine_hours 2026-10-01T18:00:00Z 9021600.0 9021600 s",
        ])
        XCTAssertEqual(try t.rows("SELECT a.name, e.at, e.state FROM engine_event e JOIN asset a ON a.id = e.asset_id ORDER BY 1, 2")
            .map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as String)" }, [
            "Excavator 14 2026-10-01T06:05:00Z on", "Excavator 14 2026-10-01T14:05:00Z off",
            "Loader 3 2026-10-01T06:10:00Z idle", "Loader 3 2026-10-01T06:20:00Z on",
        ])
        XCTAssertTrue(o.notes?.contains("gatewayEngineStates readings not used because the asset has obdEngineStates, which is preferred: 1") ?? false, "\(o.notes ?? [])")
        // An idling event names the machine only as `asset{id}`: it finds the machine, no new vehicle.
        let idle = try t.write("""
            {"data": [{"eventUuid": "e-1", "asset": {"id": 281474977410002}, "startTime": "2026-10-01T09:00:00Z", "durationMilliseconds": 600000}],
             "pagination": {"endCursor": "", "hasNextPage": false}}
            """, to: "idling-events.json")
        XCTAssertEqual(try t.importFile(idle).rejected, 0)
        XCTAssertEqual(try t.count("asset"), 2)
        XCTAssertEqual(try t.count("engine_event", where: "asset_id = (SELECT id FROM asset WHERE name = 'Loader 3') AND state = 'idle'"), 2)
    }
}
