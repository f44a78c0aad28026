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
        if let ms = strictUTC(text) { return ms == 0 ? .placeholder : Timestamp.plausible.contains(ms) ? .at(ms) : .outOfRange(ms) }
        let t = trim(text)
        if isPlaceholder(t) || t.hasPrefix("0001-01-01") || t.hasPrefix("0000-") || t.hasPrefix("9999-12-31") { return .placeholder }
        guard let ms = Timestamp.parse(t, zone: utc) else { return .invalid }
        if ms == 0 { return .placeholder }
        return Timestamp.plausible.contains(ms) ? .at(ms) : .outOfRange(ms)
    }

    /// The common spellings, `2026-10-01T14:30:00Z` or `…:00-05:00`, with an optional fraction,
    /// read straight from the UTF-8 bytes: every element of a feed has a time, and the general
    /// parser copies the text into arrays. Gives exactly what `Timestamp.parse` gives for such
    /// text; nil for anything else (spaces, `+0500`, hour 24, leap seconds, and the placeholder
    /// years 0, 1 and 9999), which takes the general path.
    static func strictUTC(_ text: String) -> Int64? {
        var copy = text
        return copy.withUTF8 { u -> Int64? in
            let n = u.count
            guard n >= 20, n <= 40, u[4] == 0x2D, u[7] == 0x2D, u[10] | 0x20 == 0x74, u[13] == 0x3A, u[16] == 0x3A else { return nil }
            func digits(_ at: Int, _ count: Int) -> Int? { Byte.digits(u.baseAddress!, at, count, end: n) }
            guard let year = digits(0, 4), year != 0, year != 1, year != 9999, let month = digits(5, 2), let day = digits(8, 2),
                  let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                  hour <= 23, minute <= 59, second <= 59, let date = CivilDate(year: year, month: month, day: day) else { return nil }
            // The zone: `Z` (1 byte) or `±HH:MM` (6 bytes) ends the text.
            var offset: Int64 = 0, zoneStart = n - 1
            if u[n - 1] | 0x20 != 0x7A {
                zoneStart = n - 6
                guard zoneStart >= 19, u[zoneStart] == 0x2B || u[zoneStart] == 0x2D, u[zoneStart + 3] == 0x3A,
                      let oh = digits(zoneStart + 1, 2), let om = digits(zoneStart + 4, 2), oh <= 14, om <= 59 else { return nil }
                offset = (u[zoneStart] == 0x2B ? 1 : -1) * Int64(oh * 3600 + om * 60) * 1000
            }
            var i = 19, millis = 0
            if i < zoneStart {
                guard u[i] == 0x2E || u[i] == 0x2C else { return nil }
                i += 1
                var count = 0
                while i < zoneStart, u[i] >= 48, u[i] <= 57 {
                    if count < 3 { millis = millis * 10 + Int(u[i] - 48) }
                    count += 1
                    i += 1
                }
                guard count > 0, i == zoneStart else { return nil }
                for _ in min(count, 3)..<3 { millis *= 10 }
            }
            return (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(millis) - offset
        }
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
        // The spellings feeds use, matched exactly first: `Units` lower-cases and trims through
        // Foundation, which cost more per element than the rest of its mapping.
        switch unit {
        case "m", "meter", "meters", "metre", "metres": return value
        case "km", "kilometer", "kilometers", "kilometre", "kilometres": return value * Units.metresPerKilometre
        case "mi", "mile", "miles": return value * Units.metresPerMile
        default: break
        }
        switch FeedValues.trim(unit).lowercased() {
        case "ft", "foot", "feet": return value * 0.3048
        case "kilometre", "kilometer", "kilometres", "kilometers", "km": return value * Units.metresPerKilometre
        default: return Units.metres(value, unit: unit)
        }
    }

    /// Volumes: litre/liter/litres/l, gallon(s) (read as US gallons), millilitres.
    static func millilitres(_ value: Double, unit: String) -> Double? {
        // Exact common spellings first, as in `metres`; the same factors as `Units.millilitres`.
        switch unit {
        case "l", "litre", "liter", "litres", "liters": return value * Units.millilitresPerLitre
        case "gal", "gallon", "gallons": return value * Units.millilitresPerUSGallon
        default: return Units.millilitres(value, unit: unit)
        }
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
