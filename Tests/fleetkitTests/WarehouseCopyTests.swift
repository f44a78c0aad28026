import Foundation
import XCTest
import FleetTestSupport

/// `fleetkit warehouse copy` against a real PostgreSQL 15 on loopback (PostgresTestCluster),
/// with the sample fleet's warehouse. What the copy must keep is read independently: the SQLite
/// side by Python's sqlite3 (Fixtures/warehouse-copy/sqlite_tables.py), the PostgreSQL side by
/// psql with SQL written here, never by FleetKit's own code.
final class WarehouseCopyTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/warehouse-copy/sqlite_tables.py").path

    /// The sample fleet (SampleData without bad/), imported once per test process.
    private static let sample: Result<String, Error> = Result {
        let w = try TestWarehouse()
        let root = NightlySetup.sampleData
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .filter { $0 != "bad" && $0 != "README.md" }.map { root.appendingPathComponent($0).path }
        let summary = try w.importFiles(folders)
        let rejected = summary.files.filter { $0.rejected > 0 }.map(\.path)
        guard rejected.isEmpty else { throw SampleRejected(files: rejected) }
        return w.warehouse.path
    }

    private struct SampleRejected: Error { let files: [String] }

    private struct TableFacts: Decodable {
        let columns: [[String]]
        let count: Int
        let sums: [String: Double]
        let md5: String
        let months: [String: Int]
    }

    private func python(_ arguments: [String]) throws -> Data {
        let r = try Tool.run("/usr/bin/python3", [Self.script] + arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        return Data(r.stdout.utf8)
    }

    private func copy(_ from: String, _ to: String) throws -> CommandResult {
        try Fleetkit.run(["warehouse", "copy", "--from", from, "--to", to])
    }

    /// The canonical row text of sqlite_tables.py, computed by PostgreSQL from its own column types.
    private func postgresFacts(_ url: String, table: String) throws -> (count: Int, md5: String) {
        let types = try PostgresTestCluster.psql(url, "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position")
            .split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).map(String.init) }
        let fields = types.map { c -> String in
            let v: String
            switch c[1] {
            case "timestamp with time zone": v = "((extract(epoch from \"\(c[0])\") * 1000)::bigint)::text"
            case "bigint": v = "\"\(c[0])\"::text"
            case "double precision": v = "encode(float8send(\"\(c[0])\"), 'hex')"
            case "text": v = "\"\(c[0])\""
            case "bytea": v = "encode(\"\(c[0])\", 'hex')"
            default: XCTFail("\(table).\(c[0]) has type \(c[1])"); v = "''"
            }
            return "coalesce(\(v), '\\N')"
        }
        let sql = "SELECT count(*) || '|' || md5(coalesce(string_agg(r, E'\\n' ORDER BY r COLLATE \"C\"), '')) FROM (SELECT concat_ws(E'\\x1f', \(fields.joined(separator: ", "))) AS r FROM \"\(table)\") s"
        let parts = try PostgresTestCluster.psql(url, sql).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
        return (Int(parts[0]) ?? -1, String(parts[1]))
    }

    func testSampleWarehouseCopiesToPostgresAndBackRowForRow() throws {
        let source = try Self.sample.get()
        let facts = try JSONDecoder().decode([String: TableFacts].self, from: python(["facts", source]))
        XCTAssertGreaterThan(facts["position"]?.count ?? 0, 1000)
        XCTAssertGreaterThan(facts["fuel_purchase"]?.count ?? 0, 10)

        let url = try PostgresTestCluster.newDatabase()
        let r = try copy(source, url)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("copied "), r.stdout)

        // Same tables and columns on both sides, and the same rows: counts, money, metres, checksum.
        let pgTables = try PostgresTestCluster.psql(url, "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1")
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(pgTables, facts.keys.sorted())
        for (table, f) in facts.sorted(by: { $0.key < $1.key }) {
            let pgColumns = try PostgresTestCluster.psql(url, "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position")
                .split(separator: "\n").map(String.init)
            XCTAssertEqual(pgColumns, f.columns.map { $0[0] }, table)
            let pg = try postgresFacts(url, table: table)
            XCTAssertEqual(pg.count, f.count, "\(table): row count")
            XCTAssertEqual(pg.md5, f.md5, "\(table): checksum of the rows")
            for (column, sum) in f.sums {
                let text = try PostgresTestCluster.psql(url, "SELECT coalesce(sum(\"\(column)\"), 0) FROM \"\(table)\"").trimmingCharacters(in: .whitespacesAndNewlines)
                XCTAssertEqual(Double(text) ?? .nan, sum, accuracy: max(1e-6, abs(sum) * 1e-12), "\(table).\(column): sum")
            }
        }
        XCTAssertGreaterThan(facts["fuel_purchase"]?.sums["total_minor"] ?? 0, 0, "the sample has money to compare")

        // Back into a new SQLite file: every table identical to the original, row for row.
        let back = FileManager.default.temporaryDirectory.appendingPathComponent("copy-back-\(UUID()).sqlite").path
        let b = try copy(url, back)
        XCTAssertEqual(b.status, 0, b.stderr)
        let diffs = try JSONDecoder().decode([String].self, from: python(["same", source, back]))
        XCTAssertEqual(diffs, [])
        let v = try Fleetkit.run(["verify", "--db", back])
        XCTAssertEqual(v.status, 0, v.stdout + v.stderr)
    }

    /// Native types, month partitions, and `asset_id` with the partition column in every key
    /// of the large tables (distribution by asset needs it; PostgreSQL requires the column).
    func testLargeTablesArePartitionedByMonthAndKeyedByAsset() throws {
        let source = try Self.sample.get()
        let facts = try JSONDecoder().decode([String: TableFacts].self, from: python(["facts", source]))
        let url = try PostgresTestCluster.newDatabase()
        XCTAssertEqual(try copy(source, url).status, 0)
        let partitioned = ["position": "at", "obd_sample": "at", "meter_reading": "at", "trip": "start_at"]
        for (table, column) in partitioned {
            XCTAssertEqual(try PostgresTestCluster.psql(url, "SELECT relkind FROM pg_class WHERE relname = '\(table)'").trimmingCharacters(in: .whitespacesAndNewlines), "p", table)
            let months = try PostgresTestCluster.psql(url, "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '\(table)'::regclass ORDER BY 1")
                .split(separator: "\n").map(String.init)
            let expected = facts[table]!.months.keys.map { "\(table)_" + $0.replacingOccurrences(of: "-", with: "_") } + ["\(table)_default"]
            XCTAssertEqual(months, expected.sorted(), table)
            let keys = try PostgresTestCluster.psql(url, "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = '\(table)'::regclass AND indisunique")
                .split(separator: "\n").map(String.init)
            XCTAssertFalse(keys.isEmpty, table)
            for key in keys {
                XCTAssertTrue(key.contains("asset_id") && key.contains("\(column)"), "\(table): \(key)")
            }
        }
        let types = try PostgresTestCluster.psql(url, "SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = 'public' AND (column_name = 'id' OR column_name LIKE '%\\_minor' OR column_name = 'at' OR column_name LIKE '%\\_at')")
            .split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(types.count, 40)
        for t in types {
            if t.contains(".id ") || t.contains("_minor ") { XCTAssertTrue(t.hasSuffix(" bigint"), t) } else { XCTAssertTrue(t.hasSuffix(" timestamp with time zone"), t) }
        }
    }

    /// An old month is detached in one statement: it leaves the table and keeps its rows.
    func testOldMonthPartitionDetaches() throws {
        let source = try Self.sample.get()
        let facts = try JSONDecoder().decode([String: TableFacts].self, from: python(["facts", source]))
        let url = try PostgresTestCluster.newDatabase()
        XCTAssertEqual(try copy(source, url).status, 0)
        let position = facts["position"]!
        let oldest = position.months.keys.sorted().first!
        let partition = "position_" + oldest.replacingOccurrences(of: "-", with: "_")
        _ = try PostgresTestCluster.psql(url, "ALTER TABLE position DETACH PARTITION \(partition)")
        func count(_ sql: String) throws -> Int { Int(try PostgresTestCluster.psql(url, sql).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        XCTAssertEqual(try count("SELECT count(*) FROM position"), position.count - position.months[oldest]!)
        XCTAssertEqual(try count("SELECT count(*) FROM \(partition)"), position.months[oldest]!)
        XCTAssertGreaterThan(position.months[oldest]!, 0)
        _ = try PostgresTestCluster.psql(url, "DROP TABLE \(partition)")
        XCTAssertEqual(try count("SELECT count(*) FROM position"), position.count - position.months[oldest]!)
    }

    func testCopyNeverMergesIntoAnotherWarehouse() throws {
        let source = try Self.sample.get()
        let url = try PostgresTestCluster.newDatabase()
        XCTAssertEqual(try copy(source, url).status, 0)
        let before = try PostgresTestCluster.psql(url, "SELECT count(*) FROM position")
        let again = try copy(source, url)
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("already holds warehouse tables"), again.stderr)
        XCTAssertEqual(try PostgresTestCluster.psql(url, "SELECT count(*) FROM position"), before)

        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("exists-\(UUID()).sqlite")
        try Data("keep".utf8).write(to: existing)
        let back = try copy(url, existing.path)
        XCTAssertEqual(back.status, 2)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep")
    }

    /// A password in the URL never reaches the output: the error shows the URL masked.
    func testPasswordIsNeverPrinted() throws {
        let source = try Self.sample.get()
        let cluster = try PostgresTestCluster.cluster()
        let url = "postgresql://fleet:s3cr3t-pw@127.0.0.1:\(cluster.port)/no_such_db"
        let r = try copy(source, url)
        XCTAssertEqual(r.status, 2)
        XCTAssertFalse((r.stdout + r.stderr).contains("s3cr3t-pw"), r.stderr)
        XCTAssertTrue(r.stderr.contains("postgresql://fleet:***@127.0.0.1"), r.stderr)

        let report = try Fleetkit.run(["status", "--db", url])
        XCTAssertEqual(report.status, 2)
        XCTAssertFalse((report.stdout + report.stderr).contains("s3cr3t-pw"), report.stderr)
        XCTAssertTrue(report.stderr.contains("warehouse copy"), report.stderr)
    }
}
