import FleetCore
import FleetWarehouse

/// Receipts the import kept for review and did not load (an expense whose total or date is
/// doubtful, a receipt without a date): costs the report's totals cannot include, so the cost
/// report lists them in data quality instead of leaving them out in silence. One whose date on
/// the slip falls in the period makes the report partial, like a cost without an exchange rate;
/// one without a date cannot be placed in any period and is listed in every one.
struct ReceiptsUnderReview {
    var dated: [String] = []
    var undated: [String] = []
    /// Counted receipts whose currency was not printed: their amounts are in the fleet's
    /// currency by assumption until a person accepts or fixes it (`fleetkit review`).
    var assumedCurrency: [String] = []
    var count: Int { dated.count + undated.count }

    init(_ reader: any WarehouseReader, _ request: ReportRequest) throws {
        // A warehouse not yet migrated to v9-receipt-review (read-only since an upgrade) keeps no
        // review state: its receipts under review are among the rejects data quality counts.
        guard try reader.tableExists("receipt_read") else { return }
        let rows = try reader.all("""
            SELECT r.source_file_id, COALESCE(s.path, r.image_path) AS image_path, r.asset_unit, d.value AS day, t.value AS total, c.value AS currency
            FROM receipt_read r LEFT JOIN source_file s ON s.id = r.source_file_id
            LEFT JOIN receipt_field d ON d.source_file_id = r.source_file_id AND d.field = 'date'
            LEFT JOIN receipt_field t ON t.source_file_id = r.source_file_id AND t.field = 'total'
            LEFT JOIN receipt_field c ON c.source_file_id = r.source_file_id AND c.field = 'currency'
            WHERE r.needs_review = 1
              AND NOT EXISTS (SELECT 1 FROM expense e WHERE e.source_key = 'receipt:' || r.content_sha256)
              AND NOT EXISTS (SELECT 1 FROM fuel_purchase f WHERE f.source_key = 'receipt:' || r.content_sha256)
              AND (d.value IS NULL OR d.value BETWEEN ? AND ?)
            ORDER BY r.source_file_id
            """, [.text(request.period.from.description), .text(request.period.to.description)]) {
            (file: try $0[0] as Int64, image: try $0[1] as String, unit: try $0[2] as String?, day: try $0[3] as String?,
             total: try $0[4] as String?, currency: try $0[5] as String?)
        }
        // Row by row on the natural keys (few receipts), never a scan of every expense.
        let pending = try CostLine.pendingSQL(reader, "fuel_purchase")
        let fleetCurrency = try reader.all("""
            SELECT r.source_file_id, COALESCE(s.path, r.image_path) AS image_path, 'receipt:' || r.content_sha256 AS key
            FROM receipt_read r LEFT JOIN source_file s ON s.id = r.source_file_id
            WHERE r.currency_source = 'fleet' ORDER BY r.source_file_id
            """) { (file: try $0[0] as Int64, image: try $0[1] as String, key: try $0[2] as String) }
        for r in fleetCurrency {
            let counted = try reader.all("""
                SELECT a.unit_number FROM (SELECT at, asset_id FROM fuel_purchase WHERE source_key = ?1 AND linked_to IS NULL AND total_minor IS NOT NULL AND NOT \(pending)
                                           UNION ALL SELECT at, asset_id FROM expense WHERE source_key = ?1) x
                LEFT JOIN asset a ON a.id = x.asset_id WHERE x.at >= ?2 AND x.at < ?3
                """, [.text(r.key), .instant(request.start), .instant(request.end)]) { try $0[0] as String? }
            guard let unit = counted.first else { continue }
            if let wanted = request.assets, !wanted.isEmpty, !wanted.contains(unit ?? "") { continue }
            assumedCurrency.append("receipt \(r.file) \(r.image.split(separator: "/").last.map(String.init) ?? "")")
        }
        for row in rows {
            // An asset filter keeps receipts of those units, and unassigned ones that might be theirs.
            if let wanted = request.assets, !wanted.isEmpty, let unit = row.unit, !wanted.contains(unit) { continue }
            let name = row.image.split(separator: "/").last.map(String.init) ?? ""
            let amount = row.total.map { " total read \($0) \(row.currency ?? "")" } ?? " no total read"
            let text = "receipt \(row.file) \(name) (\(row.day ?? "no date")\(amount))"
            if row.day == nil { undated.append(text) } else { dated.append(text) }
        }
    }

    var assumedDetail: String {
        guard !assumedCurrency.isEmpty else { return "none" }
        return assumedCurrency.prefix(10).joined(separator: "; ") + (assumedCurrency.count > 10 ? "; …" : "") + "; accept or fix the currency with `fleetkit review`"
    }

    var detail: String {
        guard count > 0 else { return "none" }
        let all = dated + undated
        return all.prefix(10).joined(separator: "; ") + (all.count > 10 ? "; …" : "") + "; `fleetkit review list` settles them"
    }
}
