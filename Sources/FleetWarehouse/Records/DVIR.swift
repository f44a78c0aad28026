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
    public var stateAt: Int64
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, assetID: Int64, driverID: Int64? = nil, type: String, startedAt: Int64? = nil, signedAt: Int64, safetyStatus: String, odometerM: Double? = nil, location: String? = nil, inspectorName: String? = nil, mechanicName: String? = nil, mechanicSignedAt: Int64? = nil, mechanicNotes: String? = nil, reviewedAt: Int64? = nil, reviewedBy: String? = nil, stateAt: Int64, sourceFileID: Int64) {
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
        case stateAt = "state_at"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension DVIR: LoadableRecord {
    public static let table = "dvir"
    public static let keyColumns = ["source_key"]
    public static let valueColumns = ["asset_id", "driver_id", "type", "started_at", "signed_at", "safety_status", "odometer_m", "location", "inspector_name", "mechanic_name", "mechanic_signed_at", "mechanic_notes", "reviewed_at", "reviewed_by", "state_at", "source_file_id"]
    public static let precedence: String? = StatePrecedence.laterState(table: table, valueColumns: valueColumns)

    public func bind(into b: inout Binder) {
        b.bind(sourceKey)
        b.bind(assetID)
        b.bind(driverID)
        b.bind(type)
        b.bind(startedAt)
        b.bind(signedAt)
        b.bind(safetyStatus)
        b.bind(odometerM)
        b.bind(location)
        b.bind(inspectorName)
        b.bind(mechanicName)
        b.bind(mechanicSignedAt)
        b.bind(mechanicNotes)
        b.bind(reviewedAt)
        b.bind(reviewedBy)
        b.bind(stateAt)
        b.bind(sourceFileID)
    }
}
