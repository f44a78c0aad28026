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

extension AssetIdentifier {
    /// The `asset_identifier` columns, spelled once: the resolver's INSERT (which leaves an
    /// identifier already attached where it is) and the lookup of the asset an identifier names
    /// are generated from it.
    public static let columnTable = ColumnTable<AssetIdentifier>("asset_identifier", [
        .key("source") { $0.source },
        .key("id_type") { $0.idType },
        .key("id_value") { $0.idValue },
        .value("asset_id") { $0.assetID },
    ])
    static let insertSQL = columnTable.insertSQL(ignoringConflicts: true)
    static let assetSQL = columnTable.lookupSQL("asset_id")
}
