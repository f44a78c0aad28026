import XCTest
import FleetTestSupport

/// Drivers who drove with an expired licence or medical card (issue 30; docs/METRICS.md,
/// "Driver qualification"): the drivers file's `license_expiry` and `medical_expiry`, the DVIRs
/// each driver signed, in the DVIR compliance report and the evidence pack.
///
/// Expected, read off the files below by hand (a document is valid through its date):
/// - E1 Ann Lee, medical card valid through 10-06, signs DVIRs on T-01 on 10-05, 10-07, 10-08:
///   2 days driven with it expired (10-07, 10-08); her licence runs to 2027: no row;
/// - E2 Bo Diaz, licence valid through 10-04, signs on T-02 on 10-06: 1 day;
/// - E3 Cy Park, no medical card date, signs on T-02 on 10-03: not judged, named in data quality.
final class DriverDocumentsCommandTests: XCTestCase {
    static let drivers = """
        employee_id,name,license_number,license_state,license_expiry,medical_card_expiry,status
        E1,Ann Lee,D111,IL,2027-05-01,2026-10-06,active
        E2,Bo Diaz,D222,IL,2026-10-04,2027-03-01,active
        E3,Cy Park,D333,WI,2027-01-01,,active

        """
    static let dvirs = """
        dvir_id,unit_number,driver_id,driver_name,type,started_at,signed_at,safety_status
        1,T-01,E1,Ann Lee,post_trip,2026-10-05T17:50:00Z,2026-10-05T18:00:00Z,safe
        2,T-01,E1,Ann Lee,post_trip,2026-10-07T17:50:00Z,2026-10-07T18:00:00Z,safe
        3,T-01,E1,Ann Lee,post_trip,2026-10-08T17:50:00Z,2026-10-08T18:00:00Z,safe
        4,T-02,E2,Bo Diaz,post_trip,2026-10-06T17:50:00Z,2026-10-06T18:00:00Z,safe
        5,T-02,E3,Cy Park,post_trip,2026-10-03T17:50:00Z,2026-10-03T18:00:00Z,safe

        """

    func testDriversWhoDroveWithAnExpiredDocumentAreListed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-driverdocs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC", "--carrier-name", "Prairie Haulers LLC", "--usdot", "1234567"]).status, 0)
        try "unit_number,kind,vin\nT-01,truck,1FTFW1E50PFA00001\nT-02,truck,1FTFW1E50PFA00002\n".write(to: dir.appendingPathComponent("assets.csv"), atomically: true, encoding: .utf8)
        try Self.drivers.write(to: dir.appendingPathComponent("drivers.csv"), atomically: true, encoding: .utf8)
        try Self.dvirs.write(to: dir.appendingPathComponent("dvir.csv"), atomically: true, encoding: .utf8)
        let i = try Fleetkit.run(["import", "--db", db] + ["assets.csv", "drivers.csv", "dvir.csv"].map { dir.appendingPathComponent($0).path })
        XCTAssertEqual(i.status, 0, i.stdout + i.stderr)

        let out = dir.appendingPathComponent("r")
        let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-driver_documents.csv"), encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertEqual(rows.first, "employee_id,driver,document,regulation,valid_through,unit,days_driven_expired,first_day,last_day,evidence")
        XCTAssertEqual(Array(rows.dropFirst()), [
            "E1,Ann Lee,medical card,\"49 CFR 391.41, 391.45, 391.51(b)(7)\",2026-10-06,T-01,2,2026-10-07,2026-10-08,\"2026-10-07 DVIR 2; 2026-10-08 DVIR 3\"",
            "E2,Bo Diaz,licence,\"49 CFR 391.11(b)(5), 391.51(b)\",2026-10-04,T-02,1,2026-10-06,2026-10-06,2026-10-06 DVIR 4",
        ])
        let quality = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-data_quality.csv"), encoding: .utf8)
        XCTAssertTrue(quality.contains("E3 Cy Park (medical card)"), quality)

        // The one-vehicle evidence pack carries T-01's line and not T-02's.
        let pack = try Fleetkit.run(["report", "evidence", "--db", db, "--assets", "T-01", "--month", "2026-10", "--out", out.path])
        XCTAssertEqual(pack.status, 0, pack.stderr)
        let text = try Tool.run("/usr/bin/pdftotext", [out.appendingPathComponent("evidence-T-01-2026-10.pdf").path, "-"]).stdout
        XCTAssertTrue(text.contains("Drivers with an expired licence or medical card"), text)
        XCTAssertTrue(text.contains("Ann Lee"), text)
        XCTAssertFalse(text.contains("Bo Diaz"), text)
    }
}
