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
    /// The defect as it will be stored, with every field it will carry; its `dvirID` is not
    /// used (the DVIR is not in the warehouse yet) and its `id` is not this row's.
    public var defect: DVIRDefect
    public var dvirKey: String?
    public var trailerKey: String?
    public var location: String

    /// The pending form of `defect` (whose `dvirID` is not used).
    public init(_ defect: DVIRDefect, dvirKey: String?, trailerKey: String?, location: String) {
        self.defect = defect
        self.dvirKey = dvirKey
        self.trailerKey = trailerKey
        self.location = location
    }
}

extension PendingDVIRDefect: TabulatedRecord {
    /// `DVIRDefect`'s own columns (all but `dvir_id`), shared, plus where the defect waits:
    /// the two tables store the same defect and cannot drift apart.
    public static let columnTable = ColumnTable<PendingDVIRDefect>("dvir_defect_pending", [
        .value("dvir_key") { $0.dvirKey },
        .value("trailer_key") { $0.trailerKey },
        .value("location") { $0.location },
    ] + DVIRDefect.defectColumns.map { $0.through { $0.defect } }, notWritten: ["id": "the rowid"])
    /// As `dvir_defect`: a later state wins, an older export never undoes it.
    public static let precedence: String? = StatePrecedence.laterState(table: "dvir_defect_pending", valueColumns: columnTable.valueColumns)
}
