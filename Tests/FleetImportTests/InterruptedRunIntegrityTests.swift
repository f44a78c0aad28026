import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// Issue 35 item 2: after a run that died, a damaged warehouse (a backup restored beside a stale
/// `-wal`, a disk that lied about a sync) went on taking imports with exit 0. The next run now
/// checks the file (`PRAGMA quick_check`) before writing, and stops with what to do.
final class InterruptedRunIntegrityTests: XCTestCase {
    func testADamagedWarehouseAfterAnInterruptedRunIsRefusedBeforeAnyWrite() throws {
        let t = try TestWarehouse()
        try t.importFiles([fixture("gpx/gpx11-garmin.gpx").path], options: ImportOptions(asset: "T-12"))
        XCTAssertGreaterThan(try t.count("position"), 0)
        let path = t.warehouse.path
        // A run whose process died (no lock held), and every page in the main file.
        try t.warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO import_run (started_at, command, status) VALUES (1000, 'fleetkit import killed', 'running')")
        }
        try t.warehouse.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let (root, pageSize) = try t.warehouse.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'position'")!, try Int.fetchOne(db, sql: "PRAGMA page_size")!)
        }
        try t.warehouse.pool.close()
        // The position table's root page gets an invalid page type: a table an expenses import
        // never reads, so without the check the import would write on.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data([0x00]))
        try handle.close()
        let reopened = try TestWarehouse(existing: path)
        let runs = try reopened.count("import_run")
        let expenses = try reopened.write("expense_id,date,category,amount,currency,vendor\nE1,2026-10-01,tolls,1.00,USD,I-PASS\n", to: "expenses.csv")
        XCTAssertThrowsError(try reopened.importFiles([expenses.path])) { error in
            XCTAssertTrue("\(error)".contains("failed SQLite's integrity check after an interrupted run"), "\(error)")
            XCTAssertTrue("\(error)".contains("Backup and restore"), "\(error)")
        }
        XCTAssertEqual(try reopened.count("import_run"), runs)
        XCTAssertEqual(try reopened.count("import_run", where: "status = 'running'"), 1)
    }
}
