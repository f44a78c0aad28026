import Foundation
import FleetCore

/// The vocabulary and text repairs receipt extraction relies on: keywords in the languages the
/// fixtures and the field notes cover, currency marks, month names, and the fixes for the OCR
/// slips seen on real slips (a space inside a number, O/0, l/1, S/5 swaps, stray symbols).
enum ReceiptPatterns {
    // MARK: - Keywords (matched on `key(_:)` text: upper case, diacritics folded)

    /// Words that introduce the amount paid, with how strongly. A specific phrase beats the
    /// bare word TOTAL, which beats words that also introduce other amounts (AMOUNT, SALE).
    static let totalKeywords: [(phrase: String, weight: Double)] = [
        ("AMOUNT DUE", 1), ("TOTAL DUE", 1), ("BALANCE DUE", 1), ("GRAND TOTAL", 1), ("TOTAL SALE", 1), ("TOTAL TTC", 1),
        ("NET A PAYER", 1), ("A PAYER", 0.95), ("SUMME", 1), ("GESAMTBETRAG", 1), ("ZU ZAHLEN", 1), ("MOKETI", 1), ("TOTAAL", 1),
        ("TE BETALEN", 1), ("TOTALE", 0.95), ("IMPORTE TOTAL", 1), ("JUMLAH BESAR", 1), ("合計", 1), ("合计", 1), ("總計", 1), ("总计", 1),
        ("합계", 1), ("TOTAL A PAGAR", 1), ("VALOR A PAGAR", 1),
        ("TOTAL", 0.9), ("GESAMT", 0.85), ("JUMLAH", 0.8), ("AMOUNT", 0.7), ("BETRAG", 0.7), ("MONTANT", 0.7), ("SALE", 0.7), ("VISO", 0.7),
    ]

    /// Lines that carry an amount that is not the total: tendered cash and change, tax, subtotals,
    /// savings, counts. Checked before the total keywords, so `TOTAL TAX` or `CASH TOTAL` never win.
    static let notTotal = [
        "SUBTOTAL", "SUB TOTAL", "SUB-TOTAL", "ZWISCHENSUMME", "NETTO", "NET AMOUNT", "TAX", "VAT", "MWST", "UST", "TVA", "GST", "HST", "PST", "PVM", "BTW", "IVA", "SST",
        "CASH", "BAR", "TENDER", "TENDERED", "GEGEBEN", "ERHALTEN", "CHANGE", "RUCKGELD", "RUECKGELD", "RENDU", "MONNAIE", "ESPECES", "GRAZA", "GRAZINTA",
        "WISSELGELD", "CONTANT", "KEMBALI", "BAKI", "TUNAI", "TIP", "GRATUITY", "SAVINGS", "SAVED", "DISCOUNT", "RABATT", "REMISE", "POINTS", "PUNKTE", "REWARDS",
        "ITEMS", "QTY", "ARTIKEL", "BALANCE", "お預り", "お釣り", "釣銭", "現金",
    ]

    static let cardWords = ["VISA", "MASTERCARD", "MASTER CARD", "MC", "AMEX", "AMERICAN EXPRESS", "DISCOVER", "DEBIT", "CREDIT", "CARD", "KARTE",
                            "CARTE", "KORTELE", "MAESTRO", "GIROCARD", "EC", "WEX", "FLEETCOR", "FLEET", "VOYAGER", "ACCT", "ACCOUNT", "PAN"]
    static let unitLabels = ["VEHICLE NO", "VEHICLE NUMBER", "VEHICLE", "UNIT NO", "UNIT NUMBER", "UNIT", "TRUCK NO", "TRUCK", "FLEET NO", "FAHRZEUG",
                             "KENNZEICHEN", "VEHICULE", "TRANSPORTO PRIEMONE", "VOERTUIG", "KENDERAAN"]
    static let odometerLabels = ["ODOMETER", "ODO", "MILEAGE", "KM-STAND", "KM STAND", "KILOMETERSTAND", "KILOMETRAGE", "RIDA", "KM STAND", "KMSTAND"]
    static let dateLabels = ["DATE", "DATUM", "DATA", "FECHA", "TARIKH", "日付"]

    /// Fuel grades as printed; the first pattern that matches a line names the grade. Each runs
    /// only on lines whose folded text holds one of its anchors.
    static let gradePatterns: [(anchors: [String], pattern: String)] = [
        (["POWER"], #"\bV-?POWER(\s+(9[5-9]|100|DIESEL|RACING))?\b"#), (["FUELSAVE"], #"\bFUELSAVE(\s+(95|DIESEL))?\b"#),
        (["SYNERGY"], #"\bSYNERGY(\s+(9[58]|DIESEL|PRIMAX))?\b"#),
        (["UNL"], #"\b(UNLEADED|UNL)\s+(REGULAR|PLUS|PREMIUM|SUPER|MIDGRADE)\b"#), (["ULSD"], #"\bULSD(\s+DIESEL)?\b"#),
        (["PREMIUM"], #"\bPREMIUM\s+DIESEL\b"#),
        (["DIESEL"], #"\bDIESEL(\s+(#\s?[12]|B\s?\d{1,2}))?\b"#), (["SUPER"], #"\bSUPER(\s+(E\s?10|E\s?5|95|98|PLUS))?\b"#),
        (["SP"], #"\bSP\s?9[58](-?E\s?10)?\b"#), (["GAZOLE"], #"\bGAZOLE\b"#),
        (["RON"], #"\bRON\s?9[2578]\b"#),
        (["EURO"], #"\bEURO\s?9[58]\b"#), (["BENZINAS"], #"\bBENZINAS\s?9[58]\b"#), (["DYZELINAS"], #"\bDYZELINAS\b"#),
        (["OCTANE"], #"\bHIGH\s+OCTANE\b"#), (["OCTANE"], #"\bHI-?OCTANE\b"#), (["10", "85"], #"\bE\s?(10|85)\b"#),
        (["REGULAR", "PREMIUM", "MIDGRADE", "PLUS"], #"\b(REGULAR|PREMIUM|MIDGRADE|PLUS)\s+(UNLEADED|GAS|GASOLINE)\b"#),
        (["UNLEADED"], #"\bUNLEADED\b"#), (["REGULAR"], #"\bREGULAR\b"#), (["PREMIUM"], #"\bPREMIUM\b"#),
        (["MIDGRADE"], #"\bMIDGRADE\b"#), (["PETROL"], #"\bPETROL\b"#), (["BENZIN"], #"\bBENZIN\b"#), (["ADBLUE"], #"\bADBLUE\b"#),
        (["DEF"], #"\bDEF\b"#), (["LPG"], #"\bLPG\b"#), (["AUTOGAS"], #"\bAUTOGAS\b"#), (["CNG"], #"\bCNG\b"#),
    ]

    static let months: [String: Int] = [
        "JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "SEPT": 9, "OCT": 10, "NOV": 11, "DEC": 12,
        "JANV": 1, "FEV": 2, "MARS": 3, "AVR": 4, "MAI": 5, "JUIN": 6, "JUIL": 7, "AOUT": 8, "OKT": 10, "DEZ": 12, "MRZ": 3, "MAR.": 3,
        "JANUARY": 1, "FEBRUARY": 2, "MARCH": 3, "APRIL": 4, "JUNE": 6, "JULY": 7, "AUGUST": 8, "SEPTEMBER": 9, "OCTOBER": 10, "NOVEMBER": 11, "DECEMBER": 12,
    ]

    /// Fuel prices per litre no pump has charged outside of (in the currency, generous bounds):
    /// a volume or price implying another price is a misreading (`EUR/1L` read as 1 litre).
    static let plausiblePricePerLitre: [String: ClosedRange<Double>] = [
        "USD": 0.3...3.5, "CAD": 0.5...4, "AUD": 0.5...4, "NZD": 0.5...5, "EUR": 0.5...4, "GBP": 0.5...4, "CHF": 0.5...5,
        "MYR": 1...8, "COP": 1000...10000, "SGD": 1...8, "JPY": 60...400, "PLN": 2...15, "SEK": 5...40, "NOK": 5...40, "DKK": 5...40,
        "MXN": 10...40, "BRL": 3...12, "KRW": 800...3000, "INR": 50...200, "IDR": 5000...30000, "MAD": 6...25,
    ]

    // MARK: - Currency

    /// Marks that name a currency, longest first so `S$` is not read as `$`. `RN` is the common
    /// OCR slip for `RM`. `Rp` (rupiah), `Rs` (rupee) and `Dh` (dirham) also count in the case
    /// they are printed in (`ReceiptCurrency.conventionalCase`).
    static let currencyMarks: [(mark: String, code: String)] = [
        ("MX$", "MXN"), ("MXN", "MXN"), ("R$", "BRL"), ("BRL", "BRL"), ("COP", "COP"), ("KRW", "KRW"), ("₩", "KRW"), ("S$", "SGD"), ("SGD", "SGD"), ("US$", "USD"), ("USD", "USD"), ("C$", "CAD"), ("CAD", "CAD"), ("A$", "AUD"), ("AUD", "AUD"),
        ("EUR", "EUR"), ("€", "EUR"), ("GBP", "GBP"), ("£", "GBP"), ("MYR", "MYR"), ("RM", "MYR"), ("RN", "MYR"), ("JPY", "JPY"), ("YEN", "JPY"),
        ("¥", "JPY"), ("円", "JPY"), ("CHF", "CHF"), ("PLN", "PLN"), ("ZL", "PLN"), ("SEK", "SEK"), ("NOK", "NOK"), ("DKK", "DKK"),
        ("THB", "THB"), ("PHP", "PHP"), ("INR", "INR"), ("₹", "INR"), ("RS", "INR"), ("IDR", "IDR"), ("RP", "IDR"), ("MAD", "MAD"),
        ("DHS", "MAD"), ("DH", "MAD"), ("NZD", "NZD"), ("$", "$"),
    ]

    // MARK: - Text repairs

    /// Upper case with diacritics folded (`MOKĖTI` → `MOKETI`, `Rückgeld` → `RUCKGELD`), for
    /// keyword matching only; values are read from the line as printed.
    static func key(_ text: String) -> String {
        // Most OCR lines are ASCII, where folding changes nothing and upper case is a byte map.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).uppercased()
    }

    /// Whether `phrase` occurs in `key` as whole words (`TOTAL` is not in `TOTALENERGIES`,
    /// `SUBTOTAL` is not `TOTAL`). CJK phrases match anywhere.
    ///
    /// Compares UTF-8 bytes: extraction asks this for every keyword of every list on every
    /// line (thousands of times a receipt), and Foundation's `range(of:)` on Linux costs many
    /// times more. A neighbouring letter is decided on the whole Unicode scalar.
    static func contains(_ key: String, _ phrase: String) -> Bool {
        find(key, phrase, wholeWords: true)
    }

    /// Whether a word of `key` reads as `word` allowing what OCR does to a printed word: its
    /// letters spaced out (`S U M M E`), digits for look-alike letters (`R\u{fc}ck9e1d`), and one
    /// other wrong letter (`SUHHE`, `RUCKGELU`). Only for words of five letters or more, whose
    /// one-letter neighbours are not other receipt words; a match is weaker evidence than the
    /// word itself.
    static func resembles(_ key: String, _ word: String) -> Bool { resembles(wordTokens(key), word) }

    /// The words of a key as bytes (letters and digits); a run of four or more single letters
    /// separated by spaces is one word (`S U M H E`).
    static func wordTokens(_ key: String) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        var current: [UInt8] = [], spaced: [UInt8] = []
        func endRun() { if spaced.count >= 4 { tokens.append(spaced) }; spaced = [] }
        func flush(atSpace: Bool) {
            if current.count == 1, current[0] >= 65, current[0] <= 90 { spaced.append(current[0]) } else {
                endRun()
                if !current.isEmpty { tokens.append(current) }
            }
            current = []
            if !atSpace { endRun() }
        }
        for b in key.utf8 {
            if (b >= 65 && b <= 90) || (b >= 48 && b <= 57) { current.append(b) } else { flush(atSpace: b == 32) }
            if tokens.count > 64 { break }   // a receipt line has a handful of words
        }
        flush(atSpace: false)
        return tokens
    }

    /// Letters OCR confuses with each other or with digits (either order).
    private static let lookAlike: Set<UInt16> = {
        let pairs: [(Character, Character)] = [("0", "O"), ("1", "L"), ("1", "I"), ("5", "S"), ("9", "G"), ("8", "B"), ("2", "Z"), ("6", "G"),
                                               ("M", "H"), ("M", "N"), ("H", "N"), ("U", "O"), ("O", "D"), ("U", "D"), ("I", "L"), ("E", "F"), ("C", "G")]
        var set = Set<UInt16>()
        for (a, b) in pairs {
            let x = UInt16(a.asciiValue!), y = UInt16(b.asciiValue!)
            set.insert(x << 8 | y)
            set.insert(y << 8 | x)
        }
        return set
    }()

    /// One of `tokens` is `word` with at most one wrong letter and at most two look-alikes, or
    /// `word` with one letter inserted (`SUMMWE`: a stroke of the M read as a letter of its own).
    static func resembles(_ tokens: [[UInt8]], _ word: String) -> Bool {
        let target = Array(word.utf8)
        guard target.count >= 5 else { return false }
        return tokens.contains { t in
            if t.count == target.count + 1 {
                // The first difference is the inserted letter, inside the word (not `SUMMER`
                // for `SUMME`); the rest must then be equal.
                var k = 0
                while k < target.count, t[k] == target[k] { k += 1 }
                return k > 0 && k < target.count && t[(k + 1)...].elementsEqual(target[k...])
            }
            guard t.count == target.count, t.contains(where: { $0 >= 65 && $0 <= 90 }) else { return false }
            var wrong = 0, alike = 0
            for (a, b) in zip(t, target) where a != b {
                if lookAlike.contains(UInt16(a) << 8 | UInt16(b)) { alike += 1 } else { wrong += 1 }
                if wrong > 1 || alike > 2 || wrong + alike > 2 { return false }
            }
            return true
        }
    }

    /// Whether `part` occurs anywhere in `text` (bytes compared, no word boundaries).
    static func has(_ text: String, _ part: String) -> Bool {
        find(text, part, wholeWords: false)
    }

    private static func find(_ key: String, _ phrase: String, wholeWords: Bool) -> Bool {
        var key = key, phrase = phrase
        let cjk = phrase.unicodeScalars.first.map { $0.value > 0x2E80 } ?? false
        return key.withUTF8 { k in
            phrase.withUTF8 { p in
                guard !p.isEmpty, p.count <= k.count, let kb = k.baseAddress, let pb = p.baseAddress else { return false }
                // memchr for the first byte, memcmp for the rest: the C library's loops.
                var i = 0
                let last = k.count - p.count
                while i <= last {
                    guard let hit = memchr(kb + i, Int32(pb[0]), last - i + 1) else { return false }
                    i = UnsafeRawPointer(hit) - UnsafeRawPointer(kb)
                    if memcmp(kb + i, pb, p.count) == 0,
                       !wholeWords || cjk || (!letter(before: i, in: k) && !letter(at: i + p.count, in: k)) { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether the scalar ending just before byte `i` is a letter.
    private static func letter(before i: Int, in k: UnsafeBufferPointer<UInt8>) -> Bool {
        guard i > 0 else { return false }
        var start = i - 1
        while start > 0, k[start] & 0xC0 == 0x80 { start -= 1 }
        return letter(at: start, in: k)
    }

    /// Whether the scalar starting at byte `i` is a letter.
    private static func letter(at i: Int, in k: UnsafeBufferPointer<UInt8>) -> Bool {
        guard i < k.count else { return false }
        let b = k[i]
        if b < 0x80 { return (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        var end = i + 1
        while end < k.count, k[end] & 0xC0 == 0x80 { end += 1 }
        guard let scalar = String(decoding: UnsafeBufferPointer(rebasing: k[i..<end]), as: UTF8.self).unicodeScalars.first else { return false }
        return scalar.properties.isAlphabetic
    }

    /// Repairs the OCR slips that break numbers, so that the number patterns can read them:
    /// unusual dashes and commas, a space after or before a decimal mark (`85. 54`), letters
    /// read for digits inside a number (`4O.5O`, `l2.345`, `S.00`), a stray `%` after an amount,
    /// a litre sign read as `1` after a currency (`EUR/1L`).
    ///
    /// Each rule is one pass over the characters that reads the previous pass's output (as a
    /// regular-expression replacement would) and writes a new one: this runs on every OCR
    /// line, and hand scanning is many times cheaper than `NSRegularExpression` on Linux.
    static func repair(_ line: String) -> String {
        var a: [Character] = []
        a.reserveCapacity(line.count)
        for c in line {
            switch c {
            case "—", "–": a.append("-")
            case "‚", "，": a.append(",")
            case "．": a.append(".")
            case "’", "`": a.append("'")
            case "§": a.append("S")
            case "\t": a.append(" ")
            default: a.append(c)
            }
        }
        func d(_ x: [Character], _ k: Int) -> Bool { k >= 0 && k < x.count && x[k].isASCII && x[k].isNumber }
        func isMark(_ x: [Character], _ k: Int) -> Bool { k >= 0 && k < x.count && (x[k] == "." || x[k] == ",") }
        func letter(_ x: [Character], _ k: Int) -> Bool { k >= 0 && k < x.count && x[k].isASCII && x[k].isLetter }
        func pass(_ rule: ([Character], Int) -> (replacement: [Character], length: Int)?) {
            var out: [Character] = []
            out.reserveCapacity(a.count)
            var k = 0
            while k < a.count {
                if let r = rule(a, k) { out.append(contentsOf: r.replacement); k += r.length } else { out.append(a[k]); k += 1 }
            }
            a = out
        }
        let hasDigit = a.contains(where: { $0.isASCII && $0.isNumber })
        // "85. 54" → "85.54" (two digits after the space, not a time: "2025, 16:04" stays).
        if hasDigit { pass { x, k in isMark(x, k) && d(x, k - 1) && k + 1 < x.count && x[k + 1] == " " && d(x, k + 2) && d(x, k + 3) && !d(x, k + 4)
                       && !(k + 4 < x.count && x[k + 4] == ":") ? ([x[k]], 2) : nil } }
        // "RM 8 60" ending a line → "RM 8.60": the decimal mark lost between an amount right
        // after a currency mark and its two cents (a thermal slip's faint dot).
        if hasDigit { pass { x, k in
            guard x[k] == " ", d(x, k - 1), d(x, k + 1), d(x, k + 2), k + 3 == x.count else { return nil }
            var s = k - 1
            while d(x, s) { s -= 1 }
            guard k - 1 - s <= 4 else { return nil }
            let m = s >= 0 && x[s] == " " ? s - 1 : s
            let marks: [[Character]] = [["R", "M"], ["$"], ["€"], ["£"]]
            return marks.contains { mk in m - mk.count + 1 >= 0 && Array(x[(m - mk.count + 1)...m]) == mk && !letter(x, m - mk.count) } ? (["."], 1) : nil
        } }
        // "85 .54" → "85.54".
        if hasDigit { pass { x, k in x[k] == " " && d(x, k - 1) && isMark(x, k + 1) && d(x, k + 2) ? ([], 1) : nil } }
        // "4O" → "40" (an O after a digit, before a digit, a mark or the end of a word).
        if hasDigit { pass { x, k in (x[k] == "O" || x[k] == "o") && d(x, k - 1)
                       && (k + 1 == x.count || d(x, k + 1) || isMark(x, k + 1) || !(x[k + 1].isLetter || x[k + 1] == "_" || x[k + 1].isNumber)) ? (["0"], 1) : nil } }
        // "5.O0" → "5.00".
        if hasDigit { pass { x, k in (x[k] == "O" || x[k] == "o") && isMark(x, k - 1) && d(x, k - 2) ? (["0"], 1) : nil } }
        // "O5" → "05".
        if hasDigit { pass { x, k in (x[k] == "O" || x[k] == "o") && !letter(x, k - 1) && d(x, k + 1) ? (["0"], 1) : nil } }
        // "1l2" → "112".
        if hasDigit { pass { x, k in (x[k] == "l" || x[k] == "I" || x[k] == "|") && d(x, k - 1) && d(x, k + 1) ? (["1"], 1) : nil } }
        // "l2.345" → "12.345": before digits, a mark and a digit.
        if hasDigit { pass { x, k in
            guard x[k] == "l" || x[k] == "I" || x[k] == "|", !letter(x, k - 1), !d(x, k - 1), d(x, k + 1) else { return nil }
            var p = k + 1
            while d(x, p) { p += 1 }
            return isMark(x, p) && d(x, p + 1) ? (["1"], 1) : nil
        } }
        // "S.00", "S2.10" → "5.00", "52.10": digits, a mark and exactly two digits.
        if hasDigit { pass { x, k in
            guard x[k] == "S", !letter(x, k - 1), !d(x, k - 1) else { return nil }
            var p = k + 1
            while d(x, p) { p += 1 }
            return isMark(x, p) && d(x, p + 1) && d(x, p + 2) && !d(x, p + 3) ? (["5"], 1) : nil
        } }
        // "42.70%" → "42.70" (at the end of the line or before a space).
        if hasDigit { pass { x, k in (x[k] == "%" || x[k] == "*") && d(x, k - 1) && d(x, k - 2) && isMark(x, k - 3) && d(x, k - 4)
                       && (k + 1 == x.count || x[k + 1].isWhitespace) ? ([], 1) : nil } }
        // "EUR/1L", "EUR/1", "EUR/]", "EUR/)" → "EUR/L": after a currency, a slash, then 1, I, |
        // or a bracket for the litre sign (a phone photo's blur closes the l's foot into one).
        if a.contains("/") { pass { x, k in
            guard x[k] == "/" || x[k].isWhitespace else { return nil }
            let tokens: [[Character]] = [["E", "U", "R"], ["€"], ["$"], ["R", "M"], ["G", "B", "P"], ["£"], ["U", "S", "D"], ["S", "G", "D"], ["C", "H", "F"]]
            guard tokens.contains(where: { t in k >= t.count && x[(k - t.count)..<k].elementsEqual(t) }) else { return nil }
            var p = k
            if p < x.count, x[p].isWhitespace { p += 1 }
            guard p < x.count, x[p] == "/" else { return nil }
            p += 1
            if p < x.count, x[p].isWhitespace { p += 1 }
            guard p < x.count, "1I|])[".contains(x[p]) else { return nil }
            p += 1
            func free(_ q: Int) -> Bool { q >= x.count || !(x[q].isLetter || x[q].isNumber || x[q] == "_" || x[q] == "/") }
            if p < x.count, x[p] == "L", free(p + 1) { return (["/", "L"], p + 1 - k) }
            return free(p) ? (["/", "L"], p - k) : nil
        } }
        return String(a)
    }

    /// Compiled expressions, shared by all threads: compiling one costs more than matching it
    /// against a receipt line, and extraction matches a few dozen patterns on every line.
    nonisolated(unsafe) private static var compiled: [String: NSRegularExpression] = [:]
    private static let compiledLock = NSLock()

    static func regex(_ pattern: String, _ options: NSRegularExpression.Options) -> NSRegularExpression? {
        let key = "\(options.rawValue)/\(pattern)"
        compiledLock.lock()
        defer { compiledLock.unlock() }
        if let re = compiled[key] { return re }
        let re: NSRegularExpression?
        do { re = try NSRegularExpression(pattern: pattern, options: options) } catch {
            // The patterns are constants of this file: one that does not compile would silently
            // disable its rule, so debug builds (the tests) stop here.
            assertionFailure("receipt pattern /\(pattern)/ does not compile: \(error)")
            re = nil
        }
        compiled[key] = re
        return re
    }

    /// Every run of 12 to 19 digits (single spaces or dashes may separate them), the shape of a
    /// payment card number, with all but its last four digits replaced by `*`.
    static func maskCardNumbers(_ text: String) -> String {
        var out = Array(text)
        var i = 0
        while i < out.count {
            guard out[i].isASCII, out[i].isNumber else { i += 1; continue }
            var digits: [Int] = []
            var j = i
            while j < out.count {
                if out[j].isASCII, out[j].isNumber {
                    digits.append(j)
                    j += 1
                } else if out[j] == " " || out[j] == "-", j + 1 < out.count, out[j + 1].isASCII, out[j + 1].isNumber {
                    j += 1
                } else {
                    break
                }
            }
            if (12...19).contains(digits.count) { for k in digits.dropLast(4) { out[k] = "*" } }
            i = j
        }
        return String(out)
    }

    /// All matches of a regular expression in `text`, as capture-group strings (nil for a group
    /// that did not take part), with the match's range.
    static func matches(_ pattern: String, in text: String, options: NSRegularExpression.Options = [.caseInsensitive]) -> [(groups: [String?], range: Range<String.Index>)] {
        guard let re = regex(pattern, options) else { return [] }
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            guard let r = Range(m.range, in: text) else { return nil }
            let groups = (0..<m.numberOfRanges).map { i -> String? in
                let gr = m.range(at: i)
                return gr.location == NSNotFound ? nil : ns.substring(with: gr)
            }
            return (groups, r)
        }
    }
}
