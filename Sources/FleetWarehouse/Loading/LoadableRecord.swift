/// A record that the `Loader` can upsert on its natural key.
///
/// The loader builds the SQL once per type from these column lists and binds through
/// `bind(into:)`, which must bind `keyColumns` then `valueColumns`, in order. A warehouse record
/// does not write these by hand: it is a `TabulatedRecord`, whose one column table gives all of
/// them, so names and binding order cannot drift apart. Re-importing the
/// same row is then a no-op that the loader counts as unchanged, and an overlapping re-export
/// updates rows in place instead of duplicating them.
public protocol LoadableRecord {
    static var table: String { get }
    /// The natural key (a UNIQUE or PRIMARY KEY in the schema).
    static var keyColumns: [String] { get }
    /// Every other column written, `source_file_id` included.
    static var valueColumns: [String] { get }
    /// An SQL condition, over the stored row's columns and `new.<column>` for the incoming row,
    /// that must hold for an incoming row to replace a stored one with different values. Records
    /// with a source state time use it so that the later state wins whatever the import order.
    static var precedence: String? { get }
    /// Optional value columns where absent is not null: an incoming NULL keeps the stored
    /// value instead of erasing it. Why: a later export of the same fix without `<ele>` (or
    /// without speed) says nothing about the elevation; erasing it would make the warehouse
    /// depend on the import order. With COALESCE the stored row is the same in any order.
    static var keepWhenAbsent: Set<String> { get }
    /// The value columns whose difference makes an update: all but `source_file_id`, so that
    /// the same row from another file is unchanged.
    static var comparedColumns: [String] { get }
    func bind(into binder: inout Binder)
    /// Whether a stored row counts in the file's loaded/updated/unchanged (`LoadCounts`): false
    /// for what a file keeps beside its facts (a receipt's review state, `ReceiptRead`).
    static var isFact: Bool { get }
    /// The asset and instant this row sits at on the asset's timeline (`TimelineRecord`), or
    /// nil. A requirement so that high-volume records answer without a dynamic cast per row.
    var timelinePoint: (asset: Int64, at: Int64)? { get }
    /// Whether the record is a `PeriodRecord`: a static answer, so that the row-by-row load
    /// of high-volume records pays no dynamic cast for the period check.
    static var isPeriodRecord: Bool { get }
}

extension LoadableRecord {
    public static var precedence: String? { nil }
    public static var isFact: Bool { true }
    public static var isPeriodRecord: Bool { false }
    public static var keepWhenAbsent: Set<String> { [] }
    public static var comparedColumns: [String] { valueColumns.filter { $0 != "source_file_id" } }

    public var timelinePoint: (asset: Int64, at: Int64)? {
        (self as? TimelineRecord).map { ($0.timelineAsset, $0.timelineAt) }
    }
}

/// A loadable record described by one column table (`ColumnTable`): the table, key and value
/// columns, absent-keeps rule and binding order all come from it.
public protocol TabulatedRecord: LoadableRecord {
    static var columnTable: ColumnTable<Self> { get }
}

extension TabulatedRecord {
    public static var table: String { columnTable.table }
    public static var keyColumns: [String] { columnTable.keyColumns }
    public static var valueColumns: [String] { columnTable.valueColumns }
    public static var keepWhenAbsent: Set<String> { columnTable.keptWhenAbsent }
    public static var comparedColumns: [String] { columnTable.comparedColumns }

    @inline(__always)
    public func bind(into binder: inout Binder) { Self.columnTable.bind(self, into: &binder) }
}

/// What an upsert did.
public enum LoadOutcome: Sendable, Equatable {
    case inserted, updated, unchanged
}

/// Counts per outcome, as `source_file` and the import summary report them.
public struct LoadCounts: Sendable, Equatable, Codable {
    public var loaded = 0
    public var updated = 0
    public var unchanged = 0
    public var rejected = 0

    public init(loaded: Int = 0, updated: Int = 0, unchanged: Int = 0, rejected: Int = 0) {
        self.loaded = loaded
        self.updated = updated
        self.unchanged = unchanged
        self.rejected = rejected
    }

    public mutating func count(_ outcome: LoadOutcome) {
        switch outcome {
        case .inserted: loaded += 1
        case .updated: updated += 1
        case .unchanged: unchanged += 1
        }
    }

    public static func + (a: LoadCounts, b: LoadCounts) -> LoadCounts {
        LoadCounts(loaded: a.loaded + b.loaded, updated: a.updated + b.updated,
                   unchanged: a.unchanged + b.unchanged, rejected: a.rejected + b.rejected)
    }
}
