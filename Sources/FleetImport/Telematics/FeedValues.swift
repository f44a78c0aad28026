import Foundation
import FleetCore

/// Reading the text of telematics elements: placeholders, numbers, times, flags and units.
///
/// Vendors fill fields they do not know with words (`missing`, `N/A`), empty elements, the
/// year 1 or the Unix epoch. Those are not values: they become NULL or no reading at all, and
/// are counted so the import summary says how many there were.
enum FeedValues {
    static let placeholderWords: Set<String> = ["missing", "n/a", "na", "null", "none", "unknown", "-", "--", "not available"]

    static func isPlaceholder(_ text: String) -> Bool {
        let t = trim(text)
        // Checked by length first: this runs for every value of a 100 MB feed.
        return t.isEmpty || (t.utf8.count <= 13 && placeholderWords.contains(t.lowercased()))
    }

    /// Trims ASCII whitespace. Foundation's `trimmingCharacters` bridges through NSString on
    /// Linux and was the largest single cost of reading a feed.
    static func trim(_ text: String) -> String {
        let u = text.utf8
        func space(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }
        guard let first = u.first, let last = u.last, space(first) || space(last) else { return text }
        guard let start = u.firstIndex(where: { !space($0) }) else { return "" }
        let end = u.lastIndex(where: { !space($0) })!
        return String(text[start...end])
    }

    static let utc = TimeZone(identifier: "UTC")!

    /// A decimal as XML Schema and JSON write it: optional sign, digits, optional fraction and
    /// exponent. A comma decimal (`12,5`) or a thousands separator is refused, not guessed.
    static func number(_ text: String) -> Double? {
        let u = Array(text.utf8)
        var i = 0
        if i < u.count, u[i] == UInt8(ascii: "-") || u[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0
        while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1; digits += 1 }
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
            i += 1
            if i < u.count, u[i] == UInt8(ascii: "-") || u[i] == UInt8(ascii: "+") { i += 1 }
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        guard i == u.count, let d = Double(text), d.isFinite else { return nil }
        return d
    }

    enum Instant: Equatable {
        case at(Int64)
        /// `0001-01-01T00:00:00Z`, the Unix epoch, year 9999 and the like: "no time known".
        case placeholder
        case invalid
        case outOfRange(Int64)
    }

    /// An ISO 8601 date-time. ISO 15143-3 writes UTC; vendors add milliseconds and offsets,
    /// and some time series (Bosch) drop the `Z`, which is read as UTC because the standard
    /// says every time is UTC.
    static func instant(_ text: String) -> Instant {
        let t = trim(text)
        if isPlaceholder(t) || t.hasPrefix("0001-01-01") || t.hasPrefix("0000-") || t.hasPrefix("9999-12-31") { return .placeholder }
        guard let ms = Timestamp.parse(t, zone: utc) else { return .invalid }
        if ms == 0 { return .placeholder }
        return Timestamp.plausible.contains(ms) ? .at(ms) : .outOfRange(ms)
    }

    static func bool(_ text: String) -> Bool? {
        switch trim(text).lowercased() {
        case "true", "1", "yes", "on", "running": return true
        case "false", "0", "no", "off", "stopped": return false
        default: return nil
        }
    }
}

/// Unit spellings seen in ISO 15143-3 and AEMP feeds, to the warehouse's SI units.
enum FeedUnits {
    /// Distances and altitudes: metre/meter/metres/Metres/m, kilometre/kilometer/km,
    /// mile/miles/mi, feet/foot/ft.
    static func metres(_ value: Double, unit: String) -> Double? {
        switch FeedValues.trim(unit).lowercased() {
        case "ft", "foot", "feet": return value * 0.3048
        case "kilometre", "kilometer", "kilometres", "kilometers", "km": return value * Units.metresPerKilometre
        default: return Units.metres(value, unit: unit)
        }
    }

    /// Volumes: litre/liter/litres/l, gallon(s) (read as US gallons), millilitres.
    static func millilitres(_ value: Double, unit: String) -> Double? {
        Units.millilitres(value, unit: unit)
    }

    /// Masses: kilogram(s)/Kilograms/kg, tonne(s)/t, pound(s)/lb.
    static func kilograms(_ value: Double, unit: String) -> Double? {
        switch FeedValues.trim(unit).lowercased() {
        case "kg", "kgs", "kilogram", "kilograms", "kilogramme", "kilogrammes": return value
        case "t", "tonne", "tonnes", "metric ton", "metric tons": return value * 1000
        case "lb", "lbs", "pound", "pounds": return value * 0.45359237
        default: return nil
        }
    }

    /// An hour meter: decimal hours (ISO 15143-3) or an xs:duration (AEMP 1.2), as seconds,
    /// with the unit label kept in `raw_unit`.
    static func hourMeterSeconds(_ text: String) throws(RowError) -> (seconds: Double, unit: String) {
        if XSDuration.looksLikeDuration(text) {
            do { return (try XSDuration.seconds(text), "xs:duration") } catch {
                if case .negative = error { throw RowError(.outOfRange, "Hour: \(error.description)") }
                throw RowError(.badNumber, "Hour: \(error.description)")
            }
        }
        guard let h = FeedValues.number(text) else {
            throw RowError(.badNumber, "Hour is '\(text)', neither decimal hours (written with a decimal point) nor an xs:duration such as PT13H28M30S")
        }
        guard h >= 0 else { throw RowError(.outOfRange, "Hour is '\(text)', negative; a meter cannot run backwards") }
        return (h * Units.secondsPerHour, "hours")
    }
}
