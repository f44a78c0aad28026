import Foundation
import FleetCore
import FleetWarehouse

/// Exchange rates into the base currency (`fx-rates.csv`), date-effective: a rate applies from
/// its date until the next one for that currency. The cost report converts foreign amounts with
/// them and keeps amounts without a rate out of totals.
public struct FxRatesImporter: Importer {
    public static let format = "fx-rates"
    public static let summary = "Exchange rates per day: units of a currency per unit of the base currency, or the inverse (CSV)"
    public static let example = "fx-rates.csv"
    /// Units of a currency per unit of the base that any real pair stays within (the widest
    /// today, such as IRR per KWD, is near 1.4e5; the narrowest its inverse). Rates outside are
    /// typos or hostile, and converting amounts through them could not be exact.
    public static let plausibleRates: ClosedRange<Double> = 1e-9...1e9

    static let columns: [String: [String]] = [
        "date": ["day", "effective_date", "valid_from", "rate_date"],
        "currency": ["currency_code", "code", "quote_currency"],
        "per_base": ["units_per_base", "rate", "fx_rate", "exchange_rate"],
        "base_per_unit": ["base_per_currency", "inverse_rate"],
        "base_currency": ["base"],
    ]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        max(CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: ["date", "currency", "per_base"]),
            CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: ["date", "currency", "base_per_unit"]))
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: ["date", "currency"])
        try rows.forEach(into: &sink) { row, sink in
            guard let day = try row.date("date") else { throw RowError(.missingField, "'date' is empty") }
            let currency = try row.currencyCode("currency")
            guard row.text("currency") != nil else { throw RowError(.missingField, "'currency' is empty") }
            if let base = row.text("base_currency")?.uppercased(), base != input.currency {
                throw RowError(.badValue, "the rate is against \(base), but the warehouse's base currency is \(input.currency); convert the file or set the base with `fleetkit init --currency \(base)`")
            }
            let perBase: Double
            switch (try row.double("per_base"), try row.double("base_per_unit")) {
            case let (p?, nil): perBase = p
            case let (nil, b?): guard b > 0 else { throw RowError(.outOfRange, "'base_per_unit' must be above 0") }; perBase = 1 / b
            case (nil, nil): throw RowError(.missingField, "give the rate in 'per_base' (units of \(currency) per \(input.currency)) or 'base_per_unit'")
            case (_?, _?): throw RowError(.badValue, "give the rate once: 'per_base' or 'base_per_unit', not both")
            }
            guard perBase > 0, perBase.isFinite else { throw RowError(.outOfRange, "a rate must be above 0") }
            guard Self.plausibleRates.contains(perBase) else {
                throw RowError(.outOfRange, "the rate \(perBase) \(currency) per \(input.currency) is outside 1e-9 to 1e9, beyond any currency pair; check the column (per_base is units of \(currency) per \(input.currency)) and the decimal mark")
            }
            try row.unique("\(day)|\(currency)", "the \(currency) rate for \(day)")
            try sink.load(FxRate(day: day.description, currency: currency, perBase: perBase, sourceFileID: sink.sourceFileID))
        }
    }
}
