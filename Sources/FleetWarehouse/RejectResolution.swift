/// Whether a rejected row has loaded since: a reject is resolved when a fact row with its natural
/// key (`reject.row_key` in `reject.row_table`) was loaded by another file, the corrected
/// re-export. Computed when read, never stored, so it follows the facts whatever the import
/// order, and a reject whose key could not be read stays open until its file is dealt with.
public enum RejectResolution {
    /// The tables a rejected money row can name: a rejected bulk fuel dispense is a fuel cost
    /// missing from the totals, and a rejected delivery leaves its tank's average wrong.
    public static let tables = ["fuel_purchase", "expense", "maintenance_record", "fuel_dispense", "tank_delivery"]

    /// SQL giving the `source_file_id` of the file that loaded the row of reject alias `r`, NULL
    /// while the reject is open.
    public static func resolvedBy(_ r: String = "r") -> String {
        "CASE \(r).row_table "
            + tables.map { t in
                "WHEN '\(t)' THEN (SELECT x.source_file_id FROM \(t) x WHERE x.source_key = \(r).row_key AND x.source_file_id <> \(r).source_file_id) "
            }.joined()
            + "END"
    }
}
