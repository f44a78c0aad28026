import GRDB

/// An engine state change: on, off or idle.
public struct EngineEvent: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "engine_event"

    public var assetID: Int64
    public var at: Int64
    public var state: String
    public var sourceFileID: Int64

    public init(assetID: Int64, at: Int64, state: String, sourceFileID: Int64) {
        self.assetID = assetID
        self.at = at
        self.state = state
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case at
        case state
        case sourceFileID = "source_file_id"
    }
}

extension EngineEvent: TabulatedRecord {
    public static let columnTable = ColumnTable<EngineEvent>("engine_event", [
        .key("asset_id") { $0.assetID },
        .key("at") { $0.at },
        .value("state") { $0.state },
        .provenance("source_file_id") { $0.sourceFileID },
    ])
}
