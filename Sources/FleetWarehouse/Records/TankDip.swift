/// A bulk tank's level as read at the tank (a dip stick or gauge reading, `fuel-delivery` row
/// kind `dip`): the level change of the tank reconciliation (docs/METRICS.md, "Bulk fuel").
public struct TankDip: Sendable, Equatable {
    public var sourceKey: String
    public var tank: String
    public var at: Int64
    public var levelMl: Double
    public var sourceFileID: Int64

    public init(sourceKey: String, tank: String, at: Int64, levelMl: Double, sourceFileID: Int64) {
        self.sourceKey = sourceKey
        self.tank = tank
        self.at = at
        self.levelMl = levelMl
        self.sourceFileID = sourceFileID
    }
}

extension TankDip: TabulatedRecord {
    public static let columnTable = ColumnTable<TankDip>("tank_dip", [
        .key("source_key") { $0.sourceKey },
        .value("tank") { $0.tank },
        .value("at") { $0.at },
        .value("level_ml") { $0.levelMl },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
