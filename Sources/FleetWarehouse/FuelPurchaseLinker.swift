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

    /// One fuel purchase as the rules read it (`columns`, in that order).
    struct Purchase {
        var id: Int64, sourceKey: String, assetID: Int64?, at: Int64, merchant: String?
        var totalMinor: Int64?, currency: String, cardLast4: String?, volumeML: Double?, linkedTo: Int64?

        init(_ r: WarehouseRow) throws {
            id = try r[0]; sourceKey = try r[1]; assetID = try r[2]; at = try r[3]; merchant = try r[4]
            totalMinor = try r[5]; currency = try r[6]; cardLast4 = try r[7]; volumeML = try r[8]; linkedTo = try r[9]
        }
    }

    /// "The same asset or the same card last four" for `?first` and the next parameter: only
    /// the known ones are compared (a NULL parameter compared alone has no type on PostgreSQL).
    /// Callers have checked that one of the two is known.
    static func sameAssetOrCard(_ asset: Int64?, _ last4: String?, first: Int) -> (sql: String, arguments: [WarehouseArgument]) {
        var terms: [String] = [], arguments: [WarehouseArgument] = []
        if let asset { terms.append("asset_id = ?\(first + arguments.count)"); arguments.append(.integer(asset)) }
        if let last4 { terms.append("card_last4 = ?\(first + arguments.count)"); arguments.append(.text(last4)) }
        return ("(" + terms.joined(separator: " OR ") + ")", arguments)
    }

    /// Recomputes the links of the receipts within reach of fuel purchases at times
    /// `first...last` (those a file stored or changed). The rules read through the read
    /// boundary (the same SQL the reports' `sameFill` runs on either engine); the links are
    /// written here, in the caller's transaction.
    public static func refresh(_ db: Database, around span: ClosedRange<Int64>) throws {
        let (first, last) = (span.lowerBound, span.upperBound)
        // A receipt's rule 3 reads the card (30 min away), that card's other receipts (30 min
        // from the card) and their rule 1 cards (30 min further) and earlier images: a changed
        // row reaches receipts three card windows and a duplicate window away.
        let margin = 3 * cardWindowMs + duplicateWindowMs
        let reader = SQLiteReader(db)
        let receipts = try reader.all("""
            SELECT \(columns) FROM fuel_purchase
            WHERE origin = 'receipt' AND at BETWEEN ? AND ? ORDER BY at, source_key
            """, [.instant(first - margin), .instant(last + margin)], Purchase.init)
        for r in receipts {
            let target = try link(for: r, in: reader)
            if target != r.linkedTo {
                try db.execute(sql: "UPDATE fuel_purchase SET linked_to = ? WHERE id = ?", arguments: [target, r.id])
            }
        }
    }

    /// The row a receipt duplicates, by the rules above; nil when it stands on its own.
    static func link(for r: Purchase, in reader: any WarehouseReader) throws -> Int64? {
        guard r.totalMinor != nil else { return nil }
        if let card = try exactCard(for: r, in: reader) { return card }
        if let image = try earlierImage(for: r, in: reader) { return image }
        if case .card(let card) = try sameFill(for: r, in: reader) { return card }
        return nil
    }

    /// Rule 1: the card transaction of the same total. The distance in time is taken on epoch
    /// milliseconds (`SQLDialect.epochMilliseconds`), the tie goes to the smaller key by bytes.
    static func exactCard(for r: Purchase, in reader: any WarehouseReader) throws -> Int64? {
        guard let total = r.totalMinor else { return nil }
        guard r.assetID != nil || r.cardLast4 != nil else { return nil }
        let d = reader.dialect
        let match = sameAssetOrCard(r.assetID, r.cardLast4, first: 6)
        return try reader.value("""
            SELECT id FROM fuel_purchase
            WHERE origin = 'card' AND currency = ?1 AND total_minor = ?2 AND at BETWEEN ?3 AND ?4 AND \(match.sql)
            ORDER BY ABS(\(d.epochMilliseconds("at")) - ?5), \(d.ascending("source_key", text: true)) LIMIT 1
            """, [.text(r.currency), .integer(total), .instant(r.at - cardWindowMs), .instant(r.at + cardWindowMs), .integer(r.at)] + match.arguments,
            as: Int64.self)
    }

    /// Rule 2: the earliest earlier image of the same receipt.
    static func earlierImage(for r: Purchase, in reader: any WarehouseReader) throws -> Int64? {
        guard let total = r.totalMinor, let merchant = normalised(r.merchant) else { return nil }
        let d = reader.dialect
        let earlier = try reader.all("""
            SELECT id, merchant FROM fuel_purchase
            WHERE origin = 'receipt' AND currency = ?1 AND total_minor = ?2 AND at BETWEEN ?3 AND ?4
              AND (at < ?4 OR (at = ?4 AND \(d.binary("source_key")) < ?5))
            ORDER BY at, \(d.ascending("source_key", text: true))
            """, [.text(r.currency), .integer(total), .instant(r.at - duplicateWindowMs), .instant(r.at), .text(r.sourceKey)]) {
            (id: try $0[0] as Int64, merchant: try $0[1] as String?)
        }
        return earlier.first { normalised($0.merchant) == merchant }?.id
    }

    /// Rule 3 for the receipt with this id, as `link` applies it (reports list what it could
    /// not settle). A receipt linked by rule 1 or 2 is not asked.
    public static func sameFill(receipt id: Int64, in db: Database) throws -> SameFill {
        try sameFill(receipt: id, in: SQLiteReader(db))
    }

    /// Rule 3 on either engine.
    public static func sameFill(receipt id: Int64, in reader: any WarehouseReader) throws -> SameFill {
        guard let r = try reader.all("SELECT \(columns) FROM fuel_purchase WHERE id = ? AND origin = 'receipt'", [.integer(id)], Purchase.init).first else {
            return .none
        }
        return try sameFill(for: r, in: reader)
    }

    static func sameFill(for r: Purchase, in reader: any WarehouseReader) throws -> SameFill {
        guard let total = r.totalMinor, let volume = r.volumeML, volume > 0 else { return .none }
        guard r.assetID != nil || r.cardLast4 != nil else { return .none }
        let d = reader.dialect
        let match = sameAssetOrCard(r.assetID, r.cardLast4, first: 7)
        let cards = try reader.all("""
            SELECT id, at, asset_id, card_last4, total_minor, volume_ml FROM fuel_purchase
            WHERE origin = 'card' AND currency = ?1 AND total_minor IS NOT NULL AND total_minor != ?2 AND at BETWEEN ?3 AND ?4
              AND volume_ml IS NOT NULL AND ABS(volume_ml - ?5) <= ?6 AND \(match.sql)
            ORDER BY \(d.ascending("source_key", text: true))
            """, [.text(r.currency), .integer(total), .instant(r.at - cardWindowMs), .instant(r.at + cardWindowMs),
                  .real(volume), .real(sameFillVolumeToleranceMl)] + match.arguments) {
            (id: try $0[0] as Int64, at: try $0[1] as Int64, assetID: try $0[2] as Int64?, last4: try $0[3] as String?,
             total: try $0[4] as Int64, volume: try $0[5] as Double)
        }
        guard let card = cards.first else { return .none }
        guard cards.count == 1 else { return .ambiguous(cards: cards.map(\.id), receipts: [r.id]) }
        // The card's other receipts: one linked to it by rule 1, or one rule 3 would link to it.
        // The card matched on its asset or last four, so one of them is known.
        let cardMatch = sameAssetOrCard(card.assetID, card.last4, first: 4)
        let others = cardMatch.arguments.isEmpty ? [] : try reader.all("""
            SELECT \(columns) FROM fuel_purchase
            WHERE origin = 'receipt' AND id != ?1 AND total_minor IS NOT NULL AND at BETWEEN ?2 AND ?3 AND \(cardMatch.sql)
            ORDER BY \(d.ascending("source_key", text: true))
            """, [.integer(r.id), .instant(card.at - cardWindowMs), .instant(card.at + cardWindowMs)] + cardMatch.arguments, Purchase.init)
        var rivals: [Int64] = []
        for o in others {
            if let exact = try exactCard(for: o, in: reader) {
                if exact == card.id { rivals.append(o.id) }
                continue
            }
            if try earlierImage(for: o, in: reader) != nil { continue }
            guard o.currency == r.currency, o.totalMinor != card.total,
                  let v = o.volumeML, abs(v - card.volume) <= sameFillVolumeToleranceMl else { continue }
            rivals.append(o.id)
        }
        return rivals.isEmpty ? .card(card.id) : .ambiguous(cards: [card.id], receipts: [r.id] + rivals)
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
