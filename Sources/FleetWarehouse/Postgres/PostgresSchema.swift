import FleetCore
import GRDB

/// The warehouse schema on PostgreSQL, generated from the live SQLite schema so the two cannot
/// drift: every table and column of a migrated SQLite warehouse, on native types, with the same
/// primary keys, unique keys, foreign keys and plain indexes (docs/ARCHITECTURE.md "Engine
/// boundary", docs/OPERATIONS.md "PostgreSQL").
///
/// Types follow one rule each: an INTEGER column named `at` or `…_at` holds UTC epoch
/// milliseconds (`Timestamp`) and becomes `timestamptz`; any other INTEGER (ids, minor currency
/// units, counts) `bigint`; REAL `double precision`; TEXT `text`; BLOB `bytea`. A column of any
/// other declared type stops the generation: a new kind of column needs a rule, not a guess.
///
/// The large fact tables (`partitioned`) are partitioned by month of their time column, and on
/// them every primary and unique key carries `asset_id` and that column, as PostgreSQL requires
/// of a partitioned table and as distributing by asset (Citus) requires of every table it
/// shards. A foreign key that points at a partitioned table is left out (its target `id` alone
/// is no longer unique there); the list is `droppedForeignKeys`. CHECK constraints and triggers
/// stay SQLite's: the copy's source already satisfied them.
public struct PostgresSchema: Sendable {
    public enum ColumnType: String, Sendable { case bigint, timestamptz, double = "double precision", text, bytea }

    public struct Column: Sendable, Equatable {
        public let name: String
        public let type: ColumnType
        public let notNull: Bool
    }

    public struct ForeignKey: Sendable, Equatable {
        public let columns: [String]
        public let table: String
        public let referenced: [String]
    }

    public struct Table: Sendable {
        public let name: String
        public let columns: [Column]
        public let primaryKey: [String]
        public let uniqueKeys: [[String]]
        public let foreignKeys: [ForeignKey]
        public let indexes: [[String]]
        /// The month-partitioning column, for the large fact tables.
        public let partitionColumn: String?
    }

    /// The large fact tables and the time column each is partitioned by, month by month.
    public static let partitioned: [String: String] = ["position": "at", "obd_sample": "at", "meter_reading": "at", "trip": "start_at"]

    /// Tables that are SQLite's or the migrator's own bookkeeping, not warehouse data.
    public static let notCopied: Set<String> = ["grdb_migrations", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4"]

    public let tables: [Table]
    /// Foreign keys of the SQLite schema that PostgreSQL does not get (they point at a partitioned table).
    public let droppedForeignKeys: [String]

    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// Reads the schema of an SQLite warehouse.
    public static func read(_ db: Database) throws -> PostgresSchema {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .filter { !notCopied.contains($0) }
        var tables: [Table] = []
        var dropped: [String] = []
        for name in names {
            let info = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", arguments: [name])
            var columns: [Column] = []
            var pk: [(Int, String)] = []
            for row in info {
                let column: String = row["name"]
                let declared: String = (row["type"] as String? ?? "").uppercased()
                let type: ColumnType
                switch declared {
                case "INTEGER": type = column == "at" || column.hasSuffix("_at") ? .timestamptz : .bigint
                case "REAL": type = .double
                case "TEXT": type = .text
                case "BLOB": type = .bytea
                default:
                    throw FleetError.warehouse(path: name, reason: "column \(name).\(column) has the declared type '\(declared)', which has no PostgreSQL rule",
                                               hint: "Give the column a rule in PostgresSchema (docs/ARCHITECTURE.md \"Engine boundary\").")
                }
                columns.append(Column(name: column, type: type, notNull: (row["notnull"] as Int) != 0))
                let order: Int = row["pk"]
                if order > 0 { pk.append((order, column)) }
            }
            let partitionColumn = partitioned[name]
            func keyed(_ key: [String]) -> [String] {
                guard let p = partitionColumn else { return key }
                var k = key
                for c in ["asset_id", p] where !k.contains(c) { k.append(c) }
                return k
            }
            var uniques: [[String]] = []
            var indexes: [[String]] = []
            for index in try Row.fetchAll(db, sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) ORDER BY name", arguments: [name]) {
                let origin: String = index["origin"]
                if origin == "pk" { continue }
                let parts = try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"] as String])
                let cols = parts.compactMap { $0["name"] as String? }
                let isUnique = (index["unique"] as Int) != 0
                let isPartial = (index["partial"] as Int) != 0
                // Expression and partial indexes are SQLite's query plans, not keys of the data:
                // only plain column indexes carry over (a partial unique index is no key of the whole table).
                guard cols.count == parts.count, !cols.isEmpty, !isPartial else { continue }
                if isUnique { uniques.append(keyed(cols)) } else { indexes.append(cols) }
            }
            var foreign: [Int: (table: String, from: [String], to: [String?])] = [:]
            for fk in try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name]) {
                let id: Int = fk["id"]
                var entry = foreign[id] ?? (fk["table"], [], [])
                entry.from.append(fk["from"])
                entry.to.append(fk["to"])
                foreign[id] = entry
            }
            var foreignKeys: [ForeignKey] = []
            for id in foreign.keys.sorted() {
                let fk = foreign[id]!
                if partitioned[fk.table] != nil {
                    dropped.append("\(name)(\(fk.from.joined(separator: ", "))) → \(fk.table)")
                    continue
                }
                let to: [String]
                if fk.to.allSatisfy({ $0 != nil }) {
                    to = fk.to.map { $0! }
                } else {
                    to = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [fk.table])
                }
                foreignKeys.append(ForeignKey(columns: fk.from, table: fk.table, referenced: to))
            }
            let primaryKey = pk.isEmpty ? [] : keyed(pk.sorted { $0.0 < $1.0 }.map(\.1))
            tables.append(Table(name: name, columns: columns, primaryKey: primaryKey, uniqueKeys: uniques,
                                foreignKeys: foreignKeys, indexes: indexes, partitionColumn: partitionColumn))
        }
        return PostgresSchema(tables: tables, droppedForeignKeys: dropped)
    }

    /// `CREATE TABLE` (and `CREATE INDEX`) statements, without foreign keys: those are added
    /// after the data (`foreignKeyStatements`), so tables load in any order and are checked once.
    public func tableStatements() -> [String] {
        var out: [String] = []
        for t in tables {
            var lines = t.columns.map { "  \(quote($0.name)) \($0.type.rawValue)\($0.notNull ? " NOT NULL" : "")" }
            if !t.primaryKey.isEmpty { lines.append("  PRIMARY KEY (\(list(t.primaryKey)))") }
            for u in t.uniqueKeys { lines.append("  UNIQUE (\(list(u)))") }
            var create = "CREATE TABLE \(quote(t.name)) (\n" + lines.joined(separator: ",\n") + "\n)"
            if let p = t.partitionColumn { create += " PARTITION BY RANGE (\(quote(p)))" }
            out.append(create)
            for (i, index) in t.indexes.enumerated() {
                out.append("CREATE INDEX \(quote("\(t.name)_ix\(i + 1)")) ON \(quote(t.name)) (\(list(index)))")
            }
        }
        return out
    }

    public func foreignKeyStatements() -> [String] {
        tables.flatMap { t in
            t.foreignKeys.enumerated().map { i, fk in
                "ALTER TABLE \(quote(t.name)) ADD CONSTRAINT \(quote("\(t.name)_fk\(i + 1)")) FOREIGN KEY (\(list(fk.columns))) REFERENCES \(quote(fk.table)) (\(list(fk.referenced)))"
            }
        }
    }

    /// The partition of `table` for one calendar month (UTC), and its name: `position_2026_10`.
    public static func monthPartition(_ table: String, year: Int, month: Int) -> (name: String, statement: String) {
        let name = "\(table)_\(year)_\(month < 10 ? "0" : "")\(month)"
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        func start(_ y: Int, _ m: Int) -> String { "'\(y)-\(m < 10 ? "0" : "")\(m)-01 00:00:00+00'" }
        return (name, "CREATE TABLE \(quote(name)) PARTITION OF \(quote(table)) FOR VALUES FROM (\(start(year, month))) TO (\(start(next.0, next.1)))")
    }

    /// The catch-all partition of `table`: rows of a month with no partition of its own yet.
    public static func defaultPartition(_ table: String) -> String {
        "CREATE TABLE \(quote(table + "_default")) PARTITION OF \(quote(table)) DEFAULT"
    }
}

/// An SQL identifier, double-quoted.
func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

private func list(_ names: [String]) -> String { names.map(quote).joined(separator: ", ") }
