/// One headline figure of a report (`cost.totals.total`), in output units, with the unit it is
/// printed in. Reports declare it from the column it totals (`init(_:_:)`), so the unit is the
/// column's and is written down once.
public struct ReportHeadline: Sendable, Equatable {
    /// A stable snake_case id (JSON `totals` key, HTML card label).
    public var name: String
    public var value: Double
    public var unit: HeadlineUnit

    public init(_ name: String, _ value: Double, _ unit: HeadlineUnit) {
        self.name = name
        self.value = value
        self.unit = unit
    }

    /// The figure that totals `column`: its name and unit are the column's.
    public init(_ column: ReportColumn, _ value: Double) {
        self.init(column.name, value, HeadlineUnit(column.type))
    }

    /// A count of things (assets, trips, violations).
    public static func count(_ name: String, _ value: Double) -> ReportHeadline { ReportHeadline(name, value, .count) }

    /// The figure as a reader sees it, with its unit.
    public func text(_ metadata: ReportMetadata) -> String { unit.text(value, metadata) }
}
