/// A figure a source reports for a period rather than as a reading (`period_totals` profiles,
/// docs/FORMATS.md; docs/METRICS.md "Vendor period totals"): a portal's daily distance, an IFTA
/// summary's miles per state, a statement's monthly gallons. Kept as the source said it and
/// never added to FleetKit's meter-derived daily figures: the utilization report shows the two
/// side by side.
public struct VendorTotal: Sendable, Equatable {
    /// The closed list of measures, each with the SI unit its `value` is stored in. A measure is
    /// added here and in the migration's CHECK together, or not at all.
    public static let measures: [(name: String, unit: String)] = [
        ("distance", "m"), ("engine_hours", "s"), ("idle_hours", "s"), ("fuel_used", "mL"), ("fuel_purchased", "mL"),
    ]

    public var assetID: Int64
    /// Who reported it: the profile's `source` constant or column, else the profile's name.
    public var source: String
    /// `[startAt, endAt)` in UTC milliseconds: local midnights of the period's first day and of
    /// the day after its last.
    public var startAt: Int64
    public var endAt: Int64
    public var measure: String
    /// '' when the source names none (the natural key needs a value, not NULL).
    public var jurisdiction: String
    public var fuelType: String
    /// In the measure's SI unit (`measures`).
    public var value: Double
    public var rawValue: String?
    public var rawUnit: String?
    /// When the source computed the figure, if the file says; the later state wins.
    public var stateAt: Int64?
    public var sourceFileID: Int64

    public init(assetID: Int64, source: String, startAt: Int64, endAt: Int64, measure: String, jurisdiction: String = "", fuelType: String = "",
                value: Double, rawValue: String? = nil, rawUnit: String? = nil, stateAt: Int64? = nil, sourceFileID: Int64) {
        self.assetID = assetID
        self.source = source
        self.startAt = startAt
        self.endAt = endAt
        self.measure = measure
        self.jurisdiction = jurisdiction
        self.fuelType = fuelType
        self.value = value
        self.rawValue = rawValue
        self.rawUnit = rawUnit
        self.stateAt = stateAt
        self.sourceFileID = sourceFileID
    }
}

extension VendorTotal: TabulatedRecord {
    public static let columnTable = ColumnTable<VendorTotal>("vendor_total", [
        .key("asset_id") { $0.assetID },
        .key("source") { $0.source },
        .key("start_at") { $0.startAt },
        .key("end_at") { $0.endAt },
        .key("measure") { $0.measure },
        .key("jurisdiction") { $0.jurisdiction },
        .key("fuel_type") { $0.fuelType },
        .value("value") { $0.value },
        .value("raw_value") { $0.rawValue },
        .value("raw_unit") { $0.rawUnit },
        .value("state_at") { $0.stateAt },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])

    /// Later state wins. A row that says when the source computed it (`state_at`, the
    /// profile's `reported_at`) replaces one that does not, and a later `state_at` an earlier
    /// one, whatever the import order; at the same `state_at`, the greater canonical text of the
    /// value wins (arbitrary but total, so either order stores the same row). Between rows that
    /// both say nothing of their time, the later import is the correction, as for card
    /// transactions and expenses; `fleetkit forget` of the wrong file puts the other back.
    public static let precedence: String? = """
        (new.state_at IS NULL AND vendor_total.state_at IS NULL) OR (new.state_at IS NOT NULL AND vendor_total.state_at IS NULL)
        OR new.state_at > vendor_total.state_at
        OR (new.state_at = vendor_total.state_at AND quote(new.value) || char(31) || quote(new.raw_value) || char(31) || quote(new.raw_unit)
            > quote(vendor_total.value) || char(31) || quote(vendor_total.raw_value) || char(31) || quote(vendor_total.raw_unit))
        """
}
