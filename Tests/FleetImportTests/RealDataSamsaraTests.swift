import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The Samsara regression corpus: the response bodies of Samsara's own SDK test fixtures in
/// `../shared/realdata/samsara` (samsarahq/samsara-python @ e2e567e, MIT; origin in its
/// README), each imported alone into an empty warehouse, as a new user would.
///
/// The expected outcome of each file was decided by reading the file itself against Samsara's
/// API reference (what each field means), not from what FleetKit produced:
/// `python3 -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1])), indent=1))" FILE`.
/// The rules applied: a placeholder (a string equal to its member name, `"id": "id"`,
/// `"time": "time"`) is refused and leaves nothing; a coordinate outside ±90/±180 or a speed
/// beyond 500 mph is a reject; a defect whose DVIR is not in the warehouse cannot be placed;
/// report shapes with no warehouse table are counted, not stored; an asset exists only when
/// something about it was stored. The comment on each line says what the file holds.
final class RealDataSamsaraTests: XCTestCase {
    struct Expected {
        var file: String, format: String
        var loaded: Int, rejected: Int
        var reasons: [String]
        var assets: Int
        /// An SQL query over the warehouse and the rows it must return ("|"-joined).
        var check: (sql: String, rows: [String])?
    }

    static let expected: [Expected] = [
        // ISO 15143-3 shape (Samsara's AEMP endpoint): one Bobcat with PIN 8V8WD530FLN016251 at 12.34, 12.34 on 2019-06-13T19:08:25Z.
        .init(file: "api_beta_aemp_Fleet_page.json", format: "iso15143", loaded: 1, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT a.pin, p.at, p.lat, p.lon FROM position p JOIN asset a ON a.id = p.asset_id", ["8V8WD530FLN016251|1560452905000|12.34|12.34"])),
        // One defect of DVIR 292371177, which this file does not hold: it waits for that DVIR
        // (names a trailer without a name, so its trailer key is noted for the attach).
        .init(file: "api_defects_stream.json", format: "samsara", loaded: 1, rejected: 0, reasons: [], assets: 0,
              check: ("SELECT dvir_key, source_key, trailer_key, resolved_by FROM dvir_defect_pending",
                      ["samsara-dvir:292371177|samsara-defect:9700544|samsara-defect:trailer:9700544|Jane Mechanic"])),
        // One preTrip DVIR 12345 of vehicle 494123, safetyStatus 'unknown', two defectIds, 91823 m.
        .init(file: "api_dvirs_stream.json", format: "samsara", loaded: 1, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT source_key, type, safety_status, odometer_m FROM dvir", ["samsara-dvir:12345|pre_trip|unsafe|91823.0"])),
        // Legacy defect 18 (names a trailer, no dvirId) whose DVIR is not in the warehouse: it
        // waits, under the trailer key, for a DVIR that lists trailer defect 18.
        .init(file: "api_fleet_defects_history.json", format: "samsara", loaded: 1, rejected: 0, reasons: [], assets: 0,
              check: ("SELECT COALESCE(dvir_key, 'none'), source_key, resolved_by FROM dvir_defect_pending",
                      ["none|samsara-defect:trailer:18|Christopher 'The Handyman' Zhen"])),
        // One driver, Susan Jones, licence E1234567; her staticAssignedVehicle has no start time, so no assignment.
        .init(file: "api_fleet_drivers.json", format: "samsara", loaded: 1, rejected: 0, reasons: [], assets: 0,
              check: ("SELECT name, license_number FROM driver", ["Susan Jones|E1234567"])),
        // DVIR 7107471 with vehicle defect 18 and trailer defect 18: one DVIR, two defects.
        .init(file: "api_fleet_dvirs_history.json", format: "samsara", loaded: 3, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT source_key FROM dvir_defect ORDER BY 1", ["samsara-defect:18", "samsara-defect:trailer:18"])),
        // Durations per driver and day: no warehouse table; driver 45646 'Driver Bob' is linked.
        .init(file: "api_fleet_hos_daily-logs.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0,
              check: ("SELECT name FROM driver", ["Driver Bob"])),
        // HOS duty-status log of driver 88668: its one entry has no hosStatusType (Samsara's
        // status field), so it cannot be stored as an interval; the driver is created only with a
        // stored entry (latitude 122.142 is never read).
        .init(file: "api_fleet_hos_logs.json", format: "samsara", loaded: 0, rejected: 1, reasons: ["missing_field"], assets: 0,
              check: ("SELECT COUNT(*) FROM driver", ["0"])),
        // Period totals per driver: no warehouse table.
        .init(file: "api_fleet_reports_drivers_fuel-energy.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0, check: nil),
        // IFTA distances per jurisdiction: no warehouse table (this file was 'format not recognised').
        .init(file: "api_fleet_reports_ifta_jurisdiction.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0, check: nil),
        .init(file: "api_fleet_reports_ifta_vehicle.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0, check: nil),
        // One idling period of vehicle 494123 from 2019-06-13T19:08:25Z, durationMs 860000 (its endTime
        // equals its startTime: the duration is used), 2500 mL, no PTO, at 34.654567, 34.654567:
        // an idle period and an 'idle' event.
        .init(file: "api_fleet_reports_vehicle_idling.json", format: "samsara", loaded: 2, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT e.at, e.state, p.end_at, p.duration_s, p.fuel_ml, p.pto, p.lat, p.lon, p.source FROM engine_event e JOIN idle_period p ON p.asset_id = e.asset_id",
                      ["1560452905000|idle|1560453765000|860.0|2500.0|0|34.654567|34.654567|samsara-report"])),
        .init(file: "api_fleet_reports_vehicles_fuel-energy.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0, check: nil),
        // Vehicle 494123 'Fleet Truck #1', VIN 1GBJ6P1B2HV112765, Ford F150 2008.
        .init(file: "api_fleet_vehicles_list.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT name, vin, make, model, year FROM asset", ["Fleet Truck #1|1GBJ6P1B2HV112765|Ford|F150|2008"])),
        // latitude 122.142: no such place; its vehicle 'Truck A7' has nothing else and gets no asset.
        .init(file: "api_fleet_vehicles_locations.json", format: "samsara", loaded: 0, rejected: 1, reasons: ["out_of_range"], assets: 0, check: nil),
        .init(file: "api_fleet_vehicles_locations_history.json", format: "samsara", loaded: 0, rejected: 1, reasons: ["out_of_range"], assets: 0, check: nil),
        // Two vehicles with "id": "id" (and "name": "name"): refused whole, no asset called "name".
        .init(file: "api_fleet_vehicles_stats_history.json", format: "samsara", loaded: 0, rejected: 2, reasons: ["placeholder"], assets: 0, check: nil),
        .init(file: "api_fleet_vehicles_stats_snapshot.json", format: "samsara", loaded: 0, rejected: 2, reasons: ["placeholder"], assets: 0, check: nil),
        // Idling event of asset 1234567890 (a JSON number) from 2019-06-13T17:08:25Z, 860000 ms, 2500 mL,
        // ptoState "active, inactive" (neither: PTO unknown), at 37.7749, -122.4194.
        .init(file: "api_idling_events.json", format: "samsara", loaded: 2, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT i.id_value, e.at, e.state, p.end_at, p.duration_s, p.fuel_ml, p.pto, p.lat, p.lon, p.source FROM engine_event e JOIN asset_identifier i ON i.asset_id = e.asset_id JOIN idle_period p ON p.asset_id = e.asset_id",
                      ["1234567890|1560445705000|idle|1560446565000|860.0|2500.0|NULL|37.7749|-122.4194|samsara-event"])),
        // Two trips with completionStatus 'inProgress': not stored yet.
        .init(file: "api_trips_stream.json", format: "samsara", loaded: 0, rejected: 0, reasons: [], assets: 0, check: nil),
        // One fix of asset 12345 at 2020-01-27T07:06:25Z, 37.7749, 137.2719, 120°, GPS speed 30.2 m/s (was unknown_shape).
        .init(file: "extra_api_assets_location-and-speed_stream.json", format: "samsara", loaded: 1, rejected: 0, reasons: [], assets: 1,
              check: ("SELECT at, lat, lon, speed_mps, heading_deg FROM position", ["1580108785000|37.7749|137.2719|30.2|120.0"])),
        // Equipment series with "time": "time" and "id": "id": refused whole.
        .init(file: "extra_api_fleet_equipment_stats_history.json", format: "samsara", loaded: 0, rejected: 2, reasons: ["placeholder"], assets: 0, check: nil),
        // Trailer 1234 (reefer stats: it is a trailer, under the trailer id DVIRs use): gps speed
        // 152047843600549300 mph is refused; its GPS odometer of 50 m loads.
        .init(file: "extra_api_fleet_trailers_stats_history.json", format: "samsara", loaded: 1, rejected: 1, reasons: ["out_of_range"], assets: 1,
              check: ("SELECT a.kind, i.id_type, i.id_value, m.meter, m.at, m.value FROM meter_reading m JOIN asset a ON a.id = m.asset_id JOIN asset_identifier i ON i.asset_id = a.id",
                      ["trailer|trailer_id|1234|odometer|1580108785000|50.0"])),
        .init(file: "extra_api_fleet_vehicles_locations_feed.json", format: "samsara", loaded: 0, rejected: 1, reasons: ["out_of_range"], assets: 0, check: nil),
    ]
    /// v1 trips name no vehicle: without --asset the file fails whole (tested with and without).
    static let needsAsset = "api_v1_fleet_trips.json"

    /// `../shared/realdata/samsara` beside the package root; a missing corpus fails the test.
    static func corpus(file: StaticString = #filePath) throws -> URL {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/realdata/samsara")
        guard FileManager.default.fileExists(atPath: dir.path) else {
            XCTFail("The real-data corpus is missing: expected \(dir.path) (../shared/realdata/samsara beside the package root). Check it out there; this test does not skip.")
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: dir.path])
        }
        return dir
    }

    func testEveryCorpusFileIsCovered() throws {
        let dir = try Self.corpus()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") })
        XCTAssertEqual(files, Set(Self.expected.map(\.file) + [Self.needsAsset]), "every corpus file needs an expected outcome")
    }

    func testEachFileAloneHasItsStatedOutcome() throws {
        let dir = try Self.corpus()
        for e in Self.expected {
            let t = try TestWarehouse()
            let url = dir.appendingPathComponent(e.file)
            let o = try t.importFile(url)
            XCTAssertEqual(o.status, .imported, "\(e.file): \(o.error ?? "")")
            XCTAssertEqual(o.format, e.format, e.file)
            XCTAssertEqual([o.loaded, o.rejected], [e.loaded, e.rejected], e.file)
            XCTAssertEqual(try t.rows("SELECT DISTINCT reason FROM reject ORDER BY 1").map { $0[0] as String }, e.reasons, e.file)
            XCTAssertEqual(try t.count("asset"), e.assets, "\(e.file): assets")
            XCTAssertEqual(try t.count("asset", where: "name = 'name' OR unit_number = 'name'"), 0, e.file)
            XCTAssertEqual(try t.count("asset_identifier", where: "id_value IN ('id', 'vin', 'name')"), 0, "\(e.file): a placeholder became an identifier")
            if let check = e.check {
                let rows = try t.rows(check.sql).map { $0.databaseValues.map { v -> String in
                    if case let .string(s) = v.storage { return s }
                    return v.description
                }.joined(separator: "|") }
                XCTAssertEqual(rows, check.rows, e.file)
            }
            XCTAssertEqual(try t.importFile(url).status, .unchanged, "\(e.file): a re-import is a no-op")
        }
    }

    func testV1TripsNeedTheirVehicle() throws {
        let url = try Self.corpus().appendingPathComponent(Self.needsAsset)
        let t = try TestWarehouse()
        let alone = try t.importFile(url)
        XCTAssertEqual(alone.status, .failed)
        XCTAssertTrue(alone.error?.contains("Use --asset UNIT") ?? false, alone.error ?? "")
        XCTAssertEqual(try t.count("asset"), 0)
        // startMs 1462878398034, endMs 1462881998034, 2500 m, from 29.443702345,-98.502888123 to 23.413702345,-91.502888123.
        let o = try t.importFile(url, options: ImportOptions(asset: "T-1"))
        XCTAssertEqual([o.loaded, o.rejected], [1, 0])
        XCTAssertEqual(try t.rows("SELECT start_at, end_at, start_lat, start_lon, end_lat, end_lon, distance_m FROM trip").map { $0.databaseValues.map(\.description).joined(separator: "|") },
                       ["1462878398034|1462881998034|29.443702345|-98.502888123|23.413702345|-91.502888123|2500.0"])
    }

    /// The legacy DVIR export, then the legacy defects export: defect 18 (naming a trailer)
    /// finds the trailer defect of DVIR 7107471 and records who resolved it; nothing doubles.
    func testDefectsHistoryAfterItsDVIR() throws {
        let dir = try Self.corpus()
        let t = try TestWarehouse()
        XCTAssertEqual(try t.importFile(dir.appendingPathComponent("api_fleet_dvirs_history.json")).loaded, 3)
        let d = try t.importFile(dir.appendingPathComponent("api_fleet_defects_history.json"))
        XCTAssertEqual([d.loaded, d.updated, d.rejected], [0, 1, 0])
        XCTAssertEqual(try t.rows("SELECT source_key, resolved_by FROM dvir_defect WHERE resolved_by IS NOT NULL").map { "\($0[0] as String)|\($0[1] as String)" },
                       ["samsara-defect:trailer:18|Christopher 'The Handyman' Zhen"])
        XCTAssertEqual(try t.count("dvir_defect"), 2)
    }
}
