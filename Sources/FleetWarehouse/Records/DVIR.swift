import GRDB

/// A driver vehicle inspection report (49 CFR 396.11). `state_at` is the source's last-updated time: the later state wins.
public struct DVIR: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "dvir"

    public var id: Int64?
    public var sourceKey: String
    public var assetID: Int64
    public var driverID: Int64?
    public var type: String
    public var startedAt: Int64?
    public var signedAt: Int64
    public var safetyStatus: String
    public var odometerM: Double?
    public var location: String?
    public var inspectorName: String?
    public var mechanicName: String?
    public var mechanicSignedAt: Int64?
    public var mechanicNotes: String?
    public var reviewedAt: Int64?
    public var reviewedBy: String?
    /// The towed unit inspected with the vehicle, as the source names it.
    public var trailer: String?
    public var stateAt: Int64
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64, driverID: Int64? = nil, type: String, startedAt: Int64? = nil, signedAt: Int64, safetyStatus: String, odometerM: Double? = nil, location: String? = nil, inspectorName: String? = nil, mechanicName: String? = nil, mechanicSignedAt: Int64? = nil, mechanicNotes: String? = nil, reviewedAt: Int64? = nil, reviewedBy: String? = nil, trailer: String? = nil, stateAt: Int64, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.assetID = assetID
        self.driverID = driverID
        self.type = type
        self.startedAt = startedAt
        self.signedAt = signedAt
        self.safetyStatus = safetyStatus
        self.odometerM = odometerM
        self.location = location
        self.inspectorName = inspectorName
        self.mechanicName = mechanicName
        self.mechanicSignedAt = mechanicSignedAt
        self.mechanicNotes = mechanicNotes
        self.reviewedAt = reviewedAt
        self.reviewedBy = reviewedBy
        self.trailer = trailer
        self.stateAt = stateAt
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceKey = "source_key"
        case assetID = "asset_id"
        case driverID = "driver_id"
        case type
        case startedAt = "started_at"
        case signedAt = "signed_at"
        case safetyStatus = "safety_status"
        case odometerM = "odometer_m"
        case location
        case inspectorName = "inspector_name"
        case mechanicName = "mechanic_name"
        case mechanicSignedAt = "mechanic_signed_at"
        case mechanicNotes = "mechanic_notes"
        case reviewedAt = "reviewed_at"
        case reviewedBy = "reviewed_by"
        case trailer
        case stateAt = "state_at"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension DVIR: TabulatedRecord {
    public static let columnTable = ColumnTable<DVIR>("dvir", [
        .key("source_key") { $0.sourceKey },
        .value("asset_id") { $0.assetID },
        .value("driver_id") { $0.driverID },
        .value("type") { $0.type },
        .value("started_at") { $0.startedAt },
        .value("signed_at") { $0.signedAt },
        .value("safety_status") { $0.safetyStatus },
        .value("odometer_m") { $0.odometerM },
        .value("location") { $0.location },
        .value("inspector_name") { $0.inspectorName },
        .value("mechanic_name") { $0.mechanicName },
        .value("mechanic_signed_at") { $0.mechanicSignedAt },
        .value("mechanic_notes") { $0.mechanicNotes },
        .value("reviewed_at") { $0.reviewedAt },
        .value("reviewed_by") { $0.reviewedBy },
        .value("trailer") { $0.trailer },
        .value("state_at") { $0.stateAt },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
    public static let precedence: String? = StatePrecedence.laterState(table: "dvir", valueColumns: columnTable.valueColumns)
}
