import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The Motive importer on tiny named fixtures (Fixtures/motive), written from Motive's published
/// response shapes: `/v1/vehicles`, `/v1/vehicle_locations` (`vehicles[].vehicle
/// .current_location`) and `/v3/vehicle_locations/{id}` (`vehicle_locations[].vehicle_location`
/// with its `vehicle`). Units from Motive's "System of Units" page: miles and mph when the
/// vehicle's `metric_units` is false, km and km/h when true; engine hours in hours. Expected
/// figures are worked out by hand:
/// `python3 -c "print(50*0.44704, 120000*1609.344, 4500.25*3600, 72/3.6, 90/3.6, 250010*1000, 1001*3600)"`
/// → 22.352 193121280.0 16200900.0 20.0 25.0 250010000 3603600.
final class MotiveImporterTests: XCTestCase {
    func strings(_ t: TestWarehouse, _ sql: String) throws -> [String] {
        try t.rows(sql).map { $0.databaseValues.map { v -> String in
            if case let .string(s) = v.storage { return s }
            return v.description
        }.joined(separator: "|") }
    }

    /// `/v1/vehicles`: identity only (Motive id as key, VIN, unit number as the name); a later
    /// locations save of the same vehicle lands on the same asset.
    func testVehiclesThenCurrentLocationsShareTheAsset() throws {
        let t = try TestWarehouse()
        let v = try t.importFile(fixture("motive/vehicles.json"))
        XCTAssertEqual(v.format, "motive")
        XCTAssertEqual(v.status, .imported, v.error ?? "")
        XCTAssertEqual([v.loaded, v.rejected], [0, 0])
        XCTAssertEqual(try strings(t, "SELECT i.id_value, COALESCE(a.vin, '-'), a.name FROM asset a JOIN asset_identifier i ON i.asset_id = a.id AND i.id_type = 'vehicle_id' AND i.source = 'motive' ORDER BY 1"),
                       ["4101|1M8GDM9AXKP042788|T-41", "4102|-|T-42"])
        let o = try t.importFile(fixture("motive/vehicle-locations-current.json"))
        XCTAssertEqual(o.format, "motive")
        // Vehicle 4101 (metric_units false): position, odometer and engine hours. Vehicle 23
        // states no unit system: its position is stored without speed.
        XCTAssertEqual([o.loaded, o.rejected], [4, 0], o.error ?? "\(o.notes ?? [])")
        XCTAssertEqual(try t.count("asset"), 3)
        XCTAssertEqual(try strings(t, "SELECT i.id_value, p.at, p.lat, p.lon, COALESCE(p.speed_mps, '-'), p.heading_deg FROM position p JOIN asset_identifier i ON i.asset_id = p.asset_id AND i.source = 'motive' ORDER BY 1"),
                       ["23|1790856727000|47.565647|-122.276261|-|90.0", "4101|1790863200000|32.7767|-96.797|22.352|90.0"])
        XCTAssertEqual(try strings(t, "SELECT meter, value, raw_value, raw_unit FROM meter_reading ORDER BY meter"),
                       ["engine_hours|16200900.0|4500.25|h", "odometer|193121280.0|120000.0|mi"])
        XCTAssertTrue((o.notes ?? []).contains { $0.contains("does not state its unit system") && $0.hasSuffix(": 1") }, "\(o.notes ?? [])")
        XCTAssertEqual(try t.importFile(fixture("motive/vehicle-locations-current.json")).status, .unchanged, "re-import is a no-op")
        XCTAssertEqual(try t.count("position"), 2)
    }

    /// A v3 history with `metric_units: true`: km/h and km, `true_odometer` and
    /// `true_engine_hours` preferred to the raw readings; `fuel` counted, not stored.
    func testV3HistoryMetricUnitsAndTrueReadings() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("motive/locations-v3.json"))
        XCTAssertEqual(o.format, "motive")
        XCTAssertEqual([o.loaded, o.rejected], [6, 0], o.error ?? "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT at, speed_mps, heading_deg FROM position ORDER BY at"),
                       ["1790834400000|20.0|180.0", "1790838000000|25.0|45.0"])
        XCTAssertEqual(try strings(t, "SELECT meter, at, value, raw_unit FROM meter_reading ORDER BY meter, at"),
                       ["engine_hours|1790834400000|3600000.0|h", "engine_hours|1790838000000|3603600.0|h",
                        "odometer|1790834400000|250010000.0|km", "odometer|1790838000000|250090000.0|km"])
        XCTAssertEqual(try strings(t, "SELECT a.vin, a.name FROM asset a"), ["4V4NC9EH0NN123456|Q-1"])
        XCTAssertTrue((o.notes ?? []).contains { $0.hasPrefix("location fuel values not stored") && $0.hasSuffix(": 1") }, "\(o.notes ?? [])")
    }

    /// Each bad record is one reject with its reason and path; the good record beside it loads.
    func testBadRecordsAreRejectedWithTheirReason() throws {
        let cases = [("bad-latitude.json", "out_of_range", "vehicle_locations[1].vehicle_location.lat", "95.2"),
                     ("odometer-down.json", "meter_rollback", "vehicle_locations[1].vehicle_location.true_odometer", "went down"),
                     ("engine-hours-too-fast.json", "meter_too_fast", "vehicle_locations[1].vehicle_location.true_engine_hours", "faster than the clock")]
        for (file, reason, location, says) in cases {
            let t = try TestWarehouse()
            let o = try t.importFile(fixture("motive/\(file)"))
            XCTAssertEqual(o.format, "motive", file)
            XCTAssertEqual([o.loaded, o.rejected], [3, 1], "\(file): \(o.error ?? "")")
            XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["\(reason)|\(location)"], file)
            let messages = try strings(t, "SELECT message FROM reject")
            XCTAssertTrue(messages.first?.contains(says) == true, "\(file): \(messages)")
            XCTAssertTrue(try strings(t, "SELECT raw FROM reject").first?.contains("vehicle_location") == true, file)
            XCTAssertEqual(try t.count("position"), 1, file)
        }
    }

    /// A v1 single-vehicle history names no vehicle, responses not read yet, and an object with a
    /// member written twice (which value is right is unknown) are refused whole, saying what to
    /// do; nothing is stored.
    func testResponsesThatCannotBeReadAreRefusedSayingWhy() throws {
        for (file, says) in [("location-histories-v1.json", "do not name their vehicle"), ("inspection-reports.json", "'inspection_reports' is a Motive response FleetKit does not read yet"),
                           ("duplicate-member.json", #"the member "lat" twice"#)] {
            let t = try TestWarehouse()
            let o = try t.importFile(fixture("motive/\(file)"))
            XCTAssertEqual(o.format, "motive", file)
            XCTAssertEqual(o.status, .failed, file)
            XCTAssertTrue(o.error?.contains(says) == true, "\(file): \(o.error ?? "")")
            XCTAssertEqual(try t.count("position"), 0)
            XCTAssertEqual(try t.count("asset"), 0)
        }
    }

    /// Detected from content under a neutral name, and never offered the JSON files of the other
    /// vendors (Samsara, MyGeotab, Deere, ISO 15143-3).
    /// The assets CSV's `motive_id` claims vehicle 4101 in either import order: its position,
    /// odometer and engine hours land on T-41; vehicle 23, not in master data, is an asset of its own.
    func testMasterDataClaimsAVehicleByItsMotiveID() throws {
        let files = ["motive/assets-motive.csv", "motive/vehicle-locations-current.json"]
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order { XCTAssertEqual(try t.importFile(fixture(f)).status, .imported, f) }
            XCTAssertEqual(try t.count("asset"), 2, "\(order)")
            XCTAssertEqual(try strings(t, "SELECT a.unit_number, COUNT(*) FROM position p JOIN asset a ON a.id = p.asset_id JOIN asset_identifier i ON i.asset_id = a.id AND i.source = 'motive' AND i.id_value = '4101' GROUP BY a.id"),
                           ["T-41|1"], "\(order)")
            XCTAssertEqual(try strings(t, "SELECT DISTINCT a.unit_number FROM meter_reading m JOIN asset a ON a.id = m.asset_id"), ["T-41"], "\(order)")
        }
    }

    func testDetectionTakesMotiveAndOnlyMotive() throws {
        for file in ["vehicles.json", "vehicle-locations-current.json", "locations-v3.json"] {
            let head = try FileWalker.head(of: fixture("motive/\(file)"))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "response.json")?.format, "motive", file)
        }
        let folder = fixture("motive/vehicles.json").deletingLastPathComponent().deletingLastPathComponent()
        for vendor in ["samsara", "geotab", "deere", "iso15143"] {
            let files = try FileManager.default.contentsOfDirectory(at: folder.appendingPathComponent(vendor), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
            XCTAssertFalse(files.isEmpty, vendor)
            for url in files {
                XCTAssertLessThan(MotiveImporter.sniff(try FileWalker.head(of: url), filename: url.lastPathComponent), Confidence(50), url.lastPathComponent)
            }
        }
    }
}
