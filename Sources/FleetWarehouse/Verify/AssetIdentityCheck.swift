import GRDB
import FleetCore

/// One asset per identity: no two assets share a VIN, a PIN, a unit number (compared trimmed and,
/// for VINs and PINs, case-folded, which the unique indexes do not), a VIN that is another
/// asset's PIN, or a vendor serial number that is another asset's VIN or PIN; and every row that
/// names an asset names one that exists.
///
/// Why: identity resolution merges assets that a file proves to be one (`IdentityResolver`,
/// `AssetMerger`), so a warehouse that holds two for one machine splits its costs, hours and
/// trips between them without any error, and a row whose asset is gone drops out of every report
/// that joins the asset table.
public struct AssetIdentityCheck: WarehouseCheck {
    public let name = "asset_identity"
    public let rule = "no two assets share a VIN, PIN or unit number (trimmed; VIN and PIN case-folded), no VIN is another asset's PIN, no vendor serial number (serial_number, vin, pin identifiers) is another asset's VIN or PIN; every row of a table with asset_id names an existing asset"
    public init() {}

    /// Tables whose `asset_id` leads an index: their distinct assets are found by index seeks,
    /// one per asset, instead of reading every row (a year of positions is tens of millions).
    /// Every other table is read once, its rows naming no asset counted per asset in that pass.
    static let indexed: Set<String> = ["asset_identifier", "meter_reading", "position", "engine_event", "obd_sample", "dtc_event", "trip",
                                       "asset_day", "meter_anomaly"]

    /// The normalised keys, exactly the expressions of the `asset_vin_key` and `asset_pin_key`
    /// indexes (migration v13-verify-keys): with any other spelling SQLite cannot use them, and
    /// the comparisons below become one full scan of the assets per asset.
    static func vinKey(_ t: String) -> String { "UPPER(TRIM(\(t).vin))" }
    static func pinKey(_ t: String) -> String { "UPPER(TRIM(\(t).pin))" }

    /// The statements of the identity comparisons, each an index seek per asset or identifier
    /// (n log n in the assets); `AssetIdentityCheckTests` holds their query plans and work to that.
    static let sharedKeys = [("vin", "VIN", true), ("pin", "PIN", true), ("unit_number", "unit number", false)].map { column, what, fold in
        (what, "SELECT \(fold ? "UPPER(TRIM(a.\(column)))" : "TRIM(a.\(column))") AS k, GROUP_CONCAT(a.id) FROM asset a WHERE a.\(column) IS NOT NULL GROUP BY k HAVING COUNT(*) > 1 ORDER BY k")
    }
    static let vinIsPin = """
        SELECT a.id, b.id, a.vin FROM asset a JOIN asset b ON \(pinKey("b")) = \(vinKey("a")) AND a.id != b.id
        WHERE a.vin IS NOT NULL ORDER BY a.id, b.id
        """
    /// An identifier that is another asset's VIN or PIN (or both: listed once, as the single
    /// join on either key did). Ties of one identifier-holding asset and one other asset are
    /// ordered by the identifier.
    static let serialIsOther = ["vin", "pin"].map { column in """
        SELECT i.asset_id, a.id, i.source, i.id_type, i.id_value FROM asset_identifier i
        JOIN asset a ON \(column == "vin" ? vinKey("a") : pinKey("a")) = UPPER(TRIM(i.id_value)) AND a.id != i.asset_id
        WHERE i.id_type IN ('serial_number', 'vin', 'pin')
        """ }.joined(separator: "\nUNION\n") + "\nORDER BY 1, 2, 3, 4, 5"

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        let labels = try AssetLabels(db)
        let fix = "merge them: give the master-data row of the asset both identifiers (or correct the wrong one) and re-import it"
        for (what, sql) in Self.sharedKeys {
            for row in try Row.fetchAll(db, sql: sql) {
                let ids = (row[1] as String).split(separator: ",").compactMap { Int64($0) }.sorted()
                findings.add(asset: labels[ids[0]], "\(ids.count) assets share \(what) \(row[0] as String): " + ids.map { labels[$0] }.joined(separator: ", "), fix: fix)
            }
        }
        for row in try Row.fetchAll(db, sql: Self.vinIsPin) {
            findings.add(asset: labels[row[0]], "VIN \(row[2] as String) of \(labels[row[0]]) is the PIN of \(labels[row[1]])", fix: fix)
        }
        for row in try Row.fetchAll(db, sql: Self.serialIsOther) {
            findings.add(asset: labels[row[0]],
                         "\(row[2] as String) \(row[3] as String) \(row[4] as String) belongs to \(labels[row[0]]), but it is the VIN or PIN of \(labels[row[1]])", fix: fix)
        }
        let assets = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0
        for table in WarehouseMigrator.assetTables {
            for (id, rows) in try Self.orphans(db, table) {
                findings.add(asset: labels[id], "\(rows) \(table) rows name asset #\(id), which does not exist: every report leaves them out",
                             fix: "restore the asset (re-import its master data) or the warehouse from a backup; the rows cannot be attributed")
            }
        }
        return assets
    }

    /// The assets `table` names that do not exist, ascending, with how many rows name each.
    static func orphans(_ db: Database, _ table: String) throws -> [(Int64, Int)] {
        guard indexed.contains(table) else {
            return try Row.fetchAll(db, sql: """
                SELECT asset_id, COUNT(*) FROM \(table) WHERE asset_id IS NOT NULL AND asset_id NOT IN (SELECT id FROM asset)
                GROUP BY asset_id ORDER BY asset_id
                """).map { ($0[0], $0[1]) }
        }
        return try Int64.fetchAll(db, sql: """
            WITH RECURSIVE d(id) AS (
                SELECT MIN(asset_id) FROM \(table)
                UNION ALL SELECT (SELECT MIN(asset_id) FROM \(table) WHERE asset_id > d.id) FROM d WHERE d.id IS NOT NULL)
            SELECT id FROM d WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM asset)
            """).map { id in (id, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE asset_id = ?", arguments: [id]) ?? 0) }
    }
}
