import FleetCore

/// Where importers send what they read. The warehouse implementation writes inside the file's
/// transaction; importers never see SQL.
///
/// Row-level problems (an identity conflict, say) are thrown as `RowError`; the importer adds the
/// row's location and raw text and calls `reject`.
///
/// The requirements are loading, identity, rejects, notes and savepoints; what a receipt keeps for
/// review and defects waiting for their DVIR are loaded as records (`ReceiptRead`,
/// `ReceiptField`, `PendingDVIRDefect`). Two more stay, for reasons docs/ARCHITECTURE.md gives:
/// the review corrections of an image (a read the importer needs before it loads), and the
/// move of waiting defects at the point in a DVIR's load that keeps tie order and counts.
///
/// What follows from the rows is the warehouse's work, not the importer's: trip detection fed
/// while positions load (`WarehouseSink.load(contentsOf:)`), fuel purchase links and the other
/// derivations (`WarehouseSink.deriveAfterLoad`). No requirement has a default: a sink that
/// wraps another (`FuelCardImporter.MaskingSink`) forwards every one, so none is dropped silently.
public protocol RecordSink {
    /// The `source_file.id` every fact row of this file carries.
    var sourceFileID: Int64 { get }
    /// The asset a ref names, creating it (`auto_created`) or merging assets as needed.
    mutating func asset(_ ref: AssetRef) throws -> Int64
    /// The asset a ref names if one already exists; never creates or merges. For files whose
    /// only identity hint is weak (a GPX `<name>`), which must match a known asset or nothing.
    func findAsset(_ ref: AssetRef) throws -> Int64?
    /// Defines or updates an asset from master data: non-empty fields overwrite, empty ones keep
    /// what the warehouse knows, and the asset is no longer `auto_created`.
    mutating func defineAsset(_ ref: AssetRef, fields: Asset) throws -> LoadOutcome
    /// The driver a ref names, creating it (`auto_created`) when unknown.
    mutating func driver(_ ref: DriverRef) throws -> Int64
    /// Defines or updates a driver from master data.
    mutating func defineDriver(_ ref: DriverRef, fields: Driver) throws -> LoadOutcome
    /// Upserts a fact row on its natural key.
    @discardableResult
    mutating func load<R: LoadableRecord>(_ record: R) throws -> LoadOutcome
    /// Upserts fact rows as `load(_:)` would, one after another, counting each outcome; for
    /// high-volume records (GPS points) that the sink may write with multi-row statements.
    /// Every row is written when it returns: the sink keeps nothing pending.
    mutating func load<R: LoadableRecord>(contentsOf records: [R]) throws
    /// The row id of a stored record (to attach children, such as DVIR defects).
    func id<R: LoadableRecord>(of record: R) throws -> Int64?
    /// Runs `body` as one unit: when it throws, everything it wrote is undone (a savepoint), so
    /// a row rejected half-way leaves no trace beyond its reject.
    mutating func atomically(_ body: (inout Self) throws -> Void) throws
    /// The latest accepted or fixed value of each field of the receipt image with this content
    /// hash (`fleetkit review`): the importer applies them, so a correction outlives re-imports.
    func receiptCorrections(sha256: String) throws -> [String: String]
    /// Moves the defects waiting for this DVIR (`PendingDVIRDefect`: those naming `dvirKey`, and
    /// those naming no DVIR whose key the DVIR already stores) into `dvir_defect` on `dvirID`,
    /// with the same precedence as a load; they keep their own source file and are not counted
    /// as this file's rows. Returns how many moved.
    @discardableResult
    mutating func attachPendingDefects(dvirKey: String?, dvirID: Int64) throws -> Int
    /// Keeps a row that could not be used.
    mutating func reject(_ issue: Issue) throws
    /// A file-level remark that loses no row: shown in the import summary and kept in the run
    /// ledger, but not a reject. The same text again is only counted (`NoteLedger`).
    mutating func note(_ message: String)
    /// One occurrence of a kind of remark about a value (an ignored column 'colour'): one line
    /// per kind with its count and the first few values, however often it occurs (`NoteLedger`).
    mutating func note(_ kind: String, example: String)
    /// The notes as lines, bounded (`NoteLedger.lines`).
    var notes: [String] { get }
    /// Counts so far.
    var counts: LoadCounts { get }
}
