import FleetCore
import FleetWarehouse

/// The cost rows of a period that took the warehouse's base currency because their file gave
/// none (`currency_assumed`), per source file, for the cost report's header and data quality.
///
/// In a fleet that only ever pays in its base currency the assumption is right and costs
/// nothing: it is listed in data quality and the methods. Once the warehouse holds another
/// currency (a cost row in one, or an exchange rate), an assumed currency may be a Canadian card
/// file read as USD, which no total can show: the report is then partial until the files are
/// imported again with their currency, or the reader accepts it with `--allow-partial`.
struct AssumedCurrencyCosts {
    var rows = 0
    /// "fuel-card.csv: 8 rows" per file, the largest first.
    var files: [String] = []
    /// True when the warehouse holds any currency other than the base.
    var foreignSeen = false

    init(_ reader: any WarehouseReader, _ request: ReportRequest, base: String) throws {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let range: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        let join = "LEFT JOIN asset a ON a.id = x.asset_id"
        // Files of equal count in path order by bytes, as SQLite sorts them.
        let perFile = try reader.all("""
            SELECT f.path, COUNT(*) AS n FROM (
              SELECT x.source_file_id AS file FROM expense x \(join) WHERE x.currency_assumed = 1 AND x.at >= ? AND x.at < ?\(restrict)
              UNION ALL
              SELECT x.source_file_id FROM fuel_purchase x \(join) WHERE x.currency_assumed = 1 AND x.at >= ? AND x.at < ? AND x.linked_to IS NULL\(restrict)
              UNION ALL
              SELECT x.source_file_id FROM maintenance_record x \(join) WHERE x.currency_assumed = 1 AND x.performed_at >= ? AND x.performed_at < ?\(restrict)
            ) c JOIN source_file f ON f.id = c.file GROUP BY f.id, f.path ORDER BY n DESC, \(reader.dialect.ascending("f.path", text: true))
            """, range + range + range) { (path: try $0[0] as String, n: try $0[1] as Int) }
        for r in perFile {
            rows += r.n
            files.append("\(r.path.split(separator: "/").last.map(String.init) ?? "?"): \(r.n) row\(r.n == 1 ? "" : "s")")
        }
        foreignSeen = try reader.value("""
            SELECT EXISTS (SELECT 1 FROM fx_rate) OR EXISTS (SELECT 1 FROM expense WHERE currency <> ?1)
              OR EXISTS (SELECT 1 FROM fuel_purchase WHERE currency <> ?1) OR EXISTS (SELECT 1 FROM maintenance_record WHERE currency <> ?1)
            """, [.text(base)], as: Bool.self) ?? false
    }

    /// The files, bounded.
    var detail: String {
        rows == 0 ? "none" : files.prefix(10).joined(separator: "; ") + (files.count > 10 ? "; …" : "")
    }
}
