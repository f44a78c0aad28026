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

    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case number(DecimalNumber.ParseError)
        case tooPrecise(String, currency: String)
        case badCurrency(String)

        public var description: String {
            switch self {
            case let .number(e): return e.description
            case let .tooPrecise(s, c): return "'\(s)' has more decimals than \(c) allows (\(Money.minorDigits(c)))"
            case let .badCurrency(c): return "'\(c)' is not an ISO 4217 currency code (three capital letters, such as USD or EUR)"
            }
        }
    }

    public static func parse(_ text: String, currency: String, convention: DecimalNumber.Convention = .point) throws(ParseError) -> Money {
        guard isCurrencyCode(currency) else { throw .badCurrency(currency) }
        let n: DecimalNumber
        do { n = try DecimalNumber.parse(text, convention: convention) } catch { throw .number(error) }
        guard let minor = n.scaled(to: minorDigits(currency)) else { throw .tooPrecise(text, currency: currency) }
        return Money(minor: minor, currency: currency)
    }

    public var description: String {
        DecimalNumber(mantissa: minor, scale: Money.minorDigits(currency)).description + " " + currency
    }
}
