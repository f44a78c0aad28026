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

extension MeterReading: LoadableRecord {
    public static let table = "meter_reading"
    public static let keyColumns = ["asset_id", "meter", "at"]
    public static let valueColumns = ["value", "raw_value", "raw_unit", "source_file_id"]

    public func bind(into b: inout Binder) {
        b.bind(assetID)
        b.bind(meter)
        b.bind(at)
        b.bind(value)
        b.bind(rawValue)
        b.bind(rawUnit)
        b.bind(sourceFileID)
    }
}
