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

    public init(id: Int64? = nil, sourceFileID: Int64, location: String, reason: String, message: String, raw: String) {
        self.id = id
        self.sourceFileID = sourceFileID
        self.location = location
        self.reason = reason
        self.message = message
        self.raw = raw
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceFileID = "source_file_id"
        case location
        case reason
        case message
        case raw
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
    ], notWritten: ["id": "the rowid"])
}
