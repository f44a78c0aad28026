/// A defect read before the DVIR it belongs to (a Samsara defects export imported before its
/// DVIR export). The `dvir_defect` table needs its DVIR, so the defect waits here, with every
/// field it will carry, and `WarehouseSink.attachPendingDefects` moves it into `dvir_defect`
/// when that DVIR is loaded: the final rows are the same whichever file came first, and a
/// defect whose DVIR never arrives stays visible (`fleetkit status`, the DVIR reports' data
/// quality) instead of being dropped or rejected for good.
///
/// - `dvirKey` is the DVIR's `source_key` (`samsara-dvir:<dvirId>`); nil for a legacy defects
///   export, which names no DVIR: such a defect waits for a DVIR that lists a defect under the
///   same key.
/// - `trailerKey` is the trailer key a stream defect naming a trailer takes when its DVIR
///   stores the same defect under it (`SamsaraReader.defect`), nil otherwise.
public struct PendingDVIRDefect: Sendable, Equatable {
    public var sourceKey: String
    public var dvirKey: String?
    public var trailerKey: String?
    public var location: String
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

    /// The pending form of `defect` (whose `dvirID` is not used).
    public init(_ defect: DVIRDefect, dvirKey: String?, trailerKey: String?, location: String) {
        sourceKey = defect.sourceKey
        self.dvirKey = dvirKey
        self.trailerKey = trailerKey
        self.location = location
        component = defect.component
        defectType = defect.defectType
        comment = defect.comment
        safetyCritical = defect.safetyCritical
        createdAt = defect.createdAt
        resolvedAt = defect.resolvedAt
        resolvedBy = defect.resolvedBy
        certification = defect.certification
        stateAt = defect.stateAt
        sourceFileID = defect.sourceFileID
    }

    /// The `dvir_defect` row it becomes on `dvirID`, under `key`; it keeps the file it came from.
    public func defect(dvirID: Int64, key: String) -> DVIRDefect {
        DVIRDefect(dvirID: dvirID, sourceKey: key, component: component, defectType: defectType, comment: comment, safetyCritical: safetyCritical,
                   createdAt: createdAt, resolvedAt: resolvedAt, resolvedBy: resolvedBy, certification: certification, stateAt: stateAt,
                   sourceFileID: sourceFileID)
    }
}

extension PendingDVIRDefect: LoadableRecord {
    public static let table = "dvir_defect_pending"
    public static let keyColumns = ["source_key"]
    public static let valueColumns = ["dvir_key", "trailer_key", "location", "component", "defect_type", "comment", "safety_critical", "created_at",
                                      "resolved_at", "resolved_by", "certification", "state_at", "source_file_id"]
    /// As `dvir_defect`: a later state wins, an older export never undoes it.
    public static let precedence: String? = StatePrecedence.laterState(table: table, valueColumns: valueColumns)

    public func bind(into b: inout Binder) {
        b.bind(sourceKey)
        b.bind(dvirKey)
        b.bind(trailerKey)
        b.bind(location)
        b.bind(component)
        b.bind(defectType)
        b.bind(comment)
        b.bind(safetyCritical)
        b.bind(createdAt)
        b.bind(resolvedAt)
        b.bind(resolvedBy)
        b.bind(certification)
        b.bind(stateAt)
        b.bind(sourceFileID)
    }
}
