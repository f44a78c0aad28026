import GRDB

/// The daily rollup reports read: one row per asset and local day of the fleet time zone.
public struct AssetDay: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "asset_day"

    public var assetID: Int64
    public var day: String
    public var distanceM: Double?
    public var distanceMethod: String?
    public var engineS: Double?
    public var idleS: Double?
    public var fuelMl: Double?
    public var firstAt: Int64?
    public var lastAt: Int64?
    public var trips: Int

    public init(assetID: Int64, day: String, distanceM: Double? = nil, distanceMethod: String? = nil, engineS: Double? = nil, idleS: Double? = nil, fuelMl: Double? = nil, firstAt: Int64? = nil, lastAt: Int64? = nil, trips: Int) {
        self.assetID = assetID
        self.day = day
        self.distanceM = distanceM
        self.distanceMethod = distanceMethod
        self.engineS = engineS
        self.idleS = idleS
        self.fuelMl = fuelMl
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.trips = trips
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case day
        case distanceM = "distance_m"
        case distanceMethod = "distance_method"
        case engineS = "engine_s"
        case idleS = "idle_s"
        case fuelMl = "fuel_ml"
        case firstAt = "first_at"
        case lastAt = "last_at"
        case trips
    }
}

extension AssetDay: TabulatedRecord {
    public static let columnTable = ColumnTable<AssetDay>("asset_day", [
        .key("asset_id") { $0.assetID },
        .key("day") { $0.day },
        .value("distance_m") { $0.distanceM },
        .value("distance_method") { $0.distanceMethod },
        .value("engine_s") { $0.engineS },
        .value("idle_s") { $0.idleS },
        .value("fuel_ml") { $0.fuelMl },
        .value("first_at") { $0.firstAt },
        .value("last_at") { $0.lastAt },
        .value("trips") { $0.trips },
    ])
}
