import GRDB

/// One decoded OBD-II mode 01 value (long format; `pid` is the PID number).
public struct ObdSample: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "obd_sample"

    public var assetID: Int64
    public var at: Int64
    public var pid: Int
    public var value: Double
    public var sourceFileID: Int64

    public init(assetID: Int64, at: Int64, pid: Int, value: Double, sourceFileID: Int64) {
        self.assetID = assetID
        self.at = at
        self.pid = pid
        self.value = value
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case at
        case pid
        case value
        case sourceFileID = "source_file_id"
    }
}

extension ObdSample: TabulatedRecord {
    public static let columnTable = ColumnTable<ObdSample>("obd_sample", [
        .key("asset_id") { $0.assetID },
        .key("pid") { $0.pid },
        .key("at") { $0.at },
        .value("value") { $0.value },
        .provenance("source_file_id") { $0.sourceFileID },
    ])
}
