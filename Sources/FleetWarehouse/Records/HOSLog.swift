import GRDB

/// One hours-of-service duty-status interval of a driver (49 CFR 395.8): from `startAt` until
/// `endAt` (nil while it is the driver's current status), on the vehicle the log names, if any.
public struct HOSLog: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "hos_log"

    /// The duty statuses of an ELD record (395.8(b)), with the two special driving categories
    /// (yard moves, personal conveyance) kept apart: neither counts as driving here.
    public enum Status: String, Sendable, CaseIterable {
        case offDuty = "off_duty", sleeperBerth = "sleeper_berth", driving, onDuty = "on_duty"
        case yardMove = "yard_move", personalConveyance = "personal_conveyance"
    }

    public var id: Int64?
    public var driverID: Int64
    public var startAt: Int64
    public var endAt: Int64?
    public var status: String
    public var assetID: Int64?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, driverID: Int64, startAt: Int64, endAt: Int64? = nil, status: Status, assetID: Int64? = nil, sourceFileID: Int64) {
        self.id = id
        self.driverID = driverID
        self.startAt = startAt
        self.endAt = endAt
        self.status = status.rawValue
        self.assetID = assetID
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case driverID = "driver_id"
        case startAt = "start_at"
        case endAt = "end_at"
        case status
        case assetID = "asset_id"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension HOSLog: TabulatedRecord {
    public static let columnTable = ColumnTable<HOSLog>("hos_log", [
        .key("driver_id") { $0.driverID },
        .key("start_at") { $0.startAt },
        .keptWhenAbsent("end_at") { $0.endAt },
        .value("status") { $0.status },
        .keptWhenAbsent("asset_id") { $0.assetID },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
    // An export made while a status was current has no end (and may name no vehicle yet); a
    // later export of the same interval has them. Absent keeps the stored value, so the row is
    // the same in either import order.
}
