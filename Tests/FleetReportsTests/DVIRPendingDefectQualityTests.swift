import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// A Samsara defect whose DVIR has not been imported is in no table of the DVIR compliance
/// report, so its data quality names it (docs/FORMATS.md, Samsara defects): an open brake defect
/// must not vanish from the compliance picture in silence.
final class DVIRPendingDefectQualityTests: XCTestCase {
    static let zone = FleetZone(identifier: "America/Chicago")!

    func qualityLines(_ t: TestWarehouse) throws -> [String] {
        let request = ReportRequest(period: .month(2026, 10), zone: Self.zone, units: .us, currency: "USD", generatedAt: 0,
                                    asOf: CivilDate(year: 2026, month: 11, day: 1)!)
        return try t.warehouse.pool.read { db in
            try DVIRComplianceReport().run(db, request).dataQuality.rows.map { row in
                row.map { v -> String in
                    switch v { case .text(let s): return s; case .integer(let i): return String(i); default: return "\(v)" }
                }.joined(separator: " | ")
            }
        }
    }

    func testADefectWaitingForItsDVIRIsListedInDataQuality() throws {
        let t = try TestWarehouse()
        XCTAssertFalse(try qualityLines(t).contains { $0.hasPrefix("Defects waiting for their DVIR") })
        let defects = """
            {"data": [{"id": "62", "dvirId": "7107699", "defectType": "Brakes", "comment": "Pulls left", "createdAtTime": "2026-10-09T06:02:00Z",
              "isResolved": false, "vehicle": {"id": "281474977099020"}},
             {"id": "63", "dvirId": "7107698", "defectType": "Horn", "createdAtTime": "2026-09-09T06:02:00Z", "isResolved": false}],
             "pagination": {"endCursor": "", "hasNextPage": false}}
            """
        let o = try t.importFile(try t.write(defects, to: "defects-before-dvir.json"))
        XCTAssertEqual([o.loaded, o.rejected], [2, 0], o.error ?? "")
        // Only the defect created in October; the September one is outside the period.
        XCTAssertEqual(try qualityLines(t).filter { $0.hasPrefix("Defects waiting for their DVIR") },
                       ["Defects waiting for their DVIR (imported before it; not counted above until the DVIR export is imported) | 1 | samsara-dvir:7107699 samsara-defect:62"])
    }
}
