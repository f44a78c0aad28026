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
    public var vendor: String?
    public var description: String?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64? = nil, unitHint: String? = nil, at: Int64, category: String, amountMinor: Int64, currency: String, vendor: String? = nil, description: String? = nil, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.assetID = assetID
        self.unitHint = unitHint
        self.at = at
        self.category = category
        self.amountMinor = amountMinor
        self.currency = currency
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
        case vendor
        case description
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Expense: LoadableRecord {
    public static let table = "expense"
    public static let keyColumns = ["source_key"]
    public static let valueColumns = ["asset_id", "unit_hint", "at", "category", "amount_minor", "currency", "vendor", "description", "source_file_id"]

    public func bind(into b: inout Binder) {
        b.bind(sourceKey)
        b.bind(assetID)
        b.bind(unitHint)
        b.bind(at)
        b.bind(category)
        b.bind(amountMinor)
        b.bind(currency)
        b.bind(vendor)
        b.bind(description)
        b.bind(sourceFileID)
    }
}
