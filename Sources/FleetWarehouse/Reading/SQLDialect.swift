/// What differs between the engines' SQL, in one place per engine (`SQLiteDialect`,
/// `PostgresDialect`). A query written for `WarehouseReader` uses these for the differences
/// and plain SQL for the rest (docs/ARCHITECTURE.md "Engine boundary").
public protocol SQLDialect: Sendable {
    /// `sqlite` or `postgresql`.
    var engine: String { get }

    /// `sql` with its `?1` / `?` parameters in the engine's own form.
    func statement(_ sql: String) -> String

    /// An ORDER BY term that sorts `expression` ascending as SQLite does: NULLs first, text by
    /// its bytes (SQLite's BINARY collation). PostgreSQL puts NULLs last and sorts text by the
    /// database's collation (en_US sorts "T-10" and "T10" apart from bytes), so a report's row
    /// order would otherwise depend on how the server was initialised.
    func ascending(_ expression: String, text: Bool) -> String

    /// A time column (or expression) as epoch milliseconds, for arithmetic on times: SQLite
    /// stores them so; PostgreSQL's `timestamptz` minus another is an interval, not a number.
    func epochMilliseconds(_ expression: String) -> String

    /// A text expression compared by its bytes (`<`, `=`), as SQLite's BINARY collation does;
    /// PostgreSQL would compare by the database's collation.
    func binary(_ expression: String) -> String

    /// The aggregate joining `expression` over a group with `separator` (a quoted SQL string),
    /// in the order of `order` by bytes. SQLite's `group_concat` keeps the order of its input
    /// (an ordered subquery, which the caller writes); PostgreSQL's `string_agg` takes its own.
    func joinedText(_ expression: String, separator: String, order: String) -> String
}

extension SQLDialect {
    public func ascending(_ expression: String) -> String { ascending(expression, text: false) }
}
