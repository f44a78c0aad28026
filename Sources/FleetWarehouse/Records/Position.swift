import GRDB

/// A GPS fix.
public struct Position: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "position"

    public var assetID: Int64
    public var at: Int64
    public var lat: Double
    public var lon: Double
    public var speedMps: Double?
    public var headingDeg: Double?
    public var altM: Double?
    public var sourceFileID: Int64

    public init(assetID: Int64, at: Int64, lat: Double, lon: Double, speedMps: Double? = nil, headingDeg: Double? = nil, altM: Double? = nil, sourceFileID: Int64) {
        self.assetID = assetID
        self.at = at
        self.lat = lat
        self.lon = lon
        self.speedMps = speedMps
        self.headingDeg = headingDeg
        self.altM = altM
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case assetID = "asset_id"
        case at
        case lat
        case lon
        case speedMps = "speed_mps"
        case headingDeg = "heading_deg"
        case altM = "alt_m"
        case sourceFileID = "source_file_id"
    }
}

extension Position: TabulatedRecord {
    /// A later file without `<ele>`, speed or course must not erase them (absent is not null).
    public static let columnTable = ColumnTable<Position>("position", [
        .key("asset_id") { $0.assetID },
        .key("at") { $0.at },
        .value("lat") { $0.lat },
        .value("lon") { $0.lon },
        .keptWhenAbsent("speed_mps") { $0.speedMps },
        .keptWhenAbsent("heading_deg") { $0.headingDeg },
        .keptWhenAbsent("alt_m") { $0.altM },
        .provenance("source_file_id") { $0.sourceFileID },
    ])

    /// The hot path (a GPX file loads a million positions): bound field by field, in
    /// `columnTable`'s binding order, instead of through its closures, which cost about 50 ms
    /// of CPU per million points (0.762 s user against 0.714 s, release, 5 runs each).
    /// `RecordSchemaTests.testPositionsFastBindingEqualsItsColumnTable` checks that both bind the
    /// same values in the same places, so the order is still spelled once.
    public func bind(into b: inout Binder) {
        b.bind(assetID)
        b.bind(at)
        b.bind(lat)
        b.bind(lon)
        b.bind(speedMps)
        b.bind(headingDeg)
        b.bind(altM)
        b.bind(sourceFileID)
    }

    public var timelinePoint: (asset: Int64, at: Int64)? { (assetID, at) }
}
