import Foundation
import GRDB
import FleetCore

/// Taking an imported file back out of the warehouse: `fleetkit forget` and `import --replaces`.
///
/// Forgetting a file removes everything it contributed, in the caller's transaction: each row
/// it stored goes back to what the previous file said of it (`RowVersions`, the latest other
/// file's version) or is deleted when no other file spoke of it; its rejects, row versions and
/// its `source_file` row go with it (its bytes can be imported again); the derived tables are
/// recomputed over the assets and times it touched; the correction is recorded with who and
/// when. Master data files (assets, drivers) are not forgotten: facts refer to their rows, and
/// a corrected master file replaces their values when imported.
public enum Corrections {
    public struct Forgotten: Sendable, Equatable, Codable {
        public var fileID: Int64
        public var path: String
        public var sha256: String
        /// Rows deleted and rows put back to an earlier file's version, per table.
        public var removed: [String: Int] = [:]
        public var restored: [String: Int] = [:]
        public var rejects = 0
        public var totalRemoved: Int { removed.values.reduce(0, +) }
        public var totalRestored: Int { restored.values.reduce(0, +) }
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noSuchFile(String)
        case ambiguous(String, [String])
        case masterData(path: String, format: String)

        public var description: String {
            switch self {
            case .noSuchFile(let f): return "no imported file matches '\(f)'; `fleetkit status` lists the imported files with their ids"
            case .ambiguous(let f, let paths): return "'\(f)' matches \(paths.count) imported files (\(paths.prefix(5).joined(separator: ", "))); give the file's id from `fleetkit status`"
            case .masterData(let path, let format): return "\(path) is master data (\(format)): facts refer to its rows, so it is not forgotten; import the corrected \(format) file instead (its values replace the stored ones)"
            }
        }
    }

    /// The formats whose rows facts refer to.
    static let masterFormats: Set<String> = ["assets", "drivers"]

    /// The stored file `reference` names: an id (`#12` or `12`), a path as imported, or a file
    /// name when only one imported file has it. A file of the same bytes is the same file.
    public static func find(_ db: Database, _ reference: String) throws -> (id: Int64, path: String, sha256: String, format: String) {
        let trimmed = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        func row(_ sql: String, _ arguments: StatementArguments) throws -> [Row] { try Row.fetchAll(db, sql: sql, arguments: arguments) }
        var rows: [Row] = []
        if let id = Int64(trimmed) { rows = try row("SELECT id, path, sha256, format FROM source_file WHERE id = ?", [id]) }
        if rows.isEmpty {
            let absolute = URL(fileURLWithPath: reference).standardizedFileURL.path
            rows = try row("SELECT id, path, sha256, format FROM source_file WHERE path = ? OR path = ?", [reference, absolute])
        }
        if rows.isEmpty, FileManager.default.fileExists(atPath: reference), let digest = try? SHA256.hex(ofFile: URL(fileURLWithPath: reference)) {
            rows = try row("SELECT id, path, sha256, format FROM source_file WHERE sha256 = ?", [digest])
        }
        if rows.isEmpty {
            let name = "/" + (reference.split(separator: "/").last.map(String.init) ?? reference)
            rows = try row("SELECT id, path, sha256, format FROM source_file WHERE substr(path, -length(?)) = ?", [name, name])
        }
        guard !rows.isEmpty else { throw Failure.noSuchFile(reference) }
        guard rows.count == 1 else { throw Failure.ambiguous(reference, rows.map { "#\($0[0] as Int64) \($0[1] as String)" }) }
        return (rows[0][0], rows[0][1], rows[0][2], rows[0][3])
    }

    /// Forgets the file `id` in the caller's transaction (see the type's summary). `settings`
    /// are the derivation's zone and trip rules.
    public static func forget(_ db: Database, fileID id: Int64, settings: DeriveSettings) throws -> Forgotten {
        guard let file = try Row.fetchOne(db, sql: "SELECT path, sha256, format FROM source_file WHERE id = ?", arguments: [id]) else {
            throw Failure.noSuchFile("#\(id)")
        }
        let format: String = file[2]
        if masterFormats.contains(format) { throw Failure.masterData(path: file[0], format: format) }
        var out = Forgotten(fileID: id, path: file[0], sha256: file[1])
        var touched = TouchedTimeline()
        for (table, keys) in RowVersions.tables.sorted(by: { $0.key < $1.key }) {
            let hasAsset = try db.columns(in: table).contains { $0.name == "asset_id" }
            let at = try db.columns(in: table).first { ["at", "start_at", "signed_at", "performed_at"].contains($0.name) }?.name
            // Rows are found again by their key: several of these tables are WITHOUT ROWID.
            let match = keys.map { "\($0) IS ?" }.joined(separator: " AND ")
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(RowVersions.keyExpression(keys)), \(hasAsset ? "t.asset_id" : "NULL"), \(at.map { "t.\($0)" } ?? "NULL"), \(keys.map { "t.\($0)" }.joined(separator: ", "))
                FROM \(table) t WHERE t.source_file_id = ?
                """, arguments: [id])
            for r in rows {
                let key: String = r[0]
                let keyValues = StatementArguments((3..<(3 + keys.count)).map { r[$0] as DatabaseValue })
                if let asset: Int64 = r[1] { touched.touchAll(asset) }
                if table == "fuel_purchase", let t: Int64 = r[2] { touched.touchFuelPurchase(at: t) }
                if table == "fx_rate" { touched.touchRates() }
                if TankCosting.tables.contains(table),
                   let tank = try String.fetchOne(db, sql: "SELECT tank FROM \(table) WHERE \(match)", arguments: keyValues) {
                    touched.touchTank(tank)
                }
                let earlier = try Row.fetchOne(db, sql: """
                    SELECT row_json FROM row_version WHERE table_name = ? AND row_key = ? AND source_file_id != ? ORDER BY source_file_id DESC LIMIT 1
                    """, arguments: [table, key, id])
                if let json: String = earlier?[0] {
                    let columns = try String.fetchAll(db, sql: "SELECT key FROM json_each(?) WHERE key NOT IN (\(keys.map { "'\($0)'" }.joined(separator: ", ")))", arguments: [json])
                    try db.execute(sql: "UPDATE \(table) SET " + columns.map { "\($0) = json_extract(?, '$.\($0)')" }.joined(separator: ", ") + " WHERE \(match)",
                                   arguments: StatementArguments(Array(repeating: json, count: columns.count)) + keyValues)
                    out.restored[table, default: 0] += 1
                    if hasAsset, let asset = try Int64.fetchOne(db, sql: "SELECT asset_id FROM \(table) WHERE \(match)", arguments: keyValues) { touched.touchAll(asset) }
                    if table == "fuel_purchase", let t = try Int64.fetchOne(db, sql: "SELECT at FROM fuel_purchase WHERE \(match)", arguments: keyValues) {
                        touched.touchFuelPurchase(at: t)
                    }
                } else {
                    // A receipt linked to this row (its card transaction, or the first image of
                    // the same slip) lets go of it; the fuel linking of the refresh below, and of
                    // a replacing file's load, links it again to what is there then.
                    if table == "fuel_purchase" {
                        try db.execute(sql: "UPDATE fuel_purchase SET linked_to = NULL WHERE linked_to IN (SELECT id FROM fuel_purchase WHERE \(match))",
                                       arguments: keyValues)
                    }
                    try db.execute(sql: "DELETE FROM \(table) WHERE \(match)", arguments: keyValues)
                    out.removed[table, default: 0] += 1
                }
            }
        }
        // What the file named without owning: assets and drivers it created stay (facts of
        // other files may refer to them), derived trips lose the reference before recomputing.
        for table in ["asset", "driver", "trip"] {
            try db.execute(sql: "UPDATE \(table) SET source_file_id = NULL WHERE source_file_id = ?", arguments: [id])
        }
        out.rejects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reject WHERE source_file_id = ?", arguments: [id]) ?? 0
        try db.execute(sql: "DELETE FROM source_file WHERE id = ?", arguments: [id])
        try Derivations.refresh(db, touched: touched, settings: settings, streams: [:])
        return out
    }

    /// What `forget(in:)` did: the file as forgotten, the closed-month figures it changes, and
    /// whether it was applied (not a dry run, and no restatement refused).
    public struct Outcome: Sendable, Equatable {
        public var forgotten: Forgotten
        public var restatements: [PeriodFigures.Change]
        public var applied: Bool
        /// Refused because it restates a closed month without `allowRestatement`.
        public var refused: Bool
    }

    /// `fleetkit forget`: finds the file `reference` names and forgets it in one transaction,
    /// held to the closed months' rule (`MonthEnd`): a forget that changes a closed month's
    /// figures is rolled back unless `allowRestatement`, and then each change is recorded.
    public static func forget(in warehouse: Warehouse, _ reference: String, allowRestatement: Bool, dryRun: Bool, by: String) throws -> Outcome {
        let settings = try warehouse.settings()
        do {
            return try warehouse.pool.writeWithoutTransaction { db in
                var outcome: Outcome?
                try db.inTransaction(.immediate) {
                    let before = try MonthEnd.snapshot(db, zone: settings.zone)
                    let target = try find(db, reference)
                    let f = try forget(db, fileID: target.id, settings: settings.derive)
                    let changes = try MonthEnd.changes(db, since: before, zone: settings.zone)
                    let refused = !changes.isEmpty && !allowRestatement
                    outcome = Outcome(forgotten: f, restatements: changes, applied: !refused && !dryRun, refused: refused)
                    if refused || dryRun { return .rollback }
                    try MonthEnd.record(db, changes, filePath: "forget " + f.path, sha256: f.sha256, by: by)
                    try record(db, f, action: "forget", by: by)
                    return .commit
                }
                return outcome!
            }
        } catch let error as DatabaseError {
            throw Warehouse.explain(error, path: warehouse.path, doing: "forget \(reference)")
        }
    }

    /// Records a forget or a replacement in the `correction` ledger.
    public static func record(_ db: Database, _ f: Forgotten, action: String, replacedBy: String? = nil, by: String, at: Int64 = Timestamp.now()) throws {
        try db.execute(sql: """
            INSERT INTO correction (action, file_path, file_sha256, replaced_by, removed, restored, at, by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [action, f.path, f.sha256, replacedBy, f.totalRemoved, f.totalRestored, at, by])
    }

    public struct Entry: Sendable, Equatable {
        public var action: String, path: String, replacedBy: String?, removed: Int, restored: Int, at: Int64, by: String
    }

    public static func entries(_ db: Database) throws -> [Entry] {
        try Row.fetchAll(db, sql: "SELECT action, file_path, replaced_by, removed, restored, at, by FROM correction ORDER BY id").map {
            Entry(action: $0[0], path: $0[1], replacedBy: $0[2], removed: $0[3], restored: $0[4], at: $0[5], by: $0[6])
        }
    }
}
