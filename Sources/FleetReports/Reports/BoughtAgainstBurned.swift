import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// Fuel bought against fuel burned, per asset and period (docs/METRICS.md "Bought against
/// burned"): what the cards, receipts and on-site tank dispenses put into the tank, less what the fuel-used meter says
/// the engine burned, less what the tank gained by the fuel-level meter, should be near zero. A
/// difference outside the band is fuel bought and not burned in this asset (a second vehicle, a
/// jerrycan, a card used for someone else) or burned and not bought (fuel from elsewhere); the
/// purchases behind it are listed. A question, like every fuel exception: nothing leaves a total.
struct BoughtAgainstBurned {
    enum Status: String { case within, over, under, cannotJudge = "cannot_judge" }

    struct Line {
        var assetID: Int64
        var unit: String
        /// The asset's fills of the period (motor fuel, or an unnamed product), a linked receipt
        /// counted once as its card row or first image.
        var purchases: [FuelExceptions.Fill]
        /// Bulk fuel dispensed into the asset from an on-site tank in the period (`fuel_dispense`):
        /// bought, like a fill, though no card or receipt paid for it.
        var dispensedMl: Double = 0
        var dispenses: Int = 0
        /// The sum of the period's `asset_day.fuel_ml`: nil when no day of the period has a
        /// fuel-used figure.
        var burnedMl: Double?
        var tankMl: Double?
        /// Fuel level, percent, standing for the tank at the period's start and end.
        var levelStart: Double?
        var levelEnd: Double?

        var boughtMl: Double { purchases.reduce(0) { $0 + ($1.volumeMl ?? 0) } + dispensedMl }
        var unmeasured: [FuelExceptions.Fill] { purchases.filter { $0.volumeMl == nil } }
        /// (end − start) × capacity: nil unless both levels and the capacity are known.
        var levelChangeMl: Double? {
            guard let a = levelStart, let b = levelEnd, let t = tankMl else { return nil }
            return (b - a) / 100 * t
        }
        var varianceMl: Double? { burnedMl.map { boughtMl - $0 - (levelChangeMl ?? 0) } }
        var variancePercent: Double? {
            guard let v = varianceMl, let b = burnedMl, b > 0 else { return nil }
            return v / b * 100
        }
        /// The band within which bought and burned agree: the meters' error on what was burned,
        /// plus the level sensor's error at both ends when corrected, else a whole tank (its
        /// contents at either end are unknown) when the capacity is known.
        var toleranceMl: Double? {
            guard let b = burnedMl else { return nil }
            let tank = levelChangeMl != nil ? 2 * BoughtAgainstBurned.levelTolerance * (tankMl ?? 0) : (tankMl ?? 0)
            return BoughtAgainstBurned.meterTolerance * b + tank
        }
        var status: Status {
            guard let v = varianceMl, let band = toleranceMl, unmeasured.isEmpty else { return .cannotJudge }
            return v > band ? .over : v < -band ? .under : .within
        }
        /// What the row cannot judge by, or how it was judged.
        var note: String {
            if burnedMl == nil { return "no fuel-used meter reading in the period" }
            if !unmeasured.isEmpty { return "\(unmeasured.count) purchases without a volume: " + unmeasured.prefix(5).map(\.sourceKey).joined(separator: ", ") }
            if purchases.isEmpty, dispenses == 0, let b = burnedMl, b > 0 { return "nothing bought in the period: fuel from an on-site tank, or paid off the card without a receipt, is not in the warehouse" }
            if levelChangeMl != nil { return "tank level corrected at both ends" }
            if tankMl == nil { return "no tank capacity in master data: not level-corrected" }
            return levelStart == nil && levelEnd == nil ? "no fuel-level reading: not level-corrected, one tank in the band"
                : "fuel level known at one end only: not level-corrected, one tank in the band"
        }
    }

    /// Engine fuel-used figures are computed from injector timing; makers and fleets see them
    /// within a few percent of the pump. Twice that leaves room for a fill at either edge.
    static let meterTolerance = 0.10
    /// A float-arm or capacitive level sender reads to about 5 % of the tank, at each end.
    static let levelTolerance = 0.05

    var lines: [Line] = []
    var outside: [Line] { lines.filter { $0.status == .over || $0.status == .under } }

    /// Every asset with a fuel-used figure or a fill in the period (the request's assets).
    static func compute(_ db: Database, _ request: ReportRequest, fills: [FuelExceptions.Fill]) throws -> BoughtAgainstBurned {
        try compute(SQLiteReader(db), request, fills: fills)
    }

    static func compute(_ reader: any WarehouseReader, _ request: ReportRequest, fills: [FuelExceptions.Fill]) throws -> BoughtAgainstBurned {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let assets = filter.arguments.map(WarehouseArgument.text)
        var byAsset: [Int64: [FuelExceptions.Fill]] = [:]
        for f in fills where f.inPeriod && f.isFill { if let a = f.assetID { byAsset[a, default: []].append(f) } }
        var burnedBy: [Int64: Double] = [:]
        try reader.forEach("""
            SELECT d.asset_id, SUM(d.fuel_ml) AS fuel FROM asset_day d JOIN asset a ON a.id = d.asset_id
            WHERE d.day >= ? AND d.day <= ? AND d.fuel_ml IS NOT NULL\(restrict) GROUP BY d.asset_id
            """, [.text(request.period.from.description), .text(request.period.to.description)] + assets) { burnedBy[try $0[0]] = try $0[1] }
        var dispensedBy: [Int64: (ml: Double, count: Int)] = [:]
        if try reader.tableExists("fuel_dispense") {
            try reader.forEach("""
                SELECT x.asset_id, SUM(x.volume_ml), COUNT(*) FROM fuel_dispense x JOIN asset a ON a.id = x.asset_id
                WHERE x.at >= ? AND x.at < ?\(restrict) GROUP BY x.asset_id
                """, [.instant(request.start), .instant(request.end)] + assets) { dispensedBy[try $0[0]] = (try $0[1], try $0[2]) }
        }
        let ids = Set(burnedBy.keys).union(byAsset.keys).union(dispensedBy.keys).sorted()
        var result = BoughtAgainstBurned()
        for id in ids {
            guard let a = try reader.all("SELECT COALESCE(unit_number, vin, pin, name) AS unit, tank_capacity_ml FROM asset WHERE id = ?", [.integer(id)], {
                (unit: try $0[0] as String?, tank: try $0[1] as Double?)
            }).first else { continue }
            let start = try reader.value("""
                SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'fuel_level' AND at <= ?2 ORDER BY at DESC LIMIT 1
                """, [.integer(id), .instant(request.start)], as: Double.self) ?? reader.value("""
                SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'fuel_level' AND at > ?2 AND at < ?3 ORDER BY at LIMIT 1
                """, [.integer(id), .instant(request.start), .instant(request.end)], as: Double.self)
            let end = try reader.value("""
                SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'fuel_level' AND at < ?2 ORDER BY at DESC LIMIT 1
                """, [.integer(id), .instant(request.end)], as: Double.self)
            result.lines.append(Line(assetID: id, unit: a.unit ?? "asset \(id)", purchases: byAsset[id] ?? [],
                                     dispensedMl: dispensedBy[id]?.ml ?? 0, dispenses: dispensedBy[id]?.count ?? 0, burnedMl: burnedBy[id],
                                     tankMl: a.tank, levelStart: start, levelEnd: end))
        }
        result.lines.sort { ($0.unit, $0.assetID) < ($1.unit, $1.assetID) }
        return result
    }

    /// The cost report's data-quality row: the assets outside the band, each with its variance.
    func summary(_ request: ReportRequest) -> (count: Int, detail: String) {
        let out = outside
        guard !out.isEmpty else { return (0, "none") }
        let each = out.prefix(10).map { l -> String in
            let pct = l.variancePercent.map { String(format: "%+.1f %%", $0) } ?? "nothing burned"
            return "\(l.unit) \(pct) (\(String(format: "%+.1f", request.volume(l.varianceMl ?? 0))) \(request.volumeUnit))"
        }
        return (out.count, each.joined(separator: ", ") + (out.count > 10 ? ", …" : "") + "; listed with their purchases in the fuel-exceptions report")
    }
}
