import GRDB

/// A service performed on an asset, with its meters and cost.
public struct MaintenanceRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "maintenance_record"

    public var id: Int64?
    public var sourceKey: String
    public var assetID: Int64
    public var serviceType: String
    public var performedAt: Int64
    public var odometerM: Double?
    public var engineS: Double?
    public var costMinor: Int64?
    public var currency: String?
    /// True when the file gave no currency and the row took the warehouse's base currency
    /// (counted in the cost report's data quality).
    public var currencyAssumed: Bool
    public var vendor: String?
    public var workOrder: String?
    public var notes: String?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64, serviceType: String, performedAt: Int64, odometerM: Double? = nil, engineS: Double? = nil, costMinor: Int64? = nil, currency: String? = nil, currencyAssumed: Bool = false, vendor: String? = nil, workOrder: String? = nil, notes: String? = nil, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.assetID = assetID
        self.serviceType = serviceType
        self.performedAt = performedAt
        self.odometerM = odometerM
        self.engineS = engineS
        self.costMinor = costMinor
        self.currency = currency
        self.currencyAssumed = currencyAssumed
        self.vendor = vendor
        self.workOrder = workOrder
        self.notes = notes
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceKey = "source_key"
        case assetID = "asset_id"
        case serviceType = "service_type"
        case performedAt = "performed_at"
        case odometerM = "odometer_m"
        case engineS = "engine_s"
        case costMinor = "cost_minor"
        case currency
        case currencyAssumed = "currency_assumed"
        case vendor
        case workOrder = "work_order"
        case notes
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension MaintenanceRecord: TabulatedRecord {
    public static let columnTable = ColumnTable<MaintenanceRecord>("maintenance_record", [
        .key("source_key") { $0.sourceKey },
        .value("asset_id") { $0.assetID },
        .value("service_type") { $0.serviceType },
        .value("performed_at") { $0.performedAt },
        .value("odometer_m") { $0.odometerM },
        .value("engine_s") { $0.engineS },
        .value("cost_minor") { $0.costMinor },
        .value("currency") { $0.currency },
        .value("currency_assumed") { $0.currencyAssumed },
        .value("vendor") { $0.vendor },
        .value("work_order") { $0.workOrder },
        .value("notes") { $0.notes },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
