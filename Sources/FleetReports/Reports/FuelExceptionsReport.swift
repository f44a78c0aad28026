import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// The controller's fuel list: every card and receipt purchase of the period judged by the
/// per-transaction rules (`FuelExceptions`, docs/METRICS.md "Fuel exceptions"), each exception
/// with its rule and evidence, what could not be judged and why, and each rule's counts; and
/// per asset, fuel bought against fuel burned (`BoughtAgainstBurned`) with the purchases behind
/// each variance. The purchases stay in the cost report's totals: an exception is a question,
/// not a correction, until a person rejects it (`FuelExceptionDecision`); each exception shows
/// its id and its latest decision.
public struct FuelExceptionsReport: Report {
    public static let name = "fuel-exceptions"
    public static let title = "Fuel exceptions"
    public static let summary = "Per fuel purchase: misfuel, volume above tank capacity, refills within the window, unit price far from the median; per asset: fuel bought against fuel burned, and the fuel and cost of idling; what cannot be judged and why"
    public static let needs = [ReportDataNeed(.fuel, headlines: ["exceptions", "purchases_with_exceptions", "amount_at_stake", "assets_outside_band", "idle_cost"])]
    public init() {}

    typealias Finding = FuelExceptions.Finding

    public func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput {
        let base = try WarehouseSettings.load(db).currency
        let converter = try CurrencyConverter(db, base: base, target: request.currency)
        let cur = request.currency
        let judged = try FuelExceptions.compute(db, request)
        func amount(_ f: FuelExceptions.Fill) throws -> Int64? {
            try f.totalMinor.flatMap { try converter.convert(minor: $0, currency: f.currency, on: request.zone.day(of: f.at)) }
        }
        var amounts: [Int64: Int64?] = [:]
        for f in judged.fills where f.inPeriod { amounts[f.id] = try amount(f) }

        let purchaseColumns: [TableColumn<Finding>] = [
            .text("unit", "Unit") { $0.fill.unit ?? "Unassigned" }, .datetime("at", "Time") { $0.fill.at },
            .text("source", "Source") { $0.fill.origin }, .text("key", "Purchase", role: .note) { $0.fill.sourceKey },
            .text("merchant", "Merchant", role: .note) { $0.fill.merchant ?? "" },
            .text("product", "Product") { FuelExceptions.describe($0.fill.product) },
            .volume("volume", "Volume", request, total: .none) { $0.fill.volumeMl },
        ]
        let decisions = try FuelExceptionDecision.latest(db)
        var exceptions = TableBuilder(name: "exceptions", title: "Exceptions", columns: [.text("exception_id", "Exception id", role: .note) { $0.id }] + purchaseColumns + [
            .money("amount", "Amount", currency: cur, total: .none) { amounts[$0.fill.id] ?? nil },
            .text("rule", "Rule") { $0.rule.rawValue }, .text("evidence", "Evidence", role: .note) { $0.evidence },
            .text("decision", "Decision") { decisions[$0.id]?.state.rawValue ?? "open" },
            .text("decision_reason", "Decision reason", role: .note) { decisions[$0.id]?.reason },
            .text("decided_by", "Decided by", role: .note) { decisions[$0.id]?.by },
            TableColumn(ReportColumn("decided_at", "Decided at", .datetime), role: .note) { decisions[$0.id].map { .datetime($0.at) } ?? .null },
        ])
        for e in judged.exceptions { try exceptions.add(e) }
        var notJudged = TableBuilder(name: "not_judged", title: "Purchases a rule cannot judge", columns: purchaseColumns + [
            .text("rule", "Rule") { $0.rule.rawValue }, .text("reason", "Missing fact", role: .note) { $0.evidence },
        ])
        for n in judged.notJudged { try notJudged.add(n) }
        var rules = TableBuilder<FuelExceptions.Rule>(name: "rules", title: "Rules", columns: [
            .text("rule", "Rule", total: .label("All rules")) { $0.rawValue }, .text("title", "What it checks", role: .note) { $0.title },
            .text("threshold", "Threshold", role: .note) { $0.threshold },
            .integer("exceptions", "Exceptions", total: .sum) { r in judged.findings.filter { $0.rule == r && $0.status == .exception }.count },
            .integer("clear", "Clear", total: .sum) { r in judged.findings.filter { $0.rule == r && $0.status == .clear }.count },
            .integer("cannot_judge", "Cannot judge", total: .sum) { r in judged.findings.filter { $0.rule == r && $0.status == .cannotJudge }.count },
            .integer("not_applicable", "Does not apply", total: .sum) { r in judged.findings.filter { $0.rule == r && $0.status == .notApplicable }.count },
        ])
        for r in FuelExceptions.Rule.allCases { try rules.add(r) }

        let balance = try BoughtAgainstBurned.compute(db, request, fills: judged.fills)
        typealias Line = BoughtAgainstBurned.Line
        var balanceTable = TableBuilder<Line>(name: "bought_burned", title: "Bought against burned", columns: [
            .text("unit", "Unit", total: .label("All assets")) { $0.unit },
            .integer("purchases", "Purchases", total: .sum) { $0.purchases.count },
            .integer("dispenses", "Bulk dispenses", total: .sum) { $0.dispenses },
            .volume("dispensed", "Dispensed", request) { $0.dispensedMl },
            .volume("bought", "Bought", request) { $0.boughtMl }, .volume("burned", "Burned", request, total: .sumOfKnown) { $0.burnedMl },
            .percent("level_start", "Level at start") { $0.levelStart }, .percent("level_end", "Level at end") { $0.levelEnd },
            .volume("tank", "Tank", request, total: .none) { $0.tankMl }, .volume("level_change", "Level change", request, total: .none) { $0.levelChangeMl },
            .volume("variance", "Variance", request, total: .none) { $0.varianceMl }, .percent("variance_share", "Variance of burned") { $0.variancePercent },
            .volume("band", "Band ±", request, total: .none) { $0.toleranceMl },
            .text("status", "Status") { $0.status.rawValue }, .text("note", "Note", role: .note) { $0.note },
        ])
        for l in balance.lines { try balanceTable.add(l) }
        var behind = TableBuilder<(line: Line, fill: FuelExceptions.Fill)>(name: "variance_purchases", title: "Purchases behind a variance", columns: [
            .text("unit", "Unit") { $0.line.unit }, .text("status", "Status") { $0.line.status.rawValue },
            .datetime("at", "Time") { $0.fill.at }, .text("source", "Source") { $0.fill.origin },
            .text("key", "Purchase", role: .note) { $0.fill.sourceKey }, .text("merchant", "Merchant", role: .note) { $0.fill.merchant ?? "" },
            .text("product", "Product") { FuelExceptions.describe($0.fill.product) },
            .volume("volume", "Volume", request) { $0.fill.volumeMl },
            .money("amount", "Amount", currency: cur) { amounts[$0.fill.id] ?? nil },
        ])
        for l in balance.outside { for f in l.purchases { try behind.add((l, f)) } }

        let tanks = try TankReconciliation.compute(db, request)
        var tankTable = TableBuilder<TankReconciliation.Line>(name: "tank_reconciliation", title: "Tank reconciliation", columns: [
            .text("tank", "Tank", total: .label("All tanks")) { $0.tank },
            .integer("deliveries", "Deliveries", total: .sum) { $0.deliveries }, .volume("delivered", "Delivered", request) { $0.deliveredMl },
            .integer("dispenses", "Dispenses", total: .sum) { $0.dispenses }, .volume("dispensed", "Dispensed", request) { $0.dispensedMl },
            .volume("level_start", "Level at start", request, total: .none) { $0.levelStartMl },
            .volume("level_end", "Level at end", request, total: .none) { $0.levelEndMl },
            .volume("level_change", "Level change", request, total: .sumOfKnown) { $0.levelChangeMl },
            .volume("variance", "Variance", request, total: .sumOfKnown) { $0.varianceMl },
            .volume("band", "Band ±", request, total: .none) { $0.toleranceMl },
            .text("status", "Status") { $0.status.rawValue }, .text("note", "Note", role: .note) { $0.note },
        ])
        for l in tanks.lines { try tankTable.add(l) }

        let idle = try IdleCost.compute(db, request, fills: judged.fills, converter: converter)
        var idleTable = TableBuilder<IdleCost.Line>(name: "idle_cost", title: "Fuel burned idling", columns: [
            .text("unit", "Unit", total: .label("All assets")) { $0.unit }, .hours("idle_hours", "Idle hours") { $0.idleS },
            .text("method", "Method") { $0.method.rawValue },
            .volume("rate", "Rate per hour", request, total: .none) { $0.rateMlPerH },
            .volume("idle_fuel", "Idle fuel", request, total: .sumOfKnown) { $0.fuelMl },
            .decimal("price", "Median price", unit: cur + "/" + request.volumeUnit) { l in
                l.priceMinorPerL.map { $0 * (request.units == .metric ? 1 : Units.millilitresPerUSGallon / 1000) / pow10(Money.minorDigits(cur)) }
            },
            .money("idle_cost", "Idle cost", currency: cur, total: .sumOfKnown) { $0.costMinor },
            .text("note", "Note", role: .note) { $0.note },
        ])
        for l in idle.lines { try idleTable.add(l) }
        var idleTotal: Int64 = 0
        for l in idle.lines { if let c = l.costMinor { try idleTotal.add(c, "the idle cost in \(cur)") } }

        let with = judged.fillsWithExceptions
        var atStake: Int64 = 0
        var unconverted = 0
        for f in with {
            if let m = amounts[f.id] ?? nil { try atStake.add(m, "the fuel amount at stake in \(cur)") } else if f.totalMinor != nil { unconverted += 1 }
        }
        let inPeriod = judged.fills.filter(\.inPeriod)

        let sources = try ReportSource.fetch(db, union: [
            "SELECT DISTINCT source_file_id FROM fuel_purchase WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM asset WHERE source_file_id IS NOT NULL",
            "SELECT DISTINCT source_file_id FROM fx_rate WHERE day <= ?3",
            // Bought against burned and idle cost: the fuel-used, fuel-level and idle meters, and idling periods.
            "SELECT DISTINCT source_file_id FROM meter_reading WHERE meter IN ('fuel_used', 'fuel_level', 'idle_hours') AND at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM idle_period WHERE start_at >= ?1 AND start_at < ?2",
            // Bulk fuel: the dispenses, the deliveries and the dips of the tank reconciliation.
            "SELECT DISTINCT source_file_id FROM fuel_dispense WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM tank_delivery WHERE at >= ?1 AND at < ?2",
            "SELECT DISTINCT source_file_id FROM tank_dip WHERE at < ?2",
        ], arguments: [.instant(request.start - FuelExceptions.refillWindowMs), .instant(request.end), .text(request.period.to.description)])
        var quality = DataQuality()
        let unknownProduct = inPeriod.filter { $0.product == .unknown }
        quality.add("Purchases whose product is not named (misfuel and price not judged)", unknownProduct.count,
                    unknownProduct.isEmpty ? "none" : unknownProduct.prefix(10).map(\.sourceKey).joined(separator: ", ") + (unknownProduct.count > 10 ? ", …" : ""))
        let noAsset = inPeriod.filter { $0.assetID == nil }
        quality.add("Purchases with no asset (only the price rule judged)", noAsset.count,
                    noAsset.isEmpty ? "none" : noAsset.prefix(10).map(\.sourceKey).joined(separator: ", ") + (noAsset.count > 10 ? ", …" : ""))
        let units = { (pick: (FuelExceptions.Fill) -> Bool) -> [String] in
            Array(Set(inPeriod.filter { $0.assetID != nil && pick($0) }.map { $0.unit ?? "asset" })).sorted()
        }
        let noType = units { $0.fuelType == nil && $0.product.isMotorFuel }
        quality.add("Assets buying fuel with no fuel type in master data (misfuel not judged)", noType.count,
                    noType.isEmpty ? "none" : noType.prefix(20).joined(separator: ", ") + "; add fuel_type to the assets master")
        let noTank = units { $0.tankMl == nil && $0.isFill }
        quality.add("Assets buying fuel with no tank capacity in master data (capacity not judged)", noTank.count,
                    noTank.isEmpty ? "none" : noTank.prefix(20).joined(separator: ", ") + "; add tank_capacity_l or tank_capacity_gal to the assets master")
        let unbalanced = balance.lines.filter { $0.status == .cannotJudge }
        quality.add("Assets whose bought against burned cannot be judged (no fuel-used meter, or a purchase without a volume)", unbalanced.count,
                    unbalanced.isEmpty ? "none" : unbalanced.prefix(20).map { "\($0.unit): \($0.note)" }.joined(separator: "; "))
        quality.add("Exceptions whose amount has no exchange rate to \(cur) (not in the amount at stake)", unconverted,
                    unconverted == 0 ? "none" : "import an fx-rates file")
        try quality.addCommon(db, request, sources: sources)

        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: cur,
            parameters: [("assets", request.assets?.joined(separator: ",") ?? "all"), ("refill_window", "\(FuelExceptions.refillWindowMs / 3_600_000) h"),
                         ("capacity_tolerance", "\(Int(FuelExceptions.capacityTolerance * 100)) %"),
                         ("price_deviation", "\(Int(FuelExceptions.priceDeviation * 100)) %"), ("price_minimum_lines", "\(FuelExceptions.priceMinimumLines)"),
                         ("burned_tolerance", "\(Int(BoughtAgainstBurned.meterTolerance * 100)) % of burned"),
                         ("level_tolerance", "\(Int(BoughtAgainstBurned.levelTolerance * 100)) % of the tank at each end"),
                         ("base_currency", base)],
            methods: ["Every card, receipt and manual fuel purchase whose time falls in the period's local days is judged by each rule: exception, clear, cannot judge (a needed fact is missing), or does not apply (DEF, additives and non-fuel items are not judged as fuel in the tank).",
                      "A receipt linked to the card transaction it duplicates, or to an earlier image of the same receipt, is the same fill and is not judged again; its product text names the fill's product when the card line names none.",
                      "Products are read from the grade text, else from the NACS product codes 001–003 (docs/METRICS.md, \"Fuel products\"); fuel types: hybrid takes gasoline, flex gasoline or E85, bifuel any motor fuel.",
                      "The refill window looks back \(FuelExceptions.refillWindowMs / 3_600_000) h, into the days before the period too; the price median is per product and currency over the period's lines.",
                      "Amounts are converted to \(cur) with the rate in force on the purchase's day; the amount at stake counts each purchase with an exception once. The purchases stay in the cost report's totals unless a person rejects one of their exceptions.",
                      "An exception is open until a person accepts it (the purchase stands) or rejects it (the purchase leaves the cost report's totals and fuel figures, listed there with the reason); decisions are append-only with who and when, keyed by the purchase's natural key and the rule (the Exception id), and the latest one is shown.",
                      "Idle cost, per asset with idle hours: the fuel of the idling periods the telematics reported, else idle hours × the no-load idle rate of its class (gasoline vehicle 0.39, hybrid 0.16, diesel vehicle 0.64 US gal/h; U.S. DOE Fact #861), × the period's median price of its fuel (regular gasoline or diesel) in \(cur); machines without measured idle fuel are not judged.",
                      "Tank reconciliation, per bulk tank: variance = fuel delivered − fuel dispensed − (level at end − level at start), the levels from the tank's dip readings (the last at or before the start, the last before the end); outside \(Int(TankReconciliation.tolerance * 100)) % of the fuel delivered and dispensed it is over or under.",
                      "Bought against burned, per asset: variance = fuel bought (its fills of the period, and the bulk fuel dispensed into it from on-site tanks) − fuel burned (the daily rollup of its fuel-used meter) − (level at end − level at start) × tank capacity; the level at the start is the last fuel-level reading at or before it (else the first in the period), at the end the last reading in the period. Outside the band (\(Int(BoughtAgainstBurned.meterTolerance * 100)) % of burned, plus \(Int(BoughtAgainstBurned.levelTolerance * 100)) % of the tank at each end when level-corrected, else one tank) it is over or under, and its purchases are listed."],
            headlines: [.count("exceptions", Double(judged.exceptions.count)), .count("purchases_with_exceptions", Double(with.count)),
                        ReportHeadline("amount_at_stake", Double(atStake) / pow10(Money.minorDigits(cur)), .money),
                        .count("cannot_judge", Double(judged.notJudged.count)), .count("assets_outside_band", Double(balance.outside.count)),
                        ReportHeadline("idle_cost", Double(idleTotal) / pow10(Money.minorDigits(cur)), .money)],
            generatedAt: request.generatedAt, sources: sources)
        var output = ReportOutput(metadata: metadata, tables: [
            exceptions.table(note: "One row per purchase and rule that fired; a purchase with two exceptions is on two rows (the amount at stake counts it once). "
                             + "A person accepts or rejects one with `fleetkit review exception accept|reject EXCEPTION-ID --reason TEXT`; a rejected purchase is out of the cost report's totals."),
            notJudged.table(note: "Each purchase and rule that lacks a fact to judge by: what to add to judge it."),
            rules.table(note: "Each rule's threshold and how the period's purchases fared."),
            balanceTable.table(note: "Per asset: fuel bought against fuel burned, corrected by the tank level's change; over or under when the variance is outside the band."),
            behind.table(note: "The purchases of each asset whose bought against burned is over or under the band."),
            tankTable.table(note: "Per bulk tank: delivered − dispensed − level change (dip at the end less dip at the start); over or under when the variance is outside the band (\(Int(TankReconciliation.tolerance * 100)) % of the fuel delivered and dispensed)."),
            idleTable.table(note: "Per asset with idle hours: the fuel burned idling (measured, or idle hours × the class's no-load rate) at the period's median price of its fuel. Part of the fuel already counted, not a cost of its own."),
        ], dataQuality: quality.table)
        if unconverted > 0 {
            output.metadata.partial.append("\(unconverted) purchases with exceptions have no exchange rate to \(cur) and are left out of the amount at stake: import an fx-rates file")
        }
        return output
    }
}
