import Foundation
import FleetCore

/// What a receipt says, field by field, each with a confidence from 0 to 1.
///
/// A field is nil when it was not found: extraction never fills a gap with a guess. A field
/// found but doubtful has a confidence below `reviewThreshold`, and the importer sends the
/// receipt to review. What makes each field doubtful:
/// - `total`: nothing on the slip confirms it a second way (`totalCheck` nil: ≤ 0.55; a bare
///   integer in a currency with cents ≤ 0.4); it contradicts price × volume; a shaky OCR line.
/// - `volume`, `unitPrice`: price × volume does not give a total (≤ 0.55), or contradicts a
///   confirmed total (≤ 0.5), or implies a price per litre no pump charges (× 0.5).
/// - `date`: day/month order decided only by convention (0.75, not doubtful alone); dates
///   labelled as expiry/validity or outside the possible window are never taken (`notes`).
/// - `currency`: 0.5 when it is only the fleet's (`currencySource == .fleet`) and nothing on the
///   slip points elsewhere; below `currencyDoubt` (so the receipt goes to review) when the slip's
///   evidence disagrees, or names only countries of another currency (`ReceiptLocale`).
/// - `merchant`: the header line's quality (letters, words, no symbol noise); a known brand
///   0.9; nil with a note when no line reads as a name at the review threshold.
public struct ReceiptFields: Sendable, Equatable {
    public struct Field<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var confidence: Double
        /// The line it was read from (an index into the OCR lines).
        public var line: Int

        public init(_ value: Value, confidence: Double, line: Int) {
            self.value = value
            self.confidence = min(max(confidence, 0), 1)
            self.line = line
        }
    }

    public enum VolumeUnit: String, Sendable, Equatable {
        /// An imperial gallon only where the slip prints it so (`IMP GAL`): `GAL` alone is the US gallon.
        case litre = "L", usGallon = "gal", imperialGallon = "imp gal"
        public var millilitres: Double {
            switch self {
            case .litre: return Units.millilitresPerLitre
            case .usGallon: return Units.millilitresPerUSGallon
            case .imperialGallon: return Units.millilitresPerImperialGallon
            }
        }
    }

    public struct Volume: Sendable, Equatable {
        public var amount: DecimalNumber
        public var unit: VolumeUnit
        public init(amount: DecimalNumber, unit: VolumeUnit) {
            self.amount = amount
            self.unit = unit
        }
        public var millilitres: Double { amount.double * unit.millilitres }
    }

    public struct ClockTime: Sendable, Equatable, CustomStringConvertible {
        public var hour: Int
        public var minute: Int
        public var second = 0
        public init(hour: Int, minute: Int, second: Int = 0) {
            self.hour = hour
            self.minute = minute
            self.second = second
        }
        public var description: String { String(format: "%02d:%02d", hour, minute) }
    }

    public struct Odometer: Sendable, Equatable {
        public var value: Double
        /// "km" or "mi": as printed, else miles on a US-dollar slip and kilometres otherwise.
        public var unit: String
        public init(value: Double, unit: String) {
            self.value = value
            self.unit = unit
        }
        public var metres: Double { value * (unit == "mi" ? Units.metresPerMile : Units.metresPerKilometre) }
    }

    /// Where the currency came from, most trusted first (`ReceiptCurrency`).
    public enum CurrencySource: String, Sendable, Equatable {
        /// A symbol or code printed beside an amount (`RM 41.95`, `74,07 EUR`).
        case printed
        /// Words only one currency area prints (`SUMME`, `TTC`, `MOKĖTI`, `JUMLAH`).
        case language
        /// The merchant's country: VAT number, phone prefix, legal form, US state and ZIP, UK postcode.
        case country
        /// Nothing on the slip: the fleet's base currency (confidence 0.5, below the review threshold).
        case fleet
    }

    /// What confirms the total besides its own line (`ReceiptTotals`). A total without one is
    /// below the review threshold.
    public enum TotalCheck: String, Sendable, Equatable {
        case priceTimesVolume = "price × volume"
        case paymentLine = "payment line"
        case tenderedMinusChange = "tendered − change"
        case netPlusTax = "net + tax"
        case secondTotalLine = "second total line"
        /// The line items above the total add up to it (`ReceiptTotals.itemSum`).
        case lineItems = "line items"
        /// The total line lost its decimal mark or last digits (`TOTAL £1910`, `TOTAL $ 99.8)`)
        /// and another line prints an amount with the same digits (`£19.10`; for lost digits, a
        /// payment line: `VISA … $ 99.81`): two lines agree on every digit the total line shows.
        case sameDigits = "same digits on another line"
    }

    /// Below this a field is doubtful: a receipt whose total, date or volume (fuel) is doubtful
    /// or missing needs review.
    public static let reviewThreshold = 0.6

    /// Below this the currency is doubtful and the receipt goes to review. The fleet's currency
    /// on a slip that names no country is exactly this: the fallback the fleet chose, not a doubt.
    public static let currencyDoubt = 0.5

    public var merchant: Field<String>?
    public var date: Field<CivilDate>?
    public var time: Field<ClockTime>?
    /// In the receipt's currency, with at most its minor digits.
    public var total: Field<DecimalNumber>?
    public var currency: Field<String>?
    public var volume: Field<Volume>?
    /// Per unit of `volume`, in the receipt's currency.
    public var unitPrice: Field<DecimalNumber>?
    public var fuelGrade: Field<String>?
    public var cardLast4: Field<String>?
    public var odometer: Field<Odometer>?
    public var unitNumber: Field<String>?
    /// A fuel sale: a volume, a fuel grade or a price per litre or gallon was found.
    public var isFuel = false
    /// For receipts that are not fuel: tires, tolls, repair, maintenance, parts, registration,
    /// insurance or other (the `expense.category` values).
    public var category = "other"
    /// Unit price × volume, when both were read: what the total should be.
    public var computedTotal: Double?
    /// The slip's own words saying it is not the receipt of the sale (`THIS IS NOT A RECEIPT` on a
    /// prepaid fuel chit, whose tax invoice follows): it goes to review, so that the sale is not
    /// counted twice when its invoice is imported too.
    public var notAReceipt: String?
    /// The receipt's country and what it settles, with its evidence.
    public var locale: ReceiptLocale?
    /// How the currency was decided; `currency` is the fleet's base currency (confidence 0.5)
    /// when `fleet`.
    public var currencySource: CurrencySource?
    /// What confirmed the total; nil when nothing did (the total is then doubtful).
    public var totalCheck: TotalCheck?
    /// What a reviewer should know beyond the doubtful fields: an unconfirmed total or volume, a
    /// merchant not found or unsure, dates left out (card expiry, outside the possible window),
    /// the currency taken from the fleet. Informative only: `doubtful` decides review.
    public var notes: [String] = []
    /// Finer than `category` for the kinds of spending the `expense.category` values do not name
    /// (`food`, `lodging`, `parking`): `category` is then `other`. Nil when `category` says it all.
    public var spendKind: String?
    /// The OCR text, card numbers masked to their last four digits.
    public var maskedText = ""

    public init() {}

    /// The fields that need a human look: missing or below `reviewThreshold`. Volume counts for
    /// fuel receipts only; the currency when below `currencyDoubt`; a slip that says it is not a
    /// receipt (`notAReceipt`).
    public var doubtful: [String] {
        var out: [String] = []
        func check<V>(_ name: String, _ f: Field<V>?) {
            guard let f else { out.append("\(name) missing"); return }
            if f.confidence < Self.reviewThreshold { out.append("\(name) doubtful (\(Int((f.confidence * 100).rounded()))%)") }
        }
        check("total", total)
        check("date", date)
        if isFuel { check("volume", volume) }
        if let n = notAReceipt { out.append("the slip says '\(n)': a later invoice may bill the same sale") }
        if let c = currency, c.confidence < Self.currencyDoubt {
            out.append("currency \(c.value) doubtful (\(locale?.summary ?? "evidence disagrees"))")
        }
        return out
    }

    /// The least confident of total, date and (fuel) volume: the receipt's overall confidence.
    public var confidence: Double {
        let parts = [total?.confidence ?? 0, date?.confidence ?? 0] + (isFuel ? [volume?.confidence ?? 0] : [])
        return parts.min() ?? 0
    }
}
