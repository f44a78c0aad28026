import FleetCore
import FleetWarehouse

/// A vendor's own period totals beside FleetKit's meter-derived figures for the same local days
/// (docs/METRICS.md "Vendor period totals"): shown in the utilization report, never added to its
/// hours and distance. One line per asset, source, period and measure; a source's rows for one
/// period that split it by jurisdiction or fuel type are summed first, since they partition it
/// (an IFTA summary's miles per state add up to the period's miles).
struct VendorTotalComparison {
    struct Line {
        var asset: AssetInfo
        var source: String
        var from: CivilDate
        var to: CivilDate
        var measure: String
        /// In SI (metres, seconds, millilitres), as stored.
        var vendor: Double
        var fleetKit: Double?
        /// The period's days FleetKit has a figure for, of `days`.
        var knownDays: Int
        var days: Int
        /// Whether the period's ends are not local midnights of the report's zone (the profile's
        /// zone differs): FleetKit's days then cover a slightly different span.
        var offZone: Bool

        var difference: Double? { fleetKit.map { vendor - $0 } }
        var differencePercent: Double? { fleetKit.flatMap { $0 > 0 ? (vendor - $0) / $0 * 100 : nil } }
        var note: String {
            var parts: [String] = []
            if fleetKit == nil { parts.append("FleetKit has no figure for this period") } else if knownDays < days { parts.append("FleetKit has figures for \(knownDays) of \(days) days") }
            if offZone { parts.append("period not on local midnights of \(days == 1 ? "this day" : "these days") in the report's zone") }
            return parts.joined(separator: "; ")
        }
    }

    /// The FleetKit figure of each measure: a daily rollup column, or for purchased fuel the
    /// card, receipt and manual purchases stored for the asset in the period, each fill once (a
    /// receipt linked to its card transaction is left out, as in every fuel figure).
    static let rollupColumn = ["distance": "distance_m", "engine_hours": "engine_s", "idle_hours": "idle_s", "fuel_used": "fuel_ml"]

    var lines: [Line] = []

    static let tableNote = "A vendor's own totals for whole periods inside the report's, beside FleetKit's figures for the same local days (its daily rollup; for purchased fuel, the stored purchases). Never added to the hours and distance above. A source's rows of one period by jurisdiction or fuel type are summed. Difference = vendor − FleetKit."

    /// Totals whose whole period lies in the report's period, for the request's assets.
    static func compute(_ reader: any WarehouseReader, _ request: ReportRequest, assets: [AssetInfo]) throws -> VendorTotalComparison {
        let byID = Dictionary(assets.map { ($0.id, $0) }) { a, _ in a }
        let rows = try reader.all("""
            SELECT asset_id, source, start_at, end_at, measure, SUM(value) FROM vendor_total
            WHERE start_at >= ? AND end_at <= ? GROUP BY asset_id, source, start_at, end_at, measure
            ORDER BY asset_id, start_at, end_at, source, measure
            """, [.instant(request.start), .instant(request.end)]) {
            (try $0[0] as Int64, try $0[1] as String, try $0[2] as Int64, try $0[3] as Int64, try $0[4] as String, try $0[5] as Double)
        }
        var out = VendorTotalComparison()
        for (id, source, start, end, measure, value) in rows {
            guard let asset = byID[id] else { continue }
            let from = request.zone.day(of: start), to = request.zone.day(of: end - 1)
            let days = to.daysSinceEpoch - from.daysSinceEpoch + 1
            var line = Line(asset: asset, source: source, from: from, to: to, measure: measure, vendor: value, fleetKit: nil, knownDays: 0, days: days,
                            offZone: request.zone.start(of: from) != start || request.zone.start(of: to.adding(days: 1)) != end)
            if let column = rollupColumn[measure] {
                let r = try reader.all("SELECT COUNT(\(column)), SUM(\(column)) FROM asset_day WHERE asset_id = ? AND day >= ? AND day <= ?",
                                       [.integer(id), .text(from.description), .text(to.description)]) { (try $0[0] as Int, try $0[1] as Double?) }.first
                line.knownDays = r?.0 ?? 0
                line.fleetKit = line.knownDays > 0 ? r?.1 : nil
            } else {
                // A receipt linked to its card transaction is that fill again (the card counts it).
                let r = try reader.all("SELECT COUNT(volume_ml), SUM(volume_ml) FROM fuel_purchase WHERE asset_id = ? AND at >= ? AND at < ? AND linked_to IS NULL",
                                       [.integer(id), .instant(start), .instant(end)]) { (try $0[0] as Int, try $0[1] as Double?) }.first
                // Purchases are events, not daily figures: any purchase is a figure for the period.
                line.fleetKit = (r?.0 ?? 0) > 0 ? r?.1 : nil
                line.knownDays = line.fleetKit == nil ? 0 : days
            }
            out.lines.append(line)
        }
        return out
    }

    /// The display unit and the factor from SI of a measure, in the request's units.
    static func display(_ measure: String, _ request: ReportRequest) -> (unit: String, value: (Double) -> Double) {
        switch measure {
        case "distance": return (request.distanceUnit, request.distance)
        case "engine_hours", "idle_hours": return ("h", { $0 / 3600 })
        default: return (request.volumeUnit, request.volume)
        }
    }

    static func columns(_ request: ReportRequest) -> [TableColumn<Line>] {
        func shown(_ l: Line, _ v: Double?) -> Double? { v.map { display(l.measure, request).value($0) } }
        return [.text("unit", "Unit") { $0.asset.unit }, .text("source", "Source") { $0.source },
                .date("from", "From") { $0.from }, .date("to", "To") { $0.to }, .text("measure", "Measure") { $0.measure },
                .text("measure_unit", "Unit of measure") { display($0.measure, request).unit },
                .decimal("vendor", "Vendor's figure") { shown($0, $0.vendor) },
                .decimal("fleetkit", "FleetKit's figure") { shown($0, $0.fleetKit) },
                .decimal("difference", "Difference (vendor − FleetKit)") { shown($0, $0.difference) },
                .percent("difference_pct", "Difference % of FleetKit") { $0.differencePercent },
                .text("note", "Note", role: .note) { $0.note }]
    }
}
