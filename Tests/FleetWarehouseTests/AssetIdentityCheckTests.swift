import XCTest
import GRDB
import GRDBSQLite
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// `verify`'s asset-identity check at fleet scale: the same findings as comparing every asset
/// with every other, and work that grows as n log n with the assets, not as n².
///
/// The fleets are built here in SQL, with their conflicts planted by construction (which asset
/// carries which other's identifier is known from how the rows were written), and the expected
/// findings come from the direct comparison written below as plain SQL joins, independent of the
/// check's statements.
final class AssetIdentityCheckTests: XCTestCase {
    /// A fleet of `n` assets: even ids vehicles with VIN `VIN<id>`, odd ids machines with PIN
    /// `PIN<id>`, unit `U<id>`, each with its own vendor serial. Planted when `conflicts`:
    /// - id % 7 == 0 (a vehicle): its VIN is `" vin<id-2>"`, vehicle id−2's VIN in lower case with a space;
    /// - id % 11 == 0: its PIN is `VIN<id-1>` for odd ids (id−1 is a vehicle), `vin<id-3>` for even ones;
    /// - id % 13 == 0: its unit is `" U<id-1> "`;
    /// - id % 5 == 0: a second vendor serial, `pin<id-4>` (odd id−4: another machine's PIN, lower case),
    ///   or `VIN<id-2>` (even id−2: another vehicle's VIN);
    /// - id % 17 == 0: its PIN is its own VIN in lower case, and asset id−1 has a `vin` identifier
    ///   of the VIN (one identifier matching another asset's VIN and PIN both: listed once);
    /// - rows of assets 900001, 900003 (expense, twice and once) and 900002 (asset_day) that do not exist.
    static func fleet(_ n: Int, conflicts: Bool) throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.inTransaction {
                let asset = try db.makeStatement(sql: "INSERT INTO asset (id, unit_number, kind, vin, pin) VALUES (?, ?, ?, ?, ?)")
                let ident = try db.makeStatement(sql: "INSERT INTO asset_identifier (asset_id, source, id_type, id_value) VALUES (?, ?, ?, ?)")
                for id in 1...n {
                    var unit = "U\(id)", vin: String? = id % 2 == 0 ? "VIN\(id)" : nil, pin: String? = id % 2 == 1 ? "PIN\(id)" : nil
                    if conflicts {
                        if id % 7 == 0, id % 2 == 0, id > 2 { vin = " vin\(id - 2)" }
                        if id % 11 == 0, id > 3 { pin = id % 2 == 1 ? "VIN\(id - 1)" : "vin\(id - 3)" }
                        if id % 13 == 0, id > 1 { unit = " U\(id - 1) " }
                        if id % 17 == 0, let v = vin { pin = v.lowercased() }
                    }
                    try asset.execute(arguments: [id, unit, id % 2 == 0 ? "vehicle" : "equipment", vin, pin])
                    try ident.execute(arguments: [id, "jdlink", "serial_number", "S\(id)"])
                    guard conflicts else { continue }
                    if id % 5 == 0, id > 4 {
                        try ident.execute(arguments: [id, "komtrax", "serial_number", (id - 4) % 2 == 1 ? "pin\(id - 4)" : "VIN\(id - 2)"])
                    }
                    if id % 17 == 0, let v = vin, id > 1 { try ident.execute(arguments: [id - 1, "samsara", "vin", v]) }
                }
                if conflicts {
                    try db.execute(sql: """
                        INSERT INTO expense (source_key, asset_id, at, category, amount_minor, currency, source_file_id) VALUES
                            ('e1', 900003, 0, 'tolls', 100, 'USD', 1), ('e2', 900001, 0, 'tolls', 100, 'USD', 1), ('e3', 900003, 0, 'tolls', 100, 'USD', 1);
                        INSERT INTO asset_day (asset_id, day) VALUES (900002, '2026-10-01');
                        """)
                }
                return .commit
            }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        return t
    }

    static func findings(_ t: TestWarehouse) throws -> [VerifyFinding] {
        try t.warehouse.pool.read { db in
            var list = FindingList(check: "asset_identity", limit: Int.max)
            _ = try AssetIdentityCheck().run(db, VerifyContext(), &list)
            XCTAssertEqual(list.count, list.listed.count)
            return list.listed
        }
    }

    /// The findings the definition gives, by the direct comparison of every pair (n², fine for a
    /// few hundred assets). Where SQL leaves an order open (the assets of one shared key; one
    /// asset's several identifiers naming one other asset; the missing assets of one table), it
    /// is ascending.
    static func expected(_ t: TestWarehouse) throws -> [(asset: String, what: String)] {
        try t.warehouse.pool.read { db in
            var label: [Int64: String] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT id, COALESCE(unit_number, vin, pin, name, 'asset #' || id) FROM asset") { label[r[0]] = r[1] }
            func name(_ id: Int64) -> String { label[id] ?? "asset #\(id) (not in the asset table)" }
            var out: [(String, String)] = []
            for (column, what, key) in [("vin", "VIN", "UPPER(TRIM(vin))"), ("pin", "PIN", "UPPER(TRIM(pin))"), ("unit_number", "unit number", "TRIM(unit_number)")] {
                for r in try Row.fetchAll(db, sql: """
                    SELECT x.k, (SELECT GROUP_CONCAT(id) FROM (SELECT id FROM asset WHERE \(column) IS NOT NULL AND \(key) = x.k ORDER BY id))
                    FROM (SELECT DISTINCT \(key) AS k FROM asset WHERE \(column) IS NOT NULL) x
                    WHERE (SELECT COUNT(*) FROM asset WHERE \(column) IS NOT NULL AND \(key) = x.k) > 1 ORDER BY x.k
                    """) {
                    let ids = (r[1] as String).split(separator: ",").map { Int64($0)! }
                    out.append((name(ids[0]), "\(ids.count) assets share \(what) \(r[0] as String): " + ids.map(name).joined(separator: ", ")))
                }
            }
            for r in try Row.fetchAll(db, sql: "SELECT a.id, b.id, a.vin FROM asset a, asset b WHERE UPPER(TRIM(a.vin)) = UPPER(TRIM(b.pin)) AND a.id != b.id ORDER BY a.id, b.id") {
                out.append((name(r[0]), "VIN \(r[2] as String) of \(name(r[0])) is the PIN of \(name(r[1]))"))
            }
            for r in try Row.fetchAll(db, sql: """
                SELECT i.asset_id, a.id, i.source, i.id_type, i.id_value FROM asset_identifier i, asset a
                WHERE i.id_type IN ('serial_number', 'vin', 'pin') AND a.id != i.asset_id
                  AND (UPPER(TRIM(i.id_value)) = UPPER(TRIM(a.vin)) OR UPPER(TRIM(i.id_value)) = UPPER(TRIM(a.pin)))
                ORDER BY i.asset_id, a.id, i.source, i.id_type, i.id_value
                """) {
                out.append((name(r[0]), "\(r[2] as String) \(r[3] as String) \(r[4] as String) belongs to \(name(r[0])), but it is the VIN or PIN of \(name(r[1]))"))
            }
            for table in WarehouseMigrator.assetTables {
                for r in try Row.fetchAll(db, sql: """
                    SELECT asset_id, COUNT(*) FROM \(table) WHERE asset_id IS NOT NULL AND asset_id NOT IN (SELECT id FROM asset) GROUP BY asset_id ORDER BY asset_id
                    """) {
                    out.append((name(r[0]), "\(r[1] as Int) \(table) rows name asset #\(r[0] as Int64), which does not exist: every report leaves them out"))
                }
            }
            return out
        }
    }

    func testFindingsAreThoseOfComparingEveryPair() throws {
        let t = try Self.fleet(400, conflicts: true)
        let found = try Self.findings(t)
        let expected = try Self.expected(t)
        XCTAssertEqual(found.map(\.what), expected.map(\.what))
        XCTAssertEqual(found.map(\.asset), expected.map(\.asset))
        // The planted kinds are all there (so the comparison above compared something).
        XCTAssertTrue(found.contains { $0.what == "2 assets share VIN VIN12: U12, U14" }, "\(found.prefix(10))")
        XCTAssertTrue(found.contains { $0.what == "VIN VIN32 of U32 is the PIN of U33" }, "\(found.prefix(10))")
        XCTAssertTrue(found.contains { $0.what == "2 assets share unit number U25: U25,  U25 " }, "\(found.prefix(10))")
        XCTAssertTrue(found.contains { $0.what == "komtrax serial_number pin21 belongs to U25, but it is the VIN or PIN of U21" }, "\(found.prefix(10))")
        XCTAssertEqual(found.filter { $0.what.hasPrefix("samsara vin VIN34 belongs to U33") }.count, 1, "one identifier, one other asset: one finding")
        XCTAssertEqual(found.suffix(3).map(\.what), ["1 asset_day rows name asset #900002, which does not exist: every report leaves them out",
                                                     "1 expense rows name asset #900001, which does not exist: every report leaves them out",
                                                     "2 expense rows name asset #900003, which does not exist: every report leaves them out"])
        XCTAssertTrue(try Self.findings(Self.fleet(60, conflicts: false)).isEmpty, "a fleet without conflicts has no finding")
    }

    /// Counts SQLite's virtual-machine instructions (a progress handler called at every one)
    /// while the check runs: the same on any machine, however loaded, unlike its time.
    static func instructions(_ t: TestWarehouse) throws -> Int {
        try t.warehouse.pool.read { db in
            var count = 0
            try withUnsafeMutablePointer(to: &count) { counter in
                sqlite3_progress_handler(db.sqliteConnection, 1, { p in
                    p!.assumingMemoryBound(to: Int.self).pointee += 1
                    return 0
                }, UnsafeMutableRawPointer(counter))
                defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
                var list = FindingList(check: "asset_identity", limit: 0)
                _ = try AssetIdentityCheck().run(db, VerifyContext(), &list)
            }
            return count
        }
    }

    /// Four times the assets (and conflicts): n log n is about 4.7 times the work, n² 16 times.
    /// Comparing every asset with every other (the self-join on the normalised keys that no
    /// index served, before v13-verify-keys) did 16.0 times the work from 500 to 2,000 assets,
    /// counted the same way with Python's sqlite3 on the same SQLite; the check now 4.1 times.
    func testWorkGrowsAsNLogNWithTheAssets() throws {
        let small = try Self.instructions(Self.fleet(1000, conflicts: true))
        let large = try Self.instructions(Self.fleet(4000, conflicts: true))
        let ratio = Double(large) / Double(small)
        XCTAssertLessThan(ratio, 6, "\(small) → \(large) SQLite instructions for 4× the assets")
        XCTAssertGreaterThan(ratio, 3, "the check read the larger fleet: \(small) → \(large)")
    }

    /// The check's comparisons seek the normalised-key indexes (v13-verify-keys): in no query
    /// plan is a full scan nested in another loop.
    func testNoComparisonScansTheAssetsPerAsset() throws {
        let t = try Self.fleet(50, conflicts: true)
        let statements = AssetIdentityCheck.sharedKeys.map(\.1) + [AssetIdentityCheck.vinIsPin, AssetIdentityCheck.serialIsOther]
        try t.warehouse.pool.read { db in
            for sql in statements {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { (parent: $0[1] as Int, detail: $0[3] as String) }
                let scans = Dictionary(grouping: plan.filter { $0.detail.hasPrefix("SCAN ") }, by: \.parent)
                XCTAssertTrue(scans.values.allSatisfy { $0.count == 1 }, "a nested full scan in \(plan.map(\.detail)) of\n\(sql)")
            }
            let seeks = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + AssetIdentityCheck.serialIsOther).map { $0[3] as String }
            XCTAssertTrue(seeks.contains { $0.contains("asset_vin_key") } && seeks.contains { $0.contains("asset_pin_key") }, "\(seeks)")
        }
    }
}
