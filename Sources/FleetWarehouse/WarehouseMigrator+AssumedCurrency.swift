import GRDB

extension WarehouseMigrator {
    /// Money rows whose file gave no currency, so that they took the warehouse's base currency
    /// (`currency_assumed = 1`): the cost report counts and names them, because a Canadian card
    /// file exported without its currency column otherwise reads as USD without a word.
    /// Rows loaded before this migration are 0: whether their file had a currency is not known.
    static let v12AssumedCurrency = """
    ALTER TABLE expense ADD COLUMN currency_assumed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE fuel_purchase ADD COLUMN currency_assumed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE maintenance_record ADD COLUMN currency_assumed INTEGER NOT NULL DEFAULT 0;
    """
}
