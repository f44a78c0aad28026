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
/// 3. **The same fill, another amount.** Otherwise a receipt is linked to the card transaction
///    that records the same fill at another total (a vendor's corrected export, a price
///    adjustment): same currency, times within 30 minutes, the same asset or card last four
///    digits, and volumes within `sameFillVolumeToleranceMl` (both record one pump reading).
///    Only when it is one-to-one: exactly one card qualifies, and no other receipt qualifies for
///    that card or is linked to it by rule 1 (a later image of a receipt, rule 2, is that
///    receipt). Anything else stays unlinked and is reported (`sameFill`). The card's amount is
///    the ledger figure; the difference is a data-quality finding of the cost report.
///
/// Links are recomputed, not accumulated: for every receipt near the rows a file loaded, the
/// link is derived from the rows now in the warehouse, never from other links. Importing the
/// receipt before or after the card, or the two images in either order, therefore ends in the
/// same links. It runs as a derivation step (`FuelLinking`) after every file that stored or
/// changed a fuel purchase, whatever its format: no importer has to remember it.
public enum FuelPurchaseLinker {
    public static let cardWindowMs: Int64 = 30 * 60_000
    public static let duplicateWindowMs: Int64 = 2 * 60_000
    /// Rule 3: the card and the receipt print the same pump reading; a vendor rounding it to
    /// 0.01 gal (or 0.01 L) on either side leaves at most 0.01 gal = 37.85 mL between them.
    public static let sameFillVolumeToleranceMl = 40.0

    /// Rule 3's verdict for one receipt.
    public enum SameFill: Equatable, Sendable {
        /// No card transaction records this fill at another amount.
        case none
        /// The one card transaction that records it.
        case card(Int64)
        /// Several cards qualify, or other receipts qualify for the card: left unlinked. Ids.
        case ambiguous(cards: [Int64], receipts: [Int64])
    }

    static let columns = "id, source_key, asset_id, at, merchant, total_minor, currency, card_last4, volume_ml, linked_to"

    /// Recomputes the links of the receipts within reach of fuel purchases at times
    /// `first...last` (those a file stored or changed).
    public static func refresh(_ db: Database, around span: ClosedRange<Int64>) throws {
        let (first, last) = (span.lowerBound, span.upperBound)
        // A receipt's rule 3 reads the card (30 min away), that card's other receipts (30 min
        // from the card) and their rule 1 cards (30 min further) and earlier images: a changed
        // row reaches receipts three card windows and a duplicate window away.
        let margin = 3 * cardWindowMs + duplicateWindowMs
        let receipts = try GRDB.Row.fetchAll(db, sql: """
            SELECT \(columns) FROM fuel_purchase
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
        guard r["total_minor"] as Int64? != nil else { return nil }
        if let card = try exactCard(for: r, in: db) { return card }
        if let image = try earlierImage(for: r, in: db) { return image }
        if case .card(let card) = try sameFill(for: r, in: db) { return card }
        return nil
    }

    /// Rule 1: the card transaction of the same total.
    static func exactCard(for r: GRDB.Row, in db: Database) throws -> Int64? {
        guard let total: Int64 = r["total_minor"] else { return nil }
        let at: Int64 = r["at"], currency: String = r["currency"]
        let asset: Int64? = r["asset_id"], last4: String? = r["card_last4"]
        guard asset != nil || last4 != nil else { return nil }
        return try Int64.fetchOne(db, sql: """
            SELECT id FROM fuel_purchase
            WHERE origin = 'card' AND currency = ? AND total_minor = ? AND at BETWEEN ? AND ?
              AND ((? IS NOT NULL AND asset_id = ?) OR (? IS NOT NULL AND card_last4 = ?))
            ORDER BY ABS(at - ?), source_key LIMIT 1
            """, arguments: [currency, total, at - cardWindowMs, at + cardWindowMs, asset, asset, last4, last4, at])
    }

    /// Rule 2: the earliest earlier image of the same receipt.
    static func earlierImage(for r: GRDB.Row, in db: Database) throws -> Int64? {
        guard let total: Int64 = r["total_minor"], let merchant = normalised(r["merchant"]) else { return nil }
        let at: Int64 = r["at"], currency: String = r["currency"], key: String = r["source_key"]
        let earlier = try GRDB.Row.fetchAll(db, sql: """
            SELECT id, merchant FROM fuel_purchase
            WHERE origin = 'receipt' AND currency = ? AND total_minor = ? AND at BETWEEN ? AND ? AND (at < ? OR (at = ? AND source_key < ?))
            ORDER BY at, source_key
            """, arguments: [currency, total, at - duplicateWindowMs, at, at, at, key])
        return earlier.first { normalised($0["merchant"]) == merchant }?["id"]
    }

    /// Rule 3 for the receipt with this id, as `link` applies it (reports list what it could
    /// not settle). A receipt linked by rule 1 or 2 is not asked.
    public static func sameFill(receipt id: Int64, in db: Database) throws -> SameFill {
        guard let r = try GRDB.Row.fetchOne(db, sql: "SELECT \(columns) FROM fuel_purchase WHERE id = ? AND origin = 'receipt'", arguments: [id]) else {
            return .none
        }
        return try sameFill(for: r, in: db)
    }

    static func sameFill(for r: GRDB.Row, in db: Database) throws -> SameFill {
        guard let total: Int64 = r["total_minor"], let volume: Double = r["volume_ml"], volume > 0 else { return .none }
        let id: Int64 = r["id"], at: Int64 = r["at"], currency: String = r["currency"]
        let asset: Int64? = r["asset_id"], last4: String? = r["card_last4"]
        guard asset != nil || last4 != nil else { return .none }
        let cards = try GRDB.Row.fetchAll(db, sql: """
            SELECT id, at, asset_id, card_last4, total_minor, volume_ml FROM fuel_purchase
            WHERE origin = 'card' AND currency = ? AND total_minor IS NOT NULL AND total_minor != ? AND at BETWEEN ? AND ?
              AND volume_ml IS NOT NULL AND ABS(volume_ml - ?) <= ?
              AND ((? IS NOT NULL AND asset_id = ?) OR (? IS NOT NULL AND card_last4 = ?))
            ORDER BY source_key
            """, arguments: [currency, total, at - cardWindowMs, at + cardWindowMs, volume, sameFillVolumeToleranceMl, asset, asset, last4, last4])
        guard let card = cards.first else { return .none }
        guard cards.count == 1 else { return .ambiguous(cards: cards.map { $0["id"] }, receipts: [id]) }
        // The card's other receipts: one linked to it by rule 1, or one rule 3 would link to it.
        let cardID: Int64 = card["id"], cardAt: Int64 = card["at"], cardTotal: Int64 = card["total_minor"], cardVolume: Double = card["volume_ml"]
        let cardAsset: Int64? = card["asset_id"], cardLast4: String? = card["card_last4"]
        let others = try GRDB.Row.fetchAll(db, sql: """
            SELECT \(columns) FROM fuel_purchase
            WHERE origin = 'receipt' AND id != ? AND total_minor IS NOT NULL AND at BETWEEN ? AND ?
              AND ((? IS NOT NULL AND asset_id = ?) OR (? IS NOT NULL AND card_last4 = ?))
            ORDER BY source_key
            """, arguments: [id, cardAt - cardWindowMs, cardAt + cardWindowMs, cardAsset, cardAsset, cardLast4, cardLast4])
        var rivals: [Int64] = []
        for o in others {
            if let exact = try exactCard(for: o, in: db) {
                if exact == cardID { rivals.append(o["id"]) }
                continue
            }
            if try earlierImage(for: o, in: db) != nil { continue }
            guard o["currency"] as String == currency, o["total_minor"] as Int64 != cardTotal,
                  let v: Double = o["volume_ml"], abs(v - cardVolume) <= sameFillVolumeToleranceMl else { continue }
            rivals.append(o["id"])
        }
        return rivals.isEmpty ? .card(cardID) : .ambiguous(cards: [cardID], receipts: [id] + rivals)
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
