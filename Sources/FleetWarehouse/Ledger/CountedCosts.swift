import GRDB
import FleetCore

/// The costs of a span of time as the cost report counts them, converted into one currency:
/// what finance signs. A closed month keeps these figures (`PeriodFigures`), so a file that
/// changes them, an fx-rates correction included, is a restatement.
///
/// The rows counted are the cost report's (docs/METRICS.md, "Cost"): expenses; fuel purchases
/// not linked to the card transaction they duplicate, with a total, not a receipt amount
/// waiting for review, and not rejected at a fuel exception's review (`rejectedSQL`); bulk
/// fuel dispensed, at its tank's weighted-average cost (`TankCosting`; a dispense the tank
/// cannot price is not counted); maintenance records with a cost (in the warehouse currency
/// when they name none), `repair…` service types as repairs. Each converts with `CurrencyConverter` on
/// its local day and is rounded row by row; a row with no rate in force is not counted and is
/// listed per currency instead.
public struct CountedCosts: Sendable, Equatable {
    /// Converted minor units per category (`fuel`, `maintenance`, `repair` and the expense
    /// categories).
    public var byCategory: [String: Int64] = [:]
    public var total: Int64 = 0
    /// Rows with no rate in force, per currency: count and amount in that currency.
    public var withoutRate: [String: (rows: Int, minor: Int64)] = [:]

    public static func == (a: Self, b: Self) -> Bool {
        a.byCategory == b.byCategory && a.total == b.total
            && a.withoutRate.mapValues { [Int64($0.rows), $0.minor] } == b.withoutRate.mapValues { [Int64($0.rows), $0.minor] }
    }

    /// The costs with `at` in `from..<to` (Unix seconds), their days in `zone`, converted with
    /// `converter` (whose `base` prices maintenance records without a currency).
    public static func read(_ db: Database, from: Int64, to: Int64, zone: FleetZone, converter: CurrencyConverter) throws -> CountedCosts {
        let pending = try pendingReviewSQL(db, "x"), rejected = try rejectedSQL(db, "x")
        let sql = """
            SELECT x.at, x.category, x.amount_minor, x.currency FROM expense x WHERE x.at >= ?1 AND x.at < ?2
            UNION ALL
            SELECT x.at, 'fuel', x.total_minor, x.currency FROM fuel_purchase x
            WHERE x.at >= ?1 AND x.at < ?2 AND x.linked_to IS NULL AND x.total_minor IS NOT NULL AND NOT \(pending) AND NOT \(rejected)
            UNION ALL
            SELECT x.performed_at, CASE WHEN substr(x.service_type, 1, 6) = 'repair' THEN 'repair' ELSE 'maintenance' END,
                   x.cost_minor, COALESCE(x.currency, ?3) FROM maintenance_record x
            WHERE x.performed_at >= ?1 AND x.performed_at < ?2 AND x.cost_minor IS NOT NULL
            UNION ALL
            SELECT x.at, 'fuel', x.cost_minor, x.cost_currency FROM fuel_dispense x
            WHERE x.at >= ?1 AND x.at < ?2 AND x.cost_minor IS NOT NULL
            """
        var out = CountedCosts()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [from, to, converter.base])
        while let row = try rows.next() {
            let at: Int64 = row[0], category: String = row[1], minor: Int64 = row[2], currency: String = row[3]
            guard let converted = try converter.convert(minor: minor, currency: currency, on: zone.day(of: at)) else {
                out.withoutRate[currency, default: (0, 0)].rows += 1
                try out.withoutRate[currency, default: (0, 0)].minor.add(minor, "the \(currency) amounts without an exchange rate")
                continue
            }
            let what = "the cost total in \(converter.target)"
            try out.byCategory[category, default: 0].add(converted, what)
            try out.total.add(converted, what)
        }
        return out
    }

    /// The condition, on fuel purchase alias `x`, of a receipt amount waiting for review: a
    /// receipt's fuel purchase flagged `needs_review` whose stored total field is below the
    /// review threshold (no second source on the slip confirmed it, and no one accepted or fixed
    /// it), or has no stored fields at all. A value no second source confirms goes to review,
    /// never straight into costs; OCR turns `$50.00` into `450.00`. A receipt whose total was
    /// confirmed but whose volume is doubtful is counted (the money is right). A warehouse not
    /// yet migrated to v9-receipt-review keeps no fields: every flagged receipt is pending.
    public static func pendingReviewSQL(_ db: Database, _ x: String) throws -> String {
        try pendingReviewSQL(SQLiteReader(db), x)
    }

    /// The same condition, written once for both engines.
    public static func pendingReviewSQL(_ reader: any WarehouseReader, _ x: String) throws -> String {
        let flagged = "(\(x).origin = 'receipt' AND \(x).needs_review = 1"
        guard try reader.tableExists("receipt_field") else { return flagged + ")" }
        return flagged + " AND NOT EXISTS (SELECT 1 FROM receipt_field rf WHERE rf.source_file_id = \(x).source_file_id"
            + " AND rf.field = 'total' AND rf.confidence >= \(reviewThreshold)))"
    }

    /// The condition, on fuel purchase alias `x`, of a purchase a person rejected at the review
    /// of one of its fuel exceptions (`fleetkit review exception reject`): the latest decision on
    /// some (purchase, rule) of its natural key is `rejected`. A later `accept` of that exception
    /// puts it back. Judged by the decision alone, not by whether the rule still fires: what a
    /// person signed off stays signed off when master data changes, until a person decides again.
    /// A warehouse not yet migrated to v17-fuel-exception-decisions has no decisions: `0`.
    public static func rejectedSQL(_ db: Database, _ x: String) throws -> String {
        guard try db.tableExists("fuel_exception_decision") else { return "0" }
        return "EXISTS (SELECT 1 FROM fuel_exception_decision d WHERE d.purchase = \(x).source_key AND d.decision = 'rejected'"
            + " AND NOT EXISTS (SELECT 1 FROM fuel_exception_decision e WHERE e.purchase = d.purchase AND e.rule = d.rule AND e.id > d.id))"
    }

    /// `ReceiptFields.reviewThreshold` of FleetOCR, which the warehouse does not link: a stored
    /// field below it is doubtful.
    public static let reviewThreshold = 0.6
}
