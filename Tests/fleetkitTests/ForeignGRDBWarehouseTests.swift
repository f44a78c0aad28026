import XCTest
import Foundation
import GRDB
import FleetTestSupport

/// Another application's GRDB database has a `grdb_migrations` table just like a warehouse.
/// Every command that opens a warehouse must refuse it with exit 2 before changing anything: no
/// switch to WAL, no FleetKit table, no chmod; the file stays byte for byte and keeps its mode.
final class ForeignGRDBWarehouseTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-grdb-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A GRDB application's database as such an application writes it: its own migrations
    /// (one of them named like FleetKit's first), its own tables, a rollback journal, mode 0644.
    private func grdbApp(_ name: String, migrations: [String]) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let queue = try DatabaseQueue(path: url.path)
        var migrator = DatabaseMigrator()
        for id in migrations {
            migrator.registerMigration(id) { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
                try db.execute(sql: "INSERT INTO player(name, score) VALUES ('Arthur', 100)")
            }
        }
        try migrator.migrate(queue)
        try queue.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        return url
    }

    /// An SQLite file with no table but another application's `application_id` (GeoPackage's).
    private func emptyWithOtherApplicationID() throws -> URL {
        let url = dir.appendingPathComponent("geopackage.gpkg")
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 1196444487") }
        try queue.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        return url
    }

    func testAnotherGRDBApplicationsDatabaseIsRefusedBeforeAnyChange() throws {
        let cases: [(URL, String)] = [
            (try grdbApp("game.sqlite", migrations: ["v1", "createPlayers"]), "GRDB migrations: 'v1', 'createPlayers'"),
            (try grdbApp("lookalike.sqlite", migrations: ["v1-schema"]), "GRDB migrations: 'v1-schema'"),
            (try emptyWithOtherApplicationID(), "application id 0x47504b47"),
        ]
        let assets = WarehouseFailureTests.sampleData.appendingPathComponent("master/assets.csv").path
        for (file, detail) in cases {
            let before = try Data(contentsOf: file)
            for args in [["import", "--db", file.path, assets], ["status", "--db", file.path],
                         ["report", "cost", "--db", file.path, "--month", "2026-10", "--format", "json", "--out", dir.appendingPathComponent("out").path],
                         ["init", "--db", file.path]] {
                let r = try Fleetkit.run(args)
                XCTAssertEqual(r.status, 2, "\(args[0]) on \(file.lastPathComponent): \(r.stdout) \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("an SQLite database of another application"), "\(args[0]) on \(file.lastPathComponent): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(detail), "\(args[0]) on \(file.lastPathComponent): \(r.stderr)")
                XCTAssertEqual(try Data(contentsOf: file), before, "\(args[0]) changed \(file.lastPathComponent)")
                let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as! Int
                XCTAssertEqual(mode, 0o644, "\(args[0]) changed the mode of \(file.lastPathComponent)")
            }
            let sidecars = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(file.lastPathComponent + "-") }
            XCTAssertEqual(sidecars, [], "a rollback-journal database was given WAL files")
            // Still the other application's: a rollback journal, its tables only.
            let queue = try DatabaseQueue(path: file.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            try queue.read { db in
                XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "delete")
                XCTAssertFalse(try db.tableExists("source_file"))
            }
            try queue.close()
        }
    }
}
