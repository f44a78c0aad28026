import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The regression corpus for OBD: every real public file in `../shared/realdata/obd` (origins and
/// licences in its README) imported as a user would, each with the outcome stated here.
///
/// The expected figures are not what FleetKit produced: they come from reading the raw columns
/// with Python's csv and zoneinfo modules (the one-liners are in each test's comment), with the
/// PID names mapped by hand to SAE J1979 (Engine RPM → 0C, Vehicle speed → 0D, …) and the units
/// converted (mph × 1.609344, (℉ − 32) × 5/9). The recordings are from California, so the fleet
/// zone is America/Los_Angeles.
final class RealDataOBDTests: XCTestCase {
    /// `../shared/realdata/obd` beside the package root. CI checks `../shared` out beside the
    /// clone; a missing corpus fails the test (a silently skipped corpus tests nothing).
    static func corpus(_ name: String, file: StaticString = #filePath) throws -> URL {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/realdata/obd").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("The real-data corpus file \(url.path) is missing: check out the shared folder (with realdata/obd) beside the package root, as CI does.")
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    /// Every file of `../shared/realdata/obd` and the test that states its outcome.
    static let covered: [String: String] = [
        "carscanner__sauprankul_2025-11-20_16-05-09.csv": "testCarScannerWithTheDateInItsName",
        "carscanner__sauprankul_Car_scanner_nov_4.csv": "testCarScannerWithoutAYearInItsName",
        "torque__sauprankul_trackLog-2025-Nov-02_00-59-35.csv": "testTorqueAcrossTheDSTNightTakesTheZoneGPSTimeNames",
        "saferdriving__obd_data.csv": "testSaferDrivingResearchSetPlacedByItsEpochMilliseconds",
    ]

    /// A file added to the corpus without an expected outcome fails here, naming it.
    func testEveryCorpusFileIsCovered() throws {
        let dir = try Self.corpus("saferdriving__obd_data.csv").deletingLastPathComponent()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") && $0 != "README.md" })
        XCTAssertEqual(files, Set(Self.covered.keys), "every corpus file needs an expected outcome")
    }

    var options: ImportOptions {
        var o = ImportOptions(asset: "T-12")
        o.zone = FleetZone(identifier: "America/Los_Angeles")!
        return o
    }

    func sample(_ t: TestWarehouse, at: Int64, pid: Int) throws -> Double? {
        try t.rows("SELECT value FROM obd_sample WHERE at = ? AND pid = ?", [at, pid]).first.map { $0[0] as Double }
    }

    func span(_ t: TestWarehouse, _ table: String) throws -> [Int64] {
        let r = try t.rows("SELECT MIN(at), MAX(at) FROM \(table)")[0]
        return [r[0], r[1]]
    }

    /// Car Scanner, 57 730 readings, `"2025-11-20 16-05-09.csv"` renamed with a source prefix.
    /// SECONDS counts from local midnight: first 57975.062117 = 16:06:15 PST = 2025-11-21T00:06:15.062Z.
    /// Expected, by `python3`: csv.reader(delimiter=';'), rows whose PID is one of Barometric
    /// pressure (33), Calculated engine load value (04), Engine RPM (0C), Intake air temperature
    /// (0F), Intake manifold absolute pressure (0B), MAF air flow rate (10), Timing advance (0E),
    /// Vehicle speed (0D), Short/Long term fuel % trim - Bank 1 (06/07), Commanded evaporative
    /// purge (2E), Absolute Evap system Vapor pressure (53), Relative accelerator pedal position
    /// (5A); at = datetime(2025,11,20,tzinfo=ZoneInfo('America/Los_Angeles')).timestamp()*1000 +
    /// round(SECONDS*1000); distinct (at, pid): 17 359, first 1763683575062 (load), last
    /// 1763684815052 (purge).
    func testCarScannerWithTheDateInItsName() throws {
        let t = try TestWarehouse()
        let url = try Self.corpus("carscanner__sauprankul_2025-11-20_16-05-09.csv")
        let o = try t.importFile(url, options: options)
        XCTAssertEqual(o.format, "car-scanner")
        XCTAssertEqual(o.status, .imported)
        XCTAssertEqual(o.rejected, 0)
        XCTAssertEqual(try t.count("obd_sample"), 17_359)
        XCTAssertEqual(try span(t, "obd_sample"), [1_763_683_575_062, 1_763_684_815_052])
        // Line 3: Short term fuel % trim - Bank 1 1.5625 %; line 20: Absolute Evap system Vapor pressure 101.285 kPa.
        XCTAssertEqual(try sample(t, at: 1_763_683_575_115, pid: 0x06), 1.5625)
        XCTAssertEqual(try sample(t, at: 1_763_683_575_766, pid: 0x53), 101.285)
        // Line 7: "57975.269117";"Engine RPM";"709";"rpm".
        XCTAssertEqual(try sample(t, at: 1_763_683_575_269, pid: 0x0C), 709)
        // Line 49567: "59073.296117";"Vehicle speed";"39.146385110952";"mph" = 63.0 km/h, the fastest.
        XCTAssertEqual(try sample(t, at: 1_763_684_673_296, pid: 0x0D) ?? 0, 63.0, accuracy: 1e-6)
        // Line 11: Intake air temperature 84.2 ℉ = 29 °C.
        XCTAssertEqual(try sample(t, at: 1_763_683_575_432, pid: 0x0F) ?? 0, 29.0, accuracy: 1e-6)
        XCTAssertTrue((o.notes ?? []).contains("SECONDS read as seconds since local midnight of 2025-11-20 (the date in the file name), in America/Los_Angeles"), "\(o.notes ?? [])")
        XCTAssertFalse((o.notes ?? []).contains { $0.contains("not J1979") }, "\(o.notes ?? [])")
        // Nothing doubled: the same bytes again change nothing.
        XCTAssertEqual(try t.importFile(url, options: options).status, .unchanged)
        XCTAssertEqual(try t.count("obd_sample"), 17_359)
    }

    /// Car Scanner, `Car_scanner_nov_4.csv`: a month and a day, no year. As published it fails
    /// with that reason and the rename; renamed as the message says (the year 2025 is the
    /// recording's: the same user's other logs and the repository are of November 2025), it
    /// imports. Expected, same one-liner with datetime(2025,11,4,…): 6 340 distinct (at, pid),
    /// first 1762316864344 = 2025-11-05T04:27:44.344Z (20:27:44 PST), last 1762317249329.
    func testCarScannerWithoutAYearInItsName() throws {
        let t = try TestWarehouse()
        let url = try Self.corpus("carscanner__sauprankul_Car_scanner_nov_4.csv")
        let o = try t.importFile(url, options: options)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("gives the day (Nov 4) but no year"), o.error!)
        XCTAssertTrue(o.error!.contains("'YYYY-11-04 20-27-44.csv'"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)

        let renamed = t.directory.appendingPathComponent("2025-11-04 20-27-44.csv")
        try FileManager.default.copyItem(at: url, to: renamed)
        let fixed = try t.importFile(renamed, options: options)
        XCTAssertEqual(fixed.status, .imported)
        XCTAssertEqual(fixed.rejected, 0)
        XCTAssertEqual(try t.count("obd_sample"), 6_340)
        XCTAssertEqual(try span(t, "obd_sample"), [1_762_316_864_344, 1_762_317_249_329])
        // Line 7: Engine RPM 718; line 11479: Vehicle speed 43.4959834566134 mph = 70.0 km/h.
        XCTAssertEqual(try sample(t, at: 1_762_316_864_648, pid: 0x0C), 718)
        XCTAssertEqual(try sample(t, at: 1_762_317_170_050, pid: 0x0D) ?? 0, 70.0, accuracy: 1e-6)
    }

    /// Torque, GPS and accelerometer only (no PID columns), on the US DST-end night. GPS Time
    /// names MST (UTC−7) and agrees with Device Time on all 1 796 rows, so 01:09:03.382 is the
    /// first pass of the repeated hour, 08:09:03.382Z, whatever `--tz` says. Expected, by python3:
    /// csv.reader; Device Time strptime('%d-%b-%Y %H:%M:%S.%f') + 7 h; rows with a non-zero
    /// position: 1 796, first 1762070943382 (37.32706578, −121.76873004), last 1762072738383;
    /// fastest GPS Speed 26.010000228881836 m/s at line 1121 (1762072062383).
    func testTorqueAcrossTheDSTNightTakesTheZoneGPSTimeNames() throws {
        for zone in ["America/Los_Angeles", "UTC"] {
            let t = try TestWarehouse()
            var o = options
            o.zone = FleetZone(identifier: zone)!
            let outcome = try t.importFile(try Self.corpus("torque__sauprankul_trackLog-2025-Nov-02_00-59-35.csv"), options: o)
            XCTAssertEqual(outcome.format, "torque")
            XCTAssertEqual(outcome.status, .imported)
            XCTAssertEqual(outcome.rejected, 0)
            XCTAssertEqual(try t.count("obd_sample"), 0)
            XCTAssertEqual(try t.count("position"), 1_796)
            XCTAssertEqual(try span(t, "position"), [1_762_070_943_382, 1_762_072_738_383], zone)
            XCTAssertEqual(try t.rows("SELECT lat, lon FROM position WHERE at = 1762070943382").map { "\($0[0] as Double),\($0[1] as Double)" }, ["37.32706578,-121.76873004"])
            XCTAssertEqual(try t.rows("SELECT speed_mps FROM position WHERE at = 1762072062383").first.map { $0[0] as Double } ?? 0, 26.010000228881836, accuracy: 1e-9)
            XCTAssertEqual(outcome.notes?.first, "Device Time of 1796 rows placed by the zone GPS Time names, MST (UTC−07:00), not the fleet zone \(zone)")
        }
    }
    /// The Safer Driving research set (Denmark, March–April 2024): 4 831 rows of 20 sessions, each
    /// keyed by a `driverID` that occurs in no other session; `timeStamp` is epoch milliseconds,
    /// so UTC whatever the fleet zone, across the 2024-03-31 change to CEST. `rpm` (0C) and
    /// `speed` (0D, km/h: the speed limits beside it are Danish, 50/70/80) are the OBD columns;
    /// `lat`/`long` the phone's fixes; `engineLoadLevel`, `airTemperature` (the weather, 6 °C),
    /// traffic and weather columns are not J1979 readings and are not stored.
    /// Expected, by python3: rows = list(csv.DictReader(open(f))); 4 831 rows, 4 831 distinct
    /// timeStamp, no empty cell, so obd_sample = 2 × 4 831 = 9 662 and 4 831 positions (none at
    /// 0,0); first 1711293780825 (rpm 1819, speed 64, 55.8928029, 12.3504943), last
    /// 1712227857014; fastest speed 126 at 1711294306747; first row after the DST change
    /// -NuU7ssa8mwznMHp3YGI at 1712066901203 (rpm 784); 20 distinct driverID, each one run, the
    /// first 1711293780825…1711294383201. FixJudge's rule (haversine − 15 m > 70 m/s × dt) finds
    /// 3 single jumps between runs of agreeing fixes (a phone fix held, then caught up: 330 m in
    /// 2.64 s) and no fix against two that agree, so no fix is dropped.
    func testSaferDrivingResearchSetPlacedByItsEpochMilliseconds() throws {
        for zone in ["Europe/Copenhagen", "UTC"] {
            let t = try TestWarehouse()
            var o = ImportOptions(asset: "T-12")
            o.zone = FleetZone(identifier: zone)!
            let url = try Self.corpus("saferdriving__obd_data.csv")
            let outcome = try t.importFile(url, options: o)
            XCTAssertEqual(outcome.format, "obd-csv", zone)
            XCTAssertEqual(outcome.status, .imported, "\(zone): \(outcome.error ?? "")")
            XCTAssertEqual(outcome.rejected, 0, zone)
            XCTAssertEqual(try t.count("obd_sample"), 9_662, zone)
            XCTAssertEqual(try t.count("obd_sample", where: "pid = 12"), 4_831, zone)
            XCTAssertEqual(try t.count("position"), 4_831, zone)
            XCTAssertEqual(try span(t, "obd_sample"), [1_711_293_780_825, 1_712_227_857_014], zone)
            XCTAssertEqual(try span(t, "position"), [1_711_293_780_825, 1_712_227_857_014], zone)
            XCTAssertEqual(try sample(t, at: 1_711_293_780_825, pid: 0x0C), 1819)
            XCTAssertEqual(try sample(t, at: 1_711_293_780_825, pid: 0x0D), 64)
            XCTAssertEqual(try sample(t, at: 1_711_294_306_747, pid: 0x0D), 126)
            XCTAssertEqual(try sample(t, at: 1_712_066_901_203, pid: 0x0C), 784, "\(zone): after the DST change")
            XCTAssertEqual(try t.rows("SELECT lat, lon FROM position WHERE at = 1711293780825").map { "\($0[0] as Double),\($0[1] as Double)" }, ["55.8928029,12.3504943"])
            XCTAssertEqual(try t.count("driver"), 20, zone)
            XCTAssertEqual(try t.count("assignment"), 20, zone)
            XCTAssertEqual(try t.rows("""
                SELECT a.start_at, a.end_at FROM assignment a JOIN driver_identifier i ON i.driver_id = a.driver_id
                WHERE i.id_value = '-Ntl2dnEAh_FlqQQ3HEo'
                """).map { [$0[0] as Int64, $0[1] as Int64] }, [[1_711_293_780_825, 1_711_294_383_201]])
            let notes = outcome.notes ?? []
            XCTAssertTrue(notes.contains("'timeStamp' read as epoch milliseconds (UTC) on 4831 rows"), "\(notes)")
            XCTAssertFalse(notes.contains { $0.hasPrefix(GPXPipeline.droppedKind) }, "\(notes)")
            XCTAssertTrue(notes.contains { $0.contains("engineLoadLevel") && $0.contains("airTemperature") }, "\(notes)")
            XCTAssertEqual(try t.importFile(url, options: o).status, .unchanged, zone)
        }
    }
}
