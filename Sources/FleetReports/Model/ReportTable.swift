import FleetCore

/// A report's table: typed columns and rows of typed values.
///
/// Renderers never guess types from text: a money cell is written as a number with a currency
/// format in XLSX, as a plain decimal in CSV and JSON, and right-aligned in HTML. Values are
/// already in the report's output units (km or mi, L or gal) when they reach a table.
public struct ReportTable: Sendable, Equatable {
    /// A stable id used in file names and JSON (`detail`, `by_category`, `data_quality`).
    public var name: String
    /// The heading people read.
    public var title: String
    public var columns: [ReportColumn]
    public var rows: [[ReportValue]]
    /// An optional totals row, rendered after the rows (bold in XLSX and HTML).
    public var totals: [ReportValue]?
    /// A sentence under the title: what a row is and how to read it.
    public var note: String?
    /// Set instead of `rows` when the rows are too many to hold: renderers walk it (`forEachRow`).
    public var stream: ReportRowStream?

    /// The number of rows, held or streamed.
    public var rowCount: Int { stream?.count ?? rows.count }

    /// Calls `body` with each row in order, held or streamed; the first `limit` rows when given.
    public func forEachRow(limit: Int? = nil, _ body: ([ReportValue]) throws -> Void) throws {
        if let stream { return try stream.forEach(limit: limit, body) }
        for row in limit.map({ rows.prefix($0) }) ?? rows[...] { try body(row) }
    }

    public init(name: String, title: String, columns: [ReportColumn], rows: [[ReportValue]] = [], totals: [ReportValue]? = nil, note: String? = nil,
                stream: ReportRowStream? = nil) {
        self.stream = stream
        self.name = name
        self.title = title
        self.columns = columns
        self.rows = rows
        self.totals = totals
        self.note = note
    }
}

public struct ReportColumn: Sendable, Equatable {
    /// A stable snake_case id (JSON `name`, CSV header).
    public var name: String
    /// The header people read.
    public var title: String
    public var type: ReportColumnType
    /// The unit of the values (`km`, `h`, `L`, `USD`, `%`), shown in headers and JSON.
    public var unit: String?
    /// The values name other report files in the same folder (`cost-2026-10.html`): HTML makes
    /// each a link; the other formats keep the file name as text.
    public var isFileLink: Bool

    public init(_ name: String, _ title: String, _ type: ReportColumnType, unit: String? = nil, isFileLink: Bool = false) {
        self.name = name
        self.title = title
        self.type = type
        self.unit = unit
        self.isFileLink = isFileLink
    }
}

public enum ReportColumnType: String, Sendable, Equatable {
    case text, integer, decimal, money, percent, date, datetime, duration, distance, volume
    /// An exchange rate: shown with its own precision, four to six decimals, since a rate cut
    /// to one decimal (1.1 for 1.0872) cannot be checked against the treasury's.
    case rate

    /// Digits shown after the decimal mark (renderers may show more for small values).
    public var places: Int {
        switch self {
        case .text, .integer, .date, .datetime: return 0
        case .money: return 2
        case .percent, .duration, .distance, .volume, .decimal: return 1
        case .rate: return 4
        }
    }
}

/// One cell. Money keeps its minor units and currency so nothing is rounded twice.
public enum ReportValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    case number(Double)
    case money(minor: Int64, currency: String)
    /// 0–100.
    case percent(Double)
    case date(CivilDate)
    /// UTC epoch milliseconds; renderers show it in the report's time zone.
    case datetime(Int64)

    /// The value as a JSON-ready Double, when it is numeric (money as a decimal in its currency).
    public var number: Double? {
        switch self {
        case let .integer(i): return Double(i)
        case let .number(d): return d
        case let .percent(p): return p
        case let .money(minor, currency): return DecimalNumber(mantissa: minor, scale: Money.minorDigits(currency)).double
        default: return nil
        }
    }
}
