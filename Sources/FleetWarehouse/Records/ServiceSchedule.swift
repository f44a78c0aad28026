import GRDB

/// A preventive-maintenance interval for one asset, a group, or the whole fleet (both nil).
public struct ServiceSchedule: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "service_schedule"

    public var id: Int64?
    public var sourceKey: String
    public var assetID: Int64?
    public var assetGroup: String?
    public var serviceType: String
    public var everyDays: Int?
    public var everyMonths: Int?
    public var everyM: Double?
    public var everyEngineS: Double?
    public var soonDays: Int?
    public var soonM: Double?
    public var soonEngineS: Double?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64? = nil, assetGroup: String? = nil, serviceType: String, everyDays: Int? = nil, everyMonths: Int? = nil, everyM: Double? = nil, everyEngineS: Double? = nil, soonDays: Int? = nil, soonM: Double? = nil, soonEngineS: Double? = nil, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.assetID = assetID
        self.assetGroup = assetGroup
        self.serviceType = serviceType
        self.everyDays = everyDays
        self.everyMonths = everyMonths
        self.everyM = everyM
        self.everyEngineS = everyEngineS
        self.soonDays = soonDays
        self.soonM = soonM
        self.soonEngineS = soonEngineS
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceKey = "source_key"
        case assetID = "asset_id"
        case assetGroup = "asset_group"
        case serviceType = "service_type"
        case everyDays = "every_days"
        case everyMonths = "every_months"
        case everyM = "every_m"
        case everyEngineS = "every_engine_s"
        case soonDays = "soon_days"
        case soonM = "soon_m"
        case soonEngineS = "soon_engine_s"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ServiceSchedule: TabulatedRecord {
    public static let columnTable = ColumnTable<ServiceSchedule>("service_schedule", [
        .key("source_key") { $0.sourceKey },
        .value("asset_id") { $0.assetID },
        .value("asset_group") { $0.assetGroup },
        .value("service_type") { $0.serviceType },
        .value("every_days") { $0.everyDays },
        .value("every_months") { $0.everyMonths },
        .value("every_m") { $0.everyM },
        .value("every_engine_s") { $0.everyEngineS },
        .value("soon_days") { $0.soonDays },
        .value("soon_m") { $0.soonM },
        .value("soon_engine_s") { $0.soonEngineS },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
