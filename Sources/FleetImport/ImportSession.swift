import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// What the command line asks of an import.
public struct ImportOptions: Sendable {
    /// Forces a format instead of sniffing.
    public var format: String?
    /// `--asset UNIT`: the asset for files without built-in identity.
    public var asset: String?
    /// Read and validate everything, then roll back.
    public var dryRun = false
    public var zone: FleetZone = .utc
    public var currency = "USD"
    /// Trip and stop rules for trips derived from positions.
    public var trips = TripRules()
    /// `inbox/<kind>/<UNIT>/file` attributes the file to UNIT when the unit is known.
    public var attributeByFolder = true
    /// Trip detection fed while positions load (`WarehouseSink.streamTrips`): the same tables
    /// either way, faster on; off only to compare the two.
    public var streamTrips = true
    /// Apply a file that changes a closed month's figures, recording each change in the
    /// restatement ledger (`MonthEnd`); without it such a file is refused, nothing kept.
    public var allowRestatement = false
    /// `--replaces FILE|ID`: the stored file this one replaces, forgotten in the same
    /// transaction (`Corrections`). Only for an import of one file.
    public var replaces: String?
    /// Who runs the import, for the restatement and correction ledgers.
    public var actor = "fleetkit"
    /// `zone`, `currency` and `trips` are the warehouse's stored settings (`fleetkit import`, the
    /// nightly job): each file's transaction reads them again and, when `init` or a nightly run
    /// changed them since, fails the file instead of deriving it with the old ones.
    public var settingsFromWarehouse = false
    /// `--sheet NAME`: the sheet read of each `.xlsx` workbook; nil reads the first.
    public var sheet: String?
    /// `--profile NAME|PATH`: read every file with this mapping profile (docs/FORMATS.md,
    /// "Mapping profiles"), instead of matching headers against the profiles' signatures.
    public var profile: String?
    /// `--profiles DIR`: folders of profiles besides the one beside the warehouse.
    public var profileFolders: [String] = []
    /// The profiles files are matched against; nil: loaded by `ImportSession` from the shipped
    /// ones, `profileFolders` and the `profiles` folder beside the warehouse.
    public var profiles: ProfileLibrary?

    public init(format: String? = nil, asset: String? = nil, dryRun: Bool = false, zone: FleetZone = .utc, currency: String = "USD") {
        self.format = format
        self.asset = asset
        self.dryRun = dryRun
        self.zone = zone
        self.currency = currency
    }
}

/// The outcome of one file, as `--json` prints it.
public struct FileOutcome: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case imported, unchanged, failed }
    public var path: String
    public var format: String?
    public var status: Status
    public var loaded = 0
    public var updated = 0
    public var unchanged = 0
    public var rejected = 0
    public var error: String?
    public var notes: [String]?
    public var sourceFileID: Int64?
    /// Of `updated`, the stored rows moved to another month (`PeriodMoves`): nil when none.
    public var moved: Int?
    /// The figures of closed months this file changes: applied and recorded (imported with
    /// `allowRestatement`), or the reason it was refused (failed).
    public var restatements: [PeriodFigures.Change]?
    /// The file this one replaced (`ImportOptions.replaces`), as forgotten.
    public var replaced: Corrections.Forgotten?
    /// Earlier files whose rows this one's match except the currency: the file was refused
    /// (failed), and `--replaces` is the fix when it corrects one of them.
    public var matchesExceptCurrency: [CurrencyTwins]?
    /// True when the file changed while it was read (or since the listing the caller checked
    /// it against): nothing of it was kept, and it should be tried again once complete rather
    /// than quarantined.
    public var changedWhileRead: Bool?

    public init(path: String, format: String? = nil, status: Status, loaded: Int = 0, updated: Int = 0, unchanged: Int = 0,
                rejected: Int = 0, error: String? = nil, notes: [String]? = nil, sourceFileID: Int64? = nil) {
        self.path = path
        self.format = format
        self.status = status
        self.loaded = loaded
        self.updated = updated
        self.unchanged = unchanged
        self.rejected = rejected
        self.error = error
        self.notes = notes
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case path, format, status, loaded, updated, unchanged, rejected, error, notes
        case sourceFileID = "source_file_id"
        case changedWhileRead = "changed_while_read"
        case moved = "moved_to_another_month"
        case restatements
        case replaced
        case matchesExceptCurrency = "matches_except_currency"
    }

    /// "5 updated", or "5 updated (2 moved to another month)": an update that changes two
    /// months' figures is named on the file's line.
    public var updatedText: String {
        "\(updated) updated" + (moved.map { " (\($0) moved to another month)" } ?? "")
    }
}

/// The outcome of a whole import: files and totals.
public struct ImportSummary: Codable, Sendable {
    public struct Totals: Codable, Sendable, Equatable {
        public var files = 0, imported = 0, unchanged_files = 0, failed = 0
        public var loaded = 0, updated = 0, unchanged = 0, rejected = 0
    }
    public var run_id: Int64?
    public var dry_run: Bool
    public var files: [FileOutcome]
    public var totals: Totals

    /// 0 when everything imported cleanly, 1 when rows were rejected or files failed (docs/OPERATIONS.md, "Exit codes (every command)").
    public var exitCode: Int32 { totals.failed > 0 || totals.rejected > 0 ? 1 : 0 }
}

/// Imports files and folders into a warehouse: one transaction per file, the run recorded in
/// the `import_run` ledger.
public struct ImportSession {
    public let warehouse: Warehouse
    public var importers: [any Importer.Type]

    public init(warehouse: Warehouse, importers: [any Importer.Type] = ImporterRegistry.all) {
        self.warehouse = warehouse
        self.importers = importers
    }

    /// Imports every file under `paths` (folders recursively, in path order so runs are
    /// reproducible). File-level problems become failed outcomes and the run goes on; a
    /// warehouse that cannot be written (locked, read-only, full) stops the run with a throw.
    ///
    /// `progress`, when given, hears of each file as it starts and as it ends (committed, found
    /// unchanged, or failed), so a command line can show progress and per-file lines while the
    /// run goes on instead of after it. It is called on this thread, between transactions.
    public func run(_ paths: [String], options: ImportOptions, command: String,
                    progress: ((ImportProgressEvent) -> Void)? = nil) throws -> ImportSummary {
        if let f = options.format, !importers.contains(where: { $0.format == f }) {
            throw FleetError.invalidArgument(name: "--format", value: f,
                                             hint: "known formats: \(importers.map { $0.format }.joined(separator: ", ")) (`fleetkit formats` describes them)")
        }
        // Profiles are read, and a forced one found, before the run begins: a profile with a
        // mistake stops the import with its line instead of failing file after file.
        var options = options
        let library = try profiles(options)
        options.profiles = library
        if let name = options.profile { _ = try library.named(name) }
        let runID = options.dryRun ? nil : try begin(command: command)
        var outcomes: [FileOutcome] = []
        let files = ordered(FileWalker.files(under: paths, excluding: warehouse.path), options: options)
        // Receipt images are read (OCR) several at a time ahead of their turn; each file is still
        // written in its own transaction, in this order (`ImportPrefetch`).
        let prefetch = prefetch(files, options: options)
        defer { prefetch?.stop() }
        for (index, (url, problem)) in files.enumerated() {
            progress?(.started(url, index: index, of: files.count, runID: runID))
            let preread = prefetch?.take(index)
            if let problem {
                outcomes.append(FileOutcome(path: url.path, status: .failed, error: problem))
            } else {
                do { outcomes.append(try importFile(url, options: options, runID: runID, preread: preread)) } catch {
                    if let runID { abandon(runID, because: error) }
                    throw error
                }
            }
            progress?(.finished(outcomes[outcomes.count - 1], index: index, of: files.count))
        }
        return try finish(runID, outcomes: outcomes, dryRun: options.dryRun)
    }

    /// The profiles of `options`, loaded when not given: the shipped ones, `--profiles` folders
    /// and the `profiles` folder beside the warehouse (`ProfileLibrary.load`).
    public func profiles(_ options: ImportOptions) throws -> ProfileLibrary {
        if let p = options.profiles { return p }
        return try ProfileLibrary.load(folders: options.profileFolders + [ProfileLibrary.folder(besideWarehouse: warehouse.path)])
    }

    /// The profile that reads a file whose first bytes (a workbook's first rows as CSV) are
    /// `head`: `--profile`, else the one whose signature its header has; nil when none, or when
    /// `--format` or a caller's importer chose the format.
    func profile(for head: Data, url: URL, options: ImportOptions) throws -> Profile? {
        guard options.format == nil else { return nil }
        let library = try profiles(options)
        if let name = options.profile { return try library.named(name) }
        return try library.match(head: head, file: url.path)
    }

    /// Opens a run in the `import_run` ledger, holding its `RunLock` until `finish`; runs whose
    /// process died are marked `interrupted` first.
    public func begin(command: String) throws -> Int64 {
        do {
            return try warehouse.pool.writeWithoutTransaction { db in
                var id: Int64 = 0
                // Immediate: no other run can insert its row between the check and this insert.
                try db.inTransaction(.immediate) {
                    // After a run that died, a quick integrity check before anything is written:
                    // a backup restored beside a stale -wal, or a disk that lied about a sync,
                    // shows here, not as a damaged warehouse that imports go on writing into.
                    if try RunLock.hasInterruptedRuns(db, warehouse: warehouse.path) {
                        let verdict: [String]
                        do { verdict = try String.fetchAll(db, sql: "PRAGMA quick_check(5)") } catch let e as DatabaseError
                            where e.resultCode == .SQLITE_CORRUPT || e.resultCode == .SQLITE_NOTADB {
                            verdict = [e.message ?? "database disk image is malformed"]
                        }
                        guard verdict == ["ok"] else {
                            throw FleetError.warehouse(path: warehouse.path,
                                                       reason: "it failed SQLite's integrity check after an interrupted run (\(QuotedText.cut(verdict.joined(separator: "; "))))",
                                                       hint: "Restore it from a backup (docs/OPERATIONS.md, \"Backup and restore\": remove the -wal and -shm with it); nothing was written.")
                        }
                    }
                    try RunLock.markInterrupted(db, warehouse: warehouse.path, foundBy: command)
                    id = try ImportRun.columnTable.insert(ImportRun(startedAt: Timestamp.now(), command: command, status: "running"), in: db)
                    try RunLock.acquire(warehouse: warehouse.path, runID: id)
                    return .commit
                }
                return id
            }
        } catch { throw Warehouse.explain(error, path: warehouse.path, doing: "write") }
    }

    /// Closes a run that stops on an error (a full disk, an unwritable warehouse) as `failed`,
    /// with the exit code such a stop ends the command with (2, docs/OPERATIONS.md "Alerting"),
    /// when the warehouse still takes that much; otherwise the next run finds it `interrupted`.
    public func abandon(_ runID: Int64, because error: Error, exitCode: Int32 = 2) {
        try? warehouse.pool.write { db in
            try db.execute(sql: "UPDATE import_run SET finished_at = ?, status = 'failed', summary_json = ?, exit_code = ? WHERE id = ?",
                           arguments: [Timestamp.now(), String(describing: error), exitCode, runID])
        }
        RunLock.release(warehouse: warehouse.path, runID: runID)
    }

    /// Records the exit code a run ended with when it is not its import summary's (the nightly
    /// job's also counts report failures, strict partial reports and verify): `fleetkit status`
    /// shows it. `nil` while the run still has work after `finish`: not known yet.
    public func recordExitCode(_ runID: Int64, _ code: Int32?) throws {
        try write { db in try db.execute(sql: "UPDATE import_run SET exit_code = ? WHERE id = ?", arguments: [code, runID]) }
    }

    /// Totals the outcomes and closes the run in the ledger with its JSON summary.
    public func finish(_ runID: Int64?, outcomes: [FileOutcome], dryRun: Bool = false, extra: [String: String] = [:]) throws -> ImportSummary {
        var summary = ImportSummary(run_id: runID, dry_run: dryRun, files: outcomes, totals: .init())
        for o in outcomes {
            summary.totals.files += 1
            switch o.status {
            case .imported: summary.totals.imported += 1
            case .unchanged: summary.totals.unchanged_files += 1
            case .failed: summary.totals.failed += 1
            }
            summary.totals.loaded += o.loaded
            summary.totals.updated += o.updated
            summary.totals.unchanged += o.unchanged
            summary.totals.rejected += o.rejected
        }
        if let runID {
            let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
            let status = summary.totals.failed > 0 && summary.totals.imported == 0 && summary.totals.unchanged_files == 0 ? "failed"
                : summary.exitCode == 0 ? "ok" : "partial"
            try write { db in
                try db.execute(sql: "UPDATE import_run SET finished_at = ?, status = ?, summary_json = ?, exit_code = ? WHERE id = ?",
                               arguments: [Timestamp.now(), status, json, summary.exitCode, runID])
            }
            RunLock.release(warehouse: warehouse.path, runID: runID)
        }
        return summary
    }

    /// Master data first (the registry's order: assets, drivers, …), then facts; path order
    /// within a format. The warehouse ends up the same in any order, but this way assets and
    /// drivers are defined before facts refer to them, so the counts read naturally (`loaded`,
    /// not `updated` after an auto-created placeholder).
    public func ordered(_ files: [(URL, String?)], options: ImportOptions) -> [(URL, String?)] {
        // One file has no order to find: detecting its format here would sniff it twice.
        guard options.format == nil, files.count > 1 else { return files }
        let rank = files.map { url, problem -> Int in
            guard problem == nil, let head = try? FileWalker.head(of: url),
                  let t = ImporterRegistry.detect(head, filename: url.lastPathComponent, among: importers),
                  let i = importers.firstIndex(where: { $0 == t }) else { return importers.count }
            return i
        }
        return files.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }.map { files[$0] }
    }

    /// Imports one file in one transaction.
    ///
    /// The file is opened once, by `OpenedFile` (regular files only, never blocking). `expect`
    /// may refuse it on its descriptor before anything is read (the nightly job compares it with
    /// its listing); a file that changes while it is read is rolled back, `changedWhileRead`.
    public func importFile(_ url: URL, options: ImportOptions, runID: Int64?, importer forced: (any Importer.Type)? = nil,
                           expect: ((OpenedFile) -> String?)? = nil) throws -> FileOutcome {
        try importFile(url, options: options, runID: runID, importer: forced, expect: expect, preread: nil)
    }

    /// `preread`: the file as `ImportPrefetch` opened and read it ahead of this transaction.
    func importFile(_ url: URL, options: ImportOptions, runID: Int64?, importer forced: (any Importer.Type)? = nil,
                    expect: ((OpenedFile) -> String?)? = nil, preread: PrereadFile?) throws -> FileOutcome {
        var outcome = FileOutcome(path: url.path, status: .failed)
        var head: Data
        let bytes: Int64
        let opened: OpenedFile
        do {
            opened = try preread?.opened ?? OpenedFile(path: url.path)
            if let expect, let difference = expect(opened) {
                outcome.error = "\(url.path): \(difference) since the inbox was listed; still being written? Nothing was read; it is tried again next run"
                outcome.changedWhileRead = true
                return outcome
            }
            head = try preread?.head ?? opened.head()
            bytes = opened.size
            guard bytes > 0 else { throw FleetError.emptyFile(file: url.path) }
        } catch {
            outcome.error = String(describing: error)
            return outcome
        }
        var sheet: WorkbookSheet?
        if let kind = SpreadsheetFile.kind(of: head) {
            guard kind == SpreadsheetFile.xlsx else {
                outcome.error = SpreadsheetFile(path: url.path, kind: kind).description
                return outcome
            }
            // A workbook's rows are read as a CSV's: detection sees its sheet's first rows as CSV text.
            sheet = WorkbookSheet(name: options.sheet)
            do { head = try XLSXRecords.head(url: opened.descriptorURL, sheet: options.sheet) } catch {
                outcome.error = (RecordSources.unreadable(error, file: url.path, hint: "") ?? FleetError.io(path: url.path, reason: String(describing: error))).description
                return outcome
            }
        }
        // A mapping profile before detection: a file that matches one was exported for it, and
        // a profile is never sniffed, so the built-in formats cannot claim it by guessing.
        var profile: Profile? = nil
        if preread == nil, forced == nil {
            do { profile = try self.profile(for: head, url: url, options: options) } catch {
                outcome.error = String(describing: error)
                return outcome
            }
        }
        let importerType: (any Importer.Type)?
        if let profile {
            importerType = nil
            outcome.format = profile.formatName
        } else if let t = preread?.importer ?? forced {
            importerType = t
        } else if let t = Self.importerType(head: head, url: url, options: options, importers: importers) {
            importerType = t
        } else {
            outcome.error = FleetError.unknownFormat(file: url.path,
                hint: "Pass --format NAME if it is one FleetKit reads, or write a mapping profile for its columns (docs/FORMATS.md, \"Mapping profiles\"); `fleetkit formats` lists the formats with example files.").description
            return outcome
        }
        let formatName = profile?.formatName ?? importerType!.format
        outcome.format = formatName
        var input = InputFile(url: url, head: head, zone: options.zone, currency: options.currency)
        input.source = opened.descriptorURL
        input.sheet = sheet
        if let unit = options.asset { input.asset = AssetRef(unitNumber: unit) }
        // Hashed beside the import (FileDigest); stopped and joined however the import ends.
        let digest = FileDigest(opened.descriptorURL)
        defer { digest.finish(); withExtendedLifetime(opened) {} }
        var load = FileLoad(warehouse: warehouse, settings: FileLoad.Settings(zone: options.zone, currency: options.currency, trips: options.trips))
        load.settingsAreStored = options.settingsFromWarehouse
        load.streamTrips = options.streamTrips
        load.allowRestatement = options.allowRestatement
        load.replaces = options.replaces
        load.actor = options.actor
        load.dryRun = options.dryRun
        let file = FileLoad.NewFile(path: url.path, format: formatName, bytes: bytes, runID: runID,
                                    sha256: { try digest.value() }, changed: { opened.change() })
        do {
            let result = try load.load(file) { context, sink in
                if input.asset == nil, options.attributeByFolder {
                    input.asset = try FileWalker.folderUnit(of: url, in: context.db)
                }
                if let preread { try preread.reader(input, &sink) } else if let profile { try ProfileImporter(profile: profile).read(input, into: &sink) } else {
                    try importerType!.init().read(input, into: &sink)
                }
            }
            switch result {
            case let .unchanged(existing):
                outcome.status = .unchanged
                outcome.sourceFileID = existing
            case let .changedWhileRead(change):
                outcome = FileOutcome(path: url.path, format: formatName, status: .failed,
                                      error: "\(url.path): \(change); nothing of it was kept. Import it again once it is complete")
                outcome.changedWhileRead = true
            case let .matchesExceptCurrency(twins):
                outcome = FileOutcome(path: url.path, format: formatName, status: .failed,
                                      error: "\(url.path): \(CurrencyTwins.refusal(twins)); nothing of it was kept")
                outcome.matchesExceptCurrency = twins
            case let .refused(restatements):
                outcome = FileOutcome(path: url.path, format: formatName, status: .failed,
                                      error: "\(url.path): \(MonthEnd.refusal(restatements)); nothing of it was kept")
                outcome.restatements = restatements
            case let .loaded(l):
                let c = l.counts
                outcome.status = .imported
                (outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected) = (c.loaded, c.updated, c.unchanged, c.rejected)
                outcome.notes = l.notes.isEmpty ? nil : l.notes
                outcome.moved = l.moved > 0 ? l.moved : nil
                outcome.sourceFileID = l.sourceFileID
                outcome.restatements = l.restatements.isEmpty ? nil : l.restatements
                outcome.replaced = l.replaced
            }
        } catch let error as DatabaseError where ImportSession.stopsTheRun(error) {
            throw Warehouse.explain(error, path: warehouse.path, doing: "import \(url.path)")
        } catch {
            // A reader names the file it opened: the descriptor's path, which means nothing to a person.
            let message = String(describing: error).replacingOccurrences(of: opened.descriptorURL.path, with: url.path)
            outcome = FileOutcome(path: url.path, format: formatName, status: .failed, error: message)
        }
        return outcome
    }

    /// Errors of the warehouse itself, as opposed to one file's content: no later file can succeed.
    static func stopsTheRun(_ error: DatabaseError) -> Bool {
        [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CORRUPT,
         .SQLITE_NOTADB, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(error.resultCode)
    }

    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try warehouse.pool.write(body) } catch { throw Warehouse.explain(error, path: warehouse.path, doing: "write") }
    }
}
