import XCTest
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Retention as the rules state it (docs/METRICS.md, "DVIR retention"): DVIRs, certifications
/// and reviews 3 months (49 CFR 396.11(a)(4)); annual inspections 14 months (396.21(b)); the
/// maintenance file 1 year (396.3(c)). A window before the warehouse's first record of its kind
/// is "not in FleetKit", never "missing".
final class DVIRRetentionTests: XCTestCase {
    static let october = [
        "1,T-01,E1,Ann Lee,pre_trip,2026-10-05T06:50:00Z,2026-10-05T07:00:00Z,resolved,R. Okafor,2026-10-05T08:00:00Z,,,,D1,horn,Inoperative,,yes,2026-10-05T07:00:00Z,2026-10-05T08:00:00Z,R. Okafor,repaired",
        "2,T-01,E1,Ann Lee,post_trip,2026-10-05T17:50:00Z,2026-10-05T18:00:00Z,safe,,,,,,,,,,,,,,",
    ]
    static let july = "3,T-01,E1,Ann Lee,post_trip,2026-07-20T17:50:00Z,2026-07-20T18:00:00Z,safe,,,,,,,,,,,,,,"

    /// The report for T-01 alone: every row names T-01, the month rows included.
    func statuses(_ f: DVIRFixture, _ record: String, unit: String = "T-01") throws -> [String] {
        try DVIRFixture.rows(try f.output(assets: ["T-01"]), "retention").filter { $0["record"] == record && $0["unit"] == unit }.map { "\($0["from"]!) \($0["status"]!)" }
    }

    func testMonthsBeforeTheFirstRecordAreNotInFleetKit() throws {
        let f = try DVIRFixture(drives: [], dvirs: Self.october)
        XCTAssertEqual(try statuses(f, "DVIRs"), ["2026-08-01 not in FleetKit: the warehouse's first DVIR is 2026-10-05",
                                                  "2026-09-01 not in FleetKit: the warehouse's first DVIR is 2026-10-05",
                                                  "2026-10-01 partly in FleetKit: nothing before the warehouse's first DVIR, 2026-10-05"])
        XCTAssertEqual(try statuses(f, "Annual inspection", unit: "T-01"), ["2025-09-01 not in FleetKit: no maintenance record imported"])
    }

    func testAMonthAfterTheFirstRecordWithNoDVIRIsMissing() throws {
        let f = try DVIRFixture(drives: [], dvirs: Self.october + [Self.july])
        XCTAssertEqual(try statuses(f, "DVIRs"), ["2026-08-01 missing: no DVIR held", "2026-09-01 missing: no DVIR held", "2026-10-01 held"])
        XCTAssertEqual(try statuses(f, "Repair certifications").last, "2026-10-01 held for all 1 defects")
        XCTAssertEqual(try statuses(f, "Next-driver reviews").last, "2026-10-01 1 of 1 DVIRs with defects not reviewed")
    }

    func testAnnualInspectionAndMaintenanceFile() throws {
        let f = try DVIRFixture(drives: [], dvirs: Self.october)
        let maintenance = """
            unit_number,service_type,performed_at,odometer_km,engine_hours,cost,currency,vendor,work_order,notes
            T-01,annual_inspection,2025-12-02T10:00:00Z,,,120.00,USD,Fleet Service Center,WO-1,
            T-01,oil_change,2025-06-02T10:00:00Z,,,80.00,USD,Fleet Service Center,WO-0,
            T-02,oil_change,2025-06-03T10:00:00Z,,,80.00,USD,Fleet Service Center,WO-2,

            """
        XCTAssertEqual(try f.t.importFile(try f.t.write(maintenance, to: "maintenance.csv")).rejected, 0)
        // 14 months back from 2026-10-31 is 2025-09-01: the December inspection is held.
        XCTAssertEqual(try statuses(f, "Annual inspection", unit: "T-01"), ["2025-09-01 held: inspected 2025-12-02"])
        // The file's year (2025-11-01 …) holds the inspection; the warehouse's records start in June 2025.
        XCTAssertEqual(try statuses(f, "Maintenance file", unit: "T-01"), ["2025-11-01 held"])
    }
}
