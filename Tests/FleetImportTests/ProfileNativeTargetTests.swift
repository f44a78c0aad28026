import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Profiles for targets a native format reads (maintenance records, assets, drivers, DVIRs),
/// the constants and skip keys, and the asset named by its licence plate. Each record read
/// through a profile is compared with the same record read through the native format: one row.
/// Expected values by hand or from Python: 1 mi = 1609.344 m, 1 h = 3600 s; Chicago CDT is
/// UTC−5 (`datetime(2026,10,3,tzinfo=ZoneInfo("America/Chicago")).timestamp()` = 1791003600).
final class ProfileNativeTargetTests: XCTestCase {
    var t: TestWarehouse!
    override func setUpWithError() throws { t = try TestWarehouse() }

    func options(_ names: [String], profile: String? = nil) throws -> ImportOptions {
        let dir = t.directory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for n in names { try FileManager.default.copyItem(at: fixture("profiles/\(n).yml"), to: dir.appendingPathComponent("\(n).yml")) }
        var o = ImportOptions()
        o.profileFolders = [dir.path]
        o.profile = profile
        o.zone = FleetZone(identifier: "America/Chicago")!
        return o
    }

    func testAShopExportBelowItsTitleLinesWithATotalsRowAndConstants() throws {
        let o = try t.importFile(fixture("profiles/shop-maintenance.csv"), options: options(["shop-maintenance"]))
        XCTAssertEqual(o.format, "profile:shop-maintenance@1", "matched by the header below the two title lines: \(o.error ?? "")")
        XCTAssertEqual([o.loaded, o.rejected], [2, 2], "\(o)")
        let rows = try t.rows("SELECT source_key, service_type, performed_at, odometer_m, engine_s, cost_minor, currency, vendor, work_order, (SELECT unit_number FROM asset WHERE id = asset_id) AS unit FROM maintenance_record ORDER BY work_order")
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["source_key"] as String?, "wo:WO-1|oil_change", "the maintenance format's key")
        XCTAssertEqual(rows[0]["performed_at"] as Int64?, 1_791_003_600_000, "10/03/2026, local midnight in Chicago")
        XCTAssertEqual(rows[0]["odometer_m"] as Double? ?? 0, 12_345.6 * 1609.344, accuracy: 1e-6)
        XCTAssertEqual(rows[0]["engine_s"] as Double?, 321.5 * 3600)
        XCTAssertEqual(rows[0]["cost_minor"] as Int64?, 8995)
        XCTAssertEqual(rows[0]["currency"] as String?, "USD", "the constant")
        XCTAssertEqual(rows[0]["vendor"] as String?, "Main Street Garage", "the constant")
        XCTAssertEqual(rows[0]["unit"] as String?, "T-01")
        XCTAssertEqual(rows[1]["cost_minor"] as Int64?, 120_410, "'1,204.10' with ',' grouping")
        XCTAssertEqual(rows[1]["odometer_m"] as Double? ?? 0, 20_001 * 1609.344, accuracy: 1e-6)
        let rejects = try t.rows("SELECT reason, location, raw, message FROM reject ORDER BY location")
        XCTAssertEqual(rejects.map { $0["location"] as String? ?? "" }.map { String($0.suffix(6)) }, ["line 6", "line 7"])
        XCTAssertTrue((rejects[0]["message"] as String? ?? "").contains("only completed services"), "the native format's rule: \(rejects[0])")
        XCTAssertEqual(rejects[1]["reason"] as String?, "bad_date")
        XCTAssertEqual(rejects[1]["raw"] as String?, "WO-4,T-03,Wipers,10/32/2026,9000,,25.00,Completed")
        XCTAssertTrue((rejects[1]["message"] as String? ?? "").contains("'Date Completed' is '10/32/2026'"), rejects[1]["message"] as String? ?? "")
        XCTAssertTrue((o.notes ?? []).contains { $0.contains("skipped by the profile") && $0.contains("2") }, "the totals and printed rows are counted: \(o.notes ?? [])")
        XCTAssertEqual(try t.count("maintenance_record", where: "service_type = 'tire_rotation'"), 0)

        let again = try t.importFile(fixture("profiles/shop-maintenance.csv"), options: options(["shop-maintenance"]))
        XCTAssertEqual(again.status, .unchanged)
    }

    func testAMaintenanceRecordReadNativelyAndThroughAProfileIsOneRow() throws {
        let native = try t.write("work_order,unit_number,service_type,performed_at,odometer_mi,engine_hours,cost,currency,vendor,status\nWO-1,T-01,Oil Change,2026-10-03,12345.6,321.5,89.95,USD,Main Street Garage,completed\n", to: "maintenance.csv")
        let o = try options(["shop-maintenance"])
        XCTAssertEqual(try t.importFile(native, options: o).loaded, 1)
        let columns = "source_key, asset_id, service_type, performed_at, odometer_m, engine_s, cost_minor, currency, vendor, work_order, notes"
        let before = try t.rows("SELECT \(columns) FROM maintenance_record")
        let p = try t.importFile(fixture("profiles/shop-maintenance.csv"), options: o)
        XCTAssertEqual(p.loaded + p.updated + p.unchanged, 2, "\(p)")
        XCTAssertEqual(try t.count("maintenance_record"), 2, "WO-1 is one row, WO-2 is new")
        XCTAssertEqual(try t.rows("SELECT \(columns) FROM maintenance_record WHERE work_order = 'WO-1'"), before, "the same values either way")
    }

    func testAnAssetRegisterWithDecimalCommaAndItsNativeTwin() throws {
        let o = try t.importFile(fixture("profiles/fleet-register.csv"), options: options(["fleet-register"]))
        XCTAssertEqual([o.loaded, o.rejected], [2, 1], "\(o)")
        let a = try t.rows("SELECT unit_number, vin, make, model, year, license_plate, cost_center, in_service_date, acquisition_cost_minor, currency, tank_capacity_ml, auto_created FROM asset ORDER BY unit_number")
        XCTAssertEqual(a.count, 2)
        XCTAssertEqual(a[0]["year"] as Int64?, 2023)
        XCTAssertEqual(a[0]["license_plate"] as String?, "B-AB 1234")
        XCTAssertEqual(a[0]["in_service_date"] as String?, "2023-01-01", "01.01.2023")
        XCTAssertEqual(a[0]["acquisition_cost_minor"] as Int64?, 4_850_000, "48.500,00")
        XCTAssertEqual(a[0]["tank_capacity_ml"] as Double?, 98_400, "98,4 L")
        XCTAssertEqual(a[1]["in_service_date"] as String?, "2022-06-04")
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier WHERE source = 'registration' AND id_type = 'license_plate' ORDER BY id_value").map { $0["id_value"] as String? }, ["BAB1234", "BCD567"])
        XCTAssertEqual(try t.rows("SELECT reason, message FROM reject").first?["reason"] as String?, "bad_date", "31.02.2021 is no date")

        let other = try TestWarehouse()
        let native = try other.write("unit_number,vin,make,model,year,license_plate,cost_center,in_service_date,acquisition_cost,currency,tank_capacity_l\nT-01,1FTFW1E53PP100000,Ford,F-150,2023,B-AB 1234,CC-100,2023-01-01,48500.00,USD,98.4\n", to: "assets.csv")
        XCTAssertEqual(try other.importFile(native).loaded, 1)
        try other.importFile(fixture("profiles/fleet-register.csv"), options: options(["fleet-register"]))
        XCTAssertEqual(try other.count("asset"), 2, "T-01 from both files is one asset")
        let sql = "SELECT unit_number, vin, make, model, year, license_plate, cost_center, in_service_date, acquisition_cost_minor, currency, tank_capacity_ml FROM asset WHERE unit_number = 'T-01'"
        XCTAssertEqual(try other.rows(sql), try t.rows(sql))
    }

    func testADriverListAndItsNativeTwin() throws {
        let o = try t.importFile(fixture("profiles/hr-drivers.csv"), options: options(["hr-drivers"]))
        XCTAssertEqual([o.loaded, o.rejected], [2, 1], "\(o)")
        let sql = "SELECT employee_id, name, license_number, license_state, license_class, license_expiry, medical_expiry, status FROM driver ORDER BY employee_id"
        let d = try t.rows(sql)
        XCTAssertEqual(d[0]["name"] as String?, "Ana Alvarez", "first and last name joined, as drivers.csv does")
        XCTAssertEqual(d[0]["license_class"] as String?, "A", "Class A")
        XCTAssertEqual(d[0]["license_expiry"] as String?, "2027-01-01")
        XCTAssertEqual(d[1]["status"] as String?, "on_leave")
        XCTAssertEqual(d[1]["medical_expiry"] as String?, "2026-10-20")
        XCTAssertTrue((try t.rows("SELECT message FROM reject").first?["message"] as String? ?? "").contains("'DL Expires' is '2028-02-02'"), "an ISO date is off the profile's pattern")

        let other = try TestWarehouse()
        let native = try other.write("employee_id,name,license_number,license_state,license_class,license_expiry,medical_expiry,status\nE-1001,Ana Alvarez,D655275413,MO,A,2027-01-01,2027-01-01,active\nE-1002,Ben Haddad,D162763858,IL,B,2028-02-02,2026-10-20,on leave\n", to: "drivers.csv")
        XCTAssertEqual(try other.importFile(native).loaded, 2)
        try other.importFile(fixture("profiles/hr-drivers.csv"), options: options(["hr-drivers"]))
        XCTAssertEqual(try other.rows(sql), d, "the same two drivers, the same values")
    }

    func testDVIRsWithDefectsAndTheirNativeTwin() throws {
        let o = try t.importFile(fixture("profiles/inspections.csv"), options: options(["inspections"]))
        XCTAssertEqual(o.rejected, 1, "\(o)")
        let v = try t.rows("SELECT source_key, type, signed_at, safety_status, odometer_m FROM dvir ORDER BY source_key")
        XCTAssertEqual(v.map { $0["source_key"] as String? }, ["dvir:R-1", "dvir:R-2"])
        XCTAssertEqual(v[0]["signed_at"] as Int64?, 1_790_856_180_000, "10/01/2026 7:03 AM CDT")
        XCTAssertEqual(v[0]["type"] as String?, "pre_trip")
        XCTAssertEqual(v[0]["safety_status"] as String?, "unsafe")
        XCTAssertEqual(v[0]["odometer_m"] as Double? ?? 0, 69_605 * 1609.344, accuracy: 1e-6)
        XCTAssertEqual(v[1]["signed_at"] as Int64?, 1_790_866_920_000)
        let d = try t.rows("SELECT source_key, component, resolved_at, certification FROM dvir_defect ORDER BY source_key")
        XCTAssertEqual(d.map { $0["source_key"] as String? }, ["defect:R-1:D-1", "defect:R-1:D-2"])
        XCTAssertEqual(d[0]["component"] as String?, "lighting")
        XCTAssertEqual(d[0]["resolved_at"] as Int64?, 1_790_881_680_000, "10/01/2026 2:08 PM CDT")
        XCTAssertEqual(d[0]["certification"] as String?, "repaired")
        XCTAssertEqual(d[1]["component"] as String?, "tires")

        let other = try TestWarehouse()
        let native = try other.write("""
        dvir_id,unit_number,driver_id,driver_name,type,signed_at,safety_status,odometer_mi,defect_id,component,defect_type,resolved_at,certification
        R-1,T-01,E-1001,Ana Alvarez,pre_trip,2026-10-01T07:03:00-05:00,unsafe,69605,D-1,Lights,Left marker lamp out,2026-10-01T14:08:00-05:00,repaired
        R-1,T-01,E-1001,Ana Alvarez,pre_trip,2026-10-01T07:03:00-05:00,unsafe,69605,D-2,Tires,Low tread,,

        """, to: "dvir.csv")
        XCTAssertEqual(try other.importFile(native).rejected, 0)
        try other.importFile(fixture("profiles/inspections.csv"), options: options(["inspections"]))
        XCTAssertEqual(try other.count("dvir"), 2)
        XCTAssertEqual(try other.count("dvir_defect"), 2, "D-1 and D-2 either way are the same two defects")
        let sql = "SELECT v.source_key, v.signed_at, v.safety_status, v.odometer_m, v.state_at, f.source_key AS defect, f.component, f.resolved_at, f.state_at AS defect_state FROM dvir v JOIN dvir_defect f ON f.dvir_id = v.id ORDER BY f.source_key"
        XCTAssertEqual(try other.rows(sql), try t.rows(sql))
    }

    func testAPurchaseNamingOnlyAPlateFindsTheAssetInEitherOrder() throws {
        let dir = t.directory.appendingPathComponent("plates")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "name: toll-card\ntarget: fuel_purchases\nconstants:\n  currency: EUR\ncolumns:\n  Zeit: datetime\n  Kennzeichen: license_plate\n  Betrag: total\n"
            .write(to: dir.appendingPathComponent("toll-card.yml"), atomically: true, encoding: .utf8)
        for n in ["fleet-register"] { try FileManager.default.copyItem(at: fixture("profiles/\(n).yml"), to: dir.appendingPathComponent("\(n).yml")) }
        var o = ImportOptions()
        o.profileFolders = [dir.path]
        let card = try t.write("Zeit,Kennzeichen,Betrag\n2026-10-05T10:00:00,b-ab 1234,50.00\n2026-10-06T10:00:00,XY 9,20.00\n", to: "card.csv")
        let register = fixture("profiles/fleet-register.csv")

        try t.importFiles([register.path, card.path], options: o)
        let other = try TestWarehouse()
        try other.importFiles([card.path], options: o)
        try other.importFiles([register.path], options: o)
        let sql = "SELECT f.total_minor, f.currency, a.unit_number, a.license_plate FROM fuel_purchase f LEFT JOIN asset a ON a.id = f.asset_id ORDER BY f.at"
        let rows = try t.rows(sql)
        XCTAssertEqual(rows.map { $0["unit_number"] as String? }, ["T-01", nil], "'b-ab 1234' is plate B-AB 1234; XY 9 is no known plate")
        XCTAssertEqual(rows.first?["currency"] as String?, "EUR", "the constant")
        XCTAssertEqual(try other.rows(sql), rows, "the card file first, then the register: the same")
        XCTAssertEqual(try other.count("asset"), try t.count("asset"))
    }

    func testThePreviewShowsTheNativeColumnsAndTheSkippedRows() throws {
        let p = try ProfileFile.load(fixture("profiles/shop-maintenance.yml").path)
        let rows = try ProfilePreview.rows(fixture("profiles/shop-maintenance.csv").path, profile: p, zone: .utc, currency: "USD")
        XCTAssertEqual(rows.map(\.location), ["line 4", "line 5", "line 6", "line 7", "line 8", "line 9"])
        XCTAssertTrue(rows[0].fields.contains { $0.name == "odometer_mi" && $0.value == "12345.6" }, "\(rows[0].fields)")
        XCTAssertTrue(rows[0].fields.contains { $0.name == "performed_at" && $0.value.hasPrefix("2026-10-03T05:00:00") }, "\(rows[0].fields)")
        XCTAssertTrue(rows[0].fields.contains { $0.name == "vendor" && $0.value == "Main Street Garage" }, "\(rows[0].fields)")
        XCTAssertTrue(rows[3].reject?.hasPrefix("bad_date: ") == true, rows[3].reject ?? "")
        XCTAssertEqual(rows[4].reject, "skipped: a row the profile's skip rows name")
    }
}
