import GRDB

/// A diagnostic trouble code seen at an instant (OBD-II P/C/B/U or J1939 SPN/FMI).
public struct DtcEvent: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "dtc_event"

    public var id: Int64?
    public var assetID: Int64
    public var at: Int64
    public var code: String
    public var system: String
    public var spn: Int?
    public var fmi: Int?
    public var description: String?
    public var status: String?
    public var milOn: Bool?
    public var clearedAt: Int64?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, assetID: Int64, at: Int64, code: String, system: String, spn: Int? = nil, fmi: Int? = nil, description: String? = nil, status: String? = nil, milOn: Bool? = nil, clearedAt: Int64? = nil, sourceFileID: Int64) {
        self.id = id
        self.assetID = assetID
        self.at = at
        self.code = code
        self.system = system
        self.spn = spn
        self.fmi = fmi
        self.description = description
        self.status = status
        self.milOn = milOn
        self.clearedAt = clearedAt
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case assetID = "asset_id"
        case at
        case code
        case system
        case spn
        case fmi
        case description
        case status
        case milOn = "mil_on"
        case clearedAt = "cleared_at"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension DtcEvent: TabulatedRecord {
    /// A later report of the same code without its description, SPN/FMI, status, MIL or clear
    /// time says nothing about them: the stored values stay (absent is not null).
    public static let columnTable = ColumnTable<DtcEvent>("dtc_event", [
        .key("asset_id") { $0.assetID },
        .key("code") { $0.code },
        .key("at") { $0.at },
        .value("system") { $0.system },
        .keptWhenAbsent("spn") { $0.spn },
        .keptWhenAbsent("fmi") { $0.fmi },
        .keptWhenAbsent("description") { $0.description },
        .keptWhenAbsent("status") { $0.status },
        .keptWhenAbsent("mil_on") { $0.milOn },
        .keptWhenAbsent("cleared_at") { $0.clearedAt },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
