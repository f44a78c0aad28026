import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// The fuel each asset burned idling in the period and what it cost (docs/METRICS.md "Idle
/// cost"): measured where the telematics report fuel per idling period, else idle hours × the
/// no-load idle burn rate of the asset's class; priced at the period's median pump price of its
/// fuel. An estimate of fuel already in the costs, never a cost of its own.
struct IdleCost {
    enum Method: String { case measured, rate, cannotJudge = "cannot_judge" }

    struct Line {
        var unit: String
        var idleS: Double?
        var fuelMl: Double?
        var method: Method
        /// The burn rate used, mL per hour (the `rate` method only).
        var rateMlPerH: Double?
        /// Minor units of the report currency per litre.
        var priceMinorPerL: Double?
        var costMinor: Int64?
        var note: String
    }

    /// No-load idle fuel use, US gal/h, from the U.S. DOE Vehicle Technologies Office Fact #861
    /// (Argonne National Laboratory's idling worksheet, 2015): a light gasoline vehicle as the
    /// large sedan (4.6 L; pickups and vans carry 3.5–5 L engines), a hybrid as the compact
    /// sedan (2.0 L; its engine often stops at idle, so an upper bound), a diesel road vehicle as
    /// the tractor-semitrailer (the heaviest class; 0.44 for a medium truck). No published
    /// figure covers machines: their idle fuel is measured or not judged.
    static let galPerHour: [String: Double] = ["gasoline": 0.39, "hybrid": 0.16, "diesel": 0.64]

    /// The class whose rate applies: nil for machines, trailers and fuel types without one.
    static func rateClass(kind: String, fuelType: String?) -> String? {
        guard kind == "vehicle", let t = fuelType?.lowercased() else { return nil }
        switch t {
        case "petrol", "gasoline", "flex", "flex-fuel", "ffv", "e85": return "gasoline"
        case "hybrid": return "hybrid"
        case "diesel": return "diesel"
        default: return nil
        }
    }

    var lines: [Line] = []

    static func compute(_ db: Database, _ request: ReportRequest, fills: [FuelExceptions.Fill], converter: CurrencyConverter) throws -> IdleCost {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let days: [(any DatabaseValueConvertible)?] = [request.period.from.description, request.period.to.description]
        let rows = try Row.fetchAll(db, sql: """
            SELECT a.id, COALESCE(a.unit_number, a.vin, a.pin, a.name) AS unit, a.kind, a.fuel_type, SUM(d.idle_s) AS idle
            FROM asset_day d JOIN asset a ON a.id = d.asset_id
            WHERE d.day >= ? AND d.day <= ? AND d.idle_s IS NOT NULL\(restrict)
            GROUP BY a.id HAVING SUM(d.idle_s) > 0 ORDER BY unit, a.id
            """, arguments: StatementArguments(days + filter.arguments))
        let prices = try medians(fills.filter(\.inPeriod), converter: converter, request)
        var result = IdleCost()
        for r in rows {
            let id: Int64 = r["id"], unit: String = r["unit"] ?? "asset \(id)", idle: Double = r["idle"]
            let kind: String = r["kind"], fuelType: String? = r["fuel_type"]
            let measured = try Double.fetchOne(db, sql: """
                SELECT SUM(fuel_ml) FROM idle_period WHERE asset_id = ? AND start_at >= ? AND start_at < ? AND fuel_ml IS NOT NULL
                """, arguments: [id, request.start, request.end])
            let accepted = fuelType.flatMap { FuelProduct.accepted(byFuelType: $0) } ?? []
            let product: FuelProduct? = accepted.contains(.gasolineRegular) ? .gasolineRegular : accepted.contains(.diesel) ? .diesel : nil
            let price = product.flatMap { prices[$0] }
            var line = Line(unit: unit, idleS: idle, fuelMl: nil, method: .cannotJudge, rateMlPerH: nil, priceMinorPerL: price, costMinor: nil, note: "")
            if let measured {
                line.fuelMl = measured
                line.method = .measured
                line.note = "fuel of the idling periods the telematics reported"
            } else if let c = rateClass(kind: kind, fuelType: fuelType), let gph = galPerHour[c] {
                line.rateMlPerH = gph * Units.millilitresPerUSGallon
                line.fuelMl = idle / 3600 * gph * Units.millilitresPerUSGallon
                line.method = .rate
                line.note = "idle hours × the \(c) class's no-load rate"
            } else {
                line.note = kind == "vehicle" ? "no idle burn rate for fuel type '\(fuelType ?? "none")'" : "no idle fuel reported, and no published idle rate for kind '\(kind)'"
            }
            if let fuel = line.fuelMl {
                if let price { line.costMinor = Int64((fuel / 1000 * price).rounded()) } else {
                    line.note += "; no priced \(product.map(FuelExceptions.describe) ?? "fuel") line in the period to price it"
                }
            }
            result.lines.append(line)
        }
        return result
    }

    /// The median unit price of regular gasoline and of diesel over the period's fills, in minor
    /// units of the report currency per litre (each line converted on its day).
    static func medians(_ fills: [FuelExceptions.Fill], converter: CurrencyConverter, _ request: ReportRequest) throws -> [FuelProduct: Double] {
        var prices: [FuelProduct: [Double]] = [:]
        for f in fills where f.product == .diesel || f.product == .gasolineRegular {
            guard let p = f.priceMinorPerL, p > 0 else { continue }
            if f.currency == request.currency { prices[f.product, default: []].append(p); continue }
            // Per 1,000 L, so the conversion's rounding to a minor unit is below 0.001 per litre.
            guard let c = try converter.convert(minor: Int64((p * 1000).rounded()), currency: f.currency, on: request.zone.day(of: f.at)) else { continue }
            prices[f.product, default: []].append(Double(c) / 1000)
        }
        return prices.mapValues { v in
            let s = v.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
    }
}
