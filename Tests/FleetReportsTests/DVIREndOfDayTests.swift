import XCTest
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// End-of-day reports (49 CFR 396.11(a)(1)) and pre-trip inspections (396.13) judged apart, under
/// the warehouse's DVIR policy (docs/METRICS.md, "DVIR compliance").
///
/// T-01 drives on 10-05, 10-06 and 10-07 (3 days operated). It files a pre-trip inspection every
/// day; an end-of-day report only on 10-05; on 10-06 its pre-trip finds a horn defect. Counted by
/// hand: every_day and passenger owe a report on all 3 days and 2 are missing (10-06, 10-07);
/// law owes one only on the defect day, 10-06, and it is missing. The old report counted any
/// DVIR and found 0 days missing.
final class DVIREndOfDayTests: XCTestCase {
    static let base = [
        "1,T-01,E1,Ann Lee,pre_trip,2026-10-05T06:50:00Z,2026-10-05T07:00:00Z,safe,,,,,,,,,,,,,,",
        "2,T-01,E1,Ann Lee,post_trip,2026-10-05T17:50:00Z,2026-10-05T18:00:00Z,safe,,,,,,,,,,,,,,",
        "3,T-01,E1,Ann Lee,pre_trip,2026-10-06T06:50:00Z,2026-10-06T07:00:00Z,resolved,R. Okafor,2026-10-06T08:00:00Z,2026-10-07T06:30:00Z,Ann Lee,,D3,horn,Inoperative,Horn does not sound,yes,2026-10-06T07:00:00Z,2026-10-06T08:00:00Z,R. Okafor,repaired",
        "4,T-01,E1,Ann Lee,pre_trip,2026-10-07T06:50:00Z,2026-10-07T07:00:00Z,safe,,,,,,,,,,,,,,",
        // T-02: no telematics, so its days operated are unknown; no defect.
        "5,T-02,E2,Bo Diaz,pre_trip,2026-10-06T06:50:00Z,2026-10-06T07:00:00Z,safe,,,,,,,,,,,,,,",
    ]
    static let drives = ["2026-10-05", "2026-10-06", "2026-10-07"]

    func line(_ output: ReportOutput, _ unit: String) throws -> [String: String] {
        try XCTUnwrap(try DVIRFixture.rows(output, "by_vehicle").first { $0["unit"] == unit })
    }

    func testPreTripInspectionsDoNotSatisfyTheEndOfDayRule() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.base)
        for policy in [DVIRPolicy.everyDay, .passenger] {
            let t01 = try line(try f.output(policy), "T-01")
            XCTAssertEqual([t01["days_operated"], t01["end_of_day_reports"], t01["pre_trip_inspections"], t01["days_requiring_report"], t01["days_missing_report"]],
                           ["3", "1", "3", "3", "2"], "\(policy)")
        }
    }

    func testLawOwesAReportOnlyOnADefectDay() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.base)
        let t01 = try line(try f.output(.law), "T-01")
        XCTAssertEqual([t01["days_requiring_report"], t01["days_missing_report"]], ["1", "1"])
        // The same fleet with an end-of-day report on the defect day: nothing missing.
        let filed = try DVIRFixture(drives: Self.drives, dvirs: Self.base + ["6,T-01,E1,Ann Lee,post_trip,2026-10-06T17:50:00Z,2026-10-06T18:00:00Z,safe,,,,,,,,,,,,,,"])
        let covered = try line(try filed.output(.law), "T-01")
        XCTAssertEqual([covered["days_requiring_report"], covered["days_missing_report"]], ["1", "0"])
        // every_day still misses 10-07.
        XCTAssertEqual(try line(try filed.output(.everyDay), "T-01")["days_missing_report"], "1")
    }

    func testUnknownDaysOperatedStayUnknown() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.base)
        let everyDay = try line(try f.output(.everyDay), "T-02")
        XCTAssertEqual([everyDay["days_operated"], everyDay["days_requiring_report"], everyDay["days_missing_report"]], ["", "", ""])
        // Under the law a vehicle with no defect owes nothing, whatever it did.
        let law = try line(try f.output(.law), "T-02")
        XCTAssertEqual([law["days_requiring_report"], law["days_missing_report"]], ["0", "0"])
    }

    func testThePolicyAndCarrierAreOnEveryPage() throws {
        let f = try DVIRFixture(drives: Self.drives, dvirs: Self.base)
        let out = try f.output(.law, assets: ["T-01"], carrier: Carrier(name: "Prairie Haulers LLC", usdotNumber: "1234567", address: "1200 W Industrial Dr, Joliet IL"))
        // The title is the HTML heading and page title and every workbook sheet's footer.
        XCTAssertEqual(out.metadata.title, "DVIR compliance · T-01 · policy law · Prairie Haulers LLC · USDOT 1234567")
        XCTAssertEqual(out.metadata.subject, "T-01")
        XCTAssertEqual(ReportFileName.file(out.metadata, ext: "html"), "dvir-compliance-T-01-2026-10.html")
        XCTAssertTrue(XLSXFormat.printSetup(out.metadata, repeatedRow: 0).footer?.contains("policy law") ?? false)
        let fleet = try f.output(.law)
        XCTAssertEqual(ReportFileName.file(fleet.metadata, ext: "html"), "dvir-compliance-2026-10.html")
    }

    func testStoredDefectsOnlyReadsAsLaw() throws {
        XCTAssertEqual(DVIRPolicy(text: "defects_only"), .law)
        XCTAssertEqual(DVIRPolicy(text: "every_day"), .everyDay)
        XCTAssertNil(DVIRPolicy(text: "sometimes"))
        XCTAssertEqual(DVIRPolicy.law.requiresEndOfDayReport(defectFound: false), false)
        XCTAssertEqual(DVIRPolicy.passenger.requiresEndOfDayReport(defectFound: false), true)
    }
}
