import FleetCore
import FleetWarehouse

/// One cost in the period, from an expense, a fuel purchase or a maintenance record, converted
/// to the report currency. The cost report's every figure is a sum of these lines.
struct CostLine {
    var at: Int64
    var day: CivilDate
    var assetID: Int64?
    var category: String
    var source: String          // expense | fuel_card | fuel_receipt | fuel_manual | fuel_bulk | maintenance
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
    /// A receipt's fuel purchase whose total nothing on the slip confirmed, not yet accepted or
    /// fixed with `fleetkit review`: kept out of every total (`reportMinor` nil), listed in data
    /// quality, and the report is partial (`pendingSQL`).
    var pendingReview: Bool
    /// A fuel purchase a person rejected at the review of one of its fuel exceptions
    /// (`FuelExceptionDecision`): the decision as shown in the detail row; kept out of every
    /// total (`reportMinor` nil) and every fuel figure, listed in data quality.
    var rejection: String?
    var sourceFileID: Int64

    static let categories = ["fuel", "maintenance", "repair", "tires", "parts", "tolls", "insurance", "lease", "registration", "other"]

    /// Bulk fuel dispensed into an asset is a fuel cost at its tank's weighted-average cost
    /// (`TankCosting`); a dispense the tank could not price is listed in data quality, not summed.
    /// Fuel purchases are counted once: a receipt linked to the card transaction it duplicates
    /// (`linked_to`) is not a cost of its own, and a purchase whose total was not read is listed
    /// in data quality but not summed; a purchase rejected at a fuel exception's review is a
    /// detail row with its decision and no report amount (`CountedCosts.rejectedSQL`). Maintenance records whose service type starts with
    /// `repair` are repairs; the rest are maintenance.
    ///
    /// One query in report order (time, source, key by bytes: SQLite's order, stated for both
    /// engines), walked as it comes (`WarehouseReader.forEach`): the cost report walks it once
    /// for its totals and again per format for the detail rows of a large month, so no more
    /// than one line is in memory at a time (`ReportRowStream`). `body` must not query `reader`.
    static func forEach(_ reader: any WarehouseReader, _ request: ReportRequest, converter: CurrencyConverter,
                        _ body: (CostLine) throws -> Void) throws {
        let pending = try pendingSQL(reader, "x")
        let rejected = try FuelExceptionDecision.rejectionSQL(reader, "x")
        let filter = request.assetFilter()
        let assetJoin = "LEFT JOIN asset a ON a.id = x.asset_id"
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let range: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        let arguments = range + range + [.text(converter.base)] + range + range
        let d = reader.dialect
        let sql = """
            SELECT * FROM (
              SELECT x.at AS at, x.asset_id AS asset_id, x.category AS category, 'expense' AS source, x.amount_minor AS amount,
                     x.currency AS currency, x.vendor AS vendor, x.description AS description, x.source_key AS source_key,
                     x.source_file_id AS source_file_id, NULL AS volume_ml, 0 AS needs_review, 0 AS pending, NULL AS rejected
              FROM expense x \(assetJoin) WHERE x.at >= ? AND x.at < ?\(restrict)
              UNION ALL
              SELECT x.at, x.asset_id, 'fuel', 'fuel_' || COALESCE(x.origin, ''), x.total_minor, x.currency, x.merchant, x.fuel_grade,
                     x.source_key, x.source_file_id, x.volume_ml, x.needs_review, CASE WHEN \(pending) THEN 1 ELSE 0 END, \(rejected)
              FROM fuel_purchase x \(assetJoin) WHERE x.at >= ? AND x.at < ? AND x.linked_to IS NULL AND x.total_minor IS NOT NULL\(restrict)
              UNION ALL
              SELECT x.performed_at, x.asset_id, CASE WHEN substr(x.service_type, 1, 6) = 'repair' THEN 'repair' ELSE 'maintenance' END,
                     'maintenance', x.cost_minor, COALESCE(x.currency, ?), x.vendor, x.service_type, x.source_key, x.source_file_id, NULL, 0, 0, NULL
              FROM maintenance_record x \(assetJoin) WHERE x.performed_at >= ? AND x.performed_at < ? AND x.cost_minor IS NOT NULL\(restrict)
              UNION ALL
              SELECT x.at, x.asset_id, 'fuel', 'fuel_bulk', x.cost_minor, x.cost_currency, 'tank ' || x.tank, x.product, x.source_key,
                     x.source_file_id, x.volume_ml, 0, 0, NULL
              FROM fuel_dispense x \(assetJoin) WHERE x.at >= ? AND x.at < ? AND x.cost_minor IS NOT NULL\(restrict)
            ) c ORDER BY c.at, \(d.ascending("c.source", text: true)), \(d.ascending("c.source_key", text: true))
            """
        try reader.forEach(sql, arguments) { row in
            let at: Int64 = try row[0], currency: String = try row[5]
            let day = request.zone.day(of: at)
            let minor: Int64 = try row[4]
            let unconfirmed: Bool = try row[12]
            let rejection = FuelExceptionDecision.rejectionText(try row[13])
            try body(CostLine(at: at, day: day, assetID: try row[1], category: try row[2], source: try row[3], sourceKey: try row[8],
                              vendor: try row[6], description: try row[7], amountMinor: minor, currency: currency,
                              rate: converter.rate(currency, on: day),
                              reportMinor: unconfirmed || rejection != nil ? nil : try converter.convert(minor: minor, currency: currency, on: day),
                              volumeML: try row[10], needsReview: (try row[11] as Bool?) ?? false, pendingReview: unconfirmed, rejection: rejection,
                              sourceFileID: try row[9]))
        }
    }

    /// The condition, on fuel purchase alias `x`, of a receipt amount waiting for review
    /// (`CountedCosts.pendingReviewSQL`: the closed months' figures count the same rows).
    static func pendingSQL(_ reader: any WarehouseReader, _ x: String) throws -> String {
        try CountedCosts.pendingReviewSQL(reader, x)
    }

    /// Bulk fuel dispensed in the period that no tank average priced, per state
    /// (`before_delivery`, `no_rate`): count and litres. Listed in data quality, never summed.
    static func unpricedDispenses(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> [(state: String, count: Int, litres: Double)] {
        guard try reader.tableExists("fuel_dispense") else { return [] }
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let values: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        return try reader.all("""
            SELECT x.cost_state, COUNT(*), SUM(x.volume_ml) / 1000.0 FROM fuel_dispense x LEFT JOIN asset a ON a.id = x.asset_id
            WHERE x.at >= ? AND x.at < ? AND x.cost_minor IS NULL\(restrict) GROUP BY x.cost_state ORDER BY \(reader.dialect.ascending("x.cost_state", text: true))
            """, values) { (try $0[0], try $0[1], try $0[2]) }
    }

    /// Fuel purchases whose total was not read: listed in data quality, never summed.
    static func withoutTotal(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> Int {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let values: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        return try reader.value("""
            SELECT COUNT(*) FROM fuel_purchase x LEFT JOIN asset a ON a.id = x.asset_id
            WHERE x.at >= ? AND x.at < ? AND x.linked_to IS NULL AND x.total_minor IS NULL\(restrict)
            """, values, as: Int.self) ?? 0
    }
}
