import Foundation
import FleetCore

/// What a receipt says, field by field, each with a confidence from 0 to 1.
///
/// A field is nil when it was not found: extraction never fills a gap with a guess. A field
/// found but doubtful (a shaky OCR reading, a total that contradicts unit price × volume, a
/// day/month order decided only by convention) has a confidence below `reviewThreshold`, and the
/// importer sends the receipt to review.
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
        case litre = "L", usGallon = "gal"
        public var millilitres: Double { self == .litre ? Units.millilitresPerLitre : Units.millilitresPerUSGallon }
    }

    public struct Volume: Sendable, Equatable {
        public var amount: DecimalNumber
        public var unit: VolumeUnit
        public var millilitres: Double { amount.double * unit.millilitres }
    }

    public struct ClockTime: Sendable, Equatable, CustomStringConvertible {
        public var hour: Int
        public var minute: Int
        public var second = 0
        public var description: String { String(format: "%02d:%02d", hour, minute) }
    }

    public struct Odometer: Sendable, Equatable {
        public var value: Double
        /// "km" or "mi": as printed, else miles on a US-dollar slip and kilometres otherwise.
        public var unit: String
        public var metres: Double { value * (unit == "mi" ? Units.metresPerMile : Units.metresPerKilometre) }
    }

    /// Below this a field is doubtful: a receipt whose total, date or volume (fuel) is doubtful
    /// or missing needs review.
    public static let reviewThreshold = 0.6

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
    /// The OCR text, card numbers masked to their last four digits.
    public var maskedText = ""

    public init() {}

    /// The fields that need a human look: missing or below `reviewThreshold`. Volume counts for
    /// fuel receipts only.
    public var doubtful: [String] {
        var out: [String] = []
        func check<V>(_ name: String, _ f: Field<V>?) {
            guard let f else { out.append("\(name) missing"); return }
            if f.confidence < Self.reviewThreshold { out.append("\(name) doubtful (\(Int((f.confidence * 100).rounded()))%)") }
        }
        check("total", total)
        check("date", date)
        if isFuel { check("volume", volume) }
        return out
    }

    /// The least confident of total, date and (fuel) volume: the receipt's overall confidence.
    public var confidence: Double {
        let parts = [total?.confidence ?? 0, date?.confidence ?? 0] + (isFuel ? [volume?.confidence ?? 0] : [])
        return parts.min() ?? 0
    }
}
