import GRDB

/// A driver on an asset from `start_at` until `end_at` (open when nil).
public struct Assignment: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "assignment"

    public var id: Int64?
    public var driverID: Int64
    public var assetID: Int64
    public var startAt: Int64
    public var endAt: Int64?
    public var status: String?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, driverID: Int64, assetID: Int64, startAt: Int64, endAt: Int64? = nil, status: String? = nil, sourceFileID: Int64) {
        self.id = id
        self.driverID = driverID
        self.assetID = assetID
        self.startAt = startAt
        self.endAt = endAt
        self.status = status
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case driverID = "driver_id"
        case assetID = "asset_id"
        case startAt = "start_at"
        case endAt = "end_at"
        case status
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Assignment: TabulatedRecord {
    public static let columnTable = ColumnTable<Assignment>("assignment", [
        .key("driver_id") { $0.driverID },
        .key("asset_id") { $0.assetID },
        .key("start_at") { $0.startAt },
        .value("end_at") { $0.endAt },
        .value("status") { $0.status },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
