import GRDB

extension WarehouseMigrator {
    /// What could be read of a rejected money row (`RejectedRow`): its fact table and natural
    /// key, so a later load of the same key resolves it (`RejectResolution`), and its amount and
    /// time, so the cost report can list what an open reject leaves out. NULL for rejects stored
    /// before, and for rows whose key or amount could not be read.
    static let v12RejectRows = """
    ALTER TABLE reject ADD COLUMN row_table TEXT;
    ALTER TABLE reject ADD COLUMN row_key TEXT;
    ALTER TABLE reject ADD COLUMN amount_minor INTEGER;
    ALTER TABLE reject ADD COLUMN currency TEXT;
    ALTER TABLE reject ADD COLUMN at INTEGER;
    """
}
