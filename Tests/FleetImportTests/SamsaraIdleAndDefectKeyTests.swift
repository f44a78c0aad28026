import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport
@testable import FleetWarehouse

/// Samsara idle periods are stored (`idle_period`), and trailer defects stored under the old
/// plain key are re-keyed (migration v7) so that a new export of their DVIR does not double them.
/// Expected figures are read off the fixtures.
final class SamsaraIdleAndDefectKeyTests: XCTestCase {
    @discardableResult
    func load(_ t: TestWarehouse, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> FileOutcome {
        let o = try t.importFile(fixture("samsara/" + name))
        XCTAssertEqual(o.status, .imported, "\(name): \(o.error ?? "")", file: file, line: line)
        XCTAssertEqual(o.rejected, 0, name, file: file, line: line)
        return o
    }

    func periods(_ t: TestWarehouse) throws -> [String] {
        try SamsaraImporterTests.lines(t, """
            SELECT a.unit_number, p.start_at, p.end_at, p.duration_s, p.fuel_ml, p.pto, p.lat, p.lon, p.source
            FROM idle_period p JOIN asset a ON a.id = p.asset_id ORDER BY p.start_at
            """)
    }

    func testIdlingEventsAndReportRowsAreStoredAsIdlePeriods() throws {
        let t = try TestWarehouse()
        try load(t, "assets.csv")
        try load(t, "vehicles.json")
        let e = try load(t, "idling-events.json"), r = try load(t, "idling-report.json")
        XCTAssertEqual([e.loaded, r.loaded], [2, 2], "an idle period and an 'idle' engine event each")
        // Report: T-14 idles 1080 s from 15:02 (ends 15:20, as its endTime says), 410 mL, no PTO.
        // Event: T-12 idles 900 s from 17:30, 850 mL, ptoState inactive, at 40.116421,-88.243383.
        XCTAssertEqual(try periods(t), [
            "\"T-14\"|\(Timestamp.parse("2026-10-01T15:02:00Z")!)|\(Timestamp.parse("2026-10-01T15:20:00Z")!)|1080.0|410.0|0|41.76058|-88.32007|\"samsara-report\"",
            "\"T-12\"|\(Timestamp.parse("2026-10-01T17:30:00Z")!)|\(Timestamp.parse("2026-10-01T17:45:00Z")!)|900.0|850.0|0|40.116421|-88.243383|\"samsara-event\"",
        ])
        XCTAssertEqual(try t.importFile(fixture("samsara/idling-events.json")).status, .unchanged)
    }

    /// The report row of the period an event already gave is the same period: one row, the
    /// event's figures, whichever file comes first.
    func testAnEventAndAReportRowOfOnePeriodAreOneRowInEitherOrder() throws {
        let files = ["idling-events.json", "idling-report-same-period.json"]
        var results: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            try load(t, "assets.csv")
            for f in order { try load(t, f) }
            results.append(try periods(t))
        }
        XCTAssertEqual(results[0], results[1])
        // An event without PTO or place and a report row with them: still the event's row in both orders.
        var bare: [[String]] = []
        for first in [true, false] {
            let t = try TestWarehouse()
            try load(t, "assets.csv")
            let event = try t.write("""
                {"data": [{"eventUuid": "e-2", "asset": {"id": 281474977075805}, "startTime": "2026-10-01T17:30:00Z", "durationMilliseconds": 900000}],
                 "pagination": {"endCursor": "", "hasNextPage": false}}
                """, to: "idling-events-bare.json")
            if first { XCTAssertEqual(try t.importFile(event).rejected, 0) }
            try load(t, "idling-report-same-period.json")
            if !first { XCTAssertEqual(try t.importFile(event).rejected, 0) }
            bare.append(try periods(t))
        }
        XCTAssertEqual(bare[0], bare[1])
        XCTAssertEqual(bare[0], ["\"T-12\"|\(Timestamp.parse("2026-10-01T17:30:00Z")!)|\(Timestamp.parse("2026-10-01T17:45:00Z")!)|900.0|NULL|NULL|NULL|NULL|\"samsara-event\""])
        XCTAssertEqual(results[0], [
            "\"T-12\"|\(Timestamp.parse("2026-10-01T17:30:00Z")!)|\(Timestamp.parse("2026-10-01T17:45:00Z")!)|900.0|850.0|0|40.116421|-88.243383|\"samsara-event\"",
        ])
    }

    func keys(_ t: TestWarehouse) throws -> [String] {
        try SamsaraImporterTests.lines(t, "SELECT source_key, resolved_at IS NOT NULL FROM dvir_defect ORDER BY source_key")
    }

    /// What a FleetKit before the trailer key stored: the trailer defect under the plain key.
    func storeTheOldWay(_ t: TestWarehouse) throws {
        try load(t, "dvir-trailer-defect.json")
        try t.warehouse.pool.write { db in
            try db.execute(sql: "UPDATE dvir_defect SET source_key = 'samsara-defect:55' WHERE source_key = 'samsara-defect:trailer:55'")
        }
        XCTAssertEqual(try t.rows("SELECT comment FROM dvir_defect WHERE source_key = 'samsara-defect:55'").map { $0[0] as String },
                       ["Trailer 53-11: Right rear outer low"], "the old row carries the trailer label the migration looks for")
    }

    func testTheMigrationRekeysOldTrailerDefectsSoANewExportDoesNotDoubleThem() throws {
        // Without the migration, the new export adds the trailer defect a second time.
        let before = try TestWarehouse()
        try storeTheOldWay(before)
        try load(before, "dvir-trailer-defect-reexport.json")
        XCTAssertEqual(try keys(before), ["\"samsara-defect:55\"|0", "\"samsara-defect:56\"|1", "\"samsara-defect:trailer:55\"|1"])

        let t = try TestWarehouse()
        try storeTheOldWay(t)
        try t.warehouse.pool.write { db in try db.execute(sql: WarehouseMigrator.v7TrailerDefectKeys) }
        XCTAssertEqual(try keys(t), ["\"samsara-defect:56\"|0", "\"samsara-defect:trailer:55\"|0"], "the vehicle defect keeps its key")
        try load(t, "dvir-trailer-defect-reexport.json")
        XCTAssertEqual(try keys(t), ["\"samsara-defect:56\"|1", "\"samsara-defect:trailer:55\"|1"])
        // The stream shape (plain key by design) finds the same defect of the same DVIR.
        try load(t, "defect-stream-trailer.json")
        XCTAssertEqual(try t.count("dvir_defect"), 2)
        XCTAssertEqual(try t.rows("SELECT resolved_at FROM dvir_defect WHERE source_key = 'samsara-defect:trailer:55'").map { $0[0] as Int64 },
                       [Timestamp.parse("2026-10-08T10:15:00Z")!])
    }
}
