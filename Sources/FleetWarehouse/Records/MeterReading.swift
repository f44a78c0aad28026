import GRDB

/// A cumulative or level meter at an instant, in SI (metres, seconds, millilitres, percent).
public struct MeterReading: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "meter_reading"

    public var assetID: Int64
    public var meter: String
    public var at: Int64
    public var value: Double
    public var rawValue: String?
    public var rawUnit: String?
    public var sourceFileID: Int64

    public init(assetID: Int64, meter: String, at: Int64, value: Double, rawValue: String? = nil, rawUnit: String? = nil, sourceFileID: Int64) {
        self.assetID = assetID
        self.meter = meter
        self.at = at
        self.value = value
        self.rawValue = rawValue
        self.rawUnit = rawUnit
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case meter
        case at
        case value
        case rawValue = "raw_value"
        case rawUnit = "raw_unit"
        case sourceFileID = "source_file_id"
    }
}

extension MeterReading: TabulatedRecord {
    public static let columnTable = ColumnTable<MeterReading>("meter_reading", [
        .key("asset_id") { $0.assetID },
        .key("meter") { $0.meter },
        .key("at") { $0.at },
        .value("value") { $0.value },
        .value("raw_value") { $0.rawValue },
        .value("raw_unit") { $0.rawUnit },
        .provenance("source_file_id") { $0.sourceFileID },
    ])
}
