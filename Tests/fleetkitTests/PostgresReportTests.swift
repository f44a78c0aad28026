import Foundation
import XCTest
import FleetTestSupport
import FleetKit

/// Reports are identical on both engines: the sample fleet imported into SQLite, copied by
/// `fleetkit warehouse copy` to a throwaway PostgreSQL 15 on loopback (PostgresTestCluster),
/// and every report that runs on PostgreSQL rendered as JSON from each. The two documents must
/// be equal apart from `differing`, the fields that legitimately differ between two runs.
final class PostgresReportTests: XCTestCase {
    /// The reports that run on PostgreSQL (`ReportRegistry.portable`), named here rather than
    /// read from the registry, so that porting one more is a change a reviewer sees here.
    static let portable = ["summary", "cost", "utilization", "maintenance-due", "dvir-compliance", "trips"]
    /// Report metadata fields that differ between any two runs, whatever the engine: the clock
    /// time of the run. Nothing in the JSON names the warehouse (file or URL).
    static let differing: Set<String> = ["generated_at"]

    private static let sample: Result<String, Error> = Result {
        let w = try TestWarehouse()
        let root = NightlySetup.sampleData
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .filter { $0 != "bad" && $0 != "README.md" }.map { root.appendingPathComponent($0).path }
        _ = try w.importFiles(folders)
        // A vendor's daily totals, so that the utilization report's vendor_totals table (and its
        // sums over asset_day and fuel_purchase) is compared on both engines too.
        let profiles = w.directory.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try """
            name: portal-daily
            target: period_totals
            constants: {source: acme-portal}
            columns:
              Vehicle: unit_number
              From: period_start
              To: period_end
              Distance (km): {field: distance, unit: km}
              Engine Hours: {field: engine_hours, unit: h}
              Fuel Purchased (L): {field: fuel_purchased, unit: L}
            """.write(to: profiles.appendingPathComponent("portal-daily.yml"), atomically: true, encoding: .utf8)
        let totals = try w.write("Vehicle,From,To,Distance (km),Engine Hours,Fuel Purchased (L)\nT-01,2026-10-05,2026-10-05,88.5,3.25,40\nT-02,2026-10-01,2026-10-31,1500,90,300\n", to: "portal-daily.csv")
        var options = ImportOptions()
        options.profileFolders = [profiles.path]
        _ = try w.importFiles([totals.path], options: options)
        // October closed, then restated by two foreign-currency expenses (a CAD toll on a day
        // with a rate, EUR parts on a Saturday, which takes Friday's rate), so the cost report's
        // conversion, its closed-month and restatement rows are compared on both engines.
        let path = w.warehouse.path
        let close = try Fleetkit.run(["close", "2026-10", "--db", path])
        guard close.status == 0 else { throw CopyFailed(stderr: close.stderr) }
        let restating = try w.write(PostgresReportTests.restatingExpenses, to: "expenses-restated-2026-10.csv")
        let restate = try Fleetkit.run(["import", "--db", path, "--allow-restatement", restating.path])
        guard restate.status == 0 else { throw CopyFailed(stderr: restate.stderr) }
        // T-12's diesel receipt (the sample's misfuel; its key is the image's SHA-256) rejected at
        // review, so the cost report's rejected row, its decision text and the restatement it
        // records are compared on both engines too.
        let reject = try Fleetkit.run(["review", "exception", "reject", PostgresReportTests.misfuel, "--reason", "not our van: a hire car's fill",
                                       "--by", "auditor", "--allow-restatement", "--db", path])
        guard reject.status == 0 else { throw CopyFailed(stderr: reject.stderr) }
        return path
    }

    static let misfuel = "receipt:70ed4c115157498ced54db16ef6201cbb94358b440053bda0b98995900a2aa59/misfuel"

    /// Expenses imported after October is closed (the sample's expense columns).
    static let restatingExpenses = """
        expense_id,date,category,amount,currency,vendor,description,unit_number
        EXP-PG-0001,2026-10-20,tolls,45.00,CAD,Ontario 407 ETR,Cross-border toll,T-01
        EXP-PG-0002,2026-10-24,parts,120.00,EUR,Rotterdam Truck Parts,Mirror assembly,T-01

        """

    /// The sample warehouse copied to a new database of the test cluster, once per process.
    private static let copied: Result<(sqlite: String, url: String), Error> = Result {
        let source = try sample.get()
        let url = try PostgresTestCluster.newDatabase()
        let r = try Fleetkit.run(["warehouse", "copy", "--from", source, "--to", url])
        guard r.status == 0 else { throw CopyFailed(stderr: r.stderr) }
        return (source, url)
    }

    private struct CopyFailed: Error { let stderr: String }

    /// Skipped without PostgreSQL on a developer's machine, failed under CI (`PostgresTestCluster.requireServer`).
    override func setUpWithError() throws { try PostgresTestCluster.requireServer() }

    private func json(_ report: String, db: String, month: String, _ extra: [String] = []) throws -> [String: Any] {
        let r = try Fleetkit.run(["report", report, "--month", month, "--format", "json", "--out", "-", "--allow-partial", "--db", db] + extra)
        XCTAssertEqual(r.status, 0, "\(report) on \(db): \(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object, "\(report): \(r.stdout.prefix(200))")
    }

    /// `value` with the `differing` keys removed at every level, for comparison.
    private func comparable(_ value: Any) -> Any {
        if let d = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in d where !Self.differing.contains(k) { out[k] = comparable(v) }
            return out
        }
        if let a = value as? [Any] { return a.map(comparable) }
        return value
    }

    func testPortableReportsAreIdenticalOnBothEngines() throws {
        let (sqlite, url) = try Self.copied.get()
        for month in ["2026-10", "2026-09"] {
            for report in Self.portable {
                let a = try json(report, db: sqlite, month: month)
                let b = try json(report, db: url, month: month)
                // The fields set aside are there on both sides: they are set aside, not missing.
                for key in Self.differing {
                    XCTAssertNotNil((a["metadata"] as? [String: Any])?[key] ?? a[key], "\(report): \(key)")
                    XCTAssertNotNil((b["metadata"] as? [String: Any])?[key] ?? b[key], "\(report): \(key)")
                }
                let left = try JSONSerialization.data(withJSONObject: comparable(a), options: [.sortedKeys])
                let right = try JSONSerialization.data(withJSONObject: comparable(b), options: [.sortedKeys])
                XCTAssertEqual(String(decoding: right, as: UTF8.self), String(decoding: left, as: UTF8.self), "\(report) \(month): PostgreSQL differs from SQLite")
            }
        }
        // Cost in another report currency: every row converted through two rates, on both engines.
        let left = try JSONSerialization.data(withJSONObject: comparable(try json("cost", db: sqlite, month: "2026-10", ["--currency", "EUR"])), options: [.sortedKeys])
        let right = try JSONSerialization.data(withJSONObject: comparable(try json("cost", db: url, month: "2026-10", ["--currency", "EUR"])), options: [.sortedKeys])
        XCTAssertEqual(String(decoding: right, as: UTF8.self), String(decoding: left, as: UTF8.self), "cost in EUR: PostgreSQL differs from SQLite")
        // The October report has rows to compare (not two empty documents).
        let october = try json("utilization", db: url, month: "2026-10")
        let tables = october["tables"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan((tables.first?["rows"] as? [Any])?.count ?? 0, 20)
        XCTAssertEqual((tables.first { $0["name"] as? String == "vendor_totals" }?["rows"] as? [Any])?.count, 6, "two periods × three measures")
        // Maintenance due has service rows, open fault codes and PM compliance rows in October
        // (counted by sqlite3 on the sample warehouse: 8 open codes), so each of its tables is compared.
        let maintenance = try json("maintenance-due", db: url, month: "2026-10")
        let counts = (maintenance["tables"] as? [[String: Any]] ?? []).map { ($0["rows"] as? [Any])?.count ?? 0 }
        XCTAssertEqual(counts.count, 3, "\(counts)")
        XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(counts)")
        XCTAssertEqual(counts.dropFirst().first, 8, "open fault codes")
        // DVIR compliance has its register (one row per defect, one per DVIR without defects:
        // 1,023 in October, counted by sqlite3 over dvir LEFT JOIN dvir_defect), findings and
        // violations, so the chain rules and the movement checks are compared, not empty tables.
        let dvir = try json("dvir-compliance", db: url, month: "2026-10")
        let dvirTables = Dictionary((dvir["tables"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", ($0["rows"] as? [Any])?.count ?? 0) }) { a, _ in a }
        XCTAssertEqual(dvirTables["register"], 1023)
        XCTAssertGreaterThan(dvirTables["findings"] ?? 0, 0)
        XCTAssertGreaterThan(dvirTables["violations"] ?? 0, 0)
        // Cost has every cost row of October: 470, counted by sqlite3 on the sample warehouse
        // (expenses, fuel purchases not linked and with a total, maintenance records with a cost,
        // priced dispenses, in UTC days). The restating expenses are converted at the rate in
        // force (Python's Decimal, half-even: 45.00 CAD / 1.3808 = 32.59 USD; 120.00 EUR on
        // Saturday the 24th at Friday's 0.9266 = 129.51 USD), and October's data quality shows
        // it closed and its five restated figures (as `fleetkit import` printed them).
        let cost = try json("cost", db: url, month: "2026-10")
        let costTables = (cost["tables"] as? [[String: Any]] ?? [])
        let detail = costTables.first { $0["name"] as? String == "detail" }?["rows"] as? [[Any]] ?? []
        XCTAssertEqual(detail.count, 470)
        func converted(_ description: String) -> [String] {
            detail.first { ($0[5] as? String) == description }.map { ["\($0[7])", "\($0[9])"] } ?? []
        }
        XCTAssertEqual(converted("Cross-border toll"), ["CAD", "32.59"])
        XCTAssertEqual(converted("Mirror assembly"), ["EUR", "129.51"])
        let quality = Dictionary(((cost["data_quality"] as? [String: Any])?["rows"] as? [[Any]] ?? []).map { ("\($0[0])", "\($0[1])") }) { a, _ in a }
        XCTAssertEqual(quality["Closed months in the period"], "1")
        XCTAssertEqual(quality["Restatements of closed months"], "7", "five by the expenses, two (fuel and total) by the rejection")
        XCTAssertEqual(quality["Fuel purchases rejected at the review of a fuel exception (not counted)"], "1")
        XCTAssertEqual(quality["Costs without an exchange rate (excluded from totals)"], "0")
        // The summary repeats those reports' headlines: its dashboard has every figure, with the
        // 33 assets of the sample's master data (8 machines, counted by sqlite3).
        let summary = try json("summary", db: url, month: "2026-10")
        let dashboard = (summary["tables"] as? [[String: Any]] ?? []).first?["rows"] as? [[Any]] ?? []
        XCTAssertEqual(dashboard.count, 13)
        XCTAssertEqual(dashboard.first.map { "\($0[1]) \($0[3])" }, "33 25 vehicles and trailers, 8 machines")
    }

    /// A month whose cost detail is streamed (past `heldRowLimit`) writes from PostgreSQL the
    /// same CSV, JSON and HTML as the held rows from SQLite: each format runs the cost lines again
    /// in the PostgreSQL snapshot, and HTML's first rows stop that query early.
    func testStreamedCostDetailOnPostgresGivesTheFilesOfHeldRows() throws {
        let (sqlite, url) = try Self.copied.get()
        func request(_ limit: Int) -> ReportRequest {
            var r = ReportRequest(period: .month(2026, 10), generatedAt: 0)
            r.heldRowLimit = limit
            return r
        }
        let held = FileManager.default.temporaryDirectory.appendingPathComponent("pg-held-\(UUID())")
        let streamed = FileManager.default.temporaryDirectory.appendingPathComponent("pg-streamed-\(UUID())")
        defer { for d in [held, streamed] { try? FileManager.default.removeItem(at: d) } }
        let formats = ReportFormats.all.filter { $0.name != "xlsx" }
        let a = try ReportWriter(warehouse: try Warehouse(path: sqlite), formats: formats).write([CostReport.self], request: request(50_000), to: held, index: false)
        let b = try ReportWriter(postgres: try PostgresConnection(try XCTUnwrap(PostgresURL(url))), formats: formats)
            .write([CostReport.self], request: request(3), to: streamed, index: false)
        XCTAssertEqual(a.failures, [])
        XCTAssertEqual(b.failures, [])
        let detail = b.outputs.first?.tables.first { $0.name == "detail" }
        XCTAssertEqual(detail?.rows.count, 0, "streamed, not held")
        XCTAssertEqual(detail?.stream?.count, 470)
        let names = try FileManager.default.contentsOfDirectory(atPath: held.path).sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: streamed.path).sorted(), names)
        XCTAssertGreaterThanOrEqual(names.count, 3)
        for name in names {
            let x = try Data(contentsOf: held.appendingPathComponent(name)), y = try Data(contentsOf: streamed.appendingPathComponent(name))
            XCTAssertTrue(x == y, "\(name) differs between held rows on SQLite and streamed rows on PostgreSQL")
        }
    }

    /// A report that does not run on PostgreSQL yet exits 2 before connecting, naming the ones
    /// that do, with the password masked.
    func testUnportedReportIsRefusedNamingThePortableOnes() throws {
        let cluster = try PostgresTestCluster.cluster()
        let url = "postgresql://fleet:s3cr3t-pw@127.0.0.1:\(cluster.port)/no_such_db"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pg-refused-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        for name in ["fuel-exceptions", "all"] {
            let r = try Fleetkit.run(["report", name, "--month", "2026-10", "--format", "json", "--out", out.path, "--db", url])
            XCTAssertEqual(r.status, 2, "\(name): \(r.stderr)")
            XCTAssertFalse((r.stdout + r.stderr).contains("s3cr3t-pw"), r.stderr)
            XCTAssertTrue(r.stderr.contains("postgresql://fleet:***@127.0.0.1"), r.stderr)
            XCTAssertTrue(r.stderr.contains("on PostgreSQL these run: " + Self.portable.joined(separator: ", ")), r.stderr)
            XCTAssertEqual(r.stdout, "", name)
            XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [], [], "\(name): nothing written")
        }
        // A portable report gets as far as connecting: the missing database is libpq's error, masked.
        let r = try Fleetkit.run(["report", "utilization", "--month", "2026-10", "--format", "json", "--out", "-", "--db", url])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertFalse((r.stdout + r.stderr).contains("s3cr3t-pw"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot connect"), r.stderr)
    }
}
