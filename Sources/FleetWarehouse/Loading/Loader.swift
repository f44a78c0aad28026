import GRDB
import GRDBSQLite

/// Bulk upserts on cached prepared statements, inside the caller's transaction.
///
/// Each row is first inserted with `ON CONFLICT DO NOTHING` (one statement for new data, the
/// common case). Only when the key exists does a second statement update the stored row, and
/// only if a value differs and the record type's precedence rule allows it. `sqlite3_changes`
/// tells the three outcomes apart, which makes the loaded/updated/unchanged counts exact.
public struct Loader {
    let db: Database
    private var statements: [ObjectIdentifier: (insert: Statement, update: Statement)] = [:]

    /// Multi-row INSERT statements, per record type and row count.
    private var batchStatements: [BatchKey: Statement] = [:]

    public init(_ db: Database) { self.db = db }

    /// Rows per multi-row INSERT. Inserting a million positions with one statement per 64 rows
    /// took 1.14 s instead of 1.97 s with one per row (a C program on this table, foreign keys
    /// on): step/reset and the statement's setup are paid once per batch. 128 and 256 rows
    /// were no faster.
    public static let batchRows = 64

    /// Inserts every row of `rows` with one statement, or none of them: returns false, with
    /// nothing written, when any row conflicts with a stored row or with another row of the
    /// batch. The statement is a plain INSERT (ON CONFLICT ABORT), so on a conflict SQLite's
    /// statement journal undoes the rows it had already inserted; the caller then loads those
    /// rows one by one through `upsert`, which tells inserted, updated and unchanged apart.
    /// Other constraint failures (a missing foreign key) also return false: the row-by-row
    /// path then throws the same error as before, for the row that causes it.
    public mutating func insertAll<R: LoadableRecord>(_ rows: UnsafeBufferPointer<R>) throws -> Bool {
        guard !rows.isEmpty else { return true }
        let statement = try batchStatement(for: R.self, rows: rows.count)
        let raw = statement.sqliteStatement
        var binder = Binder(raw)
        for row in rows { row.bind(into: &binder) }
        let rc = sqlite3_step(raw)
        sqlite3_reset(raw)
        if rc == SQLITE_DONE { return true }
        if rc & 0xFF == SQLITE_CONSTRAINT { return false }
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                            sql: statement.sql)
    }

    private struct BatchKey: Hashable {
        var type: ObjectIdentifier
        var rows: Int
    }

    private mutating func batchStatement<R: LoadableRecord>(for type: R.Type, rows: Int) throws -> Statement {
        let key = BatchKey(type: ObjectIdentifier(type), rows: rows)
        if let statement = batchStatements[key] { return statement }
        let columns = R.keyColumns + R.valueColumns
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let statement = try db.makeStatement(sql: "INSERT INTO \(R.table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", "))
        batchStatements[key] = statement
        return statement
    }

    /// `beforeUpdate` runs when the key is stored, before the update may change the stored row.
    public mutating func upsert<R: LoadableRecord>(_ record: R, beforeUpdate: (() throws -> Void)? = nil) throws -> LoadOutcome {
        let (insert, update) = try statementPair(for: R.self)
        if try run(insert, record) > 0 { return .inserted }
        try beforeUpdate?()
        return try run(update, record) > 0 ? .updated : .unchanged
    }

    /// The rowid of the stored row with `record`'s key (for tables with an INTEGER PRIMARY KEY).
    public func id<R: LoadableRecord>(of record: R) throws -> Int64? {
        let statement = try db.cachedStatement(sql: "SELECT id FROM \(R.table) WHERE "
            + R.keyColumns.map { "\($0) IS ?" }.joined(separator: " AND "))
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
        // The statement has placeholders for the key only; a record binds its key first, and
        // SQLite refuses (SQLITE_RANGE, ignored) the binds past the last placeholder.
        var binder = Binder(raw)
        record.bind(into: &binder)
        let rc = sqlite3_step(raw)
        defer { sqlite3_reset(raw) }
        if rc == SQLITE_ROW { return sqlite3_column_int64(raw, 0) }
        if rc == SQLITE_DONE { return nil }
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    /// The stored row with `record`'s key: its integer `column` and its `source_file_id`, or nil.
    public func stored<R: LoadableRecord>(_ record: R, column: String) throws -> (at: Int64, file: Int64?)? {
        let statement = try db.cachedStatement(sql: "SELECT \(column), source_file_id FROM \(R.table) WHERE "
            + R.keyColumns.map { "\($0) IS ?" }.joined(separator: " AND "))
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
        // Placeholders for the key only, as in `id(of:)`: the binds past them are refused.
        var binder = Binder(raw)
        record.bind(into: &binder)
        let rc = sqlite3_step(raw)
        defer { sqlite3_reset(raw) }
        if rc == SQLITE_ROW {
            let file = sqlite3_column_type(raw, 1) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, 1)
            return (sqlite3_column_int64(raw, 0), file)
        }
        if rc == SQLITE_DONE { return nil }
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    private mutating func statementPair<R: LoadableRecord>(for type: R.Type) throws -> (insert: Statement, update: Statement) {
        if let pair = statements[ObjectIdentifier(type)] { return pair }
        let columns = R.keyColumns + R.valueColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insert = try db.makeStatement(sql: "INSERT INTO \(R.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT DO NOTHING")
        // UPDATE … FROM a VALUES row, so the incoming row can be named `new` in precedence rules.
        let newColumns = columns.enumerated().map { "column\($0.offset + 1) AS \($0.element)" }.joined(separator: ", ")
        // A column in `keepWhenAbsent` takes COALESCE(new, stored): an absent value keeps the
        // stored one, and a row that differs only by absent values is unchanged.
        func incoming(_ c: String) -> String { R.keepWhenAbsent.contains(c) ? "COALESCE(new.\(c), \(R.table).\(c))" : "new.\(c)" }
        let compared = R.comparedColumns
        var condition = compared.isEmpty ? "0" : "(" + compared.map { "\(R.table).\($0) IS NOT \(incoming($0))" }.joined(separator: " OR ") + ")"
        if let precedence = R.precedence { condition += " AND (\(precedence))" }
        let sql = """
            UPDATE \(R.table) SET \(R.valueColumns.map { "\($0) = \(incoming($0))" }.joined(separator: ", "))
            FROM (SELECT \(newColumns) FROM (VALUES (\(placeholders)))) AS new
            WHERE \(R.keyColumns.map { "\(R.table).\($0) IS new.\($0)" }.joined(separator: " AND ")) AND \(condition)
            """
        let update = try db.makeStatement(sql: sql)
        statements[ObjectIdentifier(type)] = (insert, update)
        return (insert, update)
    }

    private func run<R: LoadableRecord>(_ statement: Statement, _ record: R) throws -> Int32 {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        var binder = Binder(raw)
        record.bind(into: &binder)
        let rc = sqlite3_step(raw)
        defer { sqlite3_reset(raw) }
        guard rc == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
        return sqlite3_changes(db.sqliteConnection)
    }
}

