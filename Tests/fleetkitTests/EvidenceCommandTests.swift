import XCTest
import FleetTestSupport

/// `fleetkit init --carrier-name/--usdot`, `report dvir-compliance --assets`, and `report
/// evidence` as a compliance officer runs them (docs/OPERATIONS.md, "An auditor's DVIR export").
final class EvidenceCommandTests: XCTestCase {
    static let assets = """
        unit_number,kind,vin,make,model,year
        T-01,truck,1FTFW1E50PFA00001,Ford,F-150,2023
        T-02,truck,1FTFW1E50PFA00002,Ford,F-150,2023

        """
    static let dvirs = """
        dvir_id,unit_number,driver_id,driver_name,type,started_at,signed_at,safety_status,mechanic_name,mechanic_signed_at,reviewed_at,reviewed_by,defect_id,component,defect_type,comment,safety_critical,defect_created_at,resolved_at,resolved_by,certification
        1,T-01,E1,Ann Lee,pre_trip,2026-10-05T06:50:00Z,2026-10-05T07:00:00Z,resolved,R. Okafor,2026-10-05T08:00:00Z,2026-10-05T07:30:00Z,Ann Lee,D1,horn,Inoperative,Horn does not sound,yes,2026-10-05T07:00:00Z,2026-10-05T08:00:00Z,R. Okafor,repaired
        2,T-02,E2,Bo Diaz,post_trip,2026-10-06T17:50:00Z,2026-10-06T18:00:00Z,safe,,,,,,,,,,,,,

        """

    func setUp(_ tag: String = #function) throws -> (dir: URL, db: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-evidence-\(tag.filter(\.isLetter))-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let i = try Fleetkit.run(["init", "--db", db, "--tz", "UTC", "--carrier-name", "Prairie Haulers LLC", "--usdot", "1234567",
                                  "--carrier-address", "1200 W Industrial Dr, Joliet IL", "--dvir-policy", "law"])
        XCTAssertEqual(i.status, 0, i.stderr)
        XCTAssertTrue(i.stdout.contains("DVIR policy law: 49 CFR 396.11(a)(1) as amended 2014"), i.stdout)
        XCTAssertTrue(i.stdout.contains("carrier: Prairie Haulers LLC, USDOT 1234567, 1200 W Industrial Dr, Joliet IL"), i.stdout)
        try Self.assets.write(to: dir.appendingPathComponent("assets.csv"), atomically: true, encoding: .utf8)
        try Self.dvirs.write(to: dir.appendingPathComponent("dvir.csv"), atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["import", "--db", db, dir.appendingPathComponent("assets.csv").path, dir.appendingPathComponent("dvir.csv").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (dir, db)
    }

    func testAOneVehicleReportNamesTheVehicleAndKeepsTheFleetsFiles() throws {
        let (dir, db) = try setUp()
        let out = dir.appendingPathComponent("audit")
        for assets in [[], ["--assets", "T-01"]] {
            let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "html,csv", "--allow-partial", "--out", out.path] + assets)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertTrue(files.contains("dvir-compliance-2026-10.html"), "\(files)")
        XCTAssertTrue(files.contains("dvir-compliance-T-01-2026-10.html"), "\(files)")
        let one = try String(contentsOf: out.appendingPathComponent("dvir-compliance-T-01-2026-10.html"), encoding: .utf8)
        XCTAssertTrue(one.contains("<h1>DVIR compliance · T-01 · policy law · Prairie Haulers LLC · USDOT 1234567"), String(one.prefix(3000)))
        let fleet = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10.html"), encoding: .utf8)
        XCTAssertTrue(fleet.contains("<h1>DVIR compliance · policy law · Prairie Haulers LLC · USDOT 1234567"))
    }

    func testTheEvidencePackIsAPDFPerVehicle() throws {
        let (dir, db) = try setUp()
        let out = dir.appendingPathComponent("audit")
        let r = try Fleetkit.run(["report", "evidence", "--db", db, "--assets", "T-01", "--month", "2026-10", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let pdf = out.appendingPathComponent("evidence-T-01-2026-10.pdf")
        XCTAssertEqual(r.stdout, "wrote \(pdf.path)\n")
        let text = try Tool.run("/usr/bin/pdftotext", [pdf.path, "-"]).stdout
        for expected in ["DVIR evidence pack: T-01", "Prairie Haulers LLC", "USDOT 1234567", "1FTFW1E50PFA00001", "page 1 of ", "reviewed 2026-10-05 07:30"] {
            XCTAssertTrue(text.contains(expected), expected)
        }
        // Every vehicle with a DVIR in the period, one file each.
        let all = try Fleetkit.run(["report", "evidence", "--db", db, "--month", "2026-10", "--out", out.path, "--json"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((json?["files"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent }, ["evidence-T-01-2026-10.pdf", "evidence-T-02-2026-10.pdf"])
    }

    func testWithoutChromiumTheErrorNamesThePackage() throws {
        let (dir, db) = try setUp()
        let r = try Fleetkit.run(["report", "evidence", "--db", db, "--assets", "T-01", "--month", "2026-10", "--out", dir.appendingPathComponent("audit").path],
                                 environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("install the Debian package `chromium`"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("audit/evidence-T-01-2026-10.pdf").path))
    }

    func testABadUSDOTNumberIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-usdot-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let r = try Fleetkit.run(["init", "--db", dir.appendingPathComponent("fleet.sqlite").path, "--usdot", "12AB"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("--usdot '12AB' is not a USDOT number"), r.stderr)
    }
}
