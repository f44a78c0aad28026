import GRDB

/// A cost that is not a fuel purchase or a maintenance record: tolls, insurance, lease…
public struct Expense: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "expense"

    public var id: Int64?
    public var sourceKey: String
    public var assetID: Int64?
    public var unitHint: String?
    public var at: Int64
    public var category: String
    public var amountMinor: Int64
    public var currency: String
    /// True when the file gave no currency and the row took the warehouse's base currency
    /// (counted in the cost report's data quality).
    public var currencyAssumed: Bool
    public var vendor: String?
    public var description: String?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64? = nil, unitHint: String? = nil, at: Int64, category: String, amountMinor: Int64, currency: String, currencyAssumed: Bool = false, vendor: String? = nil, description: String? = nil, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.assetID = assetID
        self.unitHint = unitHint
        self.at = at
        self.category = category
        self.amountMinor = amountMinor
        self.currency = currency
        self.currencyAssumed = currencyAssumed
        self.vendor = vendor
        self.description = description
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceKey = "source_key"
        case assetID = "asset_id"
        case unitHint = "unit_hint"
        case at
        case category
        case amountMinor = "amount_minor"
        case currency
        case currencyAssumed = "currency_assumed"
        case vendor
        case description
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Expense: TabulatedRecord {
    public static let columnTable = ColumnTable<Expense>("expense", [
        .key("source_key") { $0.sourceKey },
        .value("asset_id") { $0.assetID },
        .value("unit_hint") { $0.unitHint },
        .value("at") { $0.at },
        .value("category") { $0.category },
        .value("amount_minor") { $0.amountMinor },
        .value("currency") { $0.currency },
        .value("currency_assumed") { $0.currencyAssumed },
        .value("vendor") { $0.vendor },
        .value("description") { $0.description },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
