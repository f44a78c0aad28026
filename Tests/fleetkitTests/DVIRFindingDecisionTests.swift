import XCTest
import GRDB
import FleetTestSupport

/// `fleetkit review finding accept|dispute` (issue 30): a compliance officer's decision on a DVIR
/// signature-chain finding, with a reason, who and when; append-only; kept when the DVIR file is
/// forgotten and imported again; the finding stays listed with its decision, and the counts say
/// how many are open, accepted and disputed.
///
/// The findings are read off the CSV below by hand (docs/METRICS.md, "DVIR signature chain"):
/// DVIR 1 (T-01, horn) was reviewed 07:30 and certified 08:00: review_before_certification, id
/// `1/review_before_certification/horn`; DVIR 3 (T-01, lighting) has no review signature:
/// review_missing, id `3/review_missing`; DVIR 2 lists no defect. No telematics: no movement rule.
final class DVIRFindingDecisionTests: XCTestCase {
    static let dvirs = """
        dvir_id,unit_number,driver_id,driver_name,type,started_at,signed_at,safety_status,mechanic_name,mechanic_signed_at,reviewed_at,reviewed_by,defect_id,component,defect_type,comment,safety_critical,defect_created_at,resolved_at,resolved_by,certification
        1,T-01,E1,Ann Lee,pre_trip,2026-10-05T06:50:00Z,2026-10-05T07:00:00Z,resolved,R. Okafor,2026-10-05T08:00:00Z,2026-10-05T07:30:00Z,Ann Lee,D1,horn,Inoperative,Horn does not sound,yes,2026-10-05T07:00:00Z,2026-10-05T08:00:00Z,R. Okafor,repaired
        2,T-02,E2,Bo Diaz,post_trip,2026-10-06T17:50:00Z,2026-10-06T18:00:00Z,safe,,,,,,,,,,,,,
        3,T-01,E1,Ann Lee,post_trip,2026-10-07T17:50:00Z,2026-10-07T18:00:00Z,resolved,R. Okafor,2026-10-08T08:00:00Z,,,D3,lighting,Lamp out,Left marker lamp out,yes,2026-10-07T18:00:00Z,2026-10-08T08:00:00Z,R. Okafor,repaired

        """

    func findings(_ db: String, _ out: URL) throws -> (rows: [String], vehicles: String) {
        let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-findings.csv"), encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        return (rows, try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-by_vehicle.csv"), encoding: .utf8))
    }

    func testADecisionIsKeptWithTheFindingAcrossAReimportAndCounted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-finding-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC"]).status, 0)
        try "unit_number,kind,vin,make,model,year\nT-01,truck,1FTFW1E50PFA00001,Ford,F-150,2023\nT-02,truck,1FTFW1E50PFA00002,Ford,F-150,2023\n".write(to: dir.appendingPathComponent("assets.csv"), atomically: true, encoding: .utf8)
        let csv = dir.appendingPathComponent("dvir.csv")
        try Self.dvirs.write(to: csv, atomically: true, encoding: .utf8)
        let imported = try Fleetkit.run(["import", "--db", db, dir.appendingPathComponent("assets.csv").path, csv.path])
        XCTAssertEqual(imported.status, 0, imported.stdout + imported.stderr)

        let before = try findings(db, dir.appendingPathComponent("r0"))
        XCTAssertEqual(before.rows.first?.hasPrefix("finding_id,unit,dvir,component,rule,regulation,finding,decision,decision_reason,decided_by,decided_at,"), true, "\(before.rows)")
        XCTAssertEqual(Set(before.rows.dropFirst().map { String($0.prefix { $0 != "," }) }), ["1/review_before_certification/horn", "3/review_missing"])
        XCTAssertTrue(before.rows.dropFirst().allSatisfy { $0.contains(",open,,,,") }, "\(before.rows)")

        let accept = try Fleetkit.run(["review", "finding", "accept", "--db", db, "1/review_before_certification/horn", "--by", "c.ruiz",
                                       "--reason", "Driver retrained on 396.13(c), 2026-10-20"])
        XCTAssertEqual(accept.status, 0, accept.stderr)
        XCTAssertEqual(accept.stdout, "accepted finding 1/review_before_certification/horn on T-01 (reviewed before the repair was certified) by c.ruiz\n")
        let dispute = try Fleetkit.run(["review", "finding", "dispute", "--db", db, "3/review_missing", "--by", "c.ruiz", "--reason", "Paper review card on file"])
        XCTAssertEqual(dispute.status, 0, dispute.stderr)

        // Refused: an id that names no finding (with what there is), a rule that is none, an empty reason.
        let wrong = try Fleetkit.run(["review", "finding", "accept", "--db", db, "1/review_missing", "--reason", "x"])
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.contains("1/review_before_certification/horn"), wrong.stderr)
        XCTAssertEqual(try Fleetkit.run(["review", "finding", "accept", "--db", db, "1/no_such_rule/horn", "--reason", "x"]).status, 64)
        XCTAssertEqual(try Fleetkit.run(["review", "finding", "accept", "--db", db, "9/review_missing", "--reason", "x"]).status, 64)
        XCTAssertNotEqual(try Fleetkit.run(["review", "finding", "accept", "--db", db, "3/review_missing", "--reason", "  "]).status, 0)

        // The DVIR file taken out and imported again: the decisions still apply.
        XCTAssertEqual(try Fleetkit.run(["forget", "--db", db, csv.path]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, csv.path]).status, 0)
        let after = try findings(db, dir.appendingPathComponent("r1"))
        XCTAssertEqual(after.rows.count, 3, "\(after.rows)")
        let horn = try XCTUnwrap(after.rows.first { $0.hasPrefix("1/review_before_certification/horn,") })
        XCTAssertTrue(horn.contains(",accepted,\"Driver retrained on 396.13(c), 2026-10-20\",c.ruiz,"), horn)
        let lamp = try XCTUnwrap(after.rows.first { $0.hasPrefix("3/review_missing,") })
        XCTAssertTrue(lamp.contains(",disputed,Paper review card on file,c.ruiz,"), lamp)
        // Counts: 2 findings on T-01, 0 open, 1 accepted, 1 disputed.
        let vehicles = after.vehicles.split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertTrue(vehicles[0].hasSuffix(",chain_findings,chain_findings_open,chain_findings_accepted,chain_findings_disputed"), vehicles[0])
        XCTAssertTrue(try XCTUnwrap(vehicles.first { $0.hasPrefix("T-01,") }).hasSuffix(",2,0,1,1"), after.vehicles)

        // A later decision supersedes; the earlier one stays in the table, which refuses edits.
        XCTAssertEqual(try Fleetkit.run(["review", "finding", "dispute", "--db", db, "1/review_before_certification/horn", "--by", "c.ruiz",
                                         "--reason", "Certification time was keyed late; work order shows 07:20"]).status, 0)
        let last = try findings(db, dir.appendingPathComponent("r2"))
        let superseded = try XCTUnwrap(last.rows.first { $0.hasPrefix("1/review_before_certification/horn,") })
        XCTAssertTrue(superseded.contains(",disputed,\"Certification time was keyed late; work order shows 07:20\",c.ruiz,"), superseded)
        let queue = try DatabaseQueue(path: db)
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM dvir_finding_decision") }, 3)
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "UPDATE dvir_finding_decision SET reason = 'edited'") })
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "DELETE FROM dvir_finding_decision") })
    }
}
