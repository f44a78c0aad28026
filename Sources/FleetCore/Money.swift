import Foundation

/// Money in integer minor units plus an ISO 4217 code, never floating point, so that sums
/// reconcile to the cent.
public struct Money: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var minor: Int64
    public var currency: String

    public init(minor: Int64, currency: String) {
        self.minor = minor
        self.currency = currency
    }

    /// Digits after the decimal mark for a currency (ISO 4217). Unlisted codes use 2.
    public static func minorDigits(_ currency: String) -> Int {
        switch currency {
        case "JPY", "KRW", "CLP", "ISK", "VND", "XAF", "XOF", "UGX", "PYG": return 0
        case "BHD", "KWD", "OMR", "TND", "JOD", "IQD", "LYD": return 3
        default: return 2
        }
    }

    /// A currency code is three ASCII capital letters.
    public static func isCurrencyCode(_ code: String) -> Bool {
        code.count == 3 && code.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// The largest magnitude an amount may have, in minor units (exclusive): 10¹⁵, i.e.
    /// 10,000,000,000,000.00 USD or 1,000,000,000,000 KWD. No cost of a fleet comes near it, and
    /// amounts below it leave every report sum over 9,000 such rows inside an Int64; beyond that,
    /// sums are checked (`Checked.add`) and a report says so instead of trapping.
    public static let limitMinor: Int64 = 1_000_000_000_000_000

    /// Whether `minor` is an amount FleetKit stores (magnitude below `limitMinor`).
    public static func isWithinLimit(_ minor: Int64) -> Bool { minor.magnitude < UInt64(limitMinor) }

    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case number(DecimalNumber.ParseError)
        case tooPrecise(String, currency: String)
        case badCurrency(String)
        case beyondLimit(String, currency: String)

        public var description: String {
            switch self {
            case let .number(e): return e.description
            case let .tooPrecise(s, c): return "'\(QuotedText.cut(s))' has more decimals than \(c) allows (\(Money.minorDigits(c)))"
            case let .badCurrency(c): return "'\(c)' is not an ISO 4217 currency code (three capital letters, such as USD or EUR)"
            case let .beyondLimit(s, c):
                return "'\(QuotedText.cut(s))' is beyond the largest amount FleetKit accepts (below \(Money(minor: Money.limitMinor, currency: c)) in magnitude); correct the amount in the source"
            }
        }
    }

    public static func parse(_ text: String, currency: String, convention: DecimalNumber.Convention = .point) throws(ParseError) -> Money {
        guard isCurrencyCode(currency) else { throw .badCurrency(currency) }
        let n: DecimalNumber
        do { n = try DecimalNumber.parse(text, convention: convention) } catch { throw .number(error) }
        guard let minor = n.scaled(to: minorDigits(currency)) else {
            // A scale-up that overflows is an amount far too large, not one too precise.
            if n.scale < minorDigits(currency) { throw .beyondLimit(text, currency: currency) }
            throw .tooPrecise(text, currency: currency)
        }
        guard isWithinLimit(minor) else { throw .beyondLimit(text, currency: currency) }
        return Money(minor: minor, currency: currency)
    }

    /// `minor` units of `from` in units of `to` at `rate` (units of `to` per unit of `from`),
    /// rounded half-to-even to `to`'s minor unit; nil when the result is not finite or does not
    /// fit an Int64 (never a trap: rates and amounts in a warehouse are input).
    public static func converted(minor: Int64, from: String, to: String, rate: Double) -> Int64? {
        let scale = pow(10, Double(minorDigits(to) - minorDigits(from)))
        return Checked.int64(Double(minor) * rate * scale, .toNearestOrEven)
    }

    public var description: String {
        DecimalNumber(mantissa: minor, scale: Money.minorDigits(currency)).description + " " + currency
    }
}
