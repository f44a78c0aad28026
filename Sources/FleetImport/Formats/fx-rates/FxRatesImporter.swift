import Foundation
import FleetCore
import FleetWarehouse

/// Exchange rates into the base currency (`fx-rates.csv`), date-effective: a rate applies from
/// its date until the next one for that currency. The cost report converts foreign amounts with
/// them and keeps amounts without a rate out of totals.
///
/// A rate is read only in the direction its column names (docs/FORMATS.md, "fx-rates"):
/// `units_per_<BASE>` (`per_base`) is units of the currency one unit of the base buys,
/// `<BASE>_per_unit` (`base_per_unit`) the base one unit of the currency buys. Treasuries quote
/// both ways, and 0.7281 read the wrong way turns CAD 793.65 into $1,090.03 instead of $577.86,
/// a figure nothing downstream can tell from a right one: so a column that says only `rate` is
/// refused with the fix, and a row whose rate sits on the other side of 1 from the other rates
/// of its currency within a month (`FxInversionCheck`) is rejected as a probable inversion.
public struct FxRatesImporter: Importer {
    public static let format = "fx-rates"
    public static let summary = "Exchange rates per day, the direction in the column name: units_per_<BASE> or <BASE>_per_unit (CSV)"
    public static let example = "fx-rates.csv"
    /// `rate` names a column but not its direction: it is matched only to be refused.
    static let columns: [String: [String]] = [
        "date": ["day", "effective_date", "valid_from", "rate_date"],
        "currency": ["currency_code", "code", "quote_currency"],
        "per_base": ["units_per_base"],
        "base_per_unit": ["base_per_currency"],
        "base_currency": ["base"],
        "rate": ["fx_rate", "exchange_rate", "inverse_rate", "conversion_rate", "mid_rate"],
    ]

    /// The smallest and largest rate taken, either way round: 10⁻⁷ to 10⁷ covers every pair of
    /// currencies in use (a Kuwaiti dinar buys about 3 × 10⁵ Vietnamese dong), so a rate outside
    /// is a date, an id or a placeholder in the wrong column, and converting amounts through it could
    /// not be exact.
    static let plausible = 1e-7...1e7

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let columns = CSVReader.firstRecord(head).map { Self.columns(header: $0).columns } ?? Self.columns
        return CSVSniffer.confidence(head, filename: filename, format: format, columns: columns,
                                     requiredAnyOf: [["date", "currency", "per_base"], ["date", "currency", "base_per_unit"], ["date", "currency", "rate"]])
    }

    /// The column table with the header's `units_per_XXX` and `XXX_per_unit` columns as spellings
    /// of `per_base` and `base_per_unit`, and the currency codes those names carry.
    static func columns(header: [String]) -> (columns: [String: [String]], perBaseCode: String?, basePerUnitCode: String?) {
        var columns = Self.columns
        var perBaseCode: String?, basePerUnitCode: String?
        for field in header {
            let n = CSVHeader.normalise(field)
            if n.hasPrefix("unitsper"), let code = Self.code(n.dropFirst(8)) {
                columns["per_base", default: []].append(field)
                perBaseCode = code
            } else if n.hasSuffix("perunit"), let code = Self.code(n.dropLast(7)) {
                columns["base_per_unit", default: []].append(field)
                basePerUnitCode = code
            }
        }
        return (columns, perBaseCode, basePerUnitCode)
    }

    private static func code(_ s: Substring) -> String? {
        s.count == 3 && s.allSatisfy({ $0.isASCII && $0.isLetter }) ? s.uppercased() : nil
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        let base = input.currency
        var named = Self.columns(header: [])
        var rows = try CSVRows(input, format: Self.format, required: ["date", "currency"]) { header in
            named = Self.columns(header: header)
            for code in [named.perBaseCode, named.basePerUnitCode].compactMap({ $0 }) where code != base {
                throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the rates are against \(code), but the warehouse's base currency is \(base)",
                                            hint: "Export the rates against \(base) (columns units_per_\(base) or \(base)_per_unit), or set the base with `fleetkit init --currency \(code)`.")
            }
            return named.columns
        }
        let header = rows.headerNames
        if let i = rows.header.index("rate") {
            throw FleetError.unreadable(file: input.path, location: "line 1",
                                        reason: "the column '\(header.indices.contains(i) ? header[i] : "rate")' does not say which way its rates go: 0.7281 can be \(base) per CAD or CAD per \(base), and read the wrong way it changes every converted amount by the square of the rate",
                                        hint: "Rename it units_per_\(base) when it holds units of the currency one \(base) buys (CAD 1.3734), or \(base)_per_unit when it holds the \(base) one unit of the currency buys (0.7281); docs/FORMATS.md, \"fx-rates\".")
        }
        guard rows.header.index("per_base") != nil || rows.header.index("base_per_unit") != nil else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the fx-rates header has no rate column",
                                        hint: "Give the rates in a column units_per_\(base) (units of the currency one \(base) buys) or \(base)_per_unit (the \(base) one unit buys).")
        }
        let inversions = try FxInversionCheck(input, columns: named.columns, read: Self.rate)
        try rows.forEach(into: &sink) { row, sink in
            let (day, currency, perBase) = try Self.rate(row)
            try inversions.check(currency: currency, day: day, perBase: perBase, base: base)
            try row.unique("\(day)|\(currency)", "the \(currency) rate for \(day)")
            try sink.load(FxRate(day: day.description, currency: currency, perBase: perBase, sourceFileID: sink.sourceFileID))
        }
    }

    /// A row's day, currency and rate as units of the currency per unit of the base, checked.
    static func rate(_ row: Row) throws -> (CivilDate, String, Double) {
        let base = row.currency
        guard let day = try row.date("date") else { throw RowError(.missingField, "'date' is empty") }
        guard row.text("currency") != nil else { throw RowError(.missingField, "'currency' is empty") }
        let currency = try row.currencyCode("currency")
        if let b = row.text("base_currency")?.uppercased(), b != base {
            throw RowError(.badValue, "the rate is against \(b), but the warehouse's base currency is \(base); convert the file or set the base with `fleetkit init --currency \(b)`")
        }
        if currency == base { throw RowError(.badValue, "a rate of \(base) against itself; the base currency needs no rate") }
        let perBase: Double
        switch (try row.double("per_base"), try row.double("base_per_unit")) {
        case let (p?, nil): perBase = p
        case let (nil, b?):
            guard b > 0, b.isFinite else { throw RowError(.outOfRange, "'\(base)_per_unit' is \(b); a rate must be above 0") }
            perBase = 1 / b
        case (nil, nil): throw RowError(.missingField, "the rate is empty; give units of \(currency) per \(base) (units_per_\(base)) or \(base) per \(currency) (\(base)_per_unit)")
        case (_?, _?): throw RowError(.badValue, "give the rate once: units_per_\(base) or \(base)_per_unit, not both")
        }
        guard perBase > 0, perBase.isFinite else { throw RowError(.outOfRange, "a rate must be above 0") }
        guard plausible.contains(perBase) else {
            throw RowError(.outOfRange, "\(perBase) \(currency) per \(base) is outside any exchange rate in use (\(plausible.lowerBound) to \(plausible.upperBound)); the column holds something else")
        }
        return (day, currency, perBase)
    }
}
