import FleetCore
import GRDB

/// `WarehouseReader` on an SQLite warehouse, inside the caller's GRDB transaction (a report's
/// read snapshot). Statements are cached per connection, as GRDB's `cachedStatement` does.
public struct SQLiteReader: WarehouseReader {
    public let db: Database
    public var dialect: any SQLDialect { SQLiteDialect() }

    public init(_ db: Database) { self.db = db }

    public func forEach(_ sql: String, _ arguments: [WarehouseArgument], _ body: (WarehouseRow) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let bound = StatementArguments(arguments.map { a -> (any DatabaseValueConvertible)? in
            switch a {
            case let .integer(i), let .instant(i): return i
            case let .real(d): return d
            case let .text(s): return s
            case .null: return nil
            }
        })
        let rows = try Row.fetchCursor(statement, arguments: bound)
        var cells: [WarehouseCell] = []
        while let row = try rows.next() {
            cells.removeAll(keepingCapacity: true)
            for i in 0..<row.count {
                switch (row[i] as DatabaseValue).storage {
                case .null: cells.append(.null)
                case let .int64(v): cells.append(.integer(v))
                case let .double(v): cells.append(.real(v))
                case let .string(v): cells.append(.text(v))
                case .blob:
                    throw FleetError.warehouse(path: "", reason: "column \(i) of a report query is a blob, which reports do not read (in: \(sql.prefix(120)))",
                                               hint: "Select the column as text or a number.")
                }
            }
            try body(WarehouseRow(cells))
        }
    }

    public func tableExists(_ name: String) throws -> Bool { try db.tableExists(name) }

    public func columnExists(_ column: String, in table: String) throws -> Bool { try db.columns(in: table).contains { $0.name == column } }
}
