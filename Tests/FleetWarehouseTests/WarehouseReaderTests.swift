import Foundation
import GRDB
import XCTest
import FleetTestSupport
@testable import FleetWarehouse

/// The read boundary's engine differences: parameters, times, truth values and row order read
/// alike from SQLite and from PostgreSQL (the real throwaway cluster). Expected instants come
/// from psql's own `extract(epoch …)`, not from FleetKit's decoding.
final class WarehouseReaderTests: XCTestCase {
    /// SQLite numbers a bare `?` one past the largest number so far (sqlite.org/lang_expr.html,
    /// "Parameters"); quotes and comments keep their question marks.
    func testPostgresPlaceholdersAreNumberedAsSQLiteNumbersThem() {
        let d = PostgresDialect()
        XCTAssertEqual(d.statement("SELECT ?1, '?', \"a?\", 'it''s ?' -- ?\n, ?, ?5, ?"),
                       "SELECT $1, '?', \"a?\", 'it''s ?' -- ?\n, $2, $5, $6")
        XCTAssertEqual(d.statement("a = ? AND b = ? OR c = ?1"), "a = $1 AND b = $2 OR c = $1")
        XCTAssertEqual(SQLiteDialect().statement("a = ?1"), "a = ?1")
        XCTAssertEqual(d.ascending("label", text: true), "(label) COLLATE \"C\" NULLS FIRST")
        XCTAssertEqual(SQLiteDialect().ascending("label", text: true), "label")
    }

    /// A machine without PostgreSQL skips the PostgreSQL tests, except under CI, where a lost
    /// install step must turn the run red rather than skip them all. `PG_BIN` pointing at an
    /// empty folder stands for the missing install.
    func testMissingPostgresSkipsForADeveloperAndFailsUnderCI() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-pg-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for ci in [nil, "", "0", "false"] {
            var env = ["PG_BIN": empty.path]
            env["CI"] = ci
            XCTAssertThrowsError(try PostgresTestCluster.requireServer(env), "CI=\(ci ?? "unset")") { XCTAssertTrue($0 is XCTSkip, "CI=\(ci ?? "unset"): \($0)") }
        }
        for ci in ["true", "1", "yes"] {
            XCTAssertThrowsError(try PostgresTestCluster.requireServer(["PG_BIN": empty.path, "CI": ci])) { error in
                XCTAssertFalse(error is XCTSkip, "CI=\(ci) must fail, not skip")
                XCTAssertTrue("\(error)".contains("CI is set"), "\(error)")
            }
        }
    }

    /// Skipped without PostgreSQL on a developer's machine, failed under CI (`PostgresTestCluster.requireServer`).
    private func installed() throws { try PostgresTestCluster.requireServer() }

    func testTimestamptzDecodesToThePostgresEpochMilliseconds() throws {
        try installed()
        let url = try PostgresTestCluster.newDatabase()
        let times = ["1970-01-01 00:00:00+00", "2026-10-01 12:34:56.789+00", "1969-12-31 23:59:59.999+00",
                     "2026-03-08 08:00:00.5+00", "2026-10-01 00:00:00.123456+00", "2199-12-31 23:59:59+00"]
        _ = try PostgresTestCluster.psql(url, "CREATE TABLE t (i bigint, at timestamptz); INSERT INTO t VALUES "
            + times.enumerated().map { "(\($0.offset), '\($0.element)')" }.joined(separator: ", "))
        // psql's reading: whole milliseconds since the epoch, the rest cut off.
        let expected = try PostgresTestCluster.psql(url, "SELECT floor(extract(epoch FROM at) * 1000)::bigint FROM t ORDER BY i")
            .split(separator: "\n").map { Int64($0)! }
        let reader = PostgresReader(try PostgresConnection(PostgresURL(url)!))
        XCTAssertEqual(try reader.column("SELECT at FROM t ORDER BY i", as: Int64.self), expected)
        // An instant argument compares with the timestamptz column it meets: from the epoch to
        // just after 2026-10-01 12:34:56.789 are rows 0, 1, 3 and 4 (not 1969 nor 2199).
        XCTAssertEqual(try reader.value("SELECT COUNT(*) FROM t WHERE at >= ?1 AND at < ?2", [.instant(0), .instant(expected[1] + 1)], as: Int.self), 4)
    }

    /// The same table on both engines, the same query, the same decoded rows: sums, truth values
    /// selected alone, a CASE truth value, times, NULL order and text in byte order.
    func testOneQueryReadsTheSameOnBothEngines() throws {
        try installed()
        let rows: [(Int64, String?, Double?, Int64)] = [(1, "T10", 1.5, 1_759_276_800_000), (2, "T-10", nil, 1_759_276_860_500),
                                                        (3, nil, 2.25, 1_759_363_200_000), (4, "t9", 0, 1_759_276_800_001), (5, "Ä1", 3, 1_759_449_600_000)]
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE r (id INTEGER PRIMARY KEY, name TEXT, v REAL, at INTEGER NOT NULL)")
            for r in rows { try db.execute(sql: "INSERT INTO r VALUES (?, ?, ?, ?)", arguments: [r.0, r.1, r.2, r.3]) }
        }
        let url = try PostgresTestCluster.newDatabase()
        _ = try PostgresTestCluster.psql(url, "CREATE TABLE r (id bigint PRIMARY KEY, name text, v double precision, at timestamptz NOT NULL); INSERT INTO r VALUES "
            + rows.map { "(\($0.0), \($0.1.map { "'\($0)'" } ?? "NULL"), \($0.2.map { "\($0)" } ?? "NULL"), 'epoch'::timestamptz + \($0.3) * interval '1 millisecond')" }.joined(separator: ", "))
        let pg = PostgresReader(try PostgresConnection(PostgresURL(url)!))
        func read(_ reader: any WarehouseReader) throws -> [[WarehouseCell]] {
            let d = reader.dialect
            var out = try reader.all("SELECT id, name, at FROM r WHERE at >= ?1 ORDER BY \(d.ascending("name", text: true))", [.instant(1_759_276_800_000)]) { $0.cells }
            out += try reader.all("""
                SELECT COUNT(*), SUM(COALESCE(v, 0)), COUNT(v) > 0, MAX(at),
                       CASE WHEN MAX(CASE WHEN v > 2 THEN 1 ELSE 0 END) = 1 OR (COUNT(v) > 3 AND MAX(at) > MIN(at)) THEN 1 ELSE 0 END
                FROM r WHERE 1 = 1 AND at < ?
                """, [.instant(1_759_449_600_000)]) { $0.cells }
            // Text compared and joined by bytes: names above "T10", and every name in order.
            out += try reader.all("SELECT COUNT(*) FROM r WHERE \(d.binary("name")) > ?1", [.text("T10")]) { $0.cells }
            out += try reader.all("""
                SELECT \(d.joinedText("x.name", separator: "'|'", order: "x.name")) FROM (SELECT name FROM r WHERE name IS NOT NULL ORDER BY \(d.ascending("name", text: true))) x
                """) { $0.cells }
            return out
        }
        let sqlite = try queue.read { db in try read(SQLiteReader(db)) }
        XCTAssertEqual(try read(pg), sqlite)
        // Worked out by hand: NULL first, then bytes ("T-10" < "T10" < "t9" < "Ä1"); the sums and flags of rows 1–4.
        XCTAssertEqual(sqlite.prefix(5).map { $0[0] }, [.integer(3), .integer(2), .integer(1), .integer(4), .integer(5)])
        XCTAssertEqual(sqlite[5], [.integer(4), .real(3.75), .integer(1), .integer(1_759_363_200_000), .integer(1)])
        // By hand: "t9" (0x74) and "Ä1" (0xC3 0x84) are above "T10" (0x54 0x31) in bytes.
        XCTAssertEqual(sqlite[6], [.integer(2)])
        XCTAssertEqual(sqlite[7], [.text("T-10|T10|t9|Ä1")])
        XCTAssertTrue(try pg.tableExists("r"))
        XCTAssertFalse(try pg.tableExists("period_close"))
        // Column questions (an older warehouse may lack a later column): the table made above.
        XCTAssertTrue(try pg.columnExists("name", in: "r"))
        XCTAssertFalse(try pg.columnExists("medical_expiry", in: "r"))
        XCTAssertFalse(try pg.columnExists("name", in: "no_such_table"))
        try queue.read { db in
            XCTAssertTrue(try SQLiteReader(db).columnExists("name", in: "r"))
            XCTAssertFalse(try SQLiteReader(db).columnExists("medical_expiry", in: "r"))
        }
    }
}
