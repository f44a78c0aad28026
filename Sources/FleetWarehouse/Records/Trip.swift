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

extension Trip: LoadableRecord {
    public static let table = "trip"
    public static let keyColumns = ["asset_id", "start_at", "source"]
    public static let valueColumns = ["driver_id", "end_at", "start_lat", "start_lon", "end_lat", "end_lon", "distance_m", "duration_s", "moving_s", "idle_s", "max_speed_mps", "start_reason", "end_reason", "source_file_id"]
    /// An imported trip seen again without its distance, driver or ends (Samsara's trips
    /// stream has no distance, its v1 trips do) keeps them: absent is not null. Derived trips
    /// are written by `TripDetection` with its own INSERT, not through this rule.
    public static let keepWhenAbsent: Set<String> = ["driver_id", "start_lat", "start_lon", "end_lat", "end_lon", "distance_m", "duration_s",
                                                     "moving_s", "idle_s", "max_speed_mps", "start_reason", "end_reason"]

    public func bind(into b: inout Binder) {
        b.bind(assetID)
        b.bind(startAt)
        b.bind(source)
        b.bind(driverID)
        b.bind(endAt)
        b.bind(startLat)
        b.bind(startLon)
        b.bind(endLat)
        b.bind(endLon)
        b.bind(distanceM)
        b.bind(durationS)
        b.bind(movingS)
        b.bind(idleS)
        b.bind(maxSpeedMps)
        b.bind(startReason)
        b.bind(endReason)
        b.bind(sourceFileID)
    }
}
