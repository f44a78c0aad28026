import GRDB
import FleetCore
import FleetWarehouse

/// Report totals equal their detail rows, and the detail rows are the warehouse's rows: for every
/// month with data, the cost, utilization and trips reports are run in memory (as `fleetkit
/// report` runs them, in the warehouse's currency and units) and
/// - cost: (bulk fuel dispenses with a tank cost among the cost rows) the `detail` rows sum to the fleet total to the minor unit, as do the `by_asset` rows
///   (and each category column), the group, cost-centre and month subtotals, and the headline
///   `total`; and `detail` has one row per cost row of the period in the warehouse;
/// - utilization: each asset's engine and idle hours and distance are its `asset_day` sums over
///   the period, every asset with daily rows has a row, and the fleet row is the sum of the rows;
/// - trips: the report lists every trip starting in the period, and its headline count and
///   distance are those of its rows.
///
/// Why: a total that silently leaves rows out (an asset with hours outside its service dates, a
/// cost row whose asset is gone) is a wrong figure nobody sees; comparing the report with the rows
/// it should sum catches it whatever the cause. Tolerances: money exact; hours, distances
/// 1e-9 relative + 1e-6 (float summation order); a headline rounded to 0.1 or 0.01 within half its
/// last digit.
public struct ReportTotalsCheck: WarehouseCheck {
    public let name = "report_totals"
    public let rule = "per month with data: cost detail rows sum to every cost total and subtotal to the minor unit and list every cost row; utilization rows are the asset_day sums per asset and add up to the fleet row; the trips report lists every trip of the period and its totals are its rows'"
    public init() {}

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        let zone = context.settings.zone
        let bounds = try Row.fetchOne(db, sql: """
            SELECT MIN(lo), MAX(hi) FROM (
                SELECT MIN(at) lo, MAX(at) hi FROM expense UNION ALL SELECT MIN(at), MAX(at) FROM fuel_purchase
                UNION ALL SELECT MIN(performed_at), MAX(performed_at) FROM maintenance_record UNION ALL SELECT MIN(start_at), MAX(start_at) FROM trip
                UNION ALL SELECT MIN(at), MAX(at) FROM fuel_dispense)
            """)
        var first: CivilDate? = (bounds?[0] as Int64?).map { zone.day(of: $0) }
        var last: CivilDate? = (bounds?[1] as Int64?).map { zone.day(of: $0) }
        if let days = try Row.fetchOne(db, sql: "SELECT MIN(day), MAX(day) FROM asset_day"),
           let lo = (days[0] as String?).flatMap({ CivilDate($0) }), let hi = (days[1] as String?).flatMap({ CivilDate($0) }) {
            first = min(first ?? lo, lo)
            last = max(last ?? hi, hi)
        }
        guard let first, let last else { return 0 }
        var examined = 0
        var month = CivilDate(year: first.year, month: first.month, day: 1)!
        while month <= last {
            let period = ReportPeriod.month(month.year, month.month)
            let request = ReportRequest(period: period, zone: zone, units: context.units, currency: context.currency, generatedAt: 0,
                                        asOf: period.to.adding(days: 1))
            try cost(db, request, &findings)
            try utilization(db, request, &findings)
            try trips(db, request, &findings)
            examined += 3
            month = month.adding(months: 1)
        }
        return examined
    }

    static func minor(_ v: ReportValue?) -> Int64? {
        if case let .money(m, _)? = v { return m }
        return nil
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-6 }

    private func cost(_ db: Database, _ request: ReportRequest, _ findings: inout FindingList) throws {
        let out = try CostReport().run(db, request)
        let label = request.period.label
        let fix = "a cost total does not add up from its rows: report it with the warehouse; until then use the detail rows"
        func table(_ name: String) -> ReportTable? { out.tables.first { $0.name == name } }
        guard let detail = table("detail"), let at = detail.columns.firstIndex(where: { $0.name == "amount_report" }) else {
            findings.add(day: label, "the cost report has no detail table with an amount column", fix: fix)
            return
        }
        var rows = 0
        var sum: Int64 = 0
        try detail.forEachRow { row in
            rows += 1
            try sum.add(Self.minor(row[at]) ?? 0, "the cost detail rows")
        }
        let expected = try Int.fetchOne(db, sql: """
            SELECT (SELECT COUNT(*) FROM expense WHERE at >= ?1 AND at < ?2)
                 + (SELECT COUNT(*) FROM fuel_purchase WHERE at >= ?1 AND at < ?2 AND linked_to IS NULL AND total_minor IS NOT NULL)
                 + (SELECT COUNT(*) FROM maintenance_record WHERE performed_at >= ?1 AND performed_at < ?2 AND cost_minor IS NOT NULL)
                 + (SELECT COUNT(*) FROM fuel_dispense WHERE at >= ?1 AND at < ?2 AND cost_minor IS NOT NULL)
            """, arguments: [request.start, request.end]) ?? 0
        if rows != expected {
            findings.add(day: label, "the cost report's detail lists \(rows) rows, but the warehouse holds \(expected) cost rows in the period", fix: fix)
        }
        let money = { (m: Int64) in Money(minor: m, currency: request.currency).description }
        for name in ["by_asset", "by_group", "by_cost_center", "by_month"] {
            guard let t = table(name) else { continue }
            let totalColumns = t.columns.indices.filter { t.columns[$0].type == .money && (t.columns[$0].name == "total" || t.columns[$0].name == "amount"
                || CostLine.categories.contains(t.columns[$0].name)) }
            for c in totalColumns {
                var rowsSum: Int64 = 0
                try t.forEachRow { try rowsSum.add(Self.minor($0[c]) ?? 0, "cost \(name) rows") }
                let total = Self.minor(t.totals?[c])
                let column = t.columns[c].name
                if total != rowsSum {
                    findings.add(day: label, "cost \(name).\(column): the rows sum to \(money(rowsSum)), the totals row says \(total.map(money) ?? "nothing")", fix: fix)
                }
                if column == "total" || column == "amount", rowsSum != sum {
                    findings.add(day: label, "cost \(name).\(column) sums to \(money(rowsSum)), the detail rows to \(money(sum))", fix: fix)
                }
            }
        }
        let scale = pow10(Money.minorDigits(request.currency))
        let headline = out.metadata.totals.first { $0.0 == "total" }?.1 ?? 0
        if abs(headline - Double(sum) / scale) > 0.5 / scale {
            findings.add(day: label, "the cost report's headline total is \(headline), the detail rows sum to \(money(sum))", fix: fix)
        }
    }

    private func utilization(_ db: Database, _ request: ReportRequest, _ findings: inout FindingList) throws {
        let out = try UtilizationReport().run(db, request)
        let label = request.period.label
        guard let t = out.tables.first(where: { $0.name == "by_asset" }) else {
            findings.add(day: label, "the utilization report has no by_asset table", fix: "report it with the warehouse")
            return
        }
        func column(_ name: String) -> Int { t.columns.firstIndex { $0.name == name }! }
        let unit = column("unit"), engine = column("engine_hours"), idle = column("idle_hours"), distance = column("distance")
        var reported: [String: [ReportValue]] = [:]
        var sums = [0.0, 0.0, 0.0]
        try t.forEachRow { row in
            if case let .text(u) = row[unit] { reported[u] = row }
            for (i, c) in [engine, idle, distance].enumerated() { sums[i] += row[c].number ?? 0 }
        }
        for (i, c) in [engine, idle, distance].enumerated() {
            let total = t.totals?[c].number ?? 0
            if !Self.close(total, sums[i]) {
                findings.add(day: label, "utilization fleet \(t.columns[c].name) is \(total), its rows sum to \(sums[i])",
                             fix: "report it with the warehouse; until then use the rows")
            }
        }
        let daily = try Row.fetchAll(db, sql: """
            SELECT COALESCE(a.unit_number, a.vin, a.pin, a.name, 'asset #' || a.id), SUM(COALESCE(d.engine_s, 0)), SUM(COALESCE(d.idle_s, 0)),
                   SUM(COALESCE(d.distance_m, 0)), a.in_service_date, a.retired_date
            FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE d.day >= ? AND d.day <= ? GROUP BY a.id ORDER BY 1
            """, arguments: [request.period.from.description, request.period.to.description])
        for r in daily {
            let u: String = r[0]
            let expected = [(r[1] as Double) / 3600, (r[2] as Double) / 3600, request.distance(r[3])]
            guard let row = reported[u] else {
                guard expected.contains(where: { $0 > 0 }) else { continue }
                findings.add(asset: u, day: label,
                             "\(u) has \(expected[0]) engine hours and \(expected[2]) \(request.distanceUnit) in asset_day this month, but no row in the utilization report (in service \((r[4] as String?) ?? "always"), retired \((r[5] as String?) ?? "never")): its use is left out of every fleet figure",
                             fix: "correct the asset's in_service_date or retired_date in the master data (its telematics say it worked), and re-import it")
                continue
            }
            for (i, c) in [engine, idle, distance].enumerated() where !Self.close(row[c].number ?? 0, expected[i]) {
                findings.add(asset: u, day: label, "utilization \(t.columns[c].name) of \(u) is \(row[c].number ?? 0), its asset_day rows sum to \(expected[i])",
                             fix: "report it with the warehouse")
            }
        }
    }

    private func trips(_ db: Database, _ request: ReportRequest, _ findings: inout FindingList) throws {
        let out = try TripsReport().run(db, request)
        let label = request.period.label
        guard let t = out.tables.first(where: { $0.name == "trips" }), let d = t.columns.firstIndex(where: { $0.name == "distance" }) else {
            findings.add(day: label, "the trips report has no trips table", fix: "report it with the warehouse")
            return
        }
        var rows = 0, distance = 0.0
        try t.forEachRow { row in
            rows += 1
            distance += row[d].number ?? 0
        }
        let stored = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(distance_m), 0) FROM trip WHERE start_at >= ? AND start_at < ?",
                                      arguments: [request.start, request.end])
        let count: Int = stored?[0] ?? 0, metres: Double = stored?[1] ?? 0
        if rows != count || !Self.close(distance, request.distance(metres)) {
            findings.add(day: label, "the trips report lists \(rows) trips over \(distance) \(request.distanceUnit), the warehouse holds \(count) trips over \(request.distance(metres)) \(request.distanceUnit) starting in the period",
                         fix: "trips whose asset is missing drop out of the report: see asset_identity; else report it with the warehouse")
        }
        let headline = Dictionary(out.metadata.totals, uniquingKeysWith: { a, _ in a })
        if headline["trips"] != Double(rows) || abs((headline["distance"] ?? 0) - distance) > 0.05 + 1e-9 * distance {
            findings.add(day: label, "the trips report's headline (\(Int(headline["trips"] ?? 0)) trips, \(headline["distance"] ?? 0) \(request.distanceUnit)) is not its rows' (\(rows) trips, \(distance))",
                         fix: "report it with the warehouse")
        }
    }
}
