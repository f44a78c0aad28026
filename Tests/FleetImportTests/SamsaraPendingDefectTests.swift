import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport

/// A Samsara defects export imported before the DVIR export it belongs to gives the same
/// warehouse as the other order (docs/METRICS.md, "Import order"): the defect waits in
/// `dvir_defect_pending` and joins its DVIR when that arrives; a defect whose DVIR never
/// arrives stays pending and visible, never rejected or dropped.
final class SamsaraPendingDefectTests: XCTestCase {
    @discardableResult
    private func load(_ t: TestWarehouse, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> FileOutcome {
        let o = try t.importFile(fixture("samsara/" + name))
        XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")", file: file, line: line)
        return o
    }

    private func dump(_ t: TestWarehouse) throws -> [String] {
        try t.factDump(tables: ["asset", "asset_identifier", "dvir", "dvir_defect", "dvir_defect_pending", "reject"])
    }

    private func defects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT f.source_key, d.source_key, f.resolved_at, f.resolved_by, f.certification, f.comment
            FROM dvir_defect f JOIN dvir d ON d.id = f.dvir_id ORDER BY f.source_key
            """).map { r in r.databaseValues.map(\.description).joined(separator: "|") }
    }

    private func pending(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT COALESCE(dvir_key, 'none'), source_key, location FROM dvir_defect_pending ORDER BY source_key")
            .map { r in r.databaseValues.map(\.description).joined(separator: "|") }
    }

    /// Defect 61 of DVIR 7107600 was resolved at 15:00 by J. Ortiz (the defects export); the DVIR
    /// export lists it open from 06:01. The later state wins in both orders. Defect 62 names DVIR
    /// 7107699, which neither file holds: it waits.
    func testDefectFileThenDVIRFileEqualsDVIRThenDefect() throws {
        let resolved = Timestamp.parse("2026-10-09T15:00:00Z")!
        var dumps: [[String]] = []
        for order in [["defect-before-dvir.json", "dvir-after-defect.json"], ["dvir-after-defect.json", "defect-before-dvir.json"]] {
            let t = try TestWarehouse()
            let outcomes = try order.map { try load(t, $0) }
            XCTAssertEqual(outcomes.map(\.rejected), [0, 0], order.joined(separator: " then "))
            XCTAssertEqual(try defects(t), ["\"samsara-defect:61\"|\"samsara-dvir:7107600\"|\(resolved)|\"J. Ortiz\"|\"repaired\"|\"Pulls left\""],
                           order.joined(separator: " then "))
            XCTAssertEqual(try pending(t), ["\"samsara-dvir:7107699\"|\"samsara-defect:62\"|\"data[1]\""], "the orphan stays visible")
            XCTAssertEqual(try t.count("reject"), 0)
            dumps.append(try dump(t))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// A stream defect naming a trailer, read before its DVIR, joins the DVIR's trailer-keyed row
    /// of the same defect (as it does when the DVIR comes first) instead of adding a second row.
    func testTrailerStreamDefectBeforeItsDVIRUpdatesTheTrailerKeyedRow() throws {
        var dumps: [[String]] = []
        for order in [["defect-stream-trailer.json", "dvir-trailer-defect.json"], ["dvir-trailer-defect.json", "defect-stream-trailer.json"]] {
            let t = try TestWarehouse()
            for name in order { try load(t, name) }
            XCTAssertEqual(try t.rows("SELECT source_key, resolved_at FROM dvir_defect ORDER BY source_key").map { "\($0[0] as String) \(($0[1] as Int64?).map(String.init) ?? "open")" },
                           ["samsara-defect:56 open", "samsara-defect:trailer:55 \(Timestamp.parse("2026-10-08T10:15:00Z")!)"], order.joined(separator: " then "))
            XCTAssertEqual(try t.count("dvir_defect_pending"), 0)
            dumps.append(try dump(t))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// A legacy defects export names no DVIR: its defect waits under its key and joins the DVIR
    /// that lists a defect with that key.
    func testLegacyDefectWithoutDVIRJoinsTheDVIRListingItsKey() throws {
        var dumps: [[String]] = []
        for order in [["defects-history.json", "dvirs-open.json"], ["dvirs-open.json", "defects-history.json"]] {
            let t = try TestWarehouse()
            try load(t, "assets.csv")
            for name in order { try load(t, name) }
            // 91003 (trailer defect of DVIR 7107471, resolved 2026-10-07T09:30Z by R. Okafor) joins it;
            // 99999 names no DVIR that any file lists, and the stream defect's DVIR is absent.
            XCTAssertEqual(try t.rows("SELECT d.source_key, f.resolved_by FROM dvir_defect f JOIN dvir d ON d.id = f.dvir_id WHERE f.source_key = 'samsara-defect:trailer:91003'")
                .map { "\($0[0] as String) \($0[1] as String? ?? "open")" }, ["samsara-dvir:7107471 R. Okafor"], order.joined(separator: " then "))
            XCTAssertEqual(try pending(t).map { $0.components(separatedBy: "|")[1] },
                           ["\"samsara-defect:5d2c1b7a-0c33-4a6f-a3b2-9f1e7d6c5b41\"", "\"samsara-defect:99999\""])
            dumps.append(try dump(t))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }
}
