import Foundation
import GRDB
import FleetCore

/// The figures of one local month that the signed reports rest on: the cost report's totals in
/// the warehouse currency, converted as the report converts them (`CountedCosts`), with the
/// rows no rate converts; the stored money per kind and currency (in minor units, as stored),
/// fuel volume and the month's rates; DVIRs and their defects, services, and the daily rollup's
/// distance, engine time and trips. A closed month's figures are kept at close (`MonthEnd`); an
/// import that changes one of them is a restatement.
///
/// Both the converted totals and the stored sums are kept: a corrected rate changes what the
/// report signs without touching a stored amount (a rate of the last days of the month before
/// is in force on the first days of this one), and a correction that moves money between
/// currencies or kinds can leave the converted total as it was.
public struct PeriodFigures: Sendable, Equatable, Codable {
    public struct Figure: Sendable, Equatable, Codable, Hashable {
        public var report: String
        public var figure: String
        public var value: String
    }

    public var period: String
    public var figures: [Figure]

    /// A figure's change between two readings of the same period.
    public struct Change: Sendable, Equatable, Codable {
        public var period: String, report: String, figure: String, old: String, new: String
        public var text: String { "\(period) \(report) \(figure): \(old) → \(new)" }
    }

    /// `YYYY-MM`, or nil when `text` is not a month.
    public static func month(_ text: String) -> (year: Int, month: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let y = Int(parts[0]), let m = Int(parts[1]),
              (1970...9999).contains(y), (1...12).contains(m) else { return nil }
        return (y, m)
    }

    /// Reads the figures of `period` (`YYYY-MM`) in local time of `zone`.
    public static func read(_ db: Database, period: String, zone: FleetZone) throws -> PeriodFigures {
        guard let (y, m) = month(period), let first = CivilDate(year: y, month: m, day: 1) else {
            throw FleetError.invalidArgument(name: "period", value: period, hint: "write the month as YYYY-MM, e.g. 2026-10")
        }
        let next = first.adding(months: 1)
        let from = zone.start(of: first), to = zone.start(of: next)
        let range: StatementArguments = [from, to]
        var out: [Figure] = []
        func money(_ report: String, _ label: String, _ sql: String) throws {
            for row in try Row.fetchAll(db, sql: sql, arguments: range) {
                let currency: String = row[0] ?? "?"
                let minor: Int64 = row[1] ?? 0
                let count: Int = row[2] ?? 0
                out.append(Figure(report: report, figure: "\(label) \(currency)", value: "\(Money(minor: minor, currency: currency)) (\(count) rows)"))
            }
        }
        let base = try WarehouseSettings.load(db).currency
        let counted = try CountedCosts.read(db, from: from, to: to, zone: zone, converter: CurrencyConverter(db, base: base, target: base))
        // A month with no cost rows has no cost figures (as it has no stored sums): "none".
        if !counted.byCategory.isEmpty || !counted.withoutRate.isEmpty {
            out.append(Figure(report: "cost", figure: "total in \(base)", value: "\(Money(minor: counted.total, currency: base))"))
        }
        for category in counted.byCategory.keys.sorted() {
            out.append(Figure(report: "cost", figure: "\(category) in \(base)", value: "\(Money(minor: counted.byCategory[category] ?? 0, currency: base))"))
        }
        for currency in counted.withoutRate.keys.sorted() {
            let w = counted.withoutRate[currency] ?? (0, 0)
            out.append(Figure(report: "cost", figure: "without a rate \(currency)", value: "\(Money(minor: w.minor, currency: currency)) (\(w.rows) rows, not in the total)"))
        }
        try money("cost", "fuel", "SELECT currency, SUM(total_minor), COUNT(*) FROM fuel_purchase WHERE at >= ? AND at < ? GROUP BY currency ORDER BY currency")
        try money("cost", "expenses", "SELECT currency, SUM(amount_minor), COUNT(*) FROM expense WHERE at >= ? AND at < ? GROUP BY currency ORDER BY currency")
        try money("cost", "maintenance", "SELECT COALESCE(currency, '?'), SUM(COALESCE(cost_minor, 0)), COUNT(*) FROM maintenance_record WHERE performed_at >= ? AND performed_at < ? GROUP BY 1 ORDER BY 1")
        if let litres = try Double.fetchOne(db, sql: "SELECT SUM(volume_ml) / 1000.0 FROM fuel_purchase WHERE at >= ? AND at < ?", arguments: range) {
            out.append(Figure(report: "cost", figure: "fuel litres", value: String(format: "%.3f", litres)))
        }
        // Bulk fuel: what was dispensed and what it cost, and the dispenses no tank average
        // priced (a late delivery that prices them, or reprices the rest, is a restatement).
        try money("cost", "fuel dispensed", """
            SELECT cost_currency, SUM(cost_minor), COUNT(*) FROM fuel_dispense WHERE at >= ? AND at < ? AND cost_minor IS NOT NULL
            GROUP BY cost_currency ORDER BY cost_currency
            """)
        for row in try Row.fetchAll(db, sql: """
            SELECT cost_state, COUNT(*), SUM(volume_ml) / 1000.0 FROM fuel_dispense WHERE at >= ? AND at < ? GROUP BY cost_state ORDER BY cost_state
            """, arguments: range) {
            let state: String = row[0], count: Int = row[1], litres: Double = row[2]
            out.append(Figure(report: "cost", figure: "fuel dispensed litres \(state)", value: String(format: "%.3f (%d dispenses)", litres, count)))
        }
        let days: StatementArguments = [first.description, next.description]
        for row in try Row.fetchAll(db, sql: "SELECT currency, COUNT(*), SUM(per_base) FROM fx_rate WHERE day >= ? AND day < ? GROUP BY currency ORDER BY currency", arguments: days) {
            let currency: String = row[0]
            let count: Int = row[1]
            let sum: Double = row[2]
            out.append(Figure(report: "cost", figure: "rates \(currency)", value: "\(count) rates, sum \(String(format: "%.6f", sum))"))
        }
        let dvirs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dvir WHERE signed_at >= ? AND signed_at < ?", arguments: range) ?? 0
        let unsafe = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dvir WHERE signed_at >= ? AND signed_at < ? AND safety_status = 'unsafe'", arguments: range) ?? 0
        let defects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id WHERE v.signed_at >= ? AND v.signed_at < ?", arguments: range) ?? 0
        out.append(Figure(report: "dvir-compliance", figure: "DVIRs", value: String(dvirs)))
        out.append(Figure(report: "dvir-compliance", figure: "unsafe DVIRs", value: String(unsafe)))
        out.append(Figure(report: "dvir-compliance", figure: "defects", value: String(defects)))
        let services = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM maintenance_record WHERE performed_at >= ? AND performed_at < ?", arguments: range) ?? 0
        out.append(Figure(report: "maintenance-due", figure: "services", value: String(services)))
        if let row = try Row.fetchOne(db, sql: "SELECT SUM(distance_m), SUM(engine_s), SUM(idle_s), SUM(trips), COUNT(*) FROM asset_day WHERE day >= ? AND day < ?", arguments: days),
           let n: Int = row[4], n > 0 {
            let metres: Double = row[0] ?? 0, engine: Double = row[1] ?? 0, idle: Double = row[2] ?? 0
            let trips: Int = row[3] ?? 0
            out.append(Figure(report: "utilization", figure: "distance km", value: String(format: "%.1f", metres / 1000)))
            out.append(Figure(report: "utilization", figure: "engine hours", value: String(format: "%.2f", engine / 3600)))
            out.append(Figure(report: "utilization", figure: "idle hours", value: String(format: "%.2f", idle / 3600)))
            out.append(Figure(report: "trips", figure: "trips", value: String(trips)))
        }
        return PeriodFigures(period: period, figures: out)
    }

    /// What changed from `self` to `after` (a figure on one side only is "none" on the other).
    public func changes(to after: PeriodFigures) -> [Change] {
        let before = Dictionary(figures.map { ("\($0.report)\u{1F}\($0.figure)", $0) }, uniquingKeysWith: { a, _ in a })
        let now = Dictionary(after.figures.map { ("\($0.report)\u{1F}\($0.figure)", $0) }, uniquingKeysWith: { a, _ in a })
        var out: [Change] = []
        for key in Set(before.keys).union(now.keys).sorted() {
            let b = before[key], a = now[key]
            guard b?.value != a?.value, let any = a ?? b else { continue }
            out.append(Change(period: period, report: any.report, figure: any.figure, old: b?.value ?? "none", new: a?.value ?? "none"))
        }
        return out
    }
}
