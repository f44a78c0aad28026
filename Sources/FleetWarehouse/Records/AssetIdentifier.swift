import GRDB

/// A vendor's name for an asset (Samsara vehicle id, Deere principal id, ISO serial).
public struct AssetIdentifier: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "asset_identifier"

    public var assetID: Int64
    public var source: String
    public var idType: String
    public var idValue: String

    public init(assetID: Int64, source: String, idType: String, idValue: String) {
        self.assetID = assetID
        self.source = source
        self.idType = idType
        self.idValue = idValue
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case source
        case idType = "id_type"
        case idValue = "id_value"
    }
}
