import Foundation
import GRDB
import XCTest
import FleetTestSupport
@testable import FleetWarehouse

/// The PostgreSQL copy's edges, against the real throwaway cluster: text that COPY's format
/// escapes, NULL beside the text "\N", blobs, extreme numbers; and the masking of passwords.
final class PostgresCopyTests: XCTestCase {
    func testMaskHidesEveryPasswordAndKeepsTheRest() {
        XCTAssertEqual(PostgresURL.mask("postgresql://fleet:s3cr:et@db.example:5432/fleet"), "postgresql://fleet:***@db.example:5432/fleet")
        XCTAssertEqual(PostgresURL.mask("postgresql://fleet@db.example/fleet?password=pw&sslmode=require"), "postgresql://fleet@db.example/fleet?password=***&sslmode=require")
        XCTAssertEqual(PostgresURL.mask("postgres://u:p%40w@h/d"), "postgres://u:***@h/d")
        XCTAssertEqual(PostgresURL.mask("postgresql://db.example/fleet"), "postgresql://db.example/fleet")
        XCTAssertNil(PostgresURL("fleet.sqlite"))
        XCTAssertNotNil(PostgresURL("PostgreSQL://h/d"))
    }

    func testHostileValuesSurviveTheRoundTrip() throws {
        let w = try TestWarehouse()
        let nasty = ["tab\there", "line\nbreak\r\n", "back\\slash \\N \\\\", "\\N", "", "é 🚚 \u{1}\u{1F}", "'; DROP TABLE asset; --"]
        try w.warehouse.pool.write { db in
            for (i, text) in nasty.enumerated() {
                try db.execute(sql: "INSERT INTO asset (id, unit_number, name, year, target_hours_per_week, acquisition_cost_minor) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [i + 1, "U\(i)", text, i == 0 ? nil : Int64.max - Int64(i), [0.1, -0.0, 1e-300, 1.7976931348623157e308, 5e-324, 2.5, 1e22][i], Int64.min + Int64(i)])
            }
            try db.execute(sql: "INSERT INTO asset (id, unit_number, name) VALUES (99, NULL, NULL)")
        }
        let url = PostgresURL(try PostgresTestCluster.newDatabase())!
        let there = try WarehouseCopy.toPostgres(from: w.warehouse, to: url)
        XCTAssertEqual(there.tables.first { $0.table == "asset" }?.rows, nasty.count + 1)
        // psql reads what PostgreSQL holds, independently of FleetKit's COPY reader.
        let names = try PostgresTestCluster.psql(url.text, "SELECT string_agg(encode(convert_to(coalesce(name, '<null>'), 'UTF8'), 'hex'), ',' ORDER BY id) FROM asset")
        let expected = (nasty + ["<null>"]).map { Data($0.utf8).map { String(format: "%02x", $0) }.joined() }.joined(separator: ",")
        XCTAssertEqual(names.trimmingCharacters(in: .whitespacesAndNewlines), expected)

        let back = w.directory.appendingPathComponent("back.sqlite").path
        _ = try WarehouseCopy.toSQLite(from: url, to: back)
        let copy = try DatabaseQueue(path: back)
        let original = try w.rows("SELECT id, unit_number, name, year, target_hours_per_week, acquisition_cost_minor FROM asset ORDER BY id")
        let returned = try copy.read { db in try Row.fetchAll(db, sql: "SELECT id, unit_number, name, year, target_hours_per_week, acquisition_cost_minor FROM asset ORDER BY id") }
        XCTAssertEqual(returned, original)
        // Every double to the bit (Row equality would take -0.0 for 0.0).
        let bits = { (rows: [Row]) in rows.map { ($0["target_hours_per_week"] as Double?)?.bitPattern } }
        XCTAssertEqual(bits(returned), bits(original))
    }

    func testAFailedCopyLeavesTheTargetEmpty() throws {
        let w = try TestWarehouse()
        // A database that already holds a warehouse table is refused before anything is written;
        // one where a CREATE fails midway (a view in the way) keeps nothing of the copy.
        try w.warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO asset (id, unit_number) VALUES (1, 'A')")
        }
        let url = PostgresURL(try PostgresTestCluster.newDatabase())!
        _ = try PostgresTestCluster.psql(url.text, "CREATE TABLE position (x int)")
        XCTAssertThrowsError(try WarehouseCopy.toPostgres(from: w.warehouse, to: url)) { error in
            XCTAssertTrue("\(error)".contains("already holds warehouse tables"), "\(error)")
        }
        _ = try PostgresTestCluster.psql(url.text, "DROP TABLE position; CREATE TABLE blocker (x int); CREATE VIEW asset AS SELECT 1 AS id")
        XCTAssertThrowsError(try WarehouseCopy.toPostgres(from: w.warehouse, to: url))
        let tables = try PostgresTestCluster.psql(url.text, "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')")
        XCTAssertEqual(tables.trimmingCharacters(in: .whitespacesAndNewlines), "blocker", "the failed copy's transaction left no table behind")
    }
}
