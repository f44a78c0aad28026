import FleetCore
import FleetWarehouse

/// What the fuel linking of a period settled at a cost to trust, for the cost report's data
/// quality (docs/METRICS.md, "Receipts and card transactions"):
///
/// - **corrected**: receipts linked to a card transaction that records the same fill at another
///   total (`FuelPurchaseLinker` rule 3). The fill is counted once, as the card charged it; the
///   difference is shown so a person can see why the slip and the statement disagree.
/// - **ambiguous**: receipts rule 3 could not settle (several cards, or another receipt for the
///   same card). They stay unlinked and are counted on their own, so one fill may be counted
///   twice: the finding says which rows to look at.
///
/// Both follow the card's time for corrected links (the row the period counts) and the receipt's
/// for ambiguous ones; the report's asset filter applies to the row's asset.
struct FuelLinkFindings {
    var corrected: [String] = []
    var ambiguous: [String] = []

    init(_ reader: any WarehouseReader, _ request: ReportRequest) throws {
        let filter = request.assetFilter()
        let restrict = filter.arguments.isEmpty ? "" : " AND \(filter.sql)"
        let range: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        let d = reader.dialect
        let linked = try reader.all("""
            SELECT COALESCE(a.unit_number, a.vin, a.pin, a.name) AS unit, c.at, c.source_key AS card, c.total_minor AS card_total, c.currency,
                   r.total_minor AS receipt_total
            FROM fuel_purchase r JOIN fuel_purchase c ON c.id = r.linked_to AND c.origin = 'card' LEFT JOIN asset a ON a.id = c.asset_id
            WHERE r.origin = 'receipt' AND r.total_minor IS NOT NULL AND r.total_minor != c.total_minor AND c.at >= ? AND c.at < ?\(restrict)
            ORDER BY c.at, \(d.ascending("c.source_key", text: true)), \(d.ascending("r.source_key", text: true))
            """, range) {
            (unit: try $0[0] as String?, at: try $0[1] as Int64, card: try $0[2] as String, cardTotal: try $0[3] as Int64, currency: try $0[4] as String,
             receiptTotal: try $0[5] as Int64)
        }
        for l in linked {
            let (difference, overflow) = l.cardTotal.subtractingReportingOverflow(l.receiptTotal)
            corrected.append("\(l.unit ?? "Unassigned") \(request.zone.day(of: l.at)): \(l.card) \(Money(minor: l.cardTotal, currency: l.currency)), "
                + "its receipt \(Money(minor: l.receiptTotal, currency: l.currency))"
                + (overflow ? "" : " (card − receipt \(difference >= 0 ? "+" : "")\(Money(minor: difference, currency: l.currency)))"))
        }
        let unlinked = try reader.all("""
            SELECT r.id, COALESCE(a.unit_number, a.vin, a.pin, a.name) AS unit, r.at, r.source_key FROM fuel_purchase r LEFT JOIN asset a ON a.id = r.asset_id
            WHERE r.origin = 'receipt' AND r.linked_to IS NULL AND r.total_minor IS NOT NULL AND r.volume_ml IS NOT NULL AND r.at >= ? AND r.at < ?\(restrict)
            ORDER BY r.at, \(d.ascending("r.source_key", text: true))
            """, range) { (id: try $0[0] as Int64, unit: try $0[1] as String?, at: try $0[2] as Int64, key: try $0[3] as String) }
        for u in unlinked {
            guard case let .ambiguous(cards, receipts) = try FuelPurchaseLinker.sameFill(receipt: u.id, in: reader) else { continue }
            let ids = (cards + receipts).map(WarehouseArgument.integer)
            let keys = try reader.column("SELECT source_key FROM fuel_purchase WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", "))) ORDER BY \(d.ascending("source_key", text: true))",
                                         ids, as: String.self)
            ambiguous.append("\(u.unit ?? "Unassigned") \(request.zone.day(of: u.at)): \(u.key) may be the fill of "
                + keys.filter { $0 != u.key }.joined(separator: ", "))
        }
    }

    /// A finding's detail, bounded to the first ten.
    static func detail(_ lines: [String], _ advice: String) -> String {
        lines.isEmpty ? "none" : lines.prefix(10).joined(separator: "; ") + (lines.count > 10 ? "; …" : "") + "; " + advice
    }
}
