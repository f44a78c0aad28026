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

extension ServiceSchedule: LoadableRecord {
    public static let table = "service_schedule"
    public static let keyColumns = ["source_key"]
    public static let valueColumns = ["asset_id", "asset_group", "service_type", "every_days", "every_months", "every_m", "every_engine_s", "soon_days", "soon_m", "soon_engine_s", "source_file_id"]

    public func bind(into b: inout Binder) {
        b.bind(sourceKey)
        b.bind(assetID)
        b.bind(assetGroup)
        b.bind(serviceType)
        b.bind(everyDays)
        b.bind(everyMonths)
        b.bind(everyM)
        b.bind(everyEngineS)
        b.bind(soonDays)
        b.bind(soonM)
        b.bind(soonEngineS)
        b.bind(sourceFileID)
    }
}
