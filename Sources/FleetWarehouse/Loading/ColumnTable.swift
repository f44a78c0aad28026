import GRDB

/// What a column is to the loader's upsert.
///
/// Why roles and not separate lists: before, each record listed its key columns, its value
/// columns, its "absent keeps the stored value" columns and its binding order separately, and
/// matched them by hand; one role per column leaves nothing to match.
public enum ColumnRole: Sendable, Equatable {
    /// Part of the natural key (a UNIQUE or PRIMARY KEY in the schema): found by, never updated.
    case key
    /// Replaced by the incoming row's value, NULL included.
    case value
    /// Replaced only by a present value: an incoming NULL keeps the stored one, and a row that
    /// differs only by absent values is unchanged (absent is not null, issue 16).
    case keptWhenAbsent
    /// Written with the row (`source_file_id`) but not compared: the same row from another
    /// file is unchanged, and an update takes the newer file.
    case provenance
}

/// One column of a record's table: its name, its role, and how the record binds its value.
///
/// The value comes from a closure over the record (`{ $0.assetID }`), typed by what `Binder`
/// can bind, so the column's name and the field it stores are written side by side once.
public struct RecordColumn<Record>: Sendable {
    public let name: String
    public let role: ColumnRole
    let bind: @Sendable (Record, inout Binder) -> Void

    init(_ name: String, _ role: ColumnRole, bind: @escaping @Sendable (Record, inout Binder) -> Void) {
        self.name = name
        self.role = role
        self.bind = bind
    }

    public static func key<V: ColumnValue>(_ name: String, _ get: @escaping @Sendable (Record) -> V?) -> RecordColumn {
        RecordColumn(name, .key) { r, b in V.bind(get(r), into: &b) }
    }

    public static func value<V: ColumnValue>(_ name: String, _ get: @escaping @Sendable (Record) -> V?) -> RecordColumn {
        RecordColumn(name, .value) { r, b in V.bind(get(r), into: &b) }
    }

    public static func keptWhenAbsent<V: ColumnValue>(_ name: String, _ get: @escaping @Sendable (Record) -> V?) -> RecordColumn {
        RecordColumn(name, .keptWhenAbsent) { r, b in V.bind(get(r), into: &b) }
    }

    public static func provenance<V: ColumnValue>(_ name: String, _ get: @escaping @Sendable (Record) -> V?) -> RecordColumn {
        RecordColumn(name, .provenance) { r, b in V.bind(get(r), into: &b) }
    }

    /// The same column on a record that holds this one (`PendingDVIRDefect` holds the
    /// `DVIRDefect` it becomes), so that two tables storing one kind of value share its columns.
    public func through<Outer>(_ inner: @escaping @Sendable (Outer) -> Record) -> RecordColumn<Outer> {
        let bind = self.bind
        return RecordColumn<Outer>(name, role) { o, b in bind(inner(o), &b) }
    }
}

/// A value `Binder` binds: the column types of a STRICT warehouse table.
public protocol ColumnValue: SendableMetatype {
    static func bind(_ value: Self?, into binder: inout Binder)
}

extension Int64: ColumnValue { public static func bind(_ value: Int64?, into b: inout Binder) { b.bind(value) } }
extension Int: ColumnValue { public static func bind(_ value: Int?, into b: inout Binder) { b.bind(value) } }
extension Double: ColumnValue { public static func bind(_ value: Double?, into b: inout Binder) { b.bind(value) } }
extension String: ColumnValue { public static func bind(_ value: String?, into b: inout Binder) { b.bind(value) } }
extension Bool: ColumnValue { public static func bind(_ value: Bool?, into b: inout Binder) { b.bind(value) } }

/// A record's table, spelled once: the table name, every column the record writes (in binding
/// order), and the table's columns the record does not write, each with why.
///
/// The loader's INSERT, upsert and key lookup, and the derivations' plain INSERTs, are all
/// generated from it; `RecordSchemaTests` checks it against the live schema (after every
/// migration), so a column added to a migration but not here, or here but not in the schema,
/// fails a test, and an insert/read round trip with a distinct value in every column shows that
/// no two columns are swapped.
public struct ColumnTable<Record>: Sendable {
    public let table: String
    public let columns: [RecordColumn<Record>]
    /// Table columns this record does not write, and why (a rowid `id`; columns another writer fills).
    public let notWritten: [String: String]

    /// The columns in binding order (key columns first), fixed once: the table is a `static let`.
    private let bound: [RecordColumn<Record>]
    /// `insertSQL()` and `updateByIDSQL`, built once: `insert` and `update` run once per row.
    private let plainInsert: String, plainUpdate: String

    public init(_ table: String, _ columns: [RecordColumn<Record>], notWritten: [String: String] = [:]) {
        self.table = table
        self.columns = columns
        self.notWritten = notWritten
        bound = columns.filter { $0.role == .key } + columns.filter { $0.role != .key }
        let names = bound.map(\.name), values = bound.filter { $0.role != .key }.map(\.name)
        plainInsert = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        plainUpdate = "UPDATE \(table) SET \(values.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
    }

    public var names: [String] { columns.map(\.name) }
    public var keyColumns: [String] { columns.filter { $0.role == .key }.map(\.name) }
    /// Every written column that is not part of the key, in binding order after the key.
    public var valueColumns: [String] { columns.filter { $0.role != .key }.map(\.name) }
    public var keptWhenAbsent: Set<String> { Set(columns.filter { $0.role == .keptWhenAbsent }.map(\.name)) }
    /// The value columns whose difference makes an update (all but provenance).
    public var comparedColumns: [String] { columns.filter { $0.role == .value || $0.role == .keptWhenAbsent }.map(\.name) }

    /// Binds every column, key columns first, then the others, each group in declared order:
    /// the order of `keyColumns + valueColumns`, which every generated statement uses.
    @inline(__always)
    public func bind(_ record: Record, into binder: inout Binder) {
        for c in bound { c.bind(record, &binder) }
    }

    /// Binds the key columns only, in declared order: the placeholders of `lookupSQL`.
    public func bindKey(_ record: Record, into binder: inout Binder) {
        for c in bound where c.role == .key { c.bind(record, &binder) }
    }

    /// `INSERT INTO table (key columns, value columns, extra) VALUES (?, …)`: a plain insert in
    /// binding order, for writers that append columns of their own after the record's. With
    /// `ignoringConflicts`, a row whose key is already stored is left as it is (`ON CONFLICT DO
    /// NOTHING`: an identifier, once attached, stays with its asset or driver).
    public func insertSQL(extra: [String] = [], ignoringConflicts: Bool = false) -> String {
        if extra.isEmpty, !ignoringConflicts { return plainInsert }
        let all = keyColumns + valueColumns + extra
        return "INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: all.count).joined(separator: ", ")))"
            + (ignoringConflicts ? " ON CONFLICT DO NOTHING" : "")
    }

    /// `UPDATE table SET every written column = ? WHERE id = ?`, for tables whose rows are found
    /// by their rowid `id` (which the table lists as not written): bind the record, then the id.
    public var updateByIDSQL: String { plainUpdate }

    /// `SELECT column FROM table WHERE key = ? AND …`: the stored `column` of the row with a
    /// record's key (bound by `bindKey`).
    public func lookupSQL(_ column: String) -> String {
        "SELECT \(column) FROM \(table) WHERE " + keyColumns.map { "\($0) = ?" }.joined(separator: " AND ")
    }
}

extension ColumnTable {
    /// Inserts `record` (`insertSQL()`) on a cached statement; returns the new rowid.
    @discardableResult
    public func insert(_ record: Record, in db: Database) throws -> Int64 {
        try CachedQuery.execute(db, insertSQL()) { bind(record, into: &$0) }
        return db.lastInsertedRowID
    }

    /// Writes every written column of `record` to the row with rowid `id` (`updateByIDSQL`).
    public func update(_ record: Record, id: Int64, in db: Database) throws {
        try CachedQuery.execute(db, updateByIDSQL) { bind(record, into: &$0); $0.bind(id) }
    }
}
