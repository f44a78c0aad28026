import Foundation
import GRDB
import FleetCore

/// The SQLite warehouse: one file, WAL, foreign keys on, a busy timeout, migrated on open.
///
/// A `DatabasePool` lets a report read a consistent snapshot while an import writes. Imports
/// write one file per transaction (`BEGIN IMMEDIATE`), so a crash or a kill leaves no half file.
public final class Warehouse: Sendable {
    public let path: String
    public let pool: DatabasePool

    /// SQLite busy timeout: how long a writer waits for another writer before giving up.
    public static let defaultBusyTimeout: TimeInterval = 30

    /// Opens (creating if needed) and migrates the warehouse at `path`.
    ///
    /// - throws: `FleetError.warehouse` naming the file, what failed and what to do.
    public init(path: String, busyTimeout: TimeInterval = Warehouse.defaultBusyTimeout, readOnly: Bool = false) throws {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeout)
        config.readonly = readOnly
        config.label = "fleetkit"
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !readOnly, !FileManager.default.fileExists(atPath: path) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
                throw FleetError.warehouse(path: path, reason: "the folder \(directory) does not exist",
                                           hint: "Create the folder first, or pass another --db path.")
            }
            guard FileManager.default.isWritableFile(atPath: directory) else {
                throw FleetError.warehouse(path: path, reason: "the folder \(directory) is not writable",
                                           hint: "Choose another --db path or fix the folder's permissions.")
            }
            // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the
            // database file's mode, so they never exist readable by others, even after a kill.
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        if FileManager.default.fileExists(atPath: path) { try Warehouse.refuseForeign(path, busyTimeout: busyTimeout) }
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw Warehouse.explain(error, path: path, doing: "open")
        }
        if !readOnly {
            do {
                try pool.writeWithoutTransaction { db in
                    // Set after open: GRDB's WAL setup resets `synchronous` after prepareDatabase.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
                try WarehouseMigrator.migrator.migrate(pool)
            } catch {
                throw Warehouse.explain(error, path: path, doing: "migrate")
            }
            // The warehouse holds VINs, driver names and card digits: readable by its owner only.
            chmod(path, 0o600)
        }
    }

    /// Refuses an SQLite file of another application before the pool opens it: opening would
    /// switch it to WAL, and migrating would add FleetKit's tables to it. A warehouse has
    /// `grdb_migrations`; an empty database (no tables) is a new warehouse.
    static func refuseForeign(_ path: String, busyTimeout: TimeInterval) throws {
        var probe = Configuration()
        probe.readonly = true
        probe.busyMode = .timeout(busyTimeout)
        let tables: [String]
        do {
            tables = try DatabaseQueue(path: path, configuration: probe).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            }
        } catch {
            throw Warehouse.explain(error, path: path, doing: "open")
        }
        if !tables.isEmpty, !tables.contains("grdb_migrations") {
            throw FleetError.warehouse(path: path, reason: "it is an SQLite database of another application (tables: \(tables.prefix(3).joined(separator: ", "))), not a FleetKit warehouse",
                                       hint: "Point --db at a FleetKit warehouse or a new file; FleetKit never changes an unknown file.")
        }
    }

    /// Turns SQLite errors into messages a night operator can act on.
    public static func explain(_ error: Error, path: String, doing verb: String) -> FleetError {
        if let e = error as? FleetError { return e }
        if let db = error as? DatabaseError {
            switch db.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .warehouse(path: path, reason: "it is locked by another process (waited for the busy timeout)",
                                  hint: "Another import or the nightly job is writing; retry when it has finished.")
            case .SQLITE_READONLY:
                return .warehouse(path: path, reason: "it is read-only",
                                  hint: "Check the file's and folder's permissions, or pass a writable --db.")
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .warehouse(path: path, reason: "the file is not a FleetKit warehouse or is corrupt (\(db.message ?? "not a database"))",
                                  hint: "Point --db at the warehouse, or restore it from a backup; FleetKit never overwrites an unknown file.")
            case .SQLITE_CANTOPEN:
                // A read-only file system (or file) fails the open, not the first write, in WAL mode.
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                if FileManager.default.fileExists(atPath: path),
                   !FileManager.default.isWritableFile(atPath: path) || !FileManager.default.isWritableFile(atPath: folder) {
                    return .warehouse(path: path, reason: "it is read-only (the file or its folder cannot be written, e.g. a read-only file system)",
                                      hint: "Check the file's and folder's permissions and mounts, or pass a writable --db.")
                }
                return .warehouse(path: path, reason: "cannot open the file", hint: "Check that its folder exists and is readable.")
            case .SQLITE_FULL:
                return .warehouse(path: path, reason: "the disk is full", hint: "Free space; the last file's import was rolled back and can be retried.")
            default:
                return .warehouse(path: path, reason: "SQLite error during \(verb): \(db.message ?? db.description)",
                                  hint: "Run `fleetkit status` to check the warehouse.")
            }
        }
        return .warehouse(path: path, reason: "\(verb) failed: \(error)", hint: "Run `fleetkit status` to check the warehouse.")
    }

    // MARK: Settings

    public func setting(_ key: String) throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try pool.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }
}
