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

    /// Imports, the nightly job and every command but `warehouse copy` and the portable reports
    /// run on SQLite only (docs/OPERATIONS.md "PostgreSQL"): a PostgreSQL URL where a warehouse
    /// file is expected is refused by name, its password masked, and pointed to `fleetkit
    /// warehouse copy`, never taken for a file name.
    public static func refusePostgres(_ path: String) throws {
        guard PostgresURL.isPostgres(path) else { return }
        throw FleetError.warehouse(path: PostgresURL.mask(path),
                                   reason: "this does not run on PostgreSQL yet (there, only `fleetkit report` with a report that runs on PostgreSQL reads the warehouse); import, the nightly job and the other commands use the SQLite file",
                                   hint: "Keep --db (or warehouse:) on the SQLite file and publish it to PostgreSQL with `fleetkit warehouse copy --from fleet.sqlite --to \(PostgresURL.mask(path))`.")
    }

    /// Opens (creating if needed) and migrates the warehouse at `path`.
    ///
    /// - throws: `FleetError.warehouse` naming the file, what failed and what to do.
    public init(path: String, busyTimeout: TimeInterval = Warehouse.defaultBusyTimeout, readOnly: Bool = false) throws {
        try Warehouse.refusePostgres(path)
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeout)
        config.readonly = readOnly
        config.label = "fleetkit"
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        // A folder, FIFO or device at the warehouse's name (or its -wal, -shm, -journal) is no
        // warehouse: checked by stat, before SQLite opens it, so a FIFO cannot block the open
        // and a folder is named as one (SQLite said "disk I/O error").
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            if let problem = SafeOpen.notARegularFile(file) {
                throw FleetError.warehouse(path: path, reason: file == path ? problem : "\(file) beside it: \(problem)",
                                           hint: "Point --db at a warehouse file, or a new file name in an existing folder.")
            }
        }
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
        let openPath = readOnly ? try Warehouse.readOnlyOpenPath(path, directory: directory) : path
        var identity = WarehouseIdentity.empty
        if FileManager.default.fileExists(atPath: path) { identity = try Warehouse.refuseForeign(openPath, shownAs: path, busyTimeout: busyTimeout) }
        do {
            pool = try DatabasePool(path: openPath, configuration: config)
        } catch {
            throw Warehouse.explain(error, path: path, doing: "open")
        }
        if !readOnly {
            do {
                try pool.writeWithoutTransaction { db in
                    // Set after open: GRDB's WAL setup resets `synchronous` after prepareDatabase.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                    // A new file is stamped before the first migration: a kill part-way through
                    // creating it then leaves a file that is recognisably FleetKit's (and is
                    // completed on the next open), never an unstamped half schema that the next
                    // run would have to refuse as another application's database.
                    if identity == .empty { try Warehouse.stampApplicationID(db) }
                }
                try WarehouseMigrator.migrator.migrate(pool)
                try pool.writeWithoutTransaction { db in try Warehouse.stampApplicationID(db) }
            } catch {
                throw Warehouse.explain(error, path: path, doing: "migrate")
            }
            // The warehouse holds VINs, driver names and card digits: readable by its owner only.
            chmod(path, 0o600)
        }
    }

    /// Free bytes below which a folder counts as full for a reader: SQLite's WAL reader creates
    /// and sizes the `-shm` index beside the warehouse (32 KiB and more), which a full disk refuses.
    static let readerRoomBytes: UInt64 = 1 << 20

    /// What SQLite is given to open the warehouse read-only (`status`, `report`, `verify`).
    ///
    /// A WAL reader needs the `-shm` index beside the file, which it creates when absent; on a
    /// read-only file system, in a folder this user cannot write, or on a full disk that fails,
    /// and `status` could not show what the warehouse holds. When no `-wal` is beside the file
    /// (no connection has it open: a writer keeps its `-wal` until it closes, and could not
    /// create one there either), every committed page is in the file itself, so it is opened
    /// `immutable` (no `-shm`, no locks, nothing written). A non-empty `-wal` there without its
    /// `-shm` holds committed pages that cannot be read without writing the index: an error that
    /// says so, never a read of the file without them.
    static func readOnlyOpenPath(_ path: String, directory: String) throws -> String {
        var fs = statvfs()
        let unwritable = access(directory, W_OK) != 0
            || (statvfs(directory, &fs) == 0 && ((fs.f_flag & UInt(ST_RDONLY)) != 0 || UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < readerRoomBytes))
        guard unwritable, FileManager.default.fileExists(atPath: path) else { return path }
        var wal = stat()
        let walBytes = stat(path + "-wal", &wal) == 0 ? Int64(wal.st_size) : 0
        if walBytes == 0 { return "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? path) + "?immutable=1" }
        guard FileManager.default.fileExists(atPath: path + "-shm") else {
            throw FleetError.warehouse(path: path, reason: "its -wal (\(walBytes) bytes of committed changes) is beside it without its -shm index, in a folder that cannot be written (read-only, or the disk is full), so it cannot be read whole",
                                       hint: "Copy the warehouse with its -wal to writable storage and run the command there, or free space on the disk.")
        }
        return path
    }

    /// `PRAGMA application_id` of a FleetKit warehouse: "FLKT". Stamped when FleetKit opens a
    /// warehouse for writing, so that another application's database, even a GRDB one with its
    /// own `grdb_migrations`, is never mistaken for a warehouse (`WarehouseIdentity`).
    public static let applicationID: Int32 = 0x464C_4B54

    /// Refuses any SQLite file that is neither empty nor a FleetKit warehouse as FleetKit makes
    /// them (`WarehouseSchemaCheck`: no foreign triggers, views or constraints, no migration of
    /// a newer FleetKit), before the pool
    /// opens it: opening would switch it to WAL, migrating would add FleetKit's tables, and the
    /// chmod would take it from its owner. The probe is a read-only connection, which writes nothing.
    @discardableResult
    static func refuseForeign(_ openPath: String, shownAs path: String, busyTimeout: TimeInterval) throws -> WarehouseIdentity {
        var probe = Configuration()
        probe.readonly = true
        probe.busyMode = .timeout(busyTimeout)
        let identity: WarehouseIdentity
        do {
            let queue = try DatabaseQueue(path: openPath, configuration: probe)
            var schema: (reason: String, hint: String)? = nil
            identity = try queue.read { db in
                let identity = try WarehouseIdentity.of(db)
                if identity == .fleetKit || identity == .unstampedFleetKit { schema = try WarehouseSchemaCheck.problem(db) }
                return identity
            }
            try queue.close()
            if let schema { throw FleetError.warehouse(path: path, reason: schema.reason, hint: schema.hint) }
        } catch {
            throw Warehouse.explain(error, path: path, doing: "open")
        }
        if case let .foreign(reason) = identity {
            throw FleetError.warehouse(path: path, reason: reason,
                                       hint: "Point --db at a FleetKit warehouse or a new file; FleetKit never changes an unknown file.")
        }
        return identity
    }

    /// Stamps FleetKit's application id on a warehouse that lacks it (new, or made before the
    /// stamp existed): a new (empty) file before its first migration, an older warehouse after
    /// its migration; a refused file is never written.
    static func stampApplicationID(_ db: Database) throws {
        guard try Int32.fetchOne(db, sql: "PRAGMA application_id") != applicationID else { return }
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    }

    /// Whether the process's file-size limit is below what the warehouse needs to grow: the
    /// soft RLIMIT_FSIZE is set (not infinite). SQLite does not report the errno, so a write
    /// I/O error under such a limit is named as the limit.
    static func lastWriteHitSizeLimit() -> Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { return false }
        return limit.rlim_cur != rlim_t.max   // RLIM_INFINITY (all ones; not importable as a literal)
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
            case .SQLITE_IOERR where Warehouse.lastWriteHitSizeLimit():
                // EFBIG: a file-size limit (SIGXFSZ is ignored, so the write fails instead).
                return .warehouse(path: path, reason: "a write was refused because the file would exceed the process's file-size limit (EFBIG: `ulimit -f`, or systemd's LimitFSIZE=), as if the disk were full",
                                  hint: "Raise or remove the limit for the user or service running fleetkit; the last file's import was rolled back and can be retried.")
            default:
                return .warehouse(path: path, reason: "SQLite error during \(verb): \(db.message ?? db.description)",
                                  hint: "Run `fleetkit status` to check the warehouse.")
            }
        }
        return .warehouse(path: path, reason: "\(verb) failed: \(error)", hint: "Run `fleetkit status` to check the warehouse.")
    }
}
