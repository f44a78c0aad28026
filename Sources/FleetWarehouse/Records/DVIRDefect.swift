import GRDB

/// A defect on a DVIR and its repair certification (49 CFR 396.11(a)(3)). A resolution is never undone by an older export.
public struct DVIRDefect: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "dvir_defect"

    public var id: Int64?
    public var dvirID: Int64
    public var sourceKey: String
    public var component: String
    public var defectType: String?
    public var comment: String?
    public var safetyCritical: Bool
    public var createdAt: Int64?
    public var resolvedAt: Int64?
    public var resolvedBy: String?
    public var certification: String?
    public var stateAt: Int64
    public var sourceFileID: Int64

    public init(id: Int64? = nil, dvirID: Int64, sourceKey: String, component: String, defectType: String? = nil, comment: String? = nil, safetyCritical: Bool, createdAt: Int64? = nil, resolvedAt: Int64? = nil, resolvedBy: String? = nil, certification: String? = nil, stateAt: Int64, sourceFileID: Int64) {
        self.id = id
        self.dvirID = dvirID
        self.sourceKey = sourceKey
        self.component = component
        self.defectType = defectType
        self.comment = comment
        self.safetyCritical = safetyCritical
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
        self.resolvedBy = resolvedBy
        self.certification = certification
        self.stateAt = stateAt
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case dvirID = "dvir_id"
        case sourceKey = "source_key"
        case component
        case defectType = "defect_type"
        case comment
        case safetyCritical = "safety_critical"
        case createdAt = "created_at"
        case resolvedAt = "resolved_at"
        case resolvedBy = "resolved_by"
        case certification
        case stateAt = "state_at"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension DVIRDefect: TabulatedRecord {
    public static let columnTable = ColumnTable<DVIRDefect>("dvir_defect", [
        .value("dvir_id") { $0.dvirID },
    ] + defectColumns, notWritten: ["id": "the rowid"])
    public static let precedence: String? = StatePrecedence.laterState(table: "dvir_defect", valueColumns: columnTable.valueColumns)

    /// The defect's own columns, all but its DVIR: `dvir_defect_pending` (`PendingDVIRDefect`)
    /// stores the same defect before its DVIR is known, through these same columns.
    static let defectColumns: [RecordColumn<DVIRDefect>] = [
        .key("source_key") { $0.sourceKey },
        .value("component") { $0.component },
        .value("defect_type") { $0.defectType },
        .value("comment") { $0.comment },
        .value("safety_critical") { $0.safetyCritical },
        .value("created_at") { $0.createdAt },
        .value("resolved_at") { $0.resolvedAt },
        .value("resolved_by") { $0.resolvedBy },
        .value("certification") { $0.certification },
        .value("state_at") { $0.stateAt },
        .provenance("source_file_id") { $0.sourceFileID },
    ]
}
