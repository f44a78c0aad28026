import GRDB

/// One idle period a telematics source reports: the engine ran while the asset stood, from
/// `startAt` for `durationS` seconds (`endAt` = start + duration). Keyed on (asset, start): an
/// idling event and a report row of the same period are one row.
public struct IdlePeriod: Sendable, Equatable {
    public var assetID: Int64
    public var startAt: Int64
    public var endAt: Int64
    public var durationS: Double
    public var fuelMl: Double?
    public var pto: Bool?
    public var lat: Double?
    public var lon: Double?
    /// `samsara-event` (`/idling/events`) or `samsara-report` (`/fleet/reports/vehicle/idling`).
    public var source: String
    public var sourceFileID: Int64

    public init(assetID: Int64, startAt: Int64, endAt: Int64, durationS: Double, fuelMl: Double? = nil, pto: Bool? = nil,
                lat: Double? = nil, lon: Double? = nil, source: String, sourceFileID: Int64) {
        self.assetID = assetID
        self.startAt = startAt
        self.endAt = endAt
        self.durationS = durationS
        self.fuelMl = fuelMl
        self.pto = pto
        self.lat = lat
        self.lon = lon
        self.source = source
        self.sourceFileID = sourceFileID
    }
}

extension IdlePeriod: TabulatedRecord {
    public static let columnTable = ColumnTable<IdlePeriod>("idle_period", [
        .key("asset_id") { $0.assetID },
        .key("start_at") { $0.startAt },
        .value("end_at") { $0.endAt },
        .value("duration_s") { $0.durationS },
        .value("fuel_ml") { $0.fuelMl },
        .value("pto") { $0.pto },
        .value("lat") { $0.lat },
        .value("lon") { $0.lon },
        .value("source") { $0.source },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
    /// The event (one period, with its own id) wins over the report row of the same period,
    /// whichever is imported first; within one source the later import wins. No column keeps a
    /// stored value when the incoming one is absent: the event's row is then the same whether
    /// the report came before it or not.
    public static let precedence: String? = "new.source = 'samsara-event' OR idle_period.source <> 'samsara-event'"
}
