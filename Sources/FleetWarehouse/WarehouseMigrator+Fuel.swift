import GRDB

extension WarehouseMigrator {
    /// Fuel facts kept as fields, not folded into text (docs/METRICS.md, "Fuel exceptions"):
    /// - `fuel_purchase.merchant_state`, `merchant_country`: where the merchant is, as the card or
    ///   receipt gives it (the state or province upper-cased, the country as given, ISO 3166-1
    ///   alpha-2 from a receipt's locale). The `merchant` text still carries city and state for
    ///   people; these are for rules and region medians.
    /// - `fuel_purchase.product_code`: the card network's product code, as exported.
    /// - `fuel_purchase.odometer_entered`, `odometer_entered_unit`: the odometer exactly as the
    ///   driver keyed it at the pump or the receipt printed it, and its unit (`km`, `mi`, or NULL
    ///   when the file did not say), beside `odometer_m`: a typo is evidence, not noise.
    /// - `asset.tank_capacity_ml`: the fuel tank's capacity in millilitres (the assets master's
    ///   `tank_capacity_l` or `tank_capacity_gal`), what a fill's volume is judged against.
    static let v13Fuel = """
    ALTER TABLE fuel_purchase ADD COLUMN merchant_state TEXT;
    ALTER TABLE fuel_purchase ADD COLUMN merchant_country TEXT;
    ALTER TABLE fuel_purchase ADD COLUMN product_code TEXT;
    ALTER TABLE fuel_purchase ADD COLUMN odometer_entered TEXT;
    ALTER TABLE fuel_purchase ADD COLUMN odometer_entered_unit TEXT;
    ALTER TABLE asset ADD COLUMN tank_capacity_ml REAL;
    """
}
