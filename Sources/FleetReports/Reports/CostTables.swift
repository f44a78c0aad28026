import FleetCore

/// The cost report's tables, declared once (`TableColumn`): every total in them is a sum the
/// table builder makes from the rows, so the report reconciles to the cent by construction.
extension CostReport {
    /// One asset's costs by category and its use, or the costs with no asset (`asset` nil).
    struct AssetLine {
        var asset: AssetInfo?
        var sums: [String: Int64]
        /// Nil: no rollup rows for the asset in the period.
        var usage: AssetUsage?
        /// Fuel burned (telematics) when the asset reports it, else fuel bought.
        var fuelML: Double

        /// Cannot overflow: `CostReport.run` checks every row's sum (`CostReport.total`) first.
        var total: Int64 { sums.values.reduce(0, +) }
        /// Unknown is not zero: no telematics, a single reading, or no such figure on any day.
        var known: Bool { usage?.measured ?? false }
        var distanceM: Double { usage?.distanceM ?? 0 }
        var engineS: Double { usage?.engineS ?? 0 }
    }

    static func assetColumns(_ request: ReportRequest) -> [TableColumn<AssetLine>] {
        let cur = request.currency, du = request.distanceUnit
        let keys: [TableColumn<AssetLine>] = [
            .text("unit", "Unit", total: .label("Fleet total")) { $0.asset?.unit ?? "Unassigned" },
            .text("name", "Name", role: .note) { $0.asset.map { $0.name ?? "" } ?? "costs with no asset" },
            .text("group", "Group") { $0.asset?.group ?? "" }, .text("cost_center", "Cost centre") { $0.asset?.costCenter ?? "" },
            .text("department", "Department") { $0.asset?.department ?? "" },
        ]
        let categories = CostLine.categories.map { c in TableColumn<AssetLine>.money(c, c.capitalized, currency: cur) { $0.sums[c] ?? 0 } }
        let measures: [TableColumn<AssetLine>] = [
            .money("total", "Total", currency: cur) { $0.total },
            .distance("distance", "Distance", request) { l in l.known && l.usage!.distanceKnown ? l.distanceM : nil },
            .hours("engine_hours", "Engine hours") { l in l.known && l.usage!.engineKnown ? l.engineS : nil },
            .money("cost_per_distance", "Cost per \(du)", currency: cur, unit: "\(cur)/\(du)", total: .none) { l in
                l.asset != nil && l.distanceM > 0 ? Checked.int64(Double(l.total) / request.distance(l.distanceM)) : nil
            },
            .money("cost_per_engine_hour", "Cost per engine hour", currency: cur, unit: "\(cur)/h", total: .none) { l in
                l.asset != nil && l.engineS > 0 ? Checked.int64(Double(l.total) / (l.engineS / 3600)) : nil
            },
            .volume("fuel_volume", "Fuel", request, total: .none) { $0.fuelML > 0 ? $0.fuelML : nil },
            .decimal("fuel_economy", "Fuel economy", unit: request.economyUnit) { l in
                l.asset == nil ? nil : request.economy(metres: l.distanceM, millilitres: l.fuelML)
            },
        ]
        return keys + categories + measures
    }

    /// Every cost row; `unit` names a line's asset.
    static func detailColumns(_ request: ReportRequest, unit: @escaping (Int64?) -> String) -> [TableColumn<CostLine>] {
        let cur = request.currency
        return [
            TableColumn(ReportColumn("date", "Date", .date), role: .key, total: .label("Total")) { .date($0.day) },
            .text("unit", "Unit") { unit($0.assetID) }, .text("category", "Category") { $0.category }, .text("source", "Source") { $0.source },
            .text("vendor", "Vendor", role: .note) { $0.vendor ?? "" }, .text("description", "Description", role: .note) { $0.description ?? "" },
            // In the row's own currency: money with its minor digits, never totalled across currencies.
            TableColumn(ReportColumn("amount", "Amount", .money), role: .measure, total: .none) { .money(minor: $0.amountMinor, currency: $0.currency) },
            .text("currency", "Currency") { $0.currency },
            TableColumn(ReportColumn("rate", "Rate to \(cur)", .rate), role: .measure, total: .none) { $0.rate.map { .number($0) } ?? .null },
            .money("amount_report", "Amount", currency: cur) { $0.reportMinor },
            .text("needs_review", "Needs review", role: .note) { l in
                l.rejection.map { "no: \($0); not counted" } ?? (l.pendingReview ? "yes: total unconfirmed, not counted" : l.needsReview ? "yes" : "")
            },
            TableColumn(ReportColumn("source_file", "Source file", .integer), role: .note) { .integer($0.sourceFileID) },
        ]
    }

    /// Field `i` of a `month␟unit␟category` key.
    static func part(_ key: String, _ i: Int) -> String { String(key.split(separator: "\u{1F}", omittingEmptySubsequences: false)[i]) }
}
