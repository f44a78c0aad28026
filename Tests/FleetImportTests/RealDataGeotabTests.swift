import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The Geotab regression corpus: captured MyGeotab API responses in `../shared/realdata/geotab`
/// (fleetio/geotab @ efd8ef0 : spec/vcr/device/*.yml, MIT; origin in its README), each imported
/// alone into an empty warehouse, as a new user would.
///
/// The expected outcome of each file was decided by reading the file in Python against the
/// MyGeotab SDK reference (StatusData odometer in metres, total fuel in litres, fuel level in
/// percent; DeviceStatusInfo speed in km/h), not from what FleetKit produced:
/// `python3 -c "import json,collections as C; d=json.load(open(F))['result']; print(C.Counter(r['diagnostic']['id'] for r in d)); [print(k, sorted((r['dateTime'], r['data']) for r in d if r['diagnostic']['id']==k)) for k in ('DiagnosticOdometerId','DiagnosticDeviceTotalFuelId','DiagnosticFuelLevelId')]"`
/// StatusData_b4 holds 2,720 records of device b4 in no time order (1,193 are earlier than the
/// record before them), from 2015-08-18T11:51:45.723Z to 2015-08-19T15:51:15.007Z: 4 odometer
/// (13,746,000 → 13,747,000 m), 4 device total fuel (4,685.91 → 4,686.41 L), 22 fuel level
/// (89.0067 % at the first, 2015-08-18T12:27:21.413Z; 89.790900000000008 % at the last,
/// 2015-08-19T14:13:01.027Z), no engine hours, 4 of the database-specific
/// `aDD1bu5XaYUiSdhyYEni8OA`, the rest Geotab diagnostics with no warehouse table (engine speed
/// 753, three accelerations 564 each, …). FaultData_b4 holds 9 faults of Geotab's own GO-device
/// diagnostics (InvalidGpsMessagesReceived 4, DeviceRestartedBecauseOfFirmwareUpdate 3,
/// LowPriorityWarningLight 2): none is an engine code. DeviceStatusInfo_b4: one fix at
/// 2015-08-19T15:51:27Z, 34.0250359, -84.3605499, 42 km/h (11.6667 m/s), bearing 208.
final class RealDataGeotabTests: XCTestCase {
    struct Expected {
        var file: String
        var loaded: Int, rejected: Int
        var assets: Int
        /// An SQL query over the warehouse and the rows it must return ("|"-joined).
        var check: (sql: String, rows: [String])?
        /// Text each of some note must contain.
        var notes: [String]
    }

    static let expected: [Expected] = [
        // 4 + 4 + 22 meter readings; the first and last of each meter as read in Python.
        .init(file: "fleetio-geotab-vcr__StatusData_b4.json", loaded: 30, rejected: 0, assets: 1,
              check: ("""
                  SELECT m.meter, COUNT(*), MIN(m.at), MAX(m.at),
                         (SELECT value FROM meter_reading WHERE meter = m.meter ORDER BY at LIMIT 1),
                         (SELECT value FROM meter_reading WHERE meter = m.meter ORDER BY at DESC LIMIT 1)
                  FROM meter_reading m GROUP BY m.meter ORDER BY 1
                  """, ["fuel_level|22|1439900841413|1439993581027|89.0067|89.79090000000001",
                        "fuel_used|4|1439929834700|1439984710823|4685910.0|4686410.0",
                        "odometer|4|1439929834690|1439984710857|13746000.0|13747000.0"]),
              notes: ["2720 timed records from 2015-08-18T11:51:45.723Z to 2015-08-19T15:51:15.007Z", "1193 came earlier",
                      "aDD1bu5XaYUiSdhyYEni8OA 4", "DiagnosticEngineSpeedId 753", "DiagnosticDeviceTotalIdleFuelId 4"]),
        // Nine GO-device faults: no DTC, no asset, all counted.
        .init(file: "fleetio-geotab-vcr__FaultData_b4.json", loaded: 0, rejected: 0, assets: 0, check: nil,
              notes: ["FaultData of Geotab's own diagnostics, not stored as DTCs (GO-device or Geotab-derived faults, not engine codes): 9",
                      "DiagnosticInvalidGpsMessagesReceivedId 4", "DiagnosticDeviceRestartedBecauseOfFirmwareUpdateId 3", "DiagnosticLowPriorityWarningLightId 2"]),
        .init(file: "fleetio-geotab-vcr__DeviceStatusInfo_b4.json", loaded: 1, rejected: 0, assets: 1,
              check: ("SELECT i.id_value, p.at, p.lat, p.lon, ROUND(p.speed_mps, 4), p.heading_deg FROM position p JOIN asset_identifier i ON i.asset_id = p.asset_id",
                      ["b4|1439999487000|34.0250359|-84.3605499|11.6667|208.0"]),
              notes: []),
    ]

    /// `../shared/realdata/geotab` beside the package root; a missing corpus fails the test.
    static func corpus(file: StaticString = #filePath) throws -> URL {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/realdata/geotab")
        guard FileManager.default.fileExists(atPath: dir.path) else {
            XCTFail("The real-data corpus is missing: expected \(dir.path) (../shared/realdata/geotab beside the package root). Check it out there; this test does not skip.")
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: dir.path])
        }
        return dir
    }

    func testEveryCorpusFileIsCovered() throws {
        let dir = try Self.corpus()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") })
        XCTAssertEqual(files, Set(Self.expected.map(\.file)), "every corpus file needs an expected outcome")
    }

    func testEachFileAloneHasItsStatedOutcome() throws {
        let dir = try Self.corpus()
        for e in Self.expected {
            let t = try TestWarehouse()
            let url = dir.appendingPathComponent(e.file)
            XCTAssertEqual(ImporterRegistry.detect(try FileWalker.head(of: url), filename: "response.json")?.format, "geotab", "\(e.file): detected by content")
            let o = try t.importFile(url)
            XCTAssertEqual(o.status, .imported, "\(e.file): \(o.error ?? "")")
            XCTAssertEqual(o.format, "geotab", e.file)
            XCTAssertEqual([o.loaded, o.rejected], [e.loaded, e.rejected], "\(e.file): \(o.notes ?? [])")
            XCTAssertEqual(try t.count("asset"), e.assets, "\(e.file): assets")
            XCTAssertEqual(try t.count("dtc_event"), 0, "\(e.file): no Geotab GO-device diagnostic is an engine code")
            if let check = e.check {
                let rows = try t.rows(check.sql).map { $0.databaseValues.map { v -> String in
                    if case let .string(s) = v.storage { return s }
                    return v.description
                }.joined(separator: "|") }
                XCTAssertEqual(rows, check.rows, e.file)
            }
            for n in e.notes {
                XCTAssertTrue((o.notes ?? []).contains { $0.contains(n) }, "\(e.file): no note says '\(n)': \(o.notes ?? [])")
            }
            XCTAssertEqual(try t.importFile(url).status, .unchanged, "\(e.file): a re-import is a no-op")
        }
    }

    /// The three files together, in both orders, give one asset (device b4) and the same rows:
    /// the diagnostics' unordered times and the feed's order do not matter.
    func testTheCorpusInEitherOrderGivesTheSameWarehouse() throws {
        let dir = try Self.corpus()
        let files = Self.expected.map { dir.appendingPathComponent($0.file) }
        var dumps: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for url in order { XCTAssertEqual(try t.importFile(url).status, .imported) }
            XCTAssertEqual(try t.count("asset"), 1)
            XCTAssertEqual(try t.rows("SELECT source, id_type, id_value FROM asset_identifier").map { "\($0[0] as String)/\($0[1] as String)/\($0[2] as String)" },
                           ["geotab/device_id/b4"])
            dumps.append(try t.factDump(tables: ["asset", "asset_identifier", "meter_reading", "position", "dtc_event"]))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }
}
