/// The cost report's charts, chosen for what a reader compares in the period asked.
///
/// A month-by-month chart of a one-month report is a single stacked bar that compares nothing,
/// so it is kept only for periods of several months. Every period gets the spend of each group
/// by category (where the money goes, and who spends it) and the assets that cost the most per
/// unit of distance (the ones to look at first). Both are drawn from the report's own tables, so
/// a chart can never disagree with the figures beside it. A period of a month or less also gets
/// its spend per week, the comparison a one-month bar could not show.
enum CostCharts {
    /// Assets shown in the cost-per-distance ranking.
    static let topAssets = 10

    /// Longest period, in days, that gets the week-by-week chart (a 31-day month has 5 or 6 weeks).
    static let weeklyMaxDays = 31

    /// - parameter monthly: the month × category chart; shown only when it has two months or more.
    /// - parameter weekly: the week × category chart (`CostWeeks.chart`); shown first when given.
    /// - parameter tables: the report's tables; `by_group` and `by_asset` are read by column name.
    static func make(monthly: ReportChart, weekly: ReportChart? = nil, tables: [ReportTable], currency: String, distanceUnit: String) -> [ReportChart] {
        var charts: [ReportChart] = []
        if let weekly { charts.append(weekly) }
        if monthly.categories.count > 1 { charts.append(monthly) }
        if let byGroup = tables.first(where: { $0.name == "by_group" }), let chart = groupChart(byGroup, currency: currency) {
            charts.append(chart)
        }
        if let byAsset = tables.first(where: { $0.name == "by_asset" }),
           let chart = costPerDistanceChart(byAsset, currency: currency, distanceUnit: distanceUnit) {
            charts.append(chart)
        }
        return charts
    }

    /// Groups × categories, stacked; categories with no spend in any group are left out.
    static func groupChart(_ t: ReportTable, currency: String) -> ReportChart? {
        let categoryColumns = t.columns.indices.filter { $0 > 0 && t.columns[$0].type == .money && t.columns[$0].name != "total" }
        guard !t.rows.isEmpty, !categoryColumns.isEmpty else { return nil }
        let groups = t.rows.map { $0.first.flatMap { if case let .text(s) = $0 { s } else { nil } } ?? "" }
        let series = categoryColumns.compactMap { c -> (name: String, values: [Double])? in
            let values = t.rows.map { c < $0.count ? $0[c].number ?? 0 : 0 }
            return values.contains { $0 != 0 } ? (name: t.columns[c].title, values: values) : nil
        }
        guard !series.isEmpty else { return nil }
        return ReportChart(kind: .stackedBar, title: "Cost by group and category (\(currency))", categories: groups, series: series, valueLabel: currency)
    }

    /// The `topAssets` assets with the highest cost per unit of distance, highest first; assets
    /// that did not move have no such cost (unknown, not zero) and are not ranked.
    static func costPerDistanceChart(_ t: ReportTable, currency: String, distanceUnit: String) -> ReportChart? {
        guard let c = t.columns.firstIndex(where: { $0.name == "cost_per_distance" }) else { return nil }
        let ranked = t.rows.compactMap { row -> (String, Double)? in
            guard c < row.count, let v = row[c].number, case let .text(unit)? = row.first else { return nil }
            return (unit, v)
        }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }.prefix(topAssets)
        guard !ranked.isEmpty else { return nil }
        let unit = "\(currency)/\(distanceUnit)"
        return ReportChart(kind: .bar, title: "Top \(ranked.count) assets by cost per \(distanceUnit) (\(unit))",
                           categories: ranked.map(\.0), series: [(name: "Cost per \(distanceUnit)", values: ranked.map(\.1))], valueLabel: unit)
    }
}
