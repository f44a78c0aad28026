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

extension DtcEvent: LoadableRecord {
    public static let table = "dtc_event"
    public static let keyColumns = ["asset_id", "code", "at"]
    public static let valueColumns = ["system", "spn", "fmi", "description", "status", "mil_on", "cleared_at", "source_file_id"]
    /// A later report of the same code without its description, SPN/FMI, status, MIL or clear
    /// time says nothing about them: the stored values stay (absent is not null).
    public static let keepWhenAbsent: Set<String> = ["spn", "fmi", "description", "status", "mil_on", "cleared_at"]

    public func bind(into b: inout Binder) {
        b.bind(assetID)
        b.bind(code)
        b.bind(at)
        b.bind(system)
        b.bind(spn)
        b.bind(fmi)
        b.bind(description)
        b.bind(status)
        b.bind(milOn)
        b.bind(clearedAt)
        b.bind(sourceFileID)
    }
}
