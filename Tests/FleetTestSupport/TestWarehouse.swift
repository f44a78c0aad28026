import Foundation
import GRDB
import FleetKit

/// A fresh warehouse in its own temporary folder, with helpers that tests share.
public struct TestWarehouse {
    public let warehouse: Warehouse
    public let directory: URL

    public init(busyTimeout: TimeInterval = Warehouse.defaultBusyTimeout) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        warehouse = try Warehouse(path: directory.appendingPathComponent("fleet.sqlite").path, busyTimeout: busyTimeout)
    }

    /// Opens an existing warehouse file (one a subprocess wrote, say).
    public init(existing path: String) throws {
        directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        warehouse = try Warehouse(path: path)
    }

    /// Imports paths the way `fleetkit import` does.
    @discardableResult
    public func importFiles(_ paths: [String], options: ImportOptions = ImportOptions()) throws -> ImportSummary {
        try ImportSession(warehouse: warehouse).run(paths, options: options, command: "test")
    }

    @discardableResult
    public func importFile(_ url: URL, options: ImportOptions = ImportOptions()) throws -> FileOutcome {
        let s = try importFiles([url.path], options: options)
        return s.files[0]
    }

    public func count(_ table: String, where condition: String = "1") throws -> Int {
        try warehouse.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(condition)") ?? 0 }
    }

    public func rows(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try warehouse.pool.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
    }

    /// Every fact, rendered as sorted text lines with ids replaced by natural names, so two
    /// warehouses built in different orders can be compared.
    public func factDump(tables: [String] = ["asset", "asset_identifier", "driver", "assignment", "maintenance_record", "service_schedule",
                                           "expense", "fuel_purchase", "dvir", "dvir_defect", "meter_reading", "position"]) throws -> [String] {
        try warehouse.pool.read { db in
            var lines: [String] = []
            for table in tables {
                let columns = try db.columns(in: table).map(\.name).filter { $0 != "id" && $0 != "source_file_id" && $0 != "dvir_id" && $0 != "linked_to" }
                let select = columns.map { c -> String in
                    c == "asset_id" ? "(SELECT COALESCE(unit_number, vin, pin, 'auto') FROM asset WHERE id = t.asset_id)"
                        : c == "driver_id" ? "(SELECT COALESCE(employee_id, license_number, name) FROM driver WHERE id = t.driver_id)" : "t.\(c)"
                }.joined(separator: ", ")
                for row in try Row.fetchAll(db, sql: "SELECT \(select) FROM \(table) t") {
                    lines.append(table + ": " + row.databaseValues.map { $0.description }.joined(separator: "|"))
                }
            }
            return lines.sorted()
        }
    }

    /// Writes a file into the test folder and returns its URL.
    public func write(_ text: String, to name: String) throws -> URL {
        try write(Data(text.utf8), to: name)
    }

    public func write(_ data: Data, to name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }
}

/// A fixture beside the calling test file: `Tests/<Target>/Fixtures/<path>`.
/// Writes an SQLite database of another application (a rollback-journal file with one table and
/// one row), for the tests that check FleetKit refuses it and leaves it untouched.
public func writeForeignSQLite(at url: URL) throws {
    let queue = try DatabaseQueue(path: url.path)
    try queue.write { db in
        try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
        try db.execute(sql: "INSERT INTO notes(body) VALUES ('keep me')")
    }
    try queue.close()
}

public func fixture(_ path: String, file: StaticString = #filePath) -> URL {
    URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(path)
}

extension SourceFile {
    /// A stored `source_file` row, for tests that load records through a sink directly (every
    /// fact row names its file). Each call stores a new row.
    public static func insertedForTest(_ db: Database) throws -> SourceFile {
        var file = SourceFile(path: "x", sha256: UUID().uuidString, format: "test", bytes: 1, importedAt: 0, status: "imported",
                              loaded: 0, updated: 0, unchanged: 0, rejected: 0)
        try file.insert(db)
        return file
    }
}
