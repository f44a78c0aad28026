import Foundation
import FleetCore

/// Where a receipt is from, and what that settles: the currency a bare `$` or an unmarked amount
/// means, the decimal mark, the day/month order, the fuel and distance units.
///
/// Evidence comes from the receipt first (`ReceiptCountry`: address words, states and postcodes,
/// phone prefix and domestic phone shapes, tax and company id shapes, legal forms, currency marks
/// printed beside amounts, language words) and only then from the fleet's settings (its currency
/// and time zone). Each piece of evidence names the table's countries it fits; a property is
/// settled when every piece that has one value for it agrees. When pieces disagree the property
/// is *contested*: the fields that depend on it are flagged for review, never guessed.
public struct ReceiptLocale: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        /// The receipt's own text.
        case receipt
        /// The fleet's currency or time zone: the receipt names no country.
        case fleet
    }

    public struct Evidence: Sendable, Equatable, CustomStringConvertible {
        /// `address`, `phone`, `id`, `legal form`, `brand`, `currency`, `language`, `fleet`.
        public var kind: String
        /// The text that was matched.
        public var text: String
        /// The OCR line (-1 for the fleet's settings).
        public var line: Int
        /// The table's countries it fits.
        public var countries: [String]
        public var description: String { "\(kind) '\(text)'\(line >= 0 ? " (line \(line + 1))" : "") → \(countries.joined(separator: "/"))" }
    }

    /// A property as decided: its value, where it came from, or contested.
    public struct Decision<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value?
        public var source: Source?
        /// Pieces of receipt evidence named different values: the dependent field is flagged.
        public var contested: Bool
    }

    /// The country most receipt evidence names, when one leads; nil otherwise.
    public var country: String?
    public var evidence: [Evidence]
    public var currency: Decision<String>
    /// The currency by the evidence other than printed marks (address, phone, ids, language):
    /// what settles a tie of marks and what a printed mark must not contradict.
    public var currencyBesideMarks: Decision<String>
    /// What a bare `$` means.
    public var dollarSign: Decision<String>
    public var dayFirst: Decision<Bool>
    public var decimalMark: Decision<Character>
    public var fuelUnit: Decision<ReceiptFields.VolumeUnit>
    public var distanceUnit: Decision<String>
    /// The Tesseract language of the receipt's words when not English (`ReceiptCountry.ocrLanguage`).
    public var ocrLanguage: Decision<String>
    /// Decimals printed on money in the settled currency's country (`$90.300` COP: 0).
    public var printedMinorDigits: Int?

    /// One line of the decision, for review notes: the country and its evidence.
    public var summary: String {
        let head = country.map { "country \($0)" } ?? "country not settled"
        let contested = [currency.contested ? "currency" : nil, dayFirst.contested ? "date order" : nil,
                         decimalMark.contested ? "decimal mark" : nil].compactMap { $0 }
        return head + " from " + (evidence.isEmpty ? "nothing" : evidence.prefix(4).map(\.description).joined(separator: "; "))
            + (contested.isEmpty ? "" : "; contested: " + contested.joined(separator: ", "))
    }

    /// The locale of lines of text (folded keys and text as read), then the fleet's settings.
    static func decide(texts: [String], keys: [String], fleetCurrency: String, fleetZone: String?) -> ReceiptLocale {
        let evidence = Self.evidence(texts: texts, keys: keys)
        var fleet: [Evidence] = []
        let byCurrency = ReceiptCountry.all.filter { $0.currency == fleetCurrency }.map(\.code)
        if !byCurrency.isEmpty { fleet.append(Evidence(kind: "fleet currency", text: fleetCurrency, line: -1, countries: byCurrency)) }
        if let zone = fleetZone, let c = ReceiptCountry.all.first(where: { $0.zones.contains(zone) }) {
            fleet.append(Evidence(kind: "fleet time zone", text: zone, line: -1, countries: [c.code]))
        }
        func decide<V: Equatable>(_ property: (ReceiptCountry) -> V?, from evidence: [Evidence] = evidence) -> Decision<V> {
            func votes(_ pieces: [Evidence]) -> [V] {
                pieces.compactMap { e -> V? in
                    let values = e.countries.compactMap(ReceiptCountry.named).map(property)
                    guard let first = values.first, let v = first, values.allSatisfy({ $0 == v }) else { return nil }
                    return v
                }
            }
            let fromReceipt = votes(evidence)
            if let v = fromReceipt.first {
                if fromReceipt.allSatisfy({ $0 == v }) { return Decision(value: v, source: .receipt, contested: false) }
                return Decision(value: nil, source: .receipt, contested: true)
            }
            let fromFleet = votes(fleet)
            if let v = fromFleet.first, fromFleet.allSatisfy({ $0 == v }) { return Decision(value: v, source: .fleet, contested: false) }
            return Decision(value: nil, source: nil, contested: false)
        }
        var tally: [String: Int] = [:]
        for e in evidence { for c in e.countries { tally[c, default: 0] += 1 } }
        let top = tally.values.max() ?? 0
        let leaders = tally.filter { $0.value == top }.map(\.key)
        let currency = decide({ $0.currency })
        let settled = currency.value.flatMap { code in ReceiptCountry.all.first { $0.currency == code } }
        return ReceiptLocale(
            country: leaders.count == 1 ? leaders[0] : nil, evidence: evidence, currency: currency,
            currencyBesideMarks: decide({ $0.currency }, from: evidence.filter { $0.kind != "currency" }),
            dollarSign: decide({ $0.dollarSign }), dayFirst: decide({ $0.dayFirst }), decimalMark: decide({ $0.decimalMark }),
            fuelUnit: decide({ $0.fuelUnit }), distanceUnit: decide({ $0.distanceUnit }), ocrLanguage: decide({ $0.ocrLanguage }),
            printedMinorDigits: currency.contested ? nil : settled?.printedMinorDigits)
    }

    /// At most this many pieces of evidence are kept (a hostile text could name thousands).
    static let maxEvidence = 32

    /// The receipt's evidence of its country, line by line.
    static func evidence(texts: [String], keys: [String]) -> [Evidence] {
        var out: [Evidence] = []
        func add(_ kind: String, _ text: String, _ line: Int, _ countries: [String]) {
            guard !countries.isEmpty, out.count < maxEvidence,
                  !out.contains(where: { $0.kind == kind && $0.text == text && $0.countries == countries }) else { return }
            out.append(Evidence(kind: kind, text: text, line: line, countries: countries))
        }
        for (i, key) in keys.enumerated() {
            let text = i < texts.count ? texts[i] : key
            for c in ReceiptCountry.all {
                for w in c.addressWords where ReceiptPatterns.contains(key, w) { add("address", w, i, [c.code]) }
                // A word several countries' receipts print (Spanish) names them all.
                for w in c.languageWords where ReceiptPatterns.contains(key, w) { add("language", w, i, countries { $0.languageWords.contains(w) }) }
                if i < ReceiptCountry.brandLines {
                    for b in c.brands where ReceiptPatterns.contains(key, b) { add("brand", b, i, countries { $0.brands.contains(b) }) }
                }
                for f in c.legalForms where ReceiptPatterns.contains(key, f) { add("legal form", f, i, countries { $0.legalForms.contains(f) }) }
                if ReceiptPatterns.has(key, c.phonePrefix), let r = key.range(of: c.phonePrefix),
                   key[r.upperBound...].first.map({ $0 == " " || $0 == "-" || $0.isNumber }) ?? false,
                   !(key[..<r.lowerBound].last?.isNumber ?? false) {
                    // `+1` is a prefix of `+1x…` only when no longer prefix of the table matches.
                    let longer = ReceiptCountry.all.contains { $0.phonePrefix.count > c.phonePrefix.count && $0.phonePrefix.hasPrefix(c.phonePrefix) && key.contains($0.phonePrefix) }
                    if !longer { add("phone", c.phonePrefix, i, countries { $0.phonePrefix == c.phonePrefix }) }
                }
            }
            // An id shape names every country that prints it.
            var ids: [(text: String, countries: [String])] = []
            if key.contains(where: \.isNumber) {
                for c in ReceiptCountry.all {
                    for re in ReceiptCountry.compiledIDPatterns[c.code] ?? [] {
                        guard let m = re.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)), let r = Range(m.range, in: key) else { continue }
                        let text = String(key[r])
                        if let k = ids.firstIndex(where: { $0.text == text }) { ids[k].countries.append(c.code) } else { ids.append((text, [c.code])) }
                    }
                }
            }
            for id in ids { add("id", id.text, i, id.countries) }
            // A currency printed beside an amount names the countries of that currency.
            for code in Set(ReceiptCurrency.printed(in: text)) where code != "$" {
                add("currency", code, i, countries { $0.currency == code })
            }
            if let us = ReceiptCurrency.usStateAndZIP(key) { add("address", us, i, ["US"]) }
            if let uk = ReceiptCurrency.ukPostcode(key) { add("address", uk, i, ["GB"]) }
        }
        return out
    }

    static func countries(_ filter: (ReceiptCountry) -> Bool) -> [String] { ReceiptCountry.all.filter(filter).map(\.code) }
}
