import FleetCore
import Foundation
import GRDB

/// `fleetkit warehouse copy`: a whole warehouse from SQLite to PostgreSQL, or back into a new
/// SQLite file (docs/OPERATIONS.md "PostgreSQL").
///
/// Either way the copy is one transaction on the side it writes: the tables are created, every
/// table's rows are streamed through COPY, the foreign keys are checked, and only then is
/// anything committed, so a failure leaves the target as it was (an empty database, or no file).
/// The source is only read. Neither side is ever merged into: the target must hold no warehouse.
public enum WarehouseCopy {
    public struct TableCount: Sendable, Equatable {
        public let table: String
        public let rows: Int
    }

    public struct Summary: Sendable {
        public let tables: [TableCount]
        /// Month partitions created (to PostgreSQL), by table.
        public let partitions: [String: Int]
        /// Foreign keys of SQLite that PostgreSQL does not hold (`PostgresSchema.droppedForeignKeys`).
        public let droppedForeignKeys: [String]
        /// Tables in PostgreSQL that are not warehouse tables and were not copied back (a detached partition, say).
        public let skippedTables: [String]
        public let seconds: Double
        public var rows: Int { tables.reduce(0) { $0 + $1.rows } }
    }

    /// Bytes buffered before a COPY chunk is sent.
    static let chunkBytes = 1 << 20

    /// Copies the SQLite warehouse into the PostgreSQL database at `url`, which must hold none of its tables.
    public static func toPostgres(from warehouse: Warehouse, to url: PostgresURL) throws -> Summary {
        let started = Date()
        let pg = try PostgresConnection(url)
        return try warehouse.pool.read { db in
            let schema = try PostgresSchema.read(db)
            let existing = try pg.rows("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname = ANY($1::text[])",
                                       ["{" + schema.tables.map { "\"\($0.name)\"" }.joined(separator: ",") + "}"]).compactMap { $0[0] }
            guard existing.isEmpty else {
                throw FleetError.warehouse(path: url.masked, reason: "the database already holds warehouse tables (\(existing.sorted().prefix(5).joined(separator: ", ")))",
                                           hint: "Copy into an empty database (createdb a new one); a copy never merges into another warehouse.")
            }
            try pg.execute("BEGIN")
            do {
                for statement in schema.tableStatements() { try pg.execute(statement) }
                var partitions: [String: Int] = [:]
                for t in schema.tables {
                    guard let p = t.partitionColumn else { continue }
                    let months = try Row.fetchAll(db, sql: "SELECT DISTINCT CAST(strftime('%Y', \(quote(p)) / 1000, 'unixepoch') AS INTEGER) AS y, CAST(strftime('%m', \(quote(p)) / 1000, 'unixepoch') AS INTEGER) AS m FROM \(quote(t.name)) ORDER BY y, m")
                    for month in months {
                        try pg.execute(PostgresSchema.monthPartition(t.name, year: month["y"], month: month["m"]).statement)
                    }
                    try pg.execute(PostgresSchema.defaultPartition(t.name))
                    partitions[t.name] = months.count
                }
                var counts: [TableCount] = []
                for t in schema.tables {
                    let names = t.columns.map { quote($0.name) }.joined(separator: ", ")
                    let cursor = try Row.fetchCursor(db, sql: "SELECT \(names) FROM \(quote(t.name))")
                    var buffer: [UInt8] = []
                    buffer.reserveCapacity(chunkBytes + 4096)
                    var done = false
                    let copied = try pg.copyIn("COPY \(quote(t.name)) (\(names)) FROM STDIN") {
                        if done { return nil }
                        buffer.removeAll(keepingCapacity: true)
                        while buffer.count < chunkBytes {
                            guard let row = try cursor.next() else { done = true; break }
                            for (i, column) in t.columns.enumerated() {
                                if i > 0 { buffer.append(0x09) }
                                try PostgresCopyText.append(row[i] as DatabaseValue, as: column.type, to: &buffer, table: t.name, column: column.name)
                            }
                            buffer.append(0x0A)
                        }
                        return buffer
                    }
                    counts.append(TableCount(table: t.name, rows: copied))
                }
                for statement in schema.foreignKeyStatements() { try pg.execute(statement) }
                try pg.execute("ANALYZE")
                try pg.execute("COMMIT")
                return Summary(tables: counts, partitions: partitions, droppedForeignKeys: schema.droppedForeignKeys,
                               skippedTables: [], seconds: Date().timeIntervalSince(started))
            } catch {
                try? pg.execute("ROLLBACK")
                throw error
            }
        }
    }
}
