import FleetCore

/// Builds a `ReportTable` from typed rows and columns declared once (`TableColumn`): each cell
/// is read by its column, so no row is assembled by position, and the totals row is computed
/// here from the same rows (`ColumnTotal`), so it reconciles with them by construction.
///
/// Totals accumulate as rows are added, whether the rows are held or only counted because the
/// table is streamed (`add(_:hold:)`), so a streamed table's totals come from the same pass.
public struct TableBuilder<Row> {
    public let name: String
    public let title: String
    public let columns: [TableColumn<Row>]
    public private(set) var rows: [[ReportValue]] = []
    public private(set) var rowCount = 0
    private var sums: [Sum]
    private var ratios: [Int: (of: Sum, to: Sum)] = [:]
    private var conditional: [Int: (column: Int, sum: Sum)] = [:]
    /// Per `.share` column: the rows whose cell is in `of`, and those whose cell is in `among`.
    private var shares: [Int: (of: Int, among: Int)] = [:]
    private let index: [String: Int]
    /// The columns whose cells a total needs: all a row that is only counted has to compute.
    private var totalled: [Int] = []

    public init(name: String, title: String, columns: [TableColumn<Row>]) {
        self.name = name
        self.title = title
        self.columns = columns
        sums = columns.map { _ in Sum() }
        index = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (i, c) in columns.enumerated() {
            if case let .ratio(of, to, _) = c.total {
                precondition(index[of] != nil && index[to] != nil, "\(name).\(c.name): ratio of unknown columns \(of), \(to)")
                ratios[i] = (Sum(), Sum())
            }
            if case let .sumWhereKnown(other) = c.total {
                precondition(index[other] != nil, "\(name).\(c.name): sum where unknown column \(other) is known")
                conditional[i] = (index[other]!, Sum())
            }
            if case .share = c.total { shares[i] = (0, 0) }
        }
        var needed = Set<Int>()
        for (i, c) in columns.enumerated() {
            switch c.total {
            case .none, .label: break
            case .sum, .sumOfKnown, .share: needed.insert(i)
            case let .sumWhereKnown(other): needed.formUnion([i, index[other]!])
            case let .ratio(of, to, _): needed.formUnion([index[of]!, index[to]!])
            }
        }
        totalled = needed.sorted()
    }

    /// The detail cells of `row`, in column order.
    public func cells(_ row: Row) -> [ReportValue] { columns.map { $0.cell(row) } }

    /// Adds a detail row to the totals and, when `hold`, to the rows the table holds. A row
    /// that is only counted (a streamed table) computes only the cells its totals need, so a
    /// year of cost lines costs one cell each in the totalling pass, not a whole row.
    ///
    /// - throws: `Checked.Overflow` when a money or integer total no longer fits an Int64.
    public mutating func add(_ row: Row, hold: Bool = true) throws(Checked.Overflow) {
        var values: [ReportValue]
        if hold { values = cells(row) } else {
            values = Array(repeating: .null, count: columns.count)
            for i in totalled { values[i] = columns[i].cell(row) }
        }
        rowCount += 1
        for i in totalled { try sums[i].add(values[i], "the \(name) table's \(columns[i].name) total") }
        for (i, n) in shares {
            guard case let .share(of, among) = columns[i].total, case let .text(cell) = values[i] else { continue }
            shares[i] = (n.of + (of.contains(cell) ? 1 : 0), n.among + (among.contains(cell) ? 1 : 0))
        }
        for (i, pair) in ratios {
            guard case let .ratio(of, to, _) = columns[i].total else { continue }
            let a = values[index[of]!], b = values[index[to]!]
            guard a.number != nil, b.number != nil else { continue }
            var p = pair
            try p.of.add(a, "the \(name) table's \(of) total")
            try p.to.add(b, "the \(name) table's \(to) total")
            ratios[i] = p
        }
        for (i, c) in conditional where values[c.column].number != nil {
            try conditional[i]!.sum.add(values[i], "the \(name) table's \(columns[i].name) total")
        }
        if hold { rows.append(values) }
    }

    /// Lets go of the held rows once a table turns out too large to hold: it is streamed, and
    /// its totals still count every row added.
    public mutating func dropHeldRows() { rows = [] }

    /// The column's declared definition.
    public func column(_ name: String) -> ReportColumn { columns[index[name]!].column }

    /// The totals row, from the rows added.
    public var totals: [ReportValue] { columns.indices.map(total) }

    /// The total of one column by name (`.null`: unknown).
    public func total(_ name: String) -> ReportValue { total(index[name]!) }

    private func total(_ i: Int) -> ReportValue {
        switch columns[i].total {
        case .none: return .null
        case let .label(text): return .text(text)
        case .sum: return sums[i].value(columns[i].column.type, currency: columns[i].currency, empty: rowCount == 0)
        case .sumOfKnown: return sums[i].value(columns[i].column.type, currency: columns[i].currency, empty: false)
        case .sumWhereKnown: return conditional[i]!.sum.value(columns[i].column.type, currency: columns[i].currency, empty: true)
        case let .ratio(_, _, scale):
            guard let p = ratios[i], let a = p.of.double, let b = p.to.double, b != 0 else { return .null }
            let v = a / b * scale
            return columns[i].column.type == .percent ? .percent(v) : .number(v)
        case .share:
            guard let n = shares[i], n.among > 0 else { return .null }
            return .percent(Double(n.of) / Double(n.among) * 100)
        }
    }

    /// A headline figure that is this column's total, named and united as the column; nil when
    /// the total is unknown (a report leaves an unknown headline out, never prints 0).
    public func headline(_ name: String, rounded places: Int? = nil) -> ReportHeadline? {
        let t = total(name)
        guard var v = t.number else { return nil }
        // One correctly rounded division, so a money headline is the nearest double to its cents.
        if case let .money(minor, currency) = t { v = Double(minor) / pow10(Money.minorDigits(currency)) }
        let value = places.map { p in let f = pow10(p); return (v * f).rounded() / f } ?? v
        return ReportHeadline(column(name), value)
    }

    /// The table: held rows, or `stream` when the rows were too many to hold (the totals are
    /// still those of every row added); the totals row when any column declares a total,
    /// unless `totalsRow` is false (a list whose totals are only its headlines, like trips).
    public func table(note: String? = nil, stream: ReportRowStream? = nil, totalsRow: Bool = true) -> ReportTable {
        let hasTotals = totalsRow && columns.contains { $0.total != .none }
        return ReportTable(name: name, title: title, columns: columns.map(\.column), rows: stream == nil ? rows : [], totals: hasTotals ? totals : nil,
                           note: note, stream: stream)
    }
}

/// A running sum of one column's known cells, kept in the cells' own kind (minor units stay
/// integers, so money totals are exact).
private struct Sum {
    var minor: Int64 = 0, integer: Int64 = 0, real = 0.0
    var currency: String? = nil
    var known = 0, unknown = 0

    mutating func add(_ v: ReportValue, _ what: @autoclosure () -> String) throws(Checked.Overflow) {
        switch v {
        case .null: unknown += 1
        case let .money(m, c): try minor.add(m, what()); currency = c; known += 1
        case let .integer(i): try integer.add(i, what()); real += Double(i); known += 1
        case let .number(d), let .percent(d): real += d; known += 1
        case .text, .date, .datetime: break
        }
    }

    var double: Double? {
        guard known > 0 else { return nil }
        // One correctly rounded division, so a money headline is the nearest double to its cents.
        if let currency { return Double(minor) / pow10(Money.minorDigits(currency)) }
        return real
    }

    func value(_ type: ReportColumnType, currency declared: String?, empty: Bool) -> ReportValue {
        if known == 0, !empty { return .null }
        switch type {
        case .money: return (currency ?? declared).map { .money(minor: minor, currency: $0) } ?? .null
        case .integer: return .integer(integer)
        case .percent: return .percent(real)
        default: return .number(real)
        }
    }
}
