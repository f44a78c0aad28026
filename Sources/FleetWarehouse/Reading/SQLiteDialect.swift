/// SQLite's side of `SQLDialect`: the SQL as written.
public struct SQLiteDialect: SQLDialect {
    public init() {}
    public var engine: String { "sqlite" }
    public func statement(_ sql: String) -> String { sql }
    /// SQLite's ascending order already puts NULLs first and compares text by bytes (BINARY).
    public func ascending(_ expression: String, text: Bool) -> String { expression }
    /// Times are stored as epoch milliseconds already.
    public func epochMilliseconds(_ expression: String) -> String { expression }
    public func binary(_ expression: String) -> String { expression }
    public func joinedText(_ expression: String, separator: String, order: String) -> String { "group_concat(\(expression), \(separator))" }
}
