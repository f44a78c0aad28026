import FleetCore
import Foundation
import GRDB

extension WarehouseCopy {
    /// Copies the warehouse in the PostgreSQL database at `url` into a new SQLite warehouse at
    /// `path` (which must not exist). Every table of the new warehouse's schema must be in
    /// PostgreSQL with the same columns; the rows go in within one transaction, foreign keys
    /// checked at its commit. If anything fails, the new file is removed.
    public static func toSQLite(from url: PostgresURL, to path: String) throws -> Summary {
        let started = Date()
        guard !FileManager.default.fileExists(atPath: path) else {
            throw FleetError.warehouse(path: path, reason: "the file already exists",
                                       hint: "Copy into a new file name; a copy never merges into another warehouse.")
        }
        let pg = try PostgresConnection(url)
        let present = try pg.rows("""
            SELECT c.relname, a.attname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY c.relname, a.attnum
            """)
        var pgColumns: [String: Set<String>] = [:]
        for row in present { if let t = row[0], let c = row[1] { pgColumns[t, default: []].insert(c) } }
        guard pgColumns["source_file"] != nil else {
            throw FleetError.warehouse(path: url.masked, reason: "the database holds no FleetKit warehouse (no source_file table)",
                                       hint: "Name the database a `fleetkit warehouse copy --to postgresql://…` filled.")
        }
        do {
            let warehouse = try Warehouse(path: path)
            let summary = try warehouse.pool.writeWithoutTransaction { db -> Summary in
                let schema = try PostgresSchema.read(db)
                for t in schema.tables {
                    let want = Set(t.columns.map(\.name))
                    guard let have = pgColumns[t.name] else {
                        throw FleetError.warehouse(path: url.masked, reason: "the database has no table \(t.name)",
                                                   hint: "Its warehouse is of another FleetKit version; copy it with the version that made it.")
                    }
                    guard have == want else {
                        let missing = want.subtracting(have).sorted(), extra = have.subtracting(want).sorted()
                        throw FleetError.warehouse(path: url.masked, reason: "table \(t.name) differs: missing \(missing), extra \(extra)",
                                                   hint: "Its warehouse is of another FleetKit version; copy it with the version that made it.")
                    }
                }
                var counts: [TableCount] = []
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    // A new warehouse may start with rows of its own (settings' defaults, say):
                    // the copy replaces them with the source's.
                    for t in schema.tables.reversed() where try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(quote(t.name))")! > 0 {
                        try db.execute(sql: "DELETE FROM \(quote(t.name))")
                    }
                    for t in schema.tables {
                        let names = t.columns.map { quote($0.name) }.joined(separator: ", ")
                        let select = t.columns.map { c in
                            c.type == .timestamptz ? "(extract(epoch from \(quote(c.name))) * 1000)::bigint" : quote(c.name)
                        }.joined(separator: ", ")
                        let insert = try db.makeStatement(sql: "INSERT INTO \(quote(t.name)) (\(names)) VALUES (\(t.columns.map { _ in "?" }.joined(separator: ", ")))")
                        var n = 0
                        try pg.copyOut("COPY (SELECT \(select) FROM \(quote(t.name))) TO STDOUT") { row in
                            let fields = PostgresCopyText.fields(row)
                            guard fields.count == t.columns.count else {
                                throw FleetError.warehouse(path: url.masked, reason: "a row of \(t.name) came back with \(fields.count) fields, not \(t.columns.count)",
                                                           hint: "Nothing was written.")
                            }
                            var values: [DatabaseValue] = []
                            values.reserveCapacity(fields.count)
                            for (i, c) in t.columns.enumerated() {
                                values.append(try PostgresCopyText.value(fields[i], sqliteType: c.type, table: t.name, column: c.name))
                            }
                            try insert.execute(arguments: StatementArguments(values))
                            n += 1
                        }
                        counts.append(TableCount(table: t.name, rows: n))
                    }
                    return .commit
                }
                let known = Set(schema.tables.map(\.name))
                let skipped = pgColumns.keys.filter { !known.contains($0) }.sorted()
                return Summary(tables: counts, partitions: [:], droppedForeignKeys: [], skippedTables: skipped,
                               seconds: Date().timeIntervalSince(started))
            }
            return summary
        } catch {
            // The copy is all or nothing: its partial file goes. One that cannot be removed is
            // said with the copy's own error, since the next copy refuses an existing target.
            var left: [String] = []
            for file in [path, path + "-wal", path + "-shm", path + "-journal"] where FileManager.default.fileExists(atPath: file) {
                do { try FileManager.default.removeItem(atPath: file) } catch { left.append("\(file) (\(error.localizedDescription))") }
            }
            guard left.isEmpty else {
                throw FleetError.io(path: path, reason: "\(error); the partial copy could not be removed: \(left.joined(separator: ", ")); delete it before copying again")
            }
            throw error
        }
    }
}
