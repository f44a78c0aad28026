import FleetCore

/// The read side of the engine boundary (docs/ARCHITECTURE.md "Engine boundary"): a report
/// that reads through this runs unchanged on an SQLite warehouse (`SQLiteReader`) and on a
/// PostgreSQL one that `warehouse copy` wrote (`PostgresReader`).
///
/// The rule for SQL given here: written once, in the subset both engines agree on (CTEs,
/// window functions, CASE, COALESCE, `||`, integer `/` on integers), with `?1`, `?2` … (or
/// bare `?`) for parameters; every difference goes through `dialect`, never an `if engine`
/// at the call site. Instants are passed as `.instant` and read back as epoch milliseconds,
/// so a time column compares and decodes alike whether it is an INTEGER (SQLite) or a
/// `timestamptz` (PostgreSQL). A selected truth value (`COUNT(x) > 0`) decodes as a Bool on
/// both (SQLite's 0/1, PostgreSQL's t/f); a truth value combined with numbers is written
/// `CASE WHEN … THEN 1 ELSE 0 END`, which both engines read the same.
public protocol WarehouseReader {
    /// The engine's differences, in one place per engine.
    var dialect: any SQLDialect { get }
    /// Runs `sql` and hands each row to `body` as it comes, without holding the result.
    /// `body` must not query the same reader (PostgreSQL's single-row mode holds the connection
    /// until the result ends); an error it throws ends the walk and is rethrown.
    func forEach(_ sql: String, _ arguments: [WarehouseArgument], _ body: (WarehouseRow) throws -> Void) throws
    /// Whether the warehouse has the table (an older warehouse may lack a later one).
    func tableExists(_ name: String) throws -> Bool
    /// Whether the warehouse's `table` has `column` (an older warehouse, read-only since an
    /// upgrade, may lack a column a later migration added).
    func columnExists(_ column: String, in table: String) throws -> Bool
}

extension WarehouseReader {
    /// Every row of `sql`, decoded by `decode`.
    public func all<T>(_ sql: String, _ arguments: [WarehouseArgument] = [], _ decode: (WarehouseRow) throws -> T) throws -> [T] {
        var out: [T] = []
        try forEach(sql, arguments) { out.append(try decode($0)) }
        return out
    }

    /// The first column of every row.
    public func column<T: WarehouseValue>(_ sql: String, _ arguments: [WarehouseArgument] = [], as type: T.Type = T.self) throws -> [T] {
        try all(sql, arguments) { try $0[0] }
    }

    /// The first column of the first row; nil when there is no row or the value is NULL.
    public func value<T: WarehouseValue>(_ sql: String, _ arguments: [WarehouseArgument] = [], as type: T.Type = T.self) throws -> T? {
        var found: T??
        try forEach(sql, arguments) { row in
            if found == nil { found = .some(try row[0] as T?) }
        }
        return found ?? nil
    }
}
