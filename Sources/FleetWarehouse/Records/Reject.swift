import GRDB

/// An input row that could not be used, kept with its reason, location and raw text.
public struct Reject: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "reject"

    public var id: Int64?
    public var sourceFileID: Int64
    public var location: String
    public var reason: String
    public var message: String
    public var raw: String
    /// The rejected row's fact table and natural key, amount and time, when the importer could
    /// read them (`RejectedRow`): a later load of the key resolves the reject.
    public var rowTable: String?
    public var rowKey: String?
    public var amountMinor: Int64?
    public var currency: String?
    public var at: Int64?

    public init(id: Int64? = nil, sourceFileID: Int64, location: String, reason: String, message: String, raw: String,
                rowTable: String? = nil, rowKey: String? = nil, amountMinor: Int64? = nil, currency: String? = nil, at: Int64? = nil) {
        self.id = id
        self.sourceFileID = sourceFileID
        self.location = location
        self.reason = reason
        self.message = message
        self.raw = raw
        self.rowTable = rowTable
        self.rowKey = rowKey
        self.amountMinor = amountMinor
        self.currency = currency
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceFileID = "source_file_id"
        case location
        case reason
        case message
        case raw
        case rowTable = "row_table"
        case rowKey = "row_key"
        case amountMinor = "amount_minor"
        case currency
        case at
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Reject {
    /// Every `reject` column, spelled once: the sink's INSERT is generated from it.
    public static let columnTable = ColumnTable<Reject>("reject", [
        .value("source_file_id") { $0.sourceFileID },
        .value("location") { $0.location },
        .value("reason") { $0.reason },
        .value("message") { $0.message },
        .value("raw") { $0.raw },
        .value("row_table") { $0.rowTable },
        .value("row_key") { $0.rowKey },
        .value("amount_minor") { $0.amountMinor },
        .value("currency") { $0.currency },
        .value("at") { $0.at },
    ], notWritten: ["id": "the rowid"])
}
