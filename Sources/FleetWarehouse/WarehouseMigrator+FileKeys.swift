import GRDB

extension WarehouseMigrator {
    /// The rows one file stored, found by the file: `CurrencyTwins` reads the loading file's own
    /// card and expense rows in every such file's load, and `Corrections.forget` each table's
    /// rows of the forgotten file. Without these each was a scan of the whole table (1,000,000
    /// stored expenses: about 200 ms per file loaded, against 2 ms with the index). New rows
    /// carry the newest file id, so each index grows at its end.
    static let v14FileKeys = """
    CREATE INDEX expense_file ON expense(source_file_id);
    CREATE INDEX fuel_purchase_file ON fuel_purchase(source_file_id);
    """
}
