import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// Licence class against the vehicle's CDL class, and licences and medical cards expired or due
/// (issue 30; docs/METRICS.md, "Driver qualification"), in the DVIR compliance report and the
/// evidence pack.
///
/// Expected values from an independent reading of the files below (a Python script over the same
/// rows: class rank A < B < C, a licence covers its own class and those after it; days left are
/// the expiry minus 2026-10-31, the period's last day):
/// - licence class: E2 (class B) drove T-01 (needs A) on 10-06 and 10-09; E3 (class D, no CDL)
///   drove T-02 (needs B) on 10-10. E1 (A) on T-01 and T-02, E2 on T-02, E3 on T-03 (`none`) do
///   not fire; E4 (no class) on T-01 is not judged; T-04 (no class) is not judged.
/// - due: E1 licence 2026-10-30 expired (-1), E1 medical 10-31 due within 30 (0), E2 licence
///   11-30 within 30 (30), E2 medical 12-01 within 60 (31), E3 licence 2027-01-29 within 90 (90),
///   E4 neither on file; 3 valid beyond 90 days (E3 medical, E5 both); E6 is inactive and did
///   not drive: not listed.
final class DriverQualificationCommandTests: XCTestCase {
    static let assets = """
        unit_number,kind,vin,cdl_class
        T-01,truck,1FTFW1E50PFA00001,A
        T-02,truck,1FTFW1E50PFA00002,Class B
        T-03,truck,1FTFW1E50PFA00003,none
        T-04,truck,1FTFW1E50PFA00004,

        """
    static let drivers = """
        employee_id,name,license_number,license_class,license_expiry,medical_expiry,status
        E1,Ann Lee,D111,A,2026-10-30,2026-10-31,active
        E2,Bo Diaz,D222,B,2026-11-30,2026-12-01,active
        E3,Cy Park,D333,D,2027-01-29,2027-01-30,active
        E4,Di Roy,D444,,,,active
        E5,Ed Fox,D555,CDL-C,2028-01-01,2027-06-01,active
        E6,Fay Gum,D666,A,2026-09-01,2026-09-01,inactive

        """
    static let dvirs = """
        dvir_id,unit_number,driver_id,type,started_at,signed_at,safety_status
        1,T-01,E1,post_trip,2026-10-02T17:50:00Z,2026-10-02T18:00:00Z,safe
        2,T-01,E2,post_trip,2026-10-06T17:50:00Z,2026-10-06T18:00:00Z,safe
        3,T-01,E2,post_trip,2026-10-09T17:50:00Z,2026-10-09T18:00:00Z,safe
        4,T-02,E2,post_trip,2026-10-07T17:50:00Z,2026-10-07T18:00:00Z,safe
        5,T-02,E1,post_trip,2026-10-08T17:50:00Z,2026-10-08T18:00:00Z,safe
        6,T-03,E3,post_trip,2026-10-03T17:50:00Z,2026-10-03T18:00:00Z,safe
        7,T-02,E3,post_trip,2026-10-10T17:50:00Z,2026-10-10T18:00:00Z,safe
        8,T-01,E4,post_trip,2026-10-04T17:50:00Z,2026-10-04T18:00:00Z,safe
        9,T-04,E5,post_trip,2026-10-05T17:50:00Z,2026-10-05T18:00:00Z,safe

        """

    func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
    }

    func testLicenceClassAndDocumentsDue() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-qualification-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC", "--carrier-name", "Prairie Haulers LLC", "--usdot", "1234567"]).status, 0)
        for (name, text) in [("assets.csv", Self.assets), ("drivers.csv", Self.drivers), ("dvir.csv", Self.dvirs)] {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let i = try Fleetkit.run(["import", "--db", db] + ["assets.csv", "drivers.csv", "dvir.csv"].map { dir.appendingPathComponent($0).path })
        XCTAssertEqual(i.status, 0, i.stdout + i.stderr)

        let out = dir.appendingPathComponent("r")
        let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try lines(out.appendingPathComponent("dvir-compliance-2026-10-licence_class.csv")), [
            "employee_id,driver,license_class,unit,vehicle_class,regulation,days_driven,first_day,last_day,evidence",
            "E2,Bo Diaz,B,T-01,A,\"49 CFR 383.37(a), 383.91\",2,2026-10-06,2026-10-09,\"2026-10-06 DVIR 2; 2026-10-09 DVIR 3\"",
            "E3,Cy Park,D,T-02,B,\"49 CFR 383.37(a), 383.91\",1,2026-10-10,2026-10-10,2026-10-10 DVIR 7",
        ])
        XCTAssertEqual(try lines(out.appendingPathComponent("dvir-compliance-2026-10-documents_due.csv")), [
            "employee_id,driver,document,regulation,valid_through,days_left,due",
            "E1,Ann Lee,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2026-10-30,-1,expired",
            "E1,Ann Lee,medical card,\"49 CFR 391.41, 391.45, 391.51(b)(7)\",2026-10-31,0,due within 30 days",
            "E2,Bo Diaz,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2026-11-30,30,due within 30 days",
            "E2,Bo Diaz,medical card,\"49 CFR 391.41, 391.45, 391.51(b)(7)\",2026-12-01,31,due within 60 days",
            "E3,Cy Park,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2027-01-29,90,due within 90 days",
            "E4,Di Roy,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",,,not on file",
            "E4,Di Roy,medical card,\"49 CFR 391.41, 391.45, 391.51(b)(7)\",,,not on file",
        ])
        // JSON: the same rows, "not on file" with no date and no days left (null), never a 0.
        let j = dir.appendingPathComponent("j")
        XCTAssertEqual(try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "json", "--allow-partial", "--out", j.path]).status, 0)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: j.appendingPathComponent("dvir-compliance-2026-10.json"))) as? [String: Any])
        let tables = try XCTUnwrap(json["tables"] as? [[String: Any]])
        let dueRows = try XCTUnwrap(tables.first { $0["name"] as? String == "documents_due" }?["rows"] as? [[Any]])
        XCTAssertEqual(dueRows.count, 7)
        let last = try XCTUnwrap(dueRows.last)
        XCTAssertEqual(last.count, 7)
        XCTAssertTrue(last[4] is NSNull && last[5] is NSNull, "\(last)")
        XCTAssertEqual(last[6] as? String, "not on file")
        XCTAssertEqual(dueRows.first?[5] as? Int, -1)

        let quality = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-data_quality.csv"), encoding: .utf8)
        XCTAssertTrue(quality.contains("no licence class on file (not judged; add license_class to the drivers file)\",1,E4 Di Roy"), quality)
        XCTAssertTrue(quality.contains("no CDL class on file (licence class not judged; add cdl_class to the assets file)\",1,T-04"), quality)

        // The stored classes: "Class B" and "CDL-C" are read as B and C; "D" stays as written.
        let (stored, classes) = try DatabaseQueue(path: db).read { db in
            (try String.fetchOne(db, sql: "SELECT group_concat(unit_number || '=' || COALESCE(cdl_class, '-'), ' ') FROM (SELECT * FROM asset ORDER BY unit_number)"),
             try String.fetchOne(db, sql: "SELECT group_concat(employee_id || '=' || COALESCE(license_class, '-'), ' ') FROM (SELECT * FROM driver ORDER BY employee_id)"))
        }
        XCTAssertEqual(stored, "T-01=A T-02=B T-03=none T-04=-")
        XCTAssertEqual(classes, "E1=A E2=B E3=D E4=- E5=C E6=A")

        // One vehicle: only its drivers' documents; T-03 needs no CDL, so no class row.
        let one = dir.appendingPathComponent("one")
        let t3 = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--assets", "T-03", "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", one.path])
        XCTAssertEqual(t3.status, 0, t3.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: one.path)
        let due = try XCTUnwrap(files.first { $0.hasSuffix("-documents_due.csv") }, "\(files)")
        XCTAssertEqual(try lines(one.appendingPathComponent(due)), [
            "employee_id,driver,document,regulation,valid_through,days_left,due",
            "E3,Cy Park,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2027-01-29,90,due within 90 days",
        ])
        let cls = try XCTUnwrap(files.first { $0.hasSuffix("-licence_class.csv") }, "\(files)")
        XCTAssertEqual(try lines(one.appendingPathComponent(cls)).count, 1)

        // The evidence pack of T-01 has both sections: Bo Diaz's class row, and the drivers of T-01's documents.
        let pack = try Fleetkit.run(["report", "evidence", "--db", db, "--assets", "T-01", "--month", "2026-10", "--out", out.path])
        XCTAssertEqual(pack.status, 0, pack.stderr)
        let text = try Tool.run("/usr/bin/pdftotext", ["-layout", out.appendingPathComponent("evidence-T-01-2026-10.pdf").path, "-"]).stdout
        XCTAssertTrue(text.contains("Drivers whose licence class does not cover the vehicle"), text)
        XCTAssertTrue(text.contains("Licences and medical cards expired or due within 90 days"), text)
        XCTAssertTrue(text.contains("due within 60 days"), text)
        XCTAssertTrue(text.contains("not on file"), text)
        XCTAssertFalse(text.contains("Cy Park"), text)
    }

    /// A report reads the warehouse read-only and never migrates it: one last written before
    /// v14-driver-licence (no `cdl_class`, `license_class` or `hos_log`) still gets its report,
    /// with every class not on file, not an SQL error.
    func testAWarehouseBeforeTheLicenceMigrationIsReportedOn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-qualification-old-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let old = try DatabaseQueue(path: db)
        try old.writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = \(Warehouse.applicationID)") }
        try WarehouseMigrator.migrator.migrate(old, upTo: "v13-twin-keys")
        try old.write { db in
            try db.execute(sql: "INSERT INTO asset (unit_number, kind) VALUES ('T-01', 'vehicle')")
            try db.execute(sql: "INSERT INTO driver (employee_id, name, license_expiry, medical_expiry, status) VALUES ('E1', 'Ann Lee', '2026-11-15', '2027-06-01', 'active')")
        }
        try old.close()
        let out = dir.appendingPathComponent("r")
        let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(try lines(out.appendingPathComponent("dvir-compliance-2026-10-documents_due.csv")), [
            "employee_id,driver,document,regulation,valid_through,days_left,due",
            "E1,Ann Lee,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2026-11-15,15,due within 30 days",
        ])
        XCTAssertEqual(try lines(out.appendingPathComponent("dvir-compliance-2026-10-licence_class.csv")).count, 1)
        let applied = try DatabaseQueue(path: db).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'v14-%'") }
        XCTAssertEqual(applied, [], "a report does not migrate")
    }
}
