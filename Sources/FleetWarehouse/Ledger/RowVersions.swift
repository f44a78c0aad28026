import GRDB
import GRDBSQLite

/// What each file said of a stored row, for the rows more than one file spoke of, so that
/// forgetting a file (`Corrections.forget`) puts back what the previous file said.
///
/// A row only one file carried needs no version: its `source_file_id` names the file, and
/// forgetting that file deletes it. Once a second file loads the same key (an update, or the
/// same values again), both versions are kept here: the stored row's, under the file that
/// stored it, and the new file's. Versions are kept as JSON objects of every written column
/// (`row_json`), keyed by the table and a JSON array of the key (`row_key`), and go with their
/// file (ON DELETE CASCADE). Rows of one file only — the usual case, and every row of a batch
/// insert — cost nothing.
enum RowVersions {
    /// The record types whose rows name their file, by table: every table a fact file writes.
    static let tables: [String: [String]] = {
        let types: [any LoadableRecord.Type] = [
            Assignment.self, MeterReading.self, Position.self, EngineEvent.self, ObdSample.self, DtcEvent.self, FuelPurchase.self,
            Expense.self, MaintenanceRecord.self, ServiceSchedule.self, DVIR.self, DVIRDefect.self, FxRate.self, IdlePeriod.self, HOSLog.self,
            TankDelivery.self, TankDip.self, FuelDispense.self, VendorTotal.self,
        ]
        return Dictionary(uniqueKeysWithValues: types.map { ($0.table, $0.keyColumns) })
    }()

    /// Whether rows of `R` keep versions: a fact table that names its file.
    static func keeps<R: LoadableRecord>(_ type: R.Type) -> Bool { tables[R.table] != nil }

    /// The SQL expression of a row's key as JSON, over the columns of `table` (aliased `t`).
    static func keyExpression(_ keys: [String]) -> String { "json_array(" + keys.map { "t.\($0)" }.joined(separator: ", ") + ")" }

    /// Keeps the stored row of `record`'s key as the version of the file that stored it, unless
    /// that file's version is kept already. Call before an update can change it.
    static func keepStored<R: LoadableRecord>(_ db: Database, _ record: R) throws {
        let columns = R.keyColumns + R.valueColumns
        let object = "json_object(" + columns.map { "'\($0)', t.\($0)" }.joined(separator: ", ") + ")"
        let statement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO row_version (table_name, row_key, source_file_id, row_json)
            SELECT '\(R.table)', \(keyExpression(R.keyColumns)), t.source_file_id, \(object) FROM \(R.table) t
            WHERE t.source_file_id IS NOT NULL AND \(R.keyColumns.enumerated().map { "t.\($0.element) IS ?\($0.offset + 1)" }.joined(separator: " AND "))
            """)
        try run(statement, record, db)
    }

    /// Keeps `record` as the version of `file` (replacing what the same file said before).
    static func keep<R: LoadableRecord>(_ db: Database, _ record: R, file: Int64) throws {
        let columns = R.keyColumns + R.valueColumns
        // The record binds every column in order (?1…?n); its own source_file_id is replaced
        // by `file`, which it is anyway for rows a sink loads.
        let object = "json_object(" + columns.enumerated().map { "'\($0.element)', ?\($0.offset + 1)" }.joined(separator: ", ") + ")"
        let key = "json_array(" + R.keyColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ") + ")"
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO row_version (table_name, row_key, source_file_id, row_json) VALUES ('\(R.table)', \(key), \(file), \(object))
            """)
        try run(statement, record, db)
    }

    private static func run<R: LoadableRecord>(_ statement: Statement, _ record: R, _ db: Database) throws {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
        var binder = Binder(raw)
        record.bind(into: &binder)
        let rc = sqlite3_step(raw)
        defer { sqlite3_reset(raw) }
        guard rc == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }
}
