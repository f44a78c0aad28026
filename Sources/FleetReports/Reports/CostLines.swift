import GRDB
import FleetCore

/// One cost in the period, from an expense, a fuel purchase or a maintenance record, converted
/// to the report currency. The cost report's every figure is a sum of these lines.
struct CostLine {
    var at: Int64
    var day: CivilDate
    var assetID: Int64?
    var category: String
    var source: String          // expense | fuel_card | fuel_receipt | fuel_manual | maintenance
    var sourceKey: String
    var vendor: String?
    var description: String?
    var amountMinor: Int64
    var currency: String
    var rate: Double?
    /// nil when no exchange rate was in force: kept out of every total, listed in data quality.
    var reportMinor: Int64?
    var volumeML: Double?
    var needsReview: Bool
    var sourceFileID: Int64

    static let categories = ["fuel", "maintenance", "repair", "tires", "parts", "tolls", "insurance", "lease", "registration", "other"]

    /// Fuel purchases are counted once: a receipt linked to the card transaction it duplicates
    /// (`linked_to`) is not a cost of its own, and a purchase whose total was not read is listed
    /// in data quality but not summed. Maintenance records whose service type starts with
    /// `repair` are repairs; the rest are maintenance.
    static func fetch(_ db: Database, _ request: ReportRequest, converter: CurrencyConverter) throws -> (lines: [CostLine], withoutTotal: Int) {
        let filter = request.assetFilter()
        let assetJoin = "LEFT JOIN asset a ON a.id = x.asset_id"
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let values: [(any DatabaseValueConvertible)?] = [request.start, request.end] + filter.arguments
        let args = StatementArguments(values)
        var lines: [CostLine] = []
        func add(_ row: Row, source: String, category: String) {
            let at: Int64 = row["at"], currency: String = row["currency"]
            let day = request.zone.day(of: at)
            let minor: Int64 = row["amount"]
            lines.append(CostLine(at: at, day: day, assetID: row["asset_id"], category: category, source: source, sourceKey: row["source_key"],
                                  vendor: row["vendor"], description: row["description"], amountMinor: minor, currency: currency,
                                  rate: converter.rate(currency, on: day), reportMinor: converter.convert(minor: minor, currency: currency, on: day),
                                  volumeML: row["volume_ml"], needsReview: row["needs_review"] ?? false, sourceFileID: row["source_file_id"]))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT x.at, x.asset_id, x.category, x.amount_minor AS amount, x.currency, x.vendor, x.description, x.source_key, x.source_file_id,
                   NULL AS volume_ml, 0 AS needs_review
            FROM expense x \(assetJoin) WHERE x.at >= ? AND x.at < ?\(restrict) ORDER BY x.at, x.source_key
            """, arguments: args) {
            add(row, source: "expense", category: row["category"])
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT x.at, x.asset_id, x.total_minor AS amount, x.currency, x.merchant AS vendor, x.fuel_grade AS description, x.source_key,
                   x.source_file_id, x.volume_ml, x.needs_review, x.origin
            FROM fuel_purchase x \(assetJoin) WHERE x.at >= ? AND x.at < ? AND x.linked_to IS NULL AND x.total_minor IS NOT NULL\(restrict)
            ORDER BY x.at, x.source_key
            """, arguments: args) {
            add(row, source: "fuel_" + (row["origin"] as String), category: "fuel")
        }
        let withoutTotal = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM fuel_purchase x \(assetJoin) WHERE x.at >= ? AND x.at < ? AND x.linked_to IS NULL AND x.total_minor IS NULL\(restrict)
            """, arguments: args) ?? 0
        for row in try Row.fetchAll(db, sql: """
            SELECT x.performed_at AS at, x.asset_id, x.cost_minor AS amount, COALESCE(x.currency, ?) AS currency, x.vendor,
                   x.service_type AS description, x.source_key, x.source_file_id, NULL AS volume_ml, 0 AS needs_review
            FROM maintenance_record x \(assetJoin) WHERE x.performed_at >= ? AND x.performed_at < ? AND x.cost_minor IS NOT NULL\(restrict)
            ORDER BY x.performed_at, x.source_key
            """, arguments: StatementArguments([converter.base]) + args) {
            let service: String = row["description"]
            add(row, source: "maintenance", category: service.hasPrefix("repair") ? "repair" : "maintenance")
        }
        lines.sort { ($0.at, $0.source, $0.sourceKey) < ($1.at, $1.source, $1.sourceKey) }
        return (lines, withoutTotal)
    }
}
