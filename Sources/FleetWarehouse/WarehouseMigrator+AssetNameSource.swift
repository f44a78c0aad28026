import GRDB

extension WarehouseMigrator {
    /// Whether an asset's name came from master data (`assets.csv`), which always wins. A name
    /// that feeds carry is chosen by a rule that does not depend on import order (the lexically
    /// smallest of the feeds' names, `AssetNaming`); without knowing where the stored name came
    /// from, a feed could not tell a master-data name it must keep from a feed name it may
    /// replace. Existing warehouses: an asset master data defined (`auto_created = 0`) with a
    /// name keeps it, as before.
    static let v11AssetNameSource = """
    ALTER TABLE asset ADD COLUMN name_from_master INTEGER NOT NULL DEFAULT 0 CHECK (name_from_master IN (0, 1));
    UPDATE asset SET name_from_master = 1 WHERE auto_created = 0 AND name IS NOT NULL;
    """
}
