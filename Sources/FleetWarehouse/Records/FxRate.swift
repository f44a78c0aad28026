import GRDB

/// A date-effective exchange rate: `per_base` units of `currency` buy one unit of the base currency.
public struct FxRate: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "fx_rate"

    public var day: String
    public var currency: String
    public var perBase: Double
    public var sourceFileID: Int64?

    public init(day: String, currency: String, perBase: Double, sourceFileID: Int64? = nil) {
        self.day = day
        self.currency = currency
        self.perBase = perBase
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case day
        case currency
        case perBase = "per_base"
        case sourceFileID = "source_file_id"
    }
}

extension FxRate: TabulatedRecord {
    public static let columnTable = ColumnTable<FxRate>("fx_rate", [
        .key("day") { $0.day },
        .key("currency") { $0.currency },
        .value("per_base") { $0.perBase },
        .provenance("source_file_id") { $0.sourceFileID },
    ])
}
