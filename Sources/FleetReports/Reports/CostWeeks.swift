import FleetCore

/// Spend per week and category for a period of a month or less, accumulated from the same cost
/// lines as every other cost figure while the report walks them once, so the weekly bars add up
/// to the report's total to the cent (in minor units) and need no second query.
///
/// Weeks are ISO weeks (Monday to Sunday) of local days in the fleet's zone, the days a line is
/// already assigned to (`CostLine.day`). The first and last weeks are cut to the period, and
/// every bar is labelled with the days it covers ("Oct 1–4", "Oct 26–31", "Sep 28–Oct 4"), so a
/// partial week is never read as a full one.
struct CostWeeks {
    private(set) var sums: [CivilDate: [String: Int64]] = [:]

    /// The Monday of the ISO week holding `day` (1970-01-01 was a Thursday).
    static func monday(of day: CivilDate) -> CivilDate {
        let d = day.daysSinceEpoch
        let sinceMonday = ((d + 3) % 7 + 7) % 7
        return CivilDate(daysSinceEpoch: d - sinceMonday)
    }

    mutating func add(day: CivilDate, category: String, minor: Int64) throws(Checked.Overflow) {
        try sums[Self.monday(of: day), default: [:]][category, default: 0].add(minor, "a week's cost in one category")
    }

    /// "Oct 1–4", "Sep 28–Oct 4", or "Oct 31" for a single day; English month names, like the
    /// rest of the report's labels.
    static func label(_ from: CivilDate, _ to: CivilDate) -> String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let start = "\(names[from.month - 1]) \(from.day)"
        if from == to { return start }
        return start + "\u{2013}" + (to.month == from.month ? "\(to.day)" : "\(names[to.month - 1]) \(to.day)")
    }

    /// The week × category chart: every week that touches the period, in order, with or without
    /// spend (a week with none is a gap a reader should see); categories in `CostLine.categories`
    /// order, those with no spend left out. nil when the period is longer than
    /// `CostCharts.weeklyMaxDays` or nothing was spent.
    func chart(period: ReportPeriod, currency: String) -> ReportChart? {
        guard period.days <= CostCharts.weeklyMaxDays, period.from <= period.to else { return nil }
        var weeks: [(monday: CivilDate, label: String)] = []
        var monday = Self.monday(of: period.from)
        while monday <= period.to {
            let sunday = monday.adding(days: 6)
            weeks.append((monday, Self.label(max(monday, period.from), min(sunday, period.to))))
            monday = monday.adding(days: 7)
        }
        let scale = pow10(Money.minorDigits(currency))
        let series = CostLine.categories.compactMap { c -> (name: String, values: [Double])? in
            let minor = weeks.map { sums[$0.monday]?[c] ?? 0 }
            return minor.contains { $0 != 0 } ? (name: c.capitalized, values: minor.map { Double($0) / scale }) : nil
        }
        guard !series.isEmpty else { return nil }
        return ReportChart(kind: .stackedBar, title: "Cost by week and category (\(currency))", categories: weeks.map(\.label),
                           series: series, valueLabel: currency)
    }
}
