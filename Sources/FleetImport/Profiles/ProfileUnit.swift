import Foundation
import FleetCore

/// A column's unit as a profile states it, with the factor to FleetKit's SI storage (metres,
/// millilitres, seconds, metres per second), or the currency of a money column. Spellings are
/// matched case-insensitively; a unit that does not fit the field's kind is refused with the
/// units that do.
public enum ProfileUnit: Sendable, Equatable {
    /// Multiply by `factor` to store (distance to m, volume to mL, duration to s, speed to m/s).
    case scale(String, factor: Double)
    /// A money column's currency: ISO 4217, or nil for "the row's currency column, else the base currency".
    case currency(String?)
    /// A unit price: per `millilitres` of the volume unit, in `currency` (nil: the row's).
    case price(currency: String?, perUnit: String, millilitres: Double)
    /// Degrees, for coordinates and headings.
    case degrees

    /// The units that fit `kind`, as the profile's error message lists them; empty when the kind takes none.
    static func accepted(_ kind: ProfileTarget.Kind) -> String {
        switch kind {
        case .distance: return "m, km, mi"
        case .volume: return "L, mL, gal (US gallons), imp gal"
        case .duration: return "h, min, s"
        case .speed: return "km/h, mph, m/s, kn"
        case .money: return "an ISO 4217 currency code such as USD or EUR"
        case .price: return "a volume unit (gal, L), optionally after a currency: USD/gal, EUR/L"
        case .latitude, .longitude, .heading: return "deg"
        case .text, .identifier, .vin, .currency, .date, .time, .datetime, .number: return ""
        }
    }

    /// Whether `kind` needs a stated unit: a distance, volume, duration or speed is never guessed.
    static func required(_ kind: ProfileTarget.Kind) -> Bool {
        [.distance, .volume, .duration, .speed].contains(kind)
    }

    /// The unit `text` means for a field of `kind`; nil when it does not fit.
    static func parse(_ text: String, kind: ProfileTarget.Kind) -> ProfileUnit? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let l = t.lowercased()
        switch kind {
        case .distance:
            return Units.metres(1, unit: l).map { .scale(t, factor: $0) }
        case .volume:
            return Units.millilitres(1, unit: l).map { .scale(t, factor: $0) }
        case .duration:
            switch l {
            case "h", "hr", "hrs", "hour", "hours": return .scale(t, factor: 3600)
            case "min", "mins", "minute", "minutes": return .scale(t, factor: 60)
            case "s", "sec", "secs", "second", "seconds": return .scale(t, factor: 1)
            default: return nil
            }
        case .speed:
            switch l {
            case "km/h", "kmh", "kph": return .scale(t, factor: 1000.0 / 3600)
            case "mph", "mi/h": return .scale(t, factor: Units.metresPerMile / 3600)
            case "m/s": return .scale(t, factor: 1)
            case "kn", "kt", "knot", "knots": return .scale(t, factor: 1852.0 / 3600)
            default: return nil
            }
        case .money:
            let c = t.uppercased()
            return Money.isCurrencyCode(c) ? .currency(c) : nil
        case .price:
            let parts = t.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let (currency, volume): (String?, String)
            switch parts.count {
            case 1: (currency, volume) = (nil, parts[0])
            case 2: (currency, volume) = (parts[0].uppercased(), parts[1])
            default: return nil
            }
            if let currency, !Money.isCurrencyCode(currency) { return nil }
            guard let ml = Units.millilitres(1, unit: volume.lowercased()) else { return nil }
            return .price(currency: currency, perUnit: volume, millilitres: ml)
        case .latitude, .longitude, .heading:
            return ["deg", "degree", "degrees", "°"].contains(l) ? .degrees : nil
        case .text, .identifier, .vin, .currency, .date, .time, .datetime, .number:
            return nil
        }
    }

    /// The factor to SI of a scaled unit (1 for others).
    var factor: Double {
        if case let .scale(_, f) = self { return f }
        return 1
    }

    /// How the unit is written, for previews and stored raw units.
    var text: String {
        switch self {
        case let .scale(t, _): return t
        case let .currency(c): return c ?? ""
        case let .price(c, u, _): return (c.map { $0 + "/" } ?? "") + u
        case .degrees: return "deg"
        }
    }
}
