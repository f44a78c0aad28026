import Foundation
import GRDB
import FleetCore

/// The one path by which a file's rows reach the warehouse: one transaction per file that owns
/// the re-import check (the same bytes are a no-op), the `source_file` row, the sink, the
/// derivations with the warehouse's settings, the closed-month rule (`MonthEnd`), the counts and
/// the commit. `ImportSession` loads new files through `load`; `fleetkit review` loads a stored
/// receipt again through `reload`. A caller supplies only how the rows are read; no caller opens
/// a load transaction of its own, so no caller can skip a step (a reviewed receipt is linked to
/// its fuel-card row exactly as an import of it is).
///
/// This is the engine boundary on the write side (docs/ARCHITECTURE.md, "Engine boundary").
public struct FileLoad {
    public let warehouse: Warehouse
    /// What the file is read and derived with; nil: the stored settings, read inside the
    /// file's transaction (nothing read before it can disagree with them).
    public var settings: Settings?
    /// `settings` were read from the warehouse before the transaction (the readers parsed with
    /// them): each file's transaction reads them again and fails the file when `init` or a
    /// nightly run changed them since, instead of deriving it with the old ones.
    public var settingsAreStored = false
    /// Trip detection fed while positions load (`WarehouseSink.streamTrips`).
    public var streamTrips = true
    /// Apply a load that changes a closed month's figures, recording each change by `actor`;
    /// without it such a load is refused and nothing of it kept.
    public var allowRestatement = false
    /// The stored file (path, name or `#id`) a new file replaces, forgotten in its transaction.
    public var replaces: String?
    /// Who loads, for the restatement and correction ledgers.
    public var actor = "fleetkit"
    /// Read, derive and check everything, then roll back.
    public var dryRun = false

    public init(warehouse: Warehouse, settings: Settings? = nil) {
        self.warehouse = warehouse
        self.settings = settings
    }

    /// The settings a load reads and derives with.
    public struct Settings: Sendable {
        public var zone: FleetZone
        public var currency: String
        public var trips: TripRules

        public init(zone: FleetZone = .utc, currency: String = "USD", trips: TripRules = TripRules()) {
            self.zone = zone
            self.currency = currency
            self.trips = trips
        }

        public init(_ stored: WarehouseSettings) { self.init(zone: stored.zone, currency: stored.currency, trips: stored.trips) }

        public var derive: DeriveSettings { DeriveSettings(zone: zone, trips: trips) }

        func same(as other: Settings) -> Bool {
            zone.identifier == other.zone.identifier && currency == other.currency && trips == other.trips
        }
    }

    /// What a reader sees inside the file's transaction.
    public struct Context {
        public let db: Database
        public let settings: Settings
        public let sourceFileID: Int64
    }

    /// A file not yet stored.
    public struct NewFile {
        public var path: String
        public var format: String
        public var bytes: Int64
        public var runID: Int64?
        /// The file's SHA-256: asked for when a stored file has its size, and once read. It may
        /// be hashed beside the load and block until done.
        public var sha256: () throws -> String
        /// Why the bytes read are not the file's (it grew, shrank or was rewritten while read):
        /// nil when they are. Asked once the rows are read, before commit.
        public var changed: () -> String?

        public init(path: String, format: String, bytes: Int64, runID: Int64?, sha256: @escaping () throws -> String,
                    changed: @escaping () -> String? = { nil }) {
            self.path = path
            self.format = format
            self.bytes = bytes
            self.runID = runID
            self.sha256 = sha256
            self.changed = changed
        }
    }

    /// A file that was loaded (committed, or rolled back by `dryRun`).
    public struct Loaded: Sendable {
        /// Nil after a dry run.
        public var sourceFileID: Int64?
        public var counts: LoadCounts
        public var notes: [String]
        /// Stored rows this file's updates moved to another month.
        public var moved: Int
        /// The closed months' figures it changed, each recorded (`allowRestatement`).
        public var restatements: [PeriodFigures.Change]
        /// The file it replaced (`replaces`), as forgotten.
        public var replaced: Corrections.Forgotten?
    }

    public enum Result: Sendable {
        case loaded(Loaded)
        /// The same bytes are stored already (this source file): nothing changed.
        case unchanged(sourceFileID: Int64)
        /// The file changed while it was read (why): nothing of it was kept.
        case changedWhileRead(String)
        /// It would change closed months' figures without `allowRestatement`: nothing kept.
        case refused([PeriodFigures.Change])
        /// Its rows match earlier files' except the currency (a corrected re-export loaded
        /// beside the original would count every row twice): nothing kept; `replaces` is the fix.
        case matchesExceptCurrency([CurrencyTwins])
    }

    /// A stored file loaded again: what its reload counted and restated.
    public struct Reloaded: Sendable {
        public var counts: LoadCounts
        public var restatements: [PeriodFigures.Change]
    }

    /// A reload of a stored file that would change closed months' figures without `allowRestatement`.
    public struct Refused: Error, CustomStringConvertible {
        public var path: String
        public var changes: [PeriodFigures.Change]
        public var description: String { "\(path): \(MonthEnd.refusal(changes)); nothing of it was kept" }
    }

    /// Loads a new file in one transaction: `read` puts its rows into the sink.
    ///
    /// Throws what `read` or the warehouse throws, the transaction rolled back: a caller tells
    /// the file's own errors from the warehouse's (`DatabaseError`).
    public func load(_ file: NewFile, read: (Context, inout WarehouseSink) throws -> Void) throws -> Result {
        var result: Result?
        try warehouse.pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                // Only a file of a stored file's size can be a re-import: wait for its hash first.
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM source_file WHERE bytes = ?)", arguments: [file.bytes]) == true,
                   let existing = try Self.storedFile(db, sha256: try file.sha256()) {
                    result = .unchanged(sourceFileID: existing)
                    return .rollback
                }
                let settings = try effectiveSettings(db, loading: file.path)
                // The digest is written once known, before commit; until then a placeholder
                // no digest can equal keeps the column's UNIQUE and NOT NULL.
                var row = SourceFile(path: file.path, sha256: "pending:\(UUID().uuidString)", format: file.format, bytes: file.bytes,
                                     importedAt: Timestamp.now(), importRunID: file.runID, status: "importing",
                                     loaded: 0, updated: 0, unchanged: 0, rejected: 0)
                let fileID = try SourceFile.columnTable.insert(row, in: db)
                // The closed months' figures before anything changes (none closed: nothing read).
                let closedBefore = try MonthEnd.snapshot(db, zone: settings.zone)
                var replaced: Corrections.Forgotten?
                if let predecessor = replaces {
                    let target = try Corrections.find(db, predecessor)
                    replaced = try Corrections.forget(db, fileID: target.id, settings: settings.derive)
                }
                var sink = sink(db, fileID: fileID, settings: settings)
                try read(Context(db: db, settings: settings, sourceFileID: fileID), &sink)
                try sink.deriveAfterLoad()
                row.sha256 = try file.sha256()
                // Read in part while it grew, shrank or was rewritten: keep none of it.
                if let change = file.changed() {
                    result = .changedWhileRead(change)
                    return .rollback
                }
                // Same size as no stored file, yet the same digest: the file changed size while it
                // was read. The stored import stands; this one is undone.
                if let existing = try Self.storedFile(db, sha256: row.sha256) {
                    result = .unchanged(sourceFileID: existing)
                    return .rollback
                }
                // Loaded beside an earlier file's rows that differ only in currency, every row
                // would count twice: refused, pointing at `replaces`.
                let twins = try CurrencyTwins.find(db, fileID: fileID)
                if !twins.isEmpty {
                    result = .matchesExceptCurrency(twins)
                    return .rollback
                }
                let restated = try MonthEnd.changes(db, since: closedBefore, zone: settings.zone)
                if !restated.isEmpty {
                    guard allowRestatement else {
                        result = .refused(restated)
                        return .rollback
                    }
                    try MonthEnd.record(db, restated, filePath: file.path, sha256: row.sha256, by: actor)
                }
                if let replaced { try Corrections.record(db, replaced, action: "replace", replacedBy: file.path, by: actor) }
                let c = sink.counts
                row.status = c.rejected > 0 ? "partial" : "imported"
                (row.loaded, row.updated, row.unchanged, row.rejected) = (c.loaded, c.updated, c.unchanged, c.rejected)
                try SourceFile.columnTable.update(row, id: fileID, in: db)
                result = .loaded(Loaded(sourceFileID: dryRun ? nil : fileID, counts: c, notes: sink.notes, moved: sink.moves.count,
                                        restatements: restated, replaced: replaced))
                return dryRun ? .rollback : .commit
            }
        }
        return result!
    }

    /// Loads a stored file again in one transaction (`fleetkit review`: a receipt read once,
    /// with a person's corrections): `find` names the stored file, `read` puts its rows into the
    /// sink and returns what the caller wants to see of it before commit. The derivations
    /// follow as after an import, and the file's rejected count and status are taken again
    /// from its rejects. The currency-twin check of `load` does not apply: it catches a
    /// re-export that only adds a currency, and a reload is the same stored file with a person's
    /// stated values, whose currency is their decision (recorded as a correction).
    public func reload<T>(find: (Database) throws -> Int64, read: (Context, inout WarehouseSink) throws -> T) throws -> (T, Reloaded) {
        var out: (T, Reloaded)?
        try warehouse.pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                let fileID = try find(db)
                guard let stored = try Row.fetchOne(db, sql: "SELECT path, sha256 FROM source_file WHERE id = ?", arguments: [fileID]) else {
                    throw FleetError.warehouse(path: warehouse.path, reason: "it holds no source file \(fileID)", hint: "`fleetkit status` lists the stored files.")
                }
                let path: String = stored[0], sha256: String = stored[1]
                let settings = try effectiveSettings(db, loading: path)
                let closedBefore = try MonthEnd.snapshot(db, zone: settings.zone)
                var sink = sink(db, fileID: fileID, settings: settings)
                let value = try read(Context(db: db, settings: settings, sourceFileID: fileID), &sink)
                try sink.deriveAfterLoad()
                let restated = try MonthEnd.changes(db, since: closedBefore, zone: settings.zone)
                if !restated.isEmpty {
                    guard allowRestatement else { throw Refused(path: path, changes: restated) }
                    try MonthEnd.record(db, restated, filePath: path, sha256: sha256, by: actor)
                }
                try db.execute(sql: """
                    UPDATE source_file SET rejected = (SELECT count(*) FROM reject WHERE source_file_id = ?1),
                        status = CASE WHEN EXISTS (SELECT 1 FROM reject WHERE source_file_id = ?1) THEN 'partial' ELSE 'imported' END
                    WHERE id = ?1
                    """, arguments: [fileID])
                out = (value, Reloaded(counts: sink.counts, restatements: restated))
                return dryRun ? .rollback : .commit
            }
        }
        return out!
    }

    private func sink(_ db: Database, fileID: Int64, settings: Settings) -> WarehouseSink {
        var sink = WarehouseSink(db: db, sourceFileID: fileID)
        sink.derive = settings.derive
        sink.streamTrips = streamTrips
        return sink
    }

    /// The settings this file loads with, read inside its transaction: a change committed by
    /// `init --tz` or `--trip-rule` after the caller read them is seen here, and the file is not
    /// derived with the old ones (verify then found 372 failures).
    private func effectiveSettings(_ db: Database, loading path: String) throws -> Settings {
        guard let settings else { return try Settings(stored(db)) }
        guard settingsAreStored else { return settings }
        let now = try stored(db)
        guard Settings(now).same(as: settings) else {
            throw FleetError.warehouse(path: warehouse.path,
                                       reason: "its settings changed while this import ran (now: time zone \(now.zone.identifier), currency \(now.currency), trip rules \(now.trips.summary))",
                                       hint: "Nothing of \(URL(fileURLWithPath: path).lastPathComponent) was kept; run the import again, which derives with the new settings.")
        }
        return settings
    }

    private func stored(_ db: Database) throws -> WarehouseSettings {
        do { return try WarehouseSettings.load(db) } catch let error as WarehouseSettingsError {
            throw FleetError.warehouse(path: warehouse.path, reason: error.statement, hint: error.hint)
        }
    }

    private static func storedFile(_ db: Database, sha256: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM source_file WHERE sha256 = ?", arguments: [sha256])
    }
}
