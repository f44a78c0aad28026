import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Two exports of the same DVIR with the same state time (`updatedAtTime` 15:00 in both) but
/// different content: one still unsafe, one resolved with a mechanic's signature and its
/// defect repaired. "Later state wins" cannot choose between them by time, so the stored state
/// must not depend on which export came last: the warehouse is a function of the set of files
/// (docs/METRICS.md, "Import order").
final class SamsaraDVIRTieTests: XCTestCase {
    private func state(after order: [String]) throws -> [String] {
        let t = try TestWarehouse()
        for name in ["assets.csv"] + order {
            let o = try t.importFile(fixture("samsara/" + name))
            XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")")
        }
        return try t.rows("""
            SELECT d.source_key, d.safety_status, d.mechanic_name, d.mechanic_signed_at, d.mechanic_notes, d.state_at,
                   f.source_key AS defect, f.resolved_at, f.resolved_by, f.certification, f.state_at AS defect_state_at
            FROM dvir d JOIN dvir_defect f ON f.dvir_id = d.id ORDER BY f.source_key
            """).map { $0.databaseValues.map { $0.description }.joined(separator: "|") }
    }

    func testDVIRTieAtTheSameStateTimeGivesTheSameStateInBothOrders() throws {
        let forwards = try state(after: ["dvirs-tie-open.json", "dvirs-tie-resolved.json"])
        let backwards = try state(after: ["dvirs-tie-resolved.json", "dvirs-tie-open.json"])
        XCTAssertEqual(forwards.count, 1)
        XCTAssertEqual(forwards, backwards)
        // The resolved copy knows more (mechanic, repair time), so it is the state kept.
        XCTAssertEqual(forwards.first?.split(separator: "|").map(String.init),
                       ["\"samsara-dvir:7107600\"", "\"resolved\"", "\"R. Okafor\"", "1791383400000", "\"Governor replaced\"", "1791385200000",
                        "\"samsara-defect:91101\"", "1791382800000", "\"R. Okafor\"", "\"repaired\"", "1791385200000"])
    }
}
