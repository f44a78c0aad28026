import GRDBSQLite

/// Binds values positionally on a prepared SQLite statement.
///
/// The hot insert path binds with `sqlite3_bind_*` directly on a cached statement: measured about
/// 2x faster than GRDB's `StatementArguments`, which box every value.
public struct Binder {
    let statement: OpaquePointer
    var index: Int32 = 1

    init(_ statement: OpaquePointer) { self.statement = statement }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    public mutating func bind(_ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    public mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    public mutating func bind(_ value: Bool?) { bind(value.map { Int64($0 ? 1 : 0) }) }

    public mutating func bind(_ value: Double?) {
        if let value, value.isFinite { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    public mutating func bind(_ value: String?) {
        if let value {
            var v = value
            let bound = v.withUTF8 { u in
                u.withMemoryRebound(to: CChar.self) { c -> Bool in
                    guard let base = c.baseAddress else { return false }
                    sqlite3_bind_text(statement, index, base, Int32(c.count), Binder.transient)
                    return true
                }
            }
            if !bound { sqlite3_bind_text(statement, index, "", 0, Binder.transient) }
        } else {
            sqlite3_bind_null(statement, index)
        }
        index += 1
    }
}
