import Foundation
import FleetCore

/// The currency of a receipt, and where it came from, in this order of trust:
///
/// 1. **printed**: a symbol or code standing beside an amount (`RM 41.95`, `74,07 EUR`,
///    `€1.599/L`). A mark away from any amount is a speck of logo or noise, not a currency: a
///    stray `rm` in a word made a euro slip ringgit, and a `¥` speck beside a `1` made another
///    yen. So two-letter codes count in capitals only, a mark must touch an amount of two
///    characters or more, and a zero-decimal currency (¥) is not taken beside an amount with cents.
/// 2. **language**: words only one currency area prints (`SUMME`, `MwSt`, `TTC`, `MOKĖTI`, `JUMLAH`).
/// 3. **country**: the merchant's country, from a VAT number (`DE812706034`), a phone prefix
///    (`+370`), a legal form (`GmbH`, `Sdn Bhd`), a US state and ZIP code or a UK postcode.
/// 4. **fleet**: the fleet's base currency, with a confidence below the review threshold.
struct ReceiptCurrency {
    typealias Line = ReceiptExtractor.Line

    static let marks: [(mark: String, code: String)] = [("EURO", "EUR")] + ReceiptPatterns.currencyMarks
    static let markChars: [(mark: [Character], code: String)] = marks.map { (Array($0.mark), $0.code) }
    static let markStarts = Set(markChars.map { $0.mark[0] })

    /// Words of one currency area's receipts (matched as whole words on folded text).
    static let languageWords: [(code: String, words: [String])] = [
        ("EUR", ["SUMME", "MWST", "RUCKGELD", "RUECKGELD", "GEGEBEN", "ZWISCHENSUMME", "BRUTTO", "GESAMTBETRAG", "UHRZEIT", "KASSE",
                 "TTC", "TVA", "ESPECES", "NET A PAYER", "RENDU", "MONNAIE",
                 "TOTAAL", "BTW", "TE BETALEN", "WISSELGELD",
                 "MOKETI", "PVM", "KVITAS", "GRYNIEJI", "GRAZA", "KORTELE", "LITRAI",
                 "TOTALE", "CONTANTI", "SCONTRINO"]),
        ("MYR", ["JUMLAH", "TUNAI", "BAKI", "KEMBALI", "CUKAI", "RINGGIT"]),
        ("PLN", ["PTU", "PARAGON FISKALNY", "RAZEM", "GOTOWKA", "RESZTA", "SPRZEDAZ"]),
        ("JPY", ["合計", "お預り", "お釣り", "釣銭", "現金"]),
    ]

    /// VAT number prefixes and the currency of the country.
    static let vatPrefixes: [String: String] = [
        "DE": "EUR", "FR": "EUR", "LT": "EUR", "NL": "EUR", "ATU": "EUR", "IT": "EUR", "ES": "EUR", "BE": "EUR", "IE": "EUR",
        "PT": "EUR", "FI": "EUR", "EE": "EUR", "LV": "EUR", "SK": "EUR", "SI": "EUR", "LU": "EUR", "EL": "EUR", "GB": "GBP", "PL": "PLN",
    ]
    static let phonePrefixes: [(String, String)] = [
        ("+49", "EUR"), ("+33", "EUR"), ("+370", "EUR"), ("+31", "EUR"), ("+43", "EUR"), ("+39", "EUR"), ("+34", "EUR"), ("+32", "EUR"),
        ("+44", "GBP"), ("+60", "MYR"), ("+65", "SGD"), ("+48", "PLN"), ("+81", "JPY"),
    ]
    static let legalForms: [(String, String)] = [
        ("GMBH", "EUR"), ("SDN BHD", "MYR"), ("SDN. BHD", "MYR"), ("UAB", "EUR"), ("SARL", "EUR"), ("B.V", "EUR"), ("PLC", "GBP"),
        ("LLC", "USD"), ("INC", "USD"),
    ]
    static let usStates: Set<String> = ["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
                                        "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK",
                                        "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC"]

    struct Decision { var field: ReceiptFields.Field<String>; var source: ReceiptFields.CurrencySource }

    static func decide(_ lines: [Line], fleet: String) -> Decision {
        var countryRead = false, countryFound: (code: String, line: Int)? = nil
        var country: (code: String, line: Int)? {
            get {
                if !countryRead { countryFound = countryCurrency(lines); countryRead = true }
                return countryFound
            }
        }
        var votes: [String: (count: Int, line: Int, factor: Double)] = [:]
        for (i, line) in lines.enumerated() where !line.numbers.isEmpty {
            for code in printed(in: line.text) {
                let c = code != "$" ? code
                    : ["USD", "CAD", "AUD", "NZD", "SGD", "HKD"].contains(country?.code ?? "") ? country!.code
                    : ["USD", "CAD", "AUD", "NZD", "SGD", "HKD"].contains(fleet) ? fleet : "USD"
                let v = votes[c] ?? (0, i, line.factor)
                votes[c] = (v.count + 1, v.line, max(v.factor, line.factor))
            }
        }
        // Marks printed equally often (`TOTAL S$ 73-58` over `VISA … $ 73.58`: OCR doubled the
        // dollar sign into `S$`) are settled by the merchant's country when it names one of
        // them, else by the first line.
        let most = votes.values.map(\.count).max() ?? 0
        let tied = votes.filter { $0.value.count == most }
        let settled = tied.count > 1 ? tied.first(where: { $0.key == country?.code }) : nil
        // Ties on count and first line go to the code last in alphabetical order: never to the
        // dictionary's iteration order, which differs between two dictionaries of the same
        // content (per-instance hash seeds), so the same text would read two ways (found by the
        // fuzz harness's judge invariant: `$45.67 … EUR 94,35` on one line).
        if let best = settled ?? votes.max(by: { ($0.value.count, -$0.value.line, $0.key) < ($1.value.count, -$1.value.line, $1.key) }) {
            let contested = votes.count > 1
            return Decision(field: .init(best.key, confidence: (best.value.count > 1 ? 0.95 : 0.85) * (contested ? 0.8 : 1) * max(best.value.factor, 0.7),
                                         line: best.value.line), source: .printed)
        }
        var hits: [String: (count: Int, line: Int)] = [:]
        for (i, line) in lines.enumerated() {
            for (code, words) in languageWords where words.contains(where: { ReceiptPatterns.contains(line.key, $0) }) {
                let h = hits[code] ?? (0, i)
                hits[code] = (h.count + 1, h.line)
            }
        }
        if let best = hits.max(by: { ($0.value.count, -$0.value.line, $0.key) < ($1.value.count, -$1.value.line, $1.key) }) {
            let contested = hits.count > 1
            return Decision(field: .init(best.key, confidence: min(0.8, 0.6 + 0.05 * Double(best.value.count)) * (contested ? 0.8 : 1), line: best.value.line),
                            source: .language)
        }
        if let country {
            return Decision(field: .init(country.code, confidence: 0.65, line: country.line), source: .country)
        }
        return Decision(field: .init(fleet, confidence: 0.5, line: 0), source: .fleet)
    }

    /// The currencies printed beside an amount on one line, one per mark.
    static func printed(in text: String) -> [String] {
        let c = Array(text)
        let upper = c.map { x -> Character in
            guard let a = x.asciiValue, a >= 97, a <= 122 else { return x }
            return Character(Unicode.Scalar(a - 32))
        }
        func d(_ k: Int) -> Bool { k >= 0 && k < c.count && c[k].isASCII && c[k].isNumber }
        func letter(_ k: Int) -> Bool { k >= 0 && k < c.count && c[k].isLetter }
        /// The amount touching the mark, as text: after it (`RM 41.95`) or before it (`74,07 EUR`).
        func amount(from k: Int, step: Int) -> String {
            var p = k
            while p >= 0, p < c.count, c[p] == " " || c[p] == ":" || (step > 0 && c[p] == "=") { p += step }
            var q = p, s = ""
            while q >= 0, q < c.count, d(q) || ((c[q] == "." || c[q] == ",") && d(q + step)) {
                s.append(c[q])
                q += step
            }
            return step > 0 ? s : String(s.reversed())
        }
        var out: [String] = []
        var k = 0
        while k < c.count {
            guard markStarts.contains(upper[k]) else { k += 1; continue }
            var matched = false
            for (m, code) in markChars {
                guard k + m.count <= c.count, upper[k] == m[0], upper[k..<(k + m.count)].elementsEqual(m) else { continue }
                let mark = String(m)
                let isWord = m.allSatisfy(\.isLetter)
                if isWord {
                    guard !letter(k - 1), !letter(k + m.count) else { continue }
                    let raw = c[k..<(k + m.count)]
                    if m.count <= 2 ? !raw.allSatisfy(\.isUppercase) : raw.allSatisfy(\.isLowercase) { continue }
                }
                let after = amount(from: k + m.count, step: 1), before = amount(from: k - 1, step: -1)
                // `RN` is the OCR slip for `RM` only before an amount; a word otherwise.
                let candidates = mark == "RN" ? [after] : [after, before]
                let zeroDecimals = Money.minorDigits(code == "$" ? "USD" : code) == 0
                let fits = candidates.contains { a in
                    a.count >= 2 && !(zeroDecimals && a.count >= 3 && (a.dropLast(2).last == "." || a.dropLast(2).last == ",") && a.filter { $0 == "." || $0 == "," }.count == 1)
                }
                matched = true
                k += m.count
                if fits { out.append(code) }
                break
            }
            if !matched { k += 1 }
        }
        return out
    }

    /// The merchant's country's currency, from the first sign of it on the slip.
    static func countryCurrency(_ lines: [Line]) -> (code: String, line: Int)? {
        for (i, line) in lines.enumerated() {
            let key = line.key
            let words = key.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
            // A VAT number: a country prefix, then 8 to 12 digits (spaces allowed).
            for (w, word) in words.enumerated() {
                let letters = String(word.prefix(while: \.isLetter))
                guard let code = vatPrefixes[letters] else { continue }
                var digits = word.dropFirst(letters.count).filter(\.isNumber).count
                var n = w + 1
                while digits < 8, n < words.count, words[n].allSatisfy(\.isNumber) { digits += words[n].count; n += 1 }
                if (8...12).contains(digits), word.dropFirst(letters.count).allSatisfy(\.isNumber) { return (code, i) }
            }
            for (prefix, code) in phonePrefixes where ReceiptPatterns.has(key, prefix) {
                if let r = key.range(of: prefix), key[r.upperBound...].first.map({ $0 == " " || $0.isNumber }) ?? false { return (code, i) }
            }
            for (form, code) in legalForms where ReceiptPatterns.contains(key, form) { return (code, i) }
            // A US state and ZIP code ending an address line: `JOLIET IL 60435`, `IL 60435-1234`.
            if words.count >= 2, let zip = words.last, zip.count == 5 || zip.count == 4, zip.allSatisfy(\.isNumber) {
                let state = words.count >= 3 && zip.count == 4 && words[words.count - 2].count == 5 ? words[words.count - 3] : words[words.count - 2]
                if zip.count == 5 || words[words.count - 2].allSatisfy(\.isNumber), usStates.contains(state), words.count >= 3 { return ("USD", i) }
            }
            // A UK postcode: `SW1A 1AA`, `M1 1AE`.
            for (w, word) in words.enumerated() where w + 1 < words.count {
                let next = Array(words[w + 1]), a = Array(word)
                guard (2...4).contains(a.count), a[0].isLetter, a.contains(where: \.isNumber), a.filter(\.isLetter).count <= 3,
                      next.count == 3, next[0].isNumber, next[1].isLetter, next[2].isLetter else { continue }
                if a.prefix(while: \.isLetter).count <= 2, a.dropFirst(a.prefix(while: \.isLetter).count).first?.isNumber ?? false { return ("GBP", i) }
            }
        }
        return nil
    }
}
