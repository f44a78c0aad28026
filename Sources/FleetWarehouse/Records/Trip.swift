import GRDB

/// A trip, from a vendor or derived from positions.
public struct Trip: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "trip"

    public var id: Int64?
    public var assetID: Int64
    public var driverID: Int64?
    public var startAt: Int64
    public var endAt: Int64
    public var startLat: Double?
    public var startLon: Double?
    public var endLat: Double?
    public var endLon: Double?
    public var distanceM: Double?
    public var durationS: Double?
    public var movingS: Double?
    public var idleS: Double?
    public var maxSpeedMps: Double?
    public var startReason: String?
    public var endReason: String?
    public var source: String
    public var sourceFileID: Int64?

    public init(id: Int64? = nil, assetID: Int64, driverID: Int64? = nil, startAt: Int64, endAt: Int64, startLat: Double? = nil, startLon: Double? = nil, endLat: Double? = nil, endLon: Double? = nil, distanceM: Double? = nil, durationS: Double? = nil, movingS: Double? = nil, idleS: Double? = nil, maxSpeedMps: Double? = nil, startReason: String? = nil, endReason: String? = nil, source: String, sourceFileID: Int64? = nil) {
        self.id = id
        self.assetID = assetID
        self.driverID = driverID
        self.startAt = startAt
        self.endAt = endAt
        self.startLat = startLat
        self.startLon = startLon
        self.endLat = endLat
        self.endLon = endLon
        self.distanceM = distanceM
        self.durationS = durationS
        self.movingS = movingS
        self.idleS = idleS
        self.maxSpeedMps = maxSpeedMps
        self.startReason = startReason
        self.endReason = endReason
        self.source = source
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case assetID = "asset_id"
        case driverID = "driver_id"
        case startAt = "start_at"
        case endAt = "end_at"
        case startLat = "start_lat"
        case startLon = "start_lon"
        case endLat = "end_lat"
        case endLon = "end_lon"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case movingS = "moving_s"
        case idleS = "idle_s"
        case maxSpeedMps = "max_speed_mps"
        case startReason = "start_reason"
        case endReason = "end_reason"
        case source
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Trip: TabulatedRecord {
    /// An imported trip seen again without its distance, driver or ends (Samsara's trips
    /// stream has no distance, its v1 trips do) keeps them: absent is not null. Derived trips
    /// are written by `TripDetection` with its own INSERT, not through this rule.
    public static let columnTable = ColumnTable<Trip>("trip", [
        .key("asset_id") { $0.assetID },
        .key("start_at") { $0.startAt },
        .key("source") { $0.source },
        .keptWhenAbsent("driver_id") { $0.driverID },
        .value("end_at") { $0.endAt },
        .keptWhenAbsent("start_lat") { $0.startLat },
        .keptWhenAbsent("start_lon") { $0.startLon },
        .keptWhenAbsent("end_lat") { $0.endLat },
        .keptWhenAbsent("end_lon") { $0.endLon },
        .keptWhenAbsent("distance_m") { $0.distanceM },
        .keptWhenAbsent("duration_s") { $0.durationS },
        .keptWhenAbsent("moving_s") { $0.movingS },
        .keptWhenAbsent("idle_s") { $0.idleS },
        .keptWhenAbsent("max_speed_mps") { $0.maxSpeedMps },
        .keptWhenAbsent("start_reason") { $0.startReason },
        .keptWhenAbsent("end_reason") { $0.endReason },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: [
        "id": "the rowid",
        "distance_method": "derived trips only: TripDetection appends it to this table's INSERT",
        "bridged_s": "derived trips only: TripDetection appends it to this table's INSERT",
        "repair": "derived trips only: TripDetection sets it after its INSERT",
    ])
}
