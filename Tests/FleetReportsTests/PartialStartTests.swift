import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Completeness from both ends (issue 29): a period that starts before the warehouse has data of
/// a kind the report needs is partial, and the headlines that rest on it are left out, never 0.
/// On the golden sample (October 2026 only; its maintenance history goes back to 2024).
final class PartialStartTests: XCTestCase {
    func run(_ report: any Report.Type, _ period: ReportPeriod) throws -> ReportOutput {
        let request = ReportRequest(period: period, zone: SampleReportGoldenTests.zone, units: .us, currency: "USD", generatedAt: 0,
                                    asOf: CivilDate(year: 2026, month: 11, day: 24)!)
        return try SampleReportGoldenTests.sharedSample().warehouse.warehouse.pool.read { db in
            try ReportWriter.checked(report.init().run(db, request), db, request)
        }
    }

    /// `report cost --quarter 2026-Q3` said complete with the maintenance history alone as its total.
    func testACostQuarterBeforeTheFuelDataIsPartialWithoutATotal() throws {
        let q3 = try run(CostReport.self, .quarter(2026, 3))
        XCTAssertTrue(q3.metadata.partial.contains { $0.hasPrefix("no fuel purchases in 2026-Q3: the warehouse's fuel purchases start on 2026-10-0") }, "\(q3.metadata.partial)")
        XCTAssertFalse(q3.metadata.totals.contains { $0.0 == "total" || $0.0 == "fuel" }, "\(q3.metadata.totals)")
        // The maintenance of the quarter is still shown: it is known.
        XCTAssertTrue(q3.metadata.totals.contains { $0.0 == "maintenance" }, "\(q3.metadata.totals)")
    }

    /// `report dvir-compliance --quarter 2026-Q3` said 0 violations, 0 days missing, complete.
    func testADVIRQuarterBeforeTheFirstDVIRIsPartialWithNoHeadlines() throws {
        let q3 = try run(DVIRComplianceReport.self, .quarter(2026, 3))
        XCTAssertTrue(q3.metadata.partial.contains { $0.hasPrefix("no DVIRs in 2026-Q3") }, "\(q3.metadata.partial)")
        XCTAssertEqual(q3.metadata.totals.map(\.0), [])
    }

    /// September and October together: the first day is inside the period, and named.
    func testAPeriodReachingIntoTheDataNamesTheFirstDay() throws {
        let range = ReportPeriod.range(CivilDate(year: 2026, month: 9, day: 1)!, CivilDate(year: 2026, month: 10, day: 31)!)
        let out = try run(DVIRComplianceReport.self, range)
        XCTAssertTrue(out.metadata.partial.contains { $0.hasPrefix("no DVIRs before 2026-10-0") && $0.contains("after the period's first day 2026-09-01") }, "\(out.metadata.partial)")
    }

    /// October itself is complete for every report: the data starts on its first days.
    func testTheMonthTheDataStartsInIsComplete() throws {
        for report in ReportRegistry.all where report.name != SummaryReport.name {
            let out = try run(report, .month(2026, 10))
            XCTAssertEqual(out.metadata.partial, [], report.name)
        }
    }
}
