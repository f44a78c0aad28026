import FleetCore
import FleetWarehouse

/// Finance's monthly report: cost per asset, month and category, subtotals per group and cost
/// centre, the fleet total, cost per distance and per engine hour, and fuel economy. Every total
/// is a sum of the `detail` rows, which list each source row, so the report reconciles to the
/// cent (docs/METRICS.md, "Cost").
///
/// Memory does not grow with the number of cost rows: every figure is accumulated in one pass
/// over the cost lines as they come (`CostLine.forEach`), and the detail rows are held only up to
/// `ReportRequest.heldRowLimit`; past that the detail table is a `ReportRowStream` that runs the
/// same query again, in the same read transaction, for each format, and checks on a full walk
/// that the rows still give the count and total computed here.
/// Portable: it runs on SQLite and PostgreSQL alike, money compared in minor units.
public struct CostReport: PortableReport {
    public static let name = "cost"
    public static let title = "Cost report"
    public static let summary = "Costs per asset, month and category with group and cost-centre subtotals, cost per distance and engine hour, fuel economy"
    public static let needs = [ReportDataNeed(.fuel, headlines: ["total", "fuel"])]
    public init() {}

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        let base = try WarehouseSettings.load(reader).currency
        let converter = try CurrencyConverter(reader, base: base, target: request.currency)
        let withoutTotal = try CostLine.withoutTotal(reader, request)
        let assets = try AssetInfo.fetchAll(reader, request)
        let assetByID = Dictionary(uniqueKeysWithValues: assets.map { ($0.id, $0) })
        let usage = try AssetUsage.fetch(reader, request)
        let cur = request.currency
        func money(_ minor: Int64) -> ReportValue { .money(minor: minor, currency: cur) }

        // One pass over every cost line: per asset (nil = unassigned) and category, fuel bought
        // per asset, month × unit × category, and what data quality lists.
        var byAsset: [Int64?: [String: Int64]] = [:]
        var fuelBought: [Int64?: Double] = [:]
        var monthly: [String: [String: Int64]] = [:]
        var weekly = CostWeeks()
        // Only a period of a month or less draws weeks; a year's report skips the ~90 ns a line.
        let byWeek = request.period.days <= CostCharts.weeklyMaxDays
        var longRows: [String: Int64] = [:]
        var missing: [String: (rows: Int, minor: Int64)] = [:]
        var missingRows = 0
        var unassignedRows = 0
        var unassignedMinor: Int64 = 0
        var reviewRows = 0
        var reviewFirst: [String] = []
        var pending: [String: (rows: Int, minor: Int64)] = [:]
        var pendingFirst: [String] = []
        var rejected: [String: (rows: Int, minor: Int64)] = [:]
        var rejectedFirst: [String] = []
        var lineCount = 0
        var countedMinor: Int64 = 0
        var detail = TableBuilder(name: "detail", title: "Every cost row",
                                  columns: Self.detailColumns(request) { $0.flatMap { assetByID[$0]?.unit } ?? "Unassigned" })
        try CostLine.forEach(reader, request, converter: converter) { l in
            lineCount += 1
            // Every line is totalled; only up to the limit are held (about 0.5 KB per row held).
            try detail.add(l, hold: lineCount <= request.heldRowLimit)
            if lineCount == request.heldRowLimit + 1 { detail.dropHeldRows() }
            if let rejection = l.rejection {
                rejected[l.currency, default: (0, 0)].rows += 1
                try rejected[l.currency, default: (0, 0)].minor.add(l.amountMinor, "the rejected \(l.currency) fuel amounts")
                if rejectedFirst.count < 10 { rejectedFirst.append("\(l.day) \(l.sourceKey) \(Money(minor: l.amountMinor, currency: l.currency)): \(rejection)") }
                return
            }
            if l.pendingReview {
                pending[l.currency, default: (0, 0)].rows += 1
                try pending[l.currency, default: (0, 0)].minor.add(l.amountMinor, "the unconfirmed \(l.currency) receipt amounts")
                if pendingFirst.count < 10 { pendingFirst.append("receipt \(l.sourceFileID) \(l.day)") }
                return
            }
            guard let minor = l.reportMinor else {
                missingRows += 1
                missing[l.currency, default: (0, 0)].rows += 1
                try missing[l.currency, default: (0, 0)].minor.add(l.amountMinor, "the \(l.currency) amounts without an exchange rate")
                return
            }
            // Every sum is checked: amounts may be credits, so a partial sum can overflow where
            // the grand total does not.
            let what = "the cost total in \(cur)"
            try countedMinor.add(minor, what)
            try byAsset[l.assetID, default: [:]][l.category, default: 0].add(minor, what)
            if l.category == "fuel", let v = l.volumeML { fuelBought[l.assetID, default: 0] += v }
            let month = String(l.day.description.prefix(7))
            try monthly[month, default: [:]][l.category, default: 0].add(minor, what)
            if byWeek { try weekly.add(day: l.day, category: l.category, minor: minor) }
            let unit = l.assetID.flatMap { assetByID[$0]?.unit } ?? "Unassigned"
            try longRows["\(month)\u{1F}\(unit)\u{1F}\(l.category)", default: 0].add(minor, what)
            if l.assetID == nil {
                unassignedRows += 1
                try unassignedMinor.add(minor, what)
            }
            if l.needsReview {
                reviewRows += 1
                if reviewFirst.count < 10 { reviewFirst.append("\(l.day) \(l.sourceKey)") }
            }
        }
        // The tables' row totals add a row's categories in their closures: checked here first.
        for sums in byAsset.values { _ = try Self.total(sums, cur) }
        var byAssetTable = TableBuilder(name: "by_asset", title: "Cost by asset and category", columns: Self.assetColumns(request))
        for a in assets where byAsset[a.id] != nil || usage[a.id] != nil {
            let u = usage[a.id] ?? AssetUsage()
            try byAssetTable.add(AssetLine(asset: a, sums: byAsset[a.id] ?? [:], usage: usage[a.id], fuelML: u.fuelML > 0 ? u.fuelML : fuelBought[a.id] ?? 0))
        }
        if let unassigned = byAsset[nil] { try byAssetTable.add(AssetLine(asset: nil, sums: unassigned, usage: nil, fuelML: 0)) }
        // The builder's money totals, in minor units (a money column always totals to money).
        func minor(_ column: String) -> Int64 { if case let .money(m, _) = byAssetTable.total(column) { return m } else { return 0 } }
        let totalsByCategory = Dictionary(uniqueKeysWithValues: CostLine.categories.map { ($0, minor($0)) })
        let grandTotal = minor("total")
        // A category no cost row has is not a headline (it totals 0 in the table).
        let categoriesSeen = Set(byAsset.values.flatMap(\.keys))
        var tables = [byAssetTable.table(note: "Each asset's costs in the period in \(cur), with its distance and engine hours from the daily rollup. Costs with no asset are on the Unassigned row.")]
        var groupings: [(String, String, (AssetInfo) -> String?)] = [("group", "Group", { $0.group }), ("cost_center", "Cost centre", { $0.costCenter })]
        if request.groupBy == .department { groupings.append(("department", "Department", { $0.department })) }
        for (key, title, pick) in groupings {
            var sums: [String: [String: Int64]] = [:]
            for (assetID, categories) in byAsset {
                let k = assetID.flatMap { assetByID[$0] }.map { pick($0) ?? "(none)" } ?? "Unassigned"
                for (category, minor) in categories { try sums[k, default: [:]][category, default: 0].add(minor, "the cost total in \(cur)") }
            }
            for row in sums.values { _ = try Self.total(row, cur) }
            var table = TableBuilder<(key: String, sums: [String: Int64])>(
                name: "by_\(key)", title: "Subtotals by \(title.lowercased())",
                columns: [.text(key, title, total: .label("Fleet total")) { $0.key }]
                    + CostLine.categories.map { c in .money(c, c.capitalized, currency: cur) { $0.sums[c] ?? 0 } }
                    + [.money("total", "Total", currency: cur) { $0.sums.values.reduce(0, +) }])   // checked above
            for k in sums.keys.sorted(by: { ($0 == "Unassigned" ? 1 : 0, $0) < ($1 == "Unassigned" ? 1 : 0, $1) }) { try table.add((k, sums[k]!)) }
            tables.append(table.table())
        }

        // Month × asset × category, and the chart of month × category.
        var byMonth = TableBuilder<(key: String, minor: Int64)>(
            name: "by_month", title: "Cost by month, asset and category",
            columns: [.text("month", "Month", total: .label("Total")) { Self.part($0.key, 0) }, .text("unit", "Unit") { Self.part($0.key, 1) },
                      .text("category", "Category") { Self.part($0.key, 2) }, .money("amount", "Amount", currency: cur) { $0.minor }])
        for k in longRows.keys.sorted() { try byMonth.add((k, longRows[k]!)) }
        tables.append(byMonth.table())
        let months = monthly.keys.sorted()
        let chart = ReportChart(kind: .stackedBar, title: "Cost by month and category (\(cur))", categories: months,
                                series: CostLine.categories.filter { categoriesSeen.contains($0) }.map { c in
                                    (name: c.capitalized, values: months.map { Double(monthly[$0]?[c] ?? 0) / pow10(Money.minorDigits(cur)) })
                                }, valueLabel: cur)

        // A large month's rows are read again per format instead of held.
        let stream = lineCount <= request.heldRowLimit ? nil : ReportRowStream(table: "detail", count: lineCount) { [detail] limit, body in
            var rows = 0
            var sum: Int64 = 0
            // A walk of the first `limit` rows stops the query by a private error (on PostgreSQL
            // the rest of the result is read and dropped).
            struct Enough: Error {}
            do {
                try CostLine.forEach(reader, request, converter: converter) { l in
                    if let limit, rows >= limit { throw Enough() }
                    rows += 1
                    try sum.add(l.reportMinor ?? 0, "the cost detail in \(cur)")
                    try body(detail.cells(l))
                }
            } catch is Enough {}
            if limit == nil, rows != lineCount || sum != countedMinor {
                throw ReportRowStream.Error.changed(table: "detail", detail: "\(rows) rows summing to \(sum) minor units, expected \(lineCount) and \(countedMinor)")
            }
        }
        tables.append(detail.table(note: "One row per expense, fuel purchase and maintenance record in the period; the totals above are sums of the Amount (\(cur)) column.",
                                   stream: stream))

        let sources = try ReportSource.fetch(reader, union: [
            "SELECT DISTINCT source_file_id FROM expense WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM fuel_purchase WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM maintenance_record WHERE performed_at >= ?1 AND performed_at < ?2",
            "SELECT DISTINCT source_file_id FROM fuel_dispense WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM tank_delivery WHERE tank IN (SELECT tank FROM fuel_dispense WHERE at >= ?1 AND at < ?2) AND at < ?2",
            "SELECT DISTINCT source_file_id FROM fx_rate WHERE day <= ?3",
        ], arguments: [.instant(request.start), .instant(request.end), .text(request.period.to.description)])
        var quality = DataQuality()
        quality.add("Costs without an exchange rate (excluded from totals)", missingRows,
                    missing.isEmpty ? "none" : missing.keys.sorted().map { c in
                        "\(c): \(missing[c]!.rows) rows, \(Money(minor: missing[c]!.minor, currency: c))"
                    }.joined(separator: "; ") + "; import an fx-rates file")
        let openRejects = try OpenMoneyRejects(reader, request, sources: sources)
        quality.add("Money rows rejected and not loaded since (not counted)", openRejects.count, openRejects.detail)
        let assumed = try AssumedCurrencyCosts(reader, request, base: base)
        quality.add("Costs whose file gave no currency (counted in the warehouse currency \(base))", assumed.rows,
                    assumed.rows == 0 ? "none" : assumed.detail + "; if they are in another currency, import the files again with a currency column")
        quality.add("Costs with no asset (on the Unassigned row)", unassignedRows,
                    unassignedRows == 0 ? "none" : "\(Money(minor: unassignedMinor, currency: cur))")
        let pendingRows = pending.values.reduce(0) { $0 + $1.rows }
        let pendingAmounts = pending.keys.sorted().map { "\(Money(minor: pending[$0]!.minor, currency: $0))" }.joined(separator: " + ")
        quality.add("Receipt fuel purchases with an unconfirmed total (not counted until reviewed)", pendingRows,
                    pendingRows == 0 ? "none" : "\(pendingAmounts) as read: " + pendingFirst.joined(separator: "; ")
                        + (pendingRows > pendingFirst.count ? "; …" : "") + "; `fleetkit review list` settles them")
        let rejectedRows = rejected.values.reduce(0) { $0 + $1.rows }
        quality.add("Fuel purchases rejected at the review of a fuel exception (not counted)", rejectedRows,
                    rejectedRows == 0 ? "none" : rejected.keys.sorted().map { "\(Money(minor: rejected[$0]!.minor, currency: $0))" }.joined(separator: " + ")
                        + " in all; " + rejectedFirst.joined(separator: "; ") + (rejectedRows > rejectedFirst.count ? "; …" : ""))
        quality.add("Fuel purchases needing review (counted)", reviewRows,
                    reviewRows == 0 ? "none" : reviewFirst.joined(separator: "; "))
        let links = try FuelLinkFindings(reader, request)
        quality.add("Receipts linked to their card transaction at another amount (counted once, as the card charged)", links.corrected.count,
                    FuelLinkFindings.detail(links.corrected, "the card's amount is the one counted"))
        quality.add("Receipts that may be a card fill but match ambiguously (left unlinked and counted: check for a double count)", links.ambiguous.count,
                    FuelLinkFindings.detail(links.ambiguous, "several cards or receipts fit the same fill"))
        let judgedFuel = try FuelExceptions.compute(reader, request)
        let fuelExceptions = try judgedFuel.summary(converter: converter, request, decisions: try FuelExceptionDecision.latest(reader))
        quality.add("Fuel purchases with exceptions (misfuel, over capacity, refill, price; see fuel-exceptions)", fuelExceptions.count, fuelExceptions.detail)
        let fuelBalance = try BoughtAgainstBurned.compute(reader, request, fills: judgedFuel.fills).summary(request)
        quality.add("Assets whose fuel bought differs from fuel burned beyond the band (see fuel-exceptions)", fuelBalance.count, fuelBalance.detail)
        let unpriced = try CostLine.unpricedDispenses(reader, request)
        let unpricedRows = unpriced.reduce(0) { $0 + $1.count }
        let unpricedDetail = unpriced.map { u in
            String(format: "%d dispensed %@ (%.1f L)", u.count, u.state == "before_delivery" ? "before the tank's first delivery" : u.state == "no_rate" ? "after a delivery with no exchange rate" : "not yet costed", u.litres)
        }.joined(separator: "; ")
        quality.add("Bulk fuel dispensed that no tank average prices (not counted)", unpricedRows,
                    unpricedRows == 0 ? "none" : unpricedDetail + "; import the tank's deliveries (fuel-delivery) and the rates")
        quality.add("Fuel purchases without a readable total (not counted)", withoutTotal, withoutTotal == 0 ? "none" : "see `fleetkit rejects` and the review listing")
        let unloaded = try ReceiptsUnderReview(reader, request)
        quality.add("Receipts under review and not loaded (not counted)", unloaded.count, unloaded.detail)
        quality.add("Receipts with no currency printed (counted in the fleet's currency)", unloaded.assumedCurrency.count, unloaded.assumedDetail)
        try quality.addCommon(reader, request, sources: sources)

        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: cur,
            parameters: [("group_by", request.groupBy.rawValue), ("assets", request.assets?.joined(separator: ",") ?? "all"), ("base_currency", base)],
            methods: ["Costs are expenses, fuel purchases (card transactions, receipts not matched to a card transaction, manual entries) and maintenance costs whose time falls in the period's local days.",
                      "Bulk fuel dispensed from a tank into an asset is a fuel cost at the tank's moving weighted-average cost at the dispense (docs/METRICS.md, \"Bulk fuel\").",
                      "Amounts in other currencies are converted with the rate in force on the transaction's day, rounded half-to-even to the cent row by row; totals are sums of converted rows.",
                      "Cost per \(request.distanceUnit) and per engine hour divide the asset's total by its distance and engine hours from the daily rollup.",
                      "Fuel economy uses fuel burned (telematics) when the asset reports it, else fuel bought in the period."],
            headlines: [ReportHeadline(byAssetTable.column("total"), Double(grandTotal) / pow10(Money.minorDigits(cur)))]
                + CostLine.categories.filter(categoriesSeen.contains).compactMap { c in
                    totalsByCategory[c].map { ReportHeadline(byAssetTable.column(c), Double($0) / pow10(Money.minorDigits(cur))) }
                },
            generatedAt: request.generatedAt, sources: sources)
        var output = ReportOutput(metadata: metadata, tables: tables, charts: CostCharts.make(monthly: chart, weekly: weekly.chart(period: request.period, currency: cur), tables: tables, currency: cur, distanceUnit: request.distanceUnit), dataQuality: quality.table)
        // Rows left out of the totals make every total wrong by their amount: say so in the header.
        if missingRows > 0 {
            output.metadata.partial.append("\(missingRows) of \(lineCount) cost rows have no exchange rate to \(cur) and are left out of the totals ("
                + missing.keys.sorted().map { "\($0): \(Money(minor: missing[$0]!.minor, currency: $0))" }.joined(separator: "; ")
                + "): import an fx-rates file with \(cur) rates, or report in \(base)")
        }
        if openRejects.count > 0 {
            output.metadata.partial.append("\(openRejects.count) money rows of the period were rejected and have not loaded since, so the totals leave them out: "
                + openRejects.detail)
        }
        if assumed.rows > 0 {
            let what = "\(assumed.rows) cost rows took the warehouse currency \(base) because their file gave none (\(assumed.detail))"
            if assumed.foreignSeen {
                output.metadata.partial.append(what + ", and the warehouse holds other currencies: import the files again with a currency column, or accept them as \(base) with --allow-partial")
            } else {
                output.metadata.methods.append(what + "; the warehouse holds no other currency, so they are taken to be \(base).")
            }
        }
        if pendingRows > 0 {
            output.metadata.partial.append("\(pendingRows) receipt fuel purchases (\(pendingAmounts) as read) have a total no second source confirms and are not counted until reviewed: see `fleetkit review list`")
        }
        if !unloaded.dated.isEmpty {
            output.metadata.partial.append("\(unloaded.dated.count) receipts dated in the period are under review and not counted: see `fleetkit review list`")
        }
        if unpricedRows > 0 {
            output.metadata.partial.append("\(unpricedRows) bulk fuel dispenses have no tank cost and are not counted (\(unpricedDetail)): import the tank's deliveries")
        }
        if withoutTotal > 0 {
            output.metadata.partial.append("\(withoutTotal) fuel purchases have no readable total and are not counted: see `fleetkit rejects` and the review listing")
        }
        // Both rows of a possible double count are in the totals: a figure nobody can sign as it
        // stands, so the report says it is partial until a person settles it.
        if !links.ambiguous.isEmpty {
            output.metadata.partial.append("\(links.ambiguous.count) receipts may be the fill of a card transaction but fit more than one, so both are counted "
                + "(a possible double count; see data quality): forget a receipt's image that is a card's fill (`fleetkit forget FILE`), "
                + "or run the report with --allow-partial when they are separate fills")
        }
        return output
    }

    /// The checked sum of one row's categories (what its Total column shows).
    static func total(_ sums: [String: Int64], _ currency: String) throws(Checked.Overflow) -> Int64 {
        var t: Int64 = 0
        for v in sums.values { try t.add(v, "the cost total in \(currency)") }
        return t
    }
}

func pow10(_ n: Int) -> Double {
    var v = 1.0
    for _ in 0..<n { v *= 10 }
    return v

}
