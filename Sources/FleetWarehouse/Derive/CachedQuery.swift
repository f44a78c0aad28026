import GRDB
import GRDBSQLite

/// A cached prepared statement stepped with raw `sqlite3_*` calls, for the SQL that derivation
/// and identity resolution run once per asset, trip or day.
///
/// Why: GRDB's `db.execute(sql:)`, `Row.fetchOne(db, sql:)` and `Record.fetchOne(db, key:)`
/// compile the SQL on every call (GRDB's StatementAuthorizer and SQLite's parser were 15-25 %
/// of telematics import profiles), and `StatementArguments` and `Row` box every value. The
/// statement comes from GRDB's per-connection cache, so it is compiled once per connection; it
/// is reset before binding and after use, so GRDB can still use it normally.
///
/// Use: `let q = try CachedQuery(db, sql) { $0.bind(asset) }; defer { q.reset() }` then
/// `while try q.step() { q.int64(0) … }`. Never nest two uses of the same SQL text.
struct CachedQuery {
    let db: Database
    let statement: OpaquePointer
    let sql: String

    init(_ db: Database, _ sql: String, bind: (inout Binder) -> Void = { _ in }) throws {
        self.db = db
        self.sql = sql
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        var binder = Binder(statement)
        bind(&binder)
    }

    /// Moves to the next row: true while there is one.
    func step() throws -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
        sqlite3_reset(statement)
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: sql)
    }

    func reset() { sqlite3_reset(statement) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalText(_ column: Int32) -> String? {
        guard let c = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: c)
    }
    func text(_ column: Int32) -> String { optionalText(column) ?? "" }

    // MARK: One-shot forms

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    static func execute(_ db: Database, _ sql: String, bind: (inout Binder) -> Void = { _ in }) throws -> Int32 {
        let q = try CachedQuery(db, sql, bind: bind)
        defer { q.reset() }
        while try q.step() {}
        return sqlite3_changes(db.sqliteConnection)
    }

    /// The first column of the first row as an integer; nil when there is no row or it is NULL.
    static func int64(_ db: Database, _ sql: String, bind: (inout Binder) -> Void) throws -> Int64? {
        let q = try CachedQuery(db, sql, bind: bind)
        defer { q.reset() }
        return try q.step() ? q.optionalInt64(0) : nil
    }

    /// The first column of the first row as a double; nil when there is no row or it is NULL.
    static func double(_ db: Database, _ sql: String, bind: (inout Binder) -> Void) throws -> Double? {
        let q = try CachedQuery(db, sql, bind: bind)
        defer { q.reset() }
        return try q.step() ? q.optionalDouble(0) : nil
    }
}
