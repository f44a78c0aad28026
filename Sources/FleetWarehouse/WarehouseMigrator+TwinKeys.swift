import GRDB

extension WarehouseMigrator {
    /// The keys `CurrencyTwins` seeks an earlier file's rows by: time and amount, then the file.
    /// Without them each new row was compared with every stored row of its time, and a card or
    /// expense file whose rows share a date (no time column) took time quadratic in its rows
    /// (20,000 expenses of one day: 84 s); with them only the earlier files' rows of the same time
    /// and amount are read.
    static let v13TwinKeys = """
    CREATE INDEX expense_twin ON expense(at, amount_minor, source_file_id);
    CREATE INDEX fuel_purchase_twin ON fuel_purchase(at, total_minor, source_file_id);
    """
}
