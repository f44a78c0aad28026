import FleetCore

/// What-to-do text the CSV importers add to a row's error, written once: a rejected row says
/// what was wrong (the `RowError` from `Row`) and what to do about it (the importer's hint).
enum RowHints {
    /// Runs `body`, adding `hint` to the message of a `RowError` it throws (an empty hint adds
    /// nothing).
    static func adding<T>(_ hint: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch var e as RowError {
            if !hint.isEmpty { e.message += "; " + hint }
            throw e
        }
    }

    /// How to write an amount in `currency`: its number of decimals and an example.
    static func amount(_ currency: String) -> String {
        let digits = Money.minorDigits(currency)
        return "write the amount with at most \(digits) decimal\(digits == 1 ? "" : "s") for \(currency) (e.g. \(DecimalNumber(mantissa: 123_456, scale: digits))), "
            + "and set the currency column when the amount is in another currency"
    }
}
