import FleetCore

/// Everything a report produced: its tables, charts and the metadata that makes it auditable.
public struct ReportOutput: Sendable {
    public var metadata: ReportMetadata
    /// The tables in reading order; the first is the summary a reader sees first.
    public var tables: [ReportTable]
    public var charts: [ReportChart]
    /// The data-quality table: rows excluded and why, rollbacks, gaps, auto-created assets,
    /// unassigned costs, receipts needing review. Always present, possibly with no rows.
    public var dataQuality: ReportTable

    public init(metadata: ReportMetadata, tables: [ReportTable], charts: [ReportChart] = [], dataQuality: ReportTable) {
        self.metadata = metadata
        self.tables = tables
        self.charts = charts
        self.dataQuality = dataQuality
    }
}

/// What a report says about itself (docs/METRICS.md, "Report output conventions"): period, zone, units, currency, method notes,
/// generation time and sources.
public struct ReportMetadata: Sendable, Equatable {
    public var report: String            // cli name: "cost"
    public var title: String             // "Cost report"
    public var period: ReportPeriod
    public var timeZone: String          // IANA id
    public var units: Units.System
    public var currency: String
    /// Named parameters shown in the Parameters sheet/section and in JSON `parameters`.
    public var parameters: [(String, String)]
    /// How figures were computed, one sentence each, referring to docs/METRICS.md.
    public var methods: [String]
    /// Headline figures (`cost.totals.total`), in output units, each with its unit.
    public var headlines: [ReportHeadline]
    /// The headline figures by name, without their units.
    public var totals: [(String, Double)] { headlines.map { ($0.name, $0.value) } }
    public var generatedAt: Int64
    public var sources: [ReportSource]
    /// The last day the figures have data for (`ReportCompleteness.dataThrough`), shown beside
    /// the generation time so a reader never takes one for the other. Nil: no dated data.
    public var dataThrough: CivilDate? = nil
    /// Why the figures are incomplete, one sentence each; empty when they are complete. Every
    /// format shows these in its header, not only in the data-quality table.
    public var partial: [String] = []
    /// The units a report is limited to when it shows only some (`--assets T-05`): named in its
    /// file names (`ReportFileName`) so that it never overwrites the fleet's files. Nil: the fleet.
    public var subject: String? = nil

    public var isPartial: Bool { !partial.isEmpty }

    public init(report: String, title: String, period: ReportPeriod, timeZone: String, units: Units.System, currency: String,
                parameters: [(String, String)] = [], methods: [String] = [], headlines: [ReportHeadline] = [],
                generatedAt: Int64, sources: [ReportSource] = []) {
        self.report = report
        self.title = title
        self.period = period
        self.timeZone = timeZone
        self.units = units
        self.currency = currency
        self.parameters = parameters
        self.methods = methods
        self.headlines = headlines
        self.generatedAt = generatedAt
        self.sources = sources
    }

    public static func == (a: ReportMetadata, b: ReportMetadata) -> Bool {
        a.report == b.report && a.title == b.title && a.period == b.period && a.timeZone == b.timeZone && a.units == b.units
            && a.currency == b.currency && a.parameters.map { [$0.0, $0.1] } == b.parameters.map { [$0.0, $0.1] }
            && a.methods == b.methods && a.headlines == b.headlines
            && a.generatedAt == b.generatedAt && a.sources == b.sources && a.dataThrough == b.dataThrough && a.partial == b.partial
            && a.subject == b.subject
    }
}

/// A period of local days, inclusive, in the fleet time zone.
public struct ReportPeriod: Sendable, Equatable {
    public var from: CivilDate
    public var to: CivilDate
    /// `2026-10`, `2026-Q3` or `2026-10-01_2026-10-31`: used in file names.
    public var label: String

    public init(from: CivilDate, to: CivilDate, label: String) {
        self.from = from
        self.to = to
        self.label = label
    }

    public static func month(_ year: Int, _ month: Int) -> ReportPeriod {
        let from = CivilDate(year: year, month: month, day: 1)!
        return ReportPeriod(from: from, to: from.adding(months: 1).adding(days: -1), label: "\(year)-\(month < 10 ? "0" : "")\(month)")
    }

    public static func quarter(_ year: Int, _ q: Int) -> ReportPeriod {
        let from = CivilDate(year: year, month: (q - 1) * 3 + 1, day: 1)!
        return ReportPeriod(from: from, to: from.adding(months: 3).adding(days: -1), label: "\(year)-Q\(q)")
    }

    public static func range(_ from: CivilDate, _ to: CivilDate) -> ReportPeriod {
        ReportPeriod(from: from, to: to, label: "\(from)_\(to)")
    }

    public var days: Int { to.daysSinceEpoch - from.daysSinceEpoch + 1 }
}

/// A file the report drew on.
public struct ReportSource: Sendable, Equatable {
    public var id: Int64
    public var path: String
    public var format: String
    public var sha256: String

    public init(id: Int64, path: String, format: String, sha256: String) {
        self.id = id
        self.path = path
        self.format = format
        self.sha256 = sha256
    }
}

/// A chart renderers draw natively: an XLSX chart, an inline SVG in HTML.
public struct ReportChart: Sendable, Equatable {
    public enum Kind: String, Sendable { case stackedBar, bar, timeline }
    public var kind: Kind
    public var title: String
    /// The category axis labels (months, asset units).
    public var categories: [String]
    /// One series per stack or bar group; values align with `categories`.
    public var series: [(name: String, values: [Double])]
    /// The value axis label, with its unit.
    public var valueLabel: String
    /// A reference value drawn across a bar chart (utilization's 100 % of target hours), so a
    /// reader sees which bars reach it; nil draws none.
    public var target: Double? = nil
    /// What the reference value is ("target"), shown beside it.
    public var targetLabel: String? = nil

    public init(kind: Kind, title: String, categories: [String], series: [(name: String, values: [Double])], valueLabel: String) {
        self.kind = kind
        self.title = title
        self.categories = categories
        self.series = series
        self.valueLabel = valueLabel
    }

    public static func == (a: ReportChart, b: ReportChart) -> Bool {
        a.kind == b.kind && a.title == b.title && a.categories == b.categories && a.valueLabel == b.valueLabel
            && a.series.map(\.name) == b.series.map(\.name) && a.series.map(\.values) == b.series.map(\.values)
            && a.target == b.target && a.targetLabel == b.targetLabel
    }
}
