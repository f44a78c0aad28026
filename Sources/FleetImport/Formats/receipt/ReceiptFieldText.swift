import Foundation
import FleetCore
import FleetOCR
import FleetWarehouse

/// Receipt fields as text: what `receipt_field` stores, what `fleetkit review` shows, and what
/// a person types to fix one, all read by the same strict parsers.
///
/// One canonical text per field (`2025-07-09`, `06:51`, `46.15`, `EUR`, `11.891 gal`), so that
/// a stored value read back is the value that was stored, and a value a person types is
/// refused when it is not exactly one thing: a date only as `YYYY-MM-DD` (never a guessed
/// day/month order), money with at most its currency's minor digits, a volume with its unit.
public enum ReceiptFieldText {
    /// The fields a person can accept or fix, in the order `review list` shows them.
    public static let editable = ["total", "date", "volume", "currency", "unit-price", "time", "merchant", "fuel-grade"]
    /// Fields kept for the record but not edited by review.
    static let readOnly = ["odometer", "card-last4", "unit"]

    /// Why a typed value was refused: the field, the text, what was wrong and what to type instead.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var field: String
        public var value: String
        public var reason: String
        public var description: String { "\(field) '\(value)': \(reason)" }
    }

    /// The fields a receipt needs before it can be counted without review (`ReceiptFields.doubtful`).
    public static func required(isFuel: Bool) -> [String] { isFuel ? ["total", "date", "volume"] : ["total", "date"] }

    /// Each field that was read, as text with its confidence and the masked OCR line it came from.
    static func values(of f: ReceiptFields) -> [ReceiptReading.FieldValue] {
        let lines = f.maskedText.split(separator: "\n", omittingEmptySubsequences: false)
        func row<V>(_ name: String, _ field: ReceiptFields.Field<V>?, _ text: (V) -> String) -> ReceiptReading.FieldValue? {
            guard let field else { return nil }
            let known = field.line >= 0 && field.line < lines.count
            return .init(field: name, value: text(field.value), confidence: field.confidence,
                         line: known ? field.line + 1 : nil, lineText: known ? String(lines[field.line]) : nil)
        }
        return [row("total", f.total) { $0.description },
                row("date", f.date) { $0.description },
                row("volume", f.volume) { volumeText($0) },
                row("currency", f.currency) { $0 },
                row("unit-price", f.unitPrice) { $0.description },
                row("time", f.time) { timeText($0) },
                row("merchant", f.merchant) { ReceiptImporter.masked($0) },
                row("fuel-grade", f.fuelGrade) { $0 },
                row("odometer", f.odometer) { "\($0.value) \($0.unit)" },
                row("card-last4", f.cardLast4) { $0 },
                row("unit", f.unitNumber) { $0 }].compactMap { $0 }
    }

    /// The fields as stored, read back (a reading made by `values(of:)` and corrections).
    static func fields(of r: ReceiptReading) throws(Invalid) -> ReceiptFields {
        var f = ReceiptFields()
        f.isFuel = r.isFuel
        f.category = r.category
        f.spendKind = r.spendKind
        f.maskedText = r.maskedText
        f.currencySource = r.currencySource.flatMap(ReceiptFields.CurrencySource.init(rawValue:))
        f.totalCheck = r.totalCheck.flatMap(ReceiptFields.TotalCheck.init(rawValue:))
        let currency = r["currency"]?.value ?? "USD"
        for v in r.fields {
            try set(v.field, v.value, currency: currency, confidence: v.confidence, line: (v.line ?? 0) - 1, on: &f, stored: true)
        }
        return f
    }

    /// Puts the latest accepted or fixed value of each field on `f`, with confidence 1: a value a
    /// person confirmed is sure. The currency first, since money is read in it. The OCR line a
    /// value came from stays with it.
    static func apply(_ corrections: [String: String], to f: inout ReceiptFields) throws(Invalid) {
        let order = corrections.keys.sorted { ($0 == "currency" ? 0 : 1, $0) < ($1 == "currency" ? 0 : 1, $1) }
        for name in order {
            // A correction's date was judged against the clock and the data when it was typed
            // (`ReceiptReview.apply`); read back later, it is the person's recorded statement.
            try set(name, corrections[name]!, currency: f.currency?.value ?? "USD", confidence: 1, line: line(of: name, in: f), on: &f, judgeClock: false)
        }
    }

    /// Parses `text` as the value of `field` and sets it on `f`. A `stored` value (read back from
    /// `receipt_field`) skips the checks a typed value gets beyond its shape: a total read in a
    /// currency since fixed to one with fewer decimals must still read back, and then goes to
    /// review (`load` finds it does not fit), rather than making the receipt impossible to settle.
    static func set(_ field: String, _ text: String, currency: String, confidence: Double, line: Int, on f: inout ReceiptFields,
                    stored: Bool = false, latestData: Int64? = nil, judgeClock: Bool = true) throws(Invalid) {
        func bad(_ reason: String) -> Invalid { Invalid(field: field, value: text, reason: reason) }
        let t = text.trimmingCharacters(in: .whitespaces)
        switch field {
        case "total" where stored:
            do { f.total = .init(try DecimalNumber.parse(t), confidence: confidence, line: line) } catch { throw bad("\(error)") }
        case "total":
            f.total = .init(try money(t, currency: currency, field: field), confidence: confidence, line: line)
        case "unit-price":
            let n: DecimalNumber
            do { n = try DecimalNumber.parse(t) } catch { throw bad("\(error); type the price per litre or gallon, such as 1.599") }
            guard n.mantissa > 0 else { throw bad("a unit price is more than zero") }
            f.unitPrice = .init(n, confidence: confidence, line: line)
        case "date":
            guard let d = CivilDate(t), t.count == 10, t.contains("-") else { throw bad("not a date as YYYY-MM-DD, such as 2025-07-09 (day and month are never guessed)") }
            // The machine's clock is not trusted alone: a date up to the latest purchase the
            // warehouse already holds (`latestData`) is possible whatever the clock says.
            let limit = max(Timestamp.now(), latestData ?? .min)
            guard stored || !judgeClock || d <= CivilDate(daysSinceEpoch: Int(limit / 86_400_000) + 1) else {
                let data = latestData.map { ", and after the latest purchase the warehouse holds (\(Timestamp.iso($0)))" } ?? ""
                throw bad("a purchase date cannot be after this machine's clock (system time \(Timestamp.iso(Timestamp.now())), 1 day allowed for time zones)\(data); if the clock is wrong, set it right first")
            }
            // The years the warehouse holds, as every importer: 0001-01-01 is a placeholder.
            guard (1971...2200).contains(d.year) else { throw bad("a purchase date is in the years 1971–2200") }
            f.date = .init(d, confidence: confidence, line: line)
        case "time":
            let parts = t.split(separator: ":").map { Int($0) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }), t.count == parts.count * 3 - 1,
                  let h = parts[0], let m = parts[1], (0..<24).contains(h), (0..<60).contains(m), (parts.count == 2 || (0..<60).contains(parts[2]!))
            else { throw bad("not a time as HH:MM or HH:MM:SS (24-hour clock), such as 06:51") }
            f.time = .init(ReceiptFields.ClockTime(hour: h, minute: m, second: parts.count == 3 ? parts[2]! : 0), confidence: confidence, line: line)
        case "currency":
            guard CurrencyCode.isISO4217(t) else { throw bad("not an ISO 4217 currency code (three capital letters, such as USD, EUR or MYR)") }
            f.currency = .init(t, confidence: confidence, line: line)
        case "volume":
            f.volume = .init(try volume(t, field: field, bounded: !stored), confidence: confidence, line: line)
        case "merchant", "fuel-grade", "card-last4", "unit":
            // The importers' rule (`ControlText`): C0, DEL, C1 and the bidi controls, which make
            // a text display as something else (a right-to-left override in a merchant).
            guard !t.isEmpty, t.count <= 120, ControlText.firstControl(in: t) == nil else {
                throw bad("empty, longer than 120 characters, or holding control characters (such as a right-to-left override)")
            }
            if field == "merchant" { f.merchant = .init(ReceiptImporter.masked(t), confidence: confidence, line: line) }
            if field == "fuel-grade" { f.fuelGrade = .init(t, confidence: confidence, line: line) }
            if field == "card-last4" { f.cardLast4 = .init(t, confidence: confidence, line: line) }
            if field == "unit" { f.unitNumber = .init(t, confidence: confidence, line: line) }
        case "odometer":
            let parts = t.split(separator: " ")
            guard parts.count == 2, let v = Double(parts[0]), v.isFinite, v >= 0, ["km", "mi"].contains(parts[1]) else { throw bad("not a distance with km or mi") }
            f.odometer = .init(ReceiptFields.Odometer(value: v, unit: String(parts[1])), confidence: confidence, line: line)
        default:
            throw bad("no such receipt field; the fields are \(editable.joined(separator: ", "))")
        }
    }

    /// An amount with at most the currency's minor digits, more than zero. A trailing code must
    /// be the receipt's currency: fix `currency` first to change it.
    static func money(_ t: String, currency: String, field: String) throws(Invalid) -> DecimalNumber {
        let words = t.split(separator: " ")
        if words.count == 2, Money.isCurrencyCode(String(words[1])), String(words[1]) != currency {
            throw Invalid(field: field, value: t, reason: "the receipt's currency is \(currency); fix the currency first (`fleetkit review fix RECEIPT currency \(words[1])`)")
        }
        let digits = Money.minorDigits(currency)
        let n: DecimalNumber
        do { n = try DecimalNumber.parse(t) } catch { throw Invalid(field: field, value: t, reason: "\(error); type the amount such as 46.15") }
        guard n.scaled(to: digits) != nil else { throw Invalid(field: field, value: t, reason: "more decimals than \(currency) has (\(digits))") }
        guard n.mantissa > 0 else { throw Invalid(field: field, value: t, reason: "a receipt total is more than zero") }
        return n
    }

    /// A volume with its unit: `35.10 L`, `11.891 gal`; a bare number is refused, since litres and
    /// gallons differ by almost four times.
    static func volume(_ t: String, field: String, bounded: Bool = true) throws(Invalid) -> ReceiptFields.Volume {
        let lower = t.lowercased()
        let unit: ReceiptFields.VolumeUnit
        let number: Substring
        if lower.hasSuffix("imp gal") { unit = .imperialGallon; number = t.dropLast(7) } else if lower.hasSuffix("gal") { unit = .usGallon; number = t.dropLast(3) } else if lower.hasSuffix("l") { unit = .litre; number = t.dropLast(1) } else {
            throw Invalid(field: field, value: t, reason: "a volume needs its unit, L, gal (US) or imp gal, such as 35.10 L")
        }
        let n: DecimalNumber
        do { n = try DecimalNumber.parse(String(number)) } catch { throw Invalid(field: field, value: t, reason: "\(error); type it such as 35.10 L") }
        guard !bounded || (n.mantissa > 0 && n.double * unit.millilitres <= 2_000_000) else {
            throw Invalid(field: field, value: t, reason: "a purchase of more than zero and at most 2,000 L")
        }
        return ReceiptFields.Volume(amount: n, unit: unit)
    }

    static func volumeText(_ v: ReceiptFields.Volume) -> String { "\(v.amount) \(v.unit.rawValue)" }

    static func timeText(_ t: ReceiptFields.ClockTime) -> String { t.second == 0 ? t.description : t.description + String(format: ":%02d", t.second) }

    /// The OCR line (0-based) a field was read from, or -1.
    static func line(of name: String, in f: ReceiptFields) -> Int {
        switch name {
        case "total": return f.total?.line ?? -1
        case "date": return f.date?.line ?? -1
        case "volume": return f.volume?.line ?? -1
        case "currency": return f.currency?.line ?? -1
        case "unit-price": return f.unitPrice?.line ?? -1
        case "time": return f.time?.line ?? -1
        case "merchant": return f.merchant?.line ?? -1
        case "fuel-grade": return f.fuelGrade?.line ?? -1
        default: return -1
        }
    }
}
