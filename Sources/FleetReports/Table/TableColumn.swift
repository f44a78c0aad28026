import FleetCore

/// What a column is for: the key that names a row (unit, month), a measure that is added up or
/// divided (cost, hours), or a note a reader reads (vendor, reason).
public enum ColumnRole: Sendable, Equatable { case key, measure, note }

/// How a column's cell in the totals row is made, always from the detail rows the table holds
/// (or streams), never typed in by hand: so a total reconciles with its rows by construction.
public enum ColumnTotal: Sendable, Equatable {
    /// No total (a name, a date, a rate).
    case none
    /// A fixed word in the totals row ("Fleet total"), for the first key column.
    case label(String)
    /// The sum of the known cells. Unknown cells are left out, never counted as 0; a column
    /// whose every cell is unknown totals unknown, and a table with no rows totals 0.
    case sum
    /// The sum of the known cells, unknown when no cell is known, including when there are no
    /// rows: for a measured quantity (engine hours of assets with telematics) no measurement is
    /// unknown, not 0.
    case sumOfKnown
    /// The sum over the rows where another column is known: the target hours of the assets
    /// whose engine hours are known, so a ratio of the two totals compares like with like.
    case sumWhereKnown(String)
    /// `of` ÷ `to` × `scale` over the totals of two other columns, summed over the rows where
    /// both are known (idle ratio = idle hours ÷ engine hours × 100): a ratio of sums, never a
    /// sum or average of ratios. Unknown when no row has both or the divisor is 0.
    case ratio(of: String, to: String, scale: Double)
    /// The share, 0–100, of the rows whose cell in this column is one of `of` among the rows
    /// whose cell is one of `among` (PM compliance = services done on time ÷ services judged):
    /// a ratio of two row counts, for a verdict column that has no number to sum. Rows whose
    /// cell is in neither (not judged) count in neither. Unknown when no row is among.
    case share(of: [String], among: [String])
}

/// One column declared once: its name, title, type and unit (from `ReportRequest` for
/// quantities, so `--units` converts every value and header the same way), role, total rule,
/// and how a detail row's cell is read from the report's own row value. `TableBuilder` fills
/// rows by column from these, so no row is built by position.
public struct TableColumn<Row> {
    public var column: ReportColumn
    public var role: ColumnRole
    public var total: ColumnTotal
    public var cell: (Row) -> ReportValue
    /// The currency of a money column, so that a table with no rows still totals 0 in it.
    public var currency: String? = nil

    public init(_ column: ReportColumn, role: ColumnRole, total: ColumnTotal = .none, _ cell: @escaping (Row) -> ReportValue) {
        self.column = column
        self.role = role
        self.total = total
        self.cell = cell
    }

    public var name: String { column.name }

    // MARK: Typed columns

    public static func text(_ name: String, _ title: String, role: ColumnRole = .key, total: ColumnTotal = .none, isFileLink: Bool = false,
                            _ get: @escaping (Row) -> String?) -> Self {
        Self(ReportColumn(name, title, .text, isFileLink: isFileLink), role: role, total: total) { get($0).map { .text($0) } ?? .null }
    }

    public static func integer(_ name: String, _ title: String, role: ColumnRole = .measure, total: ColumnTotal = .none,
                               _ get: @escaping (Row) -> Int?) -> Self {
        Self(ReportColumn(name, title, .integer), role: role, total: total) { get($0).map { .integer(Int64($0)) } ?? .null }
    }

    /// Money in minor units of `currency`; the unit shown is the currency unless given
    /// (`USD/km` for a cost per distance).
    public static func money(_ name: String, _ title: String, currency: String, unit: String? = nil, total: ColumnTotal = .sum,
                             _ get: @escaping (Row) -> Int64?) -> Self {
        var c = Self(ReportColumn(name, title, .money, unit: unit ?? currency), role: .measure, total: total) {
            get($0).map { .money(minor: $0, currency: currency) } ?? .null
        }
        c.currency = currency
        return c
    }

    /// A distance: `get` gives metres (SI), the cell is km or mi as the request asks.
    public static func distance(_ name: String, _ title: String, _ request: ReportRequest, total: ColumnTotal = .sum,
                                _ get: @escaping (Row) -> Double?) -> Self {
        Self(ReportColumn(name, title, .distance, unit: request.distanceUnit), role: .measure, total: total) {
            get($0).map { .number(request.distance($0)) } ?? .null
        }
    }

    /// A volume: `get` gives millilitres (SI), the cell is L or US gal as the request asks.
    public static func volume(_ name: String, _ title: String, _ request: ReportRequest, total: ColumnTotal = .sum,
                              _ get: @escaping (Row) -> Double?) -> Self {
        Self(ReportColumn(name, title, .volume, unit: request.volumeUnit), role: .measure, total: total) {
            get($0).map { .number(request.volume($0)) } ?? .null
        }
    }

    /// A duration: `get` gives seconds (SI), the cell is hours.
    public static func hours(_ name: String, _ title: String, total: ColumnTotal = .sum, _ get: @escaping (Row) -> Double?) -> Self {
        Self(ReportColumn(name, title, .duration, unit: "h"), role: .measure, total: total) { get($0).map { .number($0 / 3600) } ?? .null }
    }

    /// A share, 0–100.
    public static func percent(_ name: String, _ title: String, total: ColumnTotal = .none, _ get: @escaping (Row) -> Double?) -> Self {
        Self(ReportColumn(name, title, .percent, unit: "%"), role: .measure, total: total) { get($0).map { .percent($0) } ?? .null }
    }

    /// A number already in its output unit (a rate, an economy, a speed); the unit comes from
    /// the request when it depends on `--units`.
    public static func decimal(_ name: String, _ title: String, unit: String? = nil, role: ColumnRole = .measure, total: ColumnTotal = .none,
                               _ get: @escaping (Row) -> Double?) -> Self {
        Self(ReportColumn(name, title, .decimal, unit: unit), role: role, total: total) { get($0).map { .number($0) } ?? .null }
    }

    public static func date(_ name: String, _ title: String, role: ColumnRole = .key, _ get: @escaping (Row) -> CivilDate?) -> Self {
        Self(ReportColumn(name, title, .date), role: role) { get($0).map { .date($0) } ?? .null }
    }

    /// An instant: `get` gives UTC epoch milliseconds; renderers show it in the report's zone.
    public static func datetime(_ name: String, _ title: String, role: ColumnRole = .key, _ get: @escaping (Row) -> Int64?) -> Self {
        Self(ReportColumn(name, title, .datetime), role: role) { get($0).map { .datetime($0) } ?? .null }
    }
}
