import Foundation
import GRDB
import FleetCore

/// Links fuel receipts to the purchase they duplicate, so that the money is counted once
/// (docs/METRICS.md, "Receipts and card transactions"):
///
/// 1. **Card wins.** A receipt whose purchase a fuel-card transaction also records gets
///    `linked_to` = the card row: same currency and total to the cent, times within 30 minutes,
///    and the same asset or the same card last four digits. The card is the bank record.
///    Several matching cards: the nearest in time, then the smallest source key.
/// 2. **Two images of one purchase.** Otherwise a receipt with the same merchant (letters and
///    digits compared, case ignored), the same total and currency, and a time within 2 minutes
///    of an earlier receipt (by time, then source key) is linked to the earliest such receipt.
///
/// Links are recomputed, not accumulated: for every receipt near the rows a file loaded, the
/// link is derived from the rows now in the warehouse. Importing the receipt before or after the
/// card, or the two images in either order, therefore ends in the same links. It runs as a
/// derivation step (`FuelLinking`) after every file that stored or changed a fuel purchase,
/// whatever its format: no importer has to remember it.
public enum FuelPurchaseLinker {
    public static let cardWindowMs: Int64 = 30 * 60_000
    public static let duplicateWindowMs: Int64 = 2 * 60_000

    /// Recomputes the links of the receipts within the card window of fuel purchases at times
    /// `first...last` (those a file stored or changed).
    public static func refresh(_ db: Database, around span: ClosedRange<Int64>) throws {
        let (first, last) = (span.lowerBound, span.upperBound)
        // A link found now may change the root of a receipt further away: widen by both windows.
        let margin = cardWindowMs + duplicateWindowMs
        let receipts = try GRDB.Row.fetchAll(db, sql: """
            SELECT id, source_key, asset_id, at, merchant, total_minor, currency, card_last4, linked_to FROM fuel_purchase
            WHERE origin = 'receipt' AND at BETWEEN ? AND ? ORDER BY at, source_key
            """, arguments: [first - margin, last + margin])
        for r in receipts {
            let id: Int64 = r["id"]
            let target = try link(for: r, in: db)
            if target != r["linked_to"] as Int64? {
                try db.execute(sql: "UPDATE fuel_purchase SET linked_to = ? WHERE id = ?", arguments: [target, id])
            }
        }
    }

    /// The row a receipt duplicates, by the rules above; nil when it stands on its own.
    static func link(for r: GRDB.Row, in db: Database) throws -> Int64? {
        guard let total: Int64 = r["total_minor"] else { return nil }
        let at: Int64 = r["at"], currency: String = r["currency"], key: String = r["source_key"]
        let asset: Int64? = r["asset_id"], last4: String? = r["card_last4"]
        if asset != nil || last4 != nil, let card = try Int64.fetchOne(db, sql: """
            SELECT id FROM fuel_purchase
            WHERE origin = 'card' AND currency = ? AND total_minor = ? AND at BETWEEN ? AND ?
              AND ((? IS NOT NULL AND asset_id = ?) OR (? IS NOT NULL AND card_last4 = ?))
            ORDER BY ABS(at - ?), source_key LIMIT 1
            """, arguments: [currency, total, at - cardWindowMs, at + cardWindowMs, asset, asset, last4, last4, at]) {
            return card
        }
        guard let merchant = normalised(r["merchant"]) else { return nil }
        let earlier = try GRDB.Row.fetchAll(db, sql: """
            SELECT id, merchant FROM fuel_purchase
            WHERE origin = 'receipt' AND currency = ? AND total_minor = ? AND at BETWEEN ? AND ? AND (at < ? OR (at = ? AND source_key < ?))
            ORDER BY at, source_key
            """, arguments: [currency, total, at - duplicateWindowMs, at, at, at, key])
        return earlier.first { normalised($0["merchant"]) == merchant }?["id"]
    }

    static func normalised(_ merchant: String?) -> String? {
        let s = (merchant ?? "").uppercased().filter { $0.isLetter || $0.isNumber }
        return s.isEmpty ? nil : s
    }
}

/// The derivation step that links fuel purchases (`FuelPurchaseLinker`), over the times of the
/// fuel purchases a file stored or changed. Links depend on neither zone nor trip rules.
public struct FuelLinking: Deriver {
    public var name: String { "fuel links" }
    public init() {}

    public func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws {
        guard let span = touched.fuelPurchases else { return }
        try FuelPurchaseLinker.refresh(db, around: span)
    }
}
