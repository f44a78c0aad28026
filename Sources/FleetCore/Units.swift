/// Unit conversions. The warehouse stores SI (metres, seconds, millilitres, percent 0–100);
/// conversion happens only at the edges: when a source sends other units and when a report
/// shows US units.
public enum Units {
    public static let metresPerMile = 1609.344
    public static let metresPerKilometre = 1000.0
    public static let millilitresPerUSGallon = 3785.411784
    public static let millilitresPerImperialGallon = 4546.09
    public static let millilitresPerLitre = 1000.0
    public static let secondsPerHour = 3600.0

    public enum System: String, Sendable, CaseIterable, Codable {
        case metric, us
    }

    /// Distance unit spellings seen in vendor payloads, to metres.
    public static func metres(_ value: Double, unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: .whitespaces) {
        case "m", "meter", "meters", "metre", "metres": return value
        case "km", "kilometer", "kilometers", "kilometre", "kilometres": return value * metresPerKilometre
        case "mi", "mile", "miles": return value * metresPerMile
        default: return nil
        }
    }

    /// Volume unit spellings seen in vendor payloads and receipts, to millilitres.
    public static func millilitres(_ value: Double, unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: .whitespaces) {
        case "ml", "millilitre", "milliliter", "millilitres", "milliliters": return value
        case "l", "litre", "liter", "litres", "liters", "ltr", "lt": return value * millilitresPerLitre
        case "gal", "gallon", "gallons", "usgal", "us gal", "gal (us)": return value * millilitresPerUSGallon
        case "imp gal", "impgal", "imperial gallon", "imperial gallons": return value * millilitresPerImperialGallon
        default: return nil
        }
    }
}

import Foundation
