import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// The signature chain of each defect (docs/METRICS.md, "DVIR signature chain"): every rule fires
/// on the DVIR built to break it and on no other, on a fixture where T-01 drives 14:00–14:25 UTC
/// on 10-05 … 10-09.
///
/// By construction (each row below says which link it breaks):
/// - 31 horn, certified 08:00 before the drive, reviewed next morning: a whole chain, no finding;
/// - 33 lighting (safety), certified 20:00 after the 14:00 drive: driven_before_certification;
/// - 34 mirrors, certified 14:10 in the middle of the drive: certified_while_moving;
/// - 35 wipers, reviewed 07:30, certified 08:00: review_before_certification;
/// - 36 tires, certified, no review: review_missing; and the next inspection, 37 that evening,
///   reports tires again: repair_rejected for 36;
/// - 37 tires, certified 19:00, reviewed next morning, and no later inspection: no finding.
final class DVIRChainTests: XCTestCase {
    static let drives = ["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-08", "2026-10-09"]
    static let dvirs = [
        "31,T-01,E1,Ann Lee,pre_trip,2026-10-05T06:50:00Z,2026-10-05T07:00:00Z,resolved,R. Okafor,2026-10-05T08:00:00Z,2026-10-06T06:30:00Z,Ann Lee,TR-7,D31,horn,Inoperative,Horn does not sound,yes,2026-10-05T07:00:00Z,2026-10-05T08:00:00Z,R. Okafor,repaired",
        "32,T-01,E1,Ann Lee,post_trip,2026-10-05T17:50:00Z,2026-10-05T18:00:00Z,safe,,,,,TR-7,,,,,,,,,",
        "33,T-01,E1,Ann Lee,pre_trip,2026-10-06T06:50:00Z,2026-10-06T07:00:00Z,resolved,R. Okafor,2026-10-06T20:00:00Z,2026-10-07T06:30:00Z,Ann Lee,,D33,lighting,Lamp out,Left rear marker lamp out,yes,2026-10-06T07:00:00Z,2026-10-06T20:00:00Z,R. Okafor,repaired",
        "34,T-01,E1,Ann Lee,pre_trip,2026-10-07T06:50:00Z,2026-10-07T07:00:00Z,resolved,J. Brandt,2026-10-07T14:10:00Z,2026-10-08T06:30:00Z,Ann Lee,,D34,mirrors,Cracked,Passenger mirror glass cracked,no,2026-10-07T07:00:00Z,2026-10-07T14:10:00Z,J. Brandt,repaired",
        "35,T-01,E1,Ann Lee,pre_trip,2026-10-08T06:50:00Z,2026-10-08T07:00:00Z,resolved,J. Brandt,2026-10-08T08:00:00Z,2026-10-08T07:30:00Z,Ann Lee,,D35,wipers,Worn blade,Driver side wiper streaking,no,2026-10-08T07:00:00Z,2026-10-08T08:00:00Z,J. Brandt,repaired",
        "36,T-01,E1,Ann Lee,pre_trip,2026-10-09T06:50:00Z,2026-10-09T07:00:00Z,resolved,S. Lindqvist,2026-10-09T08:00:00Z,,,,D36,tires,Low tread,Right front tire tread at 3/32,no,2026-10-09T07:00:00Z,2026-10-09T08:00:00Z,S. Lindqvist,repaired",
        "37,T-01,E1,Ann Lee,post_trip,2026-10-09T17:50:00Z,2026-10-09T18:00:00Z,resolved,S. Lindqvist,2026-10-09T19:00:00Z,2026-10-10T06:30:00Z,Ann Lee,,D37,tires,Low tread,Right front tire still at 3/32,no,2026-10-09T18:00:00Z,2026-10-09T19:00:00Z,S. Lindqvist,repaired",
    ]

    func testEachRuleFiresOnItsFixtureAndNoOther() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.dvirs)
        let findings = try DVIRFixture.rows(try f.output(), "findings")
        XCTAssertEqual(Set(findings.map { "\($0["dvir"]!) \($0["rule"]!)" }),
                       ["33 driven_before_certification", "34 certified_while_moving", "35 review_before_certification", "36 review_missing", "36 repair_rejected"])
        XCTAssertEqual(findings.count, 5)
        // Each finding carries the rows it rests on.
        let byRule = Dictionary(findings.map { ($0["rule"]!, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byRule["review_before_certification"]?["evidence"], "reviewed 2026-10-08 07:30 by Ann Lee; certified 2026-10-08 08:00 by J. Brandt")
        XCTAssertTrue(byRule["driven_before_certification"]?["evidence"]?.hasPrefix("driven: 2026-10-06 ") ?? false, "\(byRule)")
        XCTAssertTrue(byRule["certified_while_moving"]?["evidence"]?.contains("certified 2026-10-07 14:10") ?? false, "\(byRule)")
        XCTAssertTrue(byRule["repair_rejected"]?["evidence"]?.contains("DVIR 37 signed 2026-10-09 18:00 reports tires again") ?? false, "\(byRule)")
        XCTAssertEqual(byRule["review_missing"]?["regulation"], "49 CFR 396.13(b), (c)")
        let t01 = try XCTUnwrap(try DVIRFixture.rows(try f.output(), "by_vehicle").first { $0["unit"] == "T-01" })
        XCTAssertEqual(t01["chain_findings"], "5")
    }

    /// The register shows the vehicle (VIN, plate, trailer) on every row and the 396.11(a)(1)
    /// item beside the source's flag: a cracked mirror is an item of the rule though its source
    /// says it is not safety-critical.
    func testRegisterNamesTheVehicleAndTheRulesItem() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.dvirs)
        let register = try DVIRFixture.rows(try f.output(), "register")
        XCTAssertEqual(register.count, 7)
        for row in register {
            XCTAssertEqual([row["vin"], row["plate"]], ["1FTFW1E50PFA00001", "IL 123 456"])
        }
        XCTAssertEqual(register.first { $0["dvir"] == "31" }?["trailer"], "TR-7")
        let mirror = try XCTUnwrap(register.first { $0["dvir"] == "34" })
        XCTAssertEqual([mirror["item"], mirror["safety_critical"]], ["rear vision mirrors", "no"])
        // The certification columns come right after the defect: what an auditor reads across.
        let names = try XCTUnwrap(try f.output().tables.first { $0.name == "register" }).columns.map(\.name)
        let defect = try XCTUnwrap(names.firstIndex(of: "defect_type"))
        XCTAssertEqual(Array(names[defect...].prefix(8)), ["defect_type", "comment", "defect_reported", "resolved", "certification", "resolved_by", "reviewed", "reviewed_by"])
    }

    func testItemsOfTheRule() {
        XCTAssertEqual(DVIRItems.item("emergency_equipment"), "emergency equipment")
        XCTAssertEqual(DVIRItems.item("mirrors"), "rear vision mirrors")
        XCTAssertEqual(DVIRItems.item("service_brakes"), "service brakes including trailer brake connections")
        XCTAssertNil(DVIRItems.item("other"))
        XCTAssertEqual(DVIRItems.items.count, 11)
    }

    /// The committed sample fleet's October, read independently with Python:
    ///   import csv; d=[r for r in csv.DictReader(open('SampleData/dvir/dvir-2026-10.csv')) if r['defect_id']]
    ///   [r['dvir_id'] for r in d if not r['reviewed_at']]                                  # 1
    ///   [r['dvir_id'] for r in d if r['reviewed_at'] and r['reviewed_at'] < r['resolved_at']] # 8
    /// (all October times are -05:00, so the text compares as the instant does). T-05's 2026100170094
    /// was reviewed 10-09 06:05 and certified 10-11 17:45.
    func testTheSampleFleetsUnreviewedAndPrematureReviews() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData")
        let t = try TestWarehouse()
        let zone = FleetZone(identifier: "America/Chicago")!
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
        let summary = try t.importFiles(["master", "dvir"].map { root.appendingPathComponent($0).path }, options: ImportOptions(zone: zone))
        XCTAssertEqual(summary.totals.rejected, 0)
        let request = ReportRequest(period: .month(2026, 10), zone: zone, units: .us, currency: "USD", generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 1)!)
        let output = try t.warehouse.pool.read { db in try DVIRComplianceReport().run(db, request) }
        let findings = try DVIRFixture.rows(output, "findings")
        XCTAssertEqual(findings.filter { $0["rule"] == "review_missing" }.map { $0["dvir"]! }.sorted(), ["2026100170254"])
        XCTAssertEqual(findings.filter { $0["rule"] == "review_before_certification" }.map { $0["dvir"]! }.sorted(),
                       ["2026100170094", "2026100170161", "2026100170309", "2026100170315", "2026100170328", "2026100170354", "2026100170364", "2026100170391"])
        let t05 = try XCTUnwrap(findings.first { $0["dvir"] == "2026100170094" && $0["rule"] == "review_before_certification" })
        XCTAssertEqual(t05["unit"], "T-05")
        XCTAssertTrue(t05["evidence"]!.hasPrefix("reviewed 2026-10-09 06:05 by "), t05["evidence"]!)
        XCTAssertTrue(t05["evidence"]!.contains("certified 2026-10-11 17:45"), t05["evidence"]!)
    }
}
