import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// The fuel purchases of a period judged by the per-transaction rules of docs/METRICS.md
/// ("Fuel exceptions"): each purchase against each rule is an exception (with its evidence),
/// clear, or cannot be judged (with the missing fact), never silently skipped. The
/// `fuel-exceptions` report lists them; the cost report counts them and the amount at stake.
///
/// A purchase is one fill: a receipt linked to the card transaction it duplicates, or to an
/// earlier image of the same receipt (`FuelPurchaseLinker`), is not a fill of its own. Its
/// product text still counts for the fill when the card line names none.
struct FuelExceptions {
    enum Rule: String, CaseIterable {
        case misfuel
        case overCapacity = "over_capacity"
        case refillWindow = "refill_window"
        case priceOutlier = "price_outlier"

        var title: String {
            switch self {
            case .misfuel: return "Product against the asset's fuel type"
            case .overCapacity: return "Volume above the tank's capacity"
            case .refillWindow: return "Another fill within the refill window"
            case .priceOutlier: return "Unit price far from the period's median"
            }
        }

        var threshold: String {
            switch self {
            case .misfuel: return "a motor fuel the fuel type does not take (hybrid: gasoline; flex: gasoline or E85; bifuel: any)"
            case .overCapacity: return "volume > capacity × \(1 + FuelExceptions.capacityTolerance)"
            case .refillWindow: return "a motor fuel fill within \(FuelExceptions.refillWindowMs / 3_600_000) h after the asset's previous one"
            case .priceOutlier: return "|price − median| > \(Int(FuelExceptions.priceDeviation * 100)) % of the median of the product's lines in the currency (at least \(FuelExceptions.priceMinimumLines) lines)"
            }
        }
    }

    enum Status: String { case exception, clear, cannotJudge = "cannot_judge", notApplicable = "not_applicable" }

    /// One purchase as judged.
    struct Fill {
        var id: Int64
        var sourceKey: String
        var origin: String
        var assetID: Int64?
        var unit: String?
        var at: Int64
        var merchant: String?
        var merchantState: String?
        var volumeMl: Double?
        var priceMinorPerL: Double?
        var totalMinor: Int64?
        var currency: String
        var productText: String?
        var product: FuelProduct
        var fuelType: String?
        var tankMl: Double?
        /// The receipts linked to it (the same fill), by source key.
        var linked: [String]
        /// False for the fills before the period read only as the previous fill of the window rule.
        var inPeriod: Bool
        /// Counted as a fill by the refill window: a motor fuel, or a volume with no product named.
        var isFill: Bool { product.isMotorFuel || (product == .unknown && (volumeMl ?? 0) > 0) }
    }

    struct Finding {
        var fill: Fill
        var rule: Rule
        var status: Status
        var evidence: String
        /// The exception id a person's decision names (`FuelExceptionDecision`): the purchase's
        /// natural key and the rule, never a row id.
        var id: String { FuelExceptionDecision.id(purchase: fill.sourceKey, rule: rule) }
    }

    /// A fill this close after the asset's previous fill is a second fill: a tank drivers fill
    /// at 70–90 % used is not empty again within hours, however far the vehicle drives.
    static let refillWindowMs: Int64 = 6 * 3_600_000
    /// Pumps meter to the litre; a tank's nominal capacity leaves a few percent in the filler neck.
    static let capacityTolerance = 0.05
    static let priceDeviation = 0.25
    /// Fewer lines of a product than this make no median worth judging a price against.
    static let priceMinimumLines = 5

    var fills: [Fill] = []
    var findings: [Finding] = []

    var exceptions: [Finding] { findings.filter { $0.status == .exception } }
    var notJudged: [Finding] { findings.filter { $0.status == .cannotJudge } }
    /// The purchases with at least one exception, each once, in time order.
    var fillsWithExceptions: [Fill] {
        var seen = Set<Int64>()
        return exceptions.map(\.fill).filter { seen.insert($0.id).inserted }
    }

    static func compute(_ db: Database, _ request: ReportRequest) throws -> FuelExceptions { try compute(SQLiteReader(db), request) }

    /// The fills in time order, ties by key (by bytes on both engines); a fill's linked receipts
    /// joined in key order.
    static func compute(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> FuelExceptions {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let d = reader.dialect
        var result = FuelExceptions()
        try reader.forEach("""
            SELECT p.id, p.source_key, p.origin, p.asset_id, COALESCE(a.unit_number, a.vin, a.pin, a.name) AS unit, p.at, p.merchant,
                   p.merchant_state, p.volume_ml, p.unit_price_minor_per_l, p.total_minor, p.currency, p.fuel_grade, p.product_code,
                   a.fuel_type, a.tank_capacity_ml,
                   (SELECT \(d.joinedText("r.source_key", separator: "', '", order: "r.source_key")) FROM (SELECT source_key FROM fuel_purchase WHERE linked_to = p.id ORDER BY \(d.ascending("source_key", text: true))) r) AS linked,
                   (SELECT r.fuel_grade FROM fuel_purchase r WHERE r.linked_to = p.id AND r.fuel_grade IS NOT NULL ORDER BY \(d.ascending("r.source_key", text: true)) LIMIT 1) AS linked_grade
            FROM fuel_purchase p LEFT JOIN asset a ON a.id = p.asset_id
            WHERE p.linked_to IS NULL AND p.at >= ? AND p.at < ?\(restrict)
            ORDER BY p.at, \(d.ascending("p.source_key", text: true))
            """, [.instant(request.start - refillWindowMs), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)) { r in
            let grade: String? = try r[12], code: String? = try r[13], linkedGrade: String? = try r[17]
            var product = FuelProduct.classify(text: grade, code: code)
            var text = grade ?? code
            if product == .unknown, let linkedGrade {
                product = FuelProduct.classify(text: linkedGrade)
                text = linkedGrade + " (linked receipt)"
            }
            let at: Int64 = try r[5]
            result.fills.append(Fill(id: try r[0], sourceKey: try r[1], origin: try r[2], assetID: try r[3], unit: try r[4], at: at,
                                     merchant: try r[6], merchantState: try r[7], volumeMl: try r[8],
                                     priceMinorPerL: try r[9], totalMinor: try r[10], currency: try r[11],
                                     productText: text, product: product, fuelType: try r[14], tankMl: try r[15],
                                     linked: (try r[16] as String?)?.components(separatedBy: ", ") ?? [], inPeriod: at >= request.start))
        }
        let medians = Self.medians(result.fills.filter(\.inPeriod))
        var previous: [Int64: Fill] = [:]
        for f in result.fills {
            defer { if let a = f.assetID, f.isFill { previous[a] = f } }
            guard f.inPeriod else { continue }
            result.findings.append(Finding(fill: f, rule: .misfuel, judgement: misfuel(f)))
            result.findings.append(Finding(fill: f, rule: .overCapacity, judgement: overCapacity(f, request)))
            result.findings.append(Finding(fill: f, rule: .refillWindow, judgement: refill(f, after: f.assetID.flatMap { previous[$0] }, request)))
            result.findings.append(Finding(fill: f, rule: .priceOutlier, judgement: price(f, medians: medians, request)))
        }
        return result
    }

    // MARK: - Rules

    typealias Judgement = (status: Status, evidence: String)

    static func misfuel(_ f: Fill) -> Judgement {
        guard f.product != .unknown else { return (.cannotJudge, "the line names no product (no grade text, no known product code)") }
        guard f.product.isMotorFuel else { return (.notApplicable, "\(describe(f.product)) does not go into the fuel tank") }
        guard f.assetID != nil else { return (.cannotJudge, "the purchase has no asset") }
        guard let type = f.fuelType else { return (.cannotJudge, "\(f.unit ?? "the asset") has no fuel type in master data") }
        guard let accepted = FuelProduct.accepted(byFuelType: type) else { return (.cannotJudge, "fuel type '\(type)' is not one FleetKit knows") }
        if accepted.contains(f.product) { return (.clear, "") }
        return (.exception, "\(f.productText ?? describe(f.product)) (\(describe(f.product))) bought for \(f.unit ?? "the asset"), whose fuel type is \(type)"
            + (accepted.isEmpty ? " (takes no liquid or gas fuel)" : " (takes \(Set(accepted.map(describe)).sorted().joined(separator: ", ")))"))
    }

    static func overCapacity(_ f: Fill, _ request: ReportRequest) -> Judgement {
        guard f.product.isMotorFuel || f.product == .unknown else { return (.notApplicable, "\(describe(f.product)) does not go into the fuel tank") }
        guard let volume = f.volumeMl else { return (.cannotJudge, "the purchase has no volume") }
        guard f.assetID != nil else { return (.cannotJudge, "the purchase has no asset") }
        guard let tank = f.tankMl else { return (.cannotJudge, "\(f.unit ?? "the asset") has no tank capacity in master data") }
        guard volume > tank * (1 + capacityTolerance) else { return (.clear, "") }
        return (.exception, "\(volumeText(volume, request)) into a \(volumeText(tank, request)) tank (\(Int(((volume / tank - 1) * 100).rounded())) % over)")
    }

    static func refill(_ f: Fill, after prior: Fill?, _ request: ReportRequest) -> Judgement {
        guard f.isFill else { return (.notApplicable, "\(describe(f.product)) is not a fill of the fuel tank") }
        guard f.assetID != nil else { return (.cannotJudge, "the purchase has no asset") }
        guard let prior, f.at - prior.at <= refillWindowMs else { return (.clear, "") }
        let gap = f.at - prior.at
        // Minutes under an hour: "0.0 h" would hide a fill 2 minutes after the last.
        let gapText = gap < 3_600_000 ? "\(gap / 60_000) min" : String(format: "%.1f h", Double(gap) / 3_600_000)
        var text = "\(gapText) after \(prior.sourceKey) (\(prior.origin), \(prior.productText ?? describe(prior.product))"
            + (prior.volumeMl.map { ", \(volumeText($0, request))" } ?? "") + ")"
        if let a = prior.volumeMl, let b = f.volumeMl {
            text += "; together \(volumeText(a + b, request))" + (f.tankMl.map { " against a \(volumeText($0, request)) tank" } ?? "")
        }
        return (.exception, text)
    }

    static func price(_ f: Fill, medians: [String: (median: Double, lines: Int)], _ request: ReportRequest) -> Judgement {
        guard f.product.isMotorFuel || f.product == .def else { return f.product == .unknown
            ? (.cannotJudge, "the line names no product to compare its price with") : (.notApplicable, "\(describe(f.product)) has no comparable unit price") }
        guard let p = f.priceMinorPerL, p > 0 else { return (.cannotJudge, "the purchase has no unit price") }
        let key = f.product.rawValue + " " + f.currency
        guard let m = medians[key], m.lines >= priceMinimumLines, m.median > 0 else {
            return (.cannotJudge, "only \(medians[key]?.lines ?? 0) priced \(describe(f.product)) lines in \(f.currency) in the period (\(priceMinimumLines) needed for a median)")
        }
        let off = (p - m.median) / m.median
        guard abs(off) > priceDeviation else { return (.clear, "") }
        return (.exception, "\(priceText(p, f.currency, request)) against the period's median \(priceText(m.median, f.currency, request)) for \(describe(f.product)) "
            + "over \(m.lines) lines (\(off > 0 ? "+" : "")\(Int((off * 100).rounded())) %)")
    }

    /// The median unit price per product and currency (`gasoline_regular USD`), over the lines
    /// with a price.
    static func medians(_ fills: [Fill]) -> [String: (median: Double, lines: Int)] {
        var prices: [String: [Double]] = [:]
        for f in fills {
            if let p = f.priceMinorPerL, p > 0, f.product != .unknown { prices[f.product.rawValue + " " + f.currency, default: []].append(p) }
        }
        return prices.mapValues { values in
            let s = values.sorted()
            let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
            return (median, s.count)
        }
    }

    // MARK: - Text

    static func describe(_ p: FuelProduct) -> String {
        switch p {
        case .gasolineRegular: return "regular gasoline"
        case .gasolineMidgrade: return "midgrade gasoline"
        case .gasolinePremium: return "premium gasoline"
        case .gasoline: return "gasoline"
        case .e85: return "E85"
        case .diesel: return "diesel"
        case .def: return "DEF"
        case .additive: return "an additive"
        case .cng: return "CNG"
        case .lpg: return "LPG"
        case .nonFuel: return "a non-fuel item"
        case .unknown: return "an unnamed product"
        }
    }

    static func volumeText(_ ml: Double, _ request: ReportRequest) -> String {
        String(format: "%.1f ", request.volume(ml)) + request.volumeUnit
    }

    /// A price per litre in minor units, shown per the request's volume unit.
    static func priceText(_ minorPerL: Double, _ currency: String, _ request: ReportRequest) -> String {
        let perUnit = minorPerL * (request.units == .metric ? 1 : Units.millilitresPerUSGallon / 1000) / pow10(Money.minorDigits(currency))
        return String(format: "%.3f ", perUnit) + currency + "/" + request.volumeUnit
    }
}

extension FuelExceptions.Finding {
    init(fill: FuelExceptions.Fill, rule: FuelExceptions.Rule, judgement: FuelExceptions.Judgement) {
        self.init(fill: fill, rule: rule, status: judgement.status, evidence: judgement.evidence)
    }
}

extension FuelExceptions {
    /// The count of purchases with an exception and their amount in the report currency, for
    /// the cost report's data quality: "none", or the count by rule and the amount at stake.
    /// Only open exceptions count: one a person accepted is settled, and a rejected purchase is
    /// out of the totals and listed on its own row.
    func summary(converter: CurrencyConverter, _ request: ReportRequest, decisions: [String: FuelExceptionDecision]) throws -> (count: Int, detail: String) {
        let exceptions = exceptions.filter { decisions[$0.id] == nil }
        var seen = Set<Int64>()
        let with = exceptions.map(\.fill).filter { seen.insert($0.id).inserted }
        let decided = self.exceptions.count - exceptions.count
        let settled = decided == 0 ? "" : "; \(decided) decided at review (see fuel-exceptions)"
        guard !with.isEmpty else { return (0, decided == 0 ? "none" : "none open" + settled) }
        var minor: Int64 = 0
        var unconverted: [String: Int64] = [:]
        for f in with {
            guard let t = f.totalMinor else { continue }
            if let m = try converter.convert(minor: t, currency: f.currency, on: request.zone.day(of: f.at)) {
                try minor.add(m, "the fuel amount at stake in \(request.currency)")
            } else {
                try unconverted[f.currency, default: 0].add(t, "the fuel amount at stake in \(f.currency)")
            }
        }
        let byRule = Rule.allCases.compactMap { r -> String? in
            let n = exceptions.filter { $0.rule == r }.count
            return n == 0 ? nil : "\(r.rawValue) \(n)"
        }
        let atStake = ([Money(minor: minor, currency: request.currency).description]
            + unconverted.keys.sorted().map { "\(Money(minor: unconverted[$0]!, currency: $0)) without a rate" }).joined(separator: " + ")
        return (with.count, "\(atStake) at stake (\(byRule.joined(separator: ", "))); counted in the totals, listed in the fuel-exceptions report" + settled)
    }
}
