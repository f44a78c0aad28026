import Foundation
import FleetCore

/// Reads receipt fields from OCR lines with rules: pure Swift, testable on text.
///
/// The rules follow what real slips print (docs/FORMATS.md, `receipt`): a keyword introduces the
/// total, cash tendered and change are never it, the date comes in a handful of shapes whose
/// day/month order the currency settles, and a fuel line gives unit price and volume, whose
/// product must match the total. That cross-check picks among candidates (which number of
/// `1,560 X 12,820 l` is the price, which reading of `1,688`) and lowers the confidence of a total
/// it contradicts. Nothing is inferred beyond what is printed.
public struct ReceiptExtractor: Sendable {
    /// The fleet's base currency, used only when the slip names none and has no language or
    /// country cue (`ReceiptFields.CurrencySource.fleet`).
    public var defaultCurrency: String
    /// The import time: a purchase date after it (a day allowed for time zones) is an OCR slip.
    public var now: Date
    /// No purchase date before this is believed (`2000-01-01`).
    public var earliestDate: CivilDate
    /// The fleet's IANA time zone: a country's evidence after the receipt's own (`ReceiptLocale`).
    public var fleetZone: String?

    /// Dates are checked against the current time.
    public init(defaultCurrency: String = "USD") {
        self.init(defaultCurrency: defaultCurrency, now: Date())
    }

    public init(defaultCurrency: String, now: Date, earliestDate: CivilDate = CivilDate(year: 2000, month: 1, day: 1)!, fleetZone: String? = nil) {
        self.defaultCurrency = defaultCurrency
        self.fleetZone = fleetZone
        self.now = now
        self.earliestDate = earliestDate
    }

    /// A line as the rules see it.
    struct Line {
        var raw: String
        var text: String        // repaired
        var key: String         // upper case, diacritics folded
        var factor: Double      // OCR confidence mapped to 0–1
        var numbers: [ReceiptNumber]
        /// Each OCR word's digits and confidence mapped to 0–1 (empty for text without
        /// confidences): a date is as sure as its own word, not as the line's mean, which a
        /// smudged time or logo beside it drags down (`06/05/2024 Wee le`).
        var wordFactors: [(digits: String, factor: Double)] = []

        /// The confidence of the one word holding all the given numbers (a date's day, month
        /// and year), else the line's.
        func factor(holding numbers: [Int]) -> Double {
            let parts = numbers.map(String.init)
            let holding = wordFactors.filter { w in parts.allSatisfy { w.digits.contains($0) } }
            return holding.count == 1 ? holding[0].factor : factor
        }
    }

    static func factor(_ confidence: Double) -> Double { min(1, max(0, (confidence - 20) / 60)) }

    public func extract(_ result: OCRResult) -> ReceiptFields {
        extract(lines: result.lines.map { line in
            (line.text, line.words.isEmpty ? 0 : line.words.map(\.confidence).reduce(0, +) / Double(line.words.count),
             line.words.map { (String($0.text.filter { $0.isASCII && $0.isNumber }), Self.factor($0.confidence)) })
        })
    }

    /// Text without OCR confidences (tests, pasted text): every line counts as read with certainty.
    public func extract(text: String) -> ReceiptFields {
        extract(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map { (String($0), 100) })
    }

    /// `confidence` is Tesseract's, 0–100: 80 and above counts as certain, 20 and below as noise.
    public func extract(lines input: [(text: String, confidence: Double)]) -> ReceiptFields {
        extract(lines: input.map { ($0.text, $0.confidence, []) })
    }

    func extract(lines input: [(text: String, confidence: Double, words: [(digits: String, factor: Double)])]) -> ReceiptFields {
        var lines = input.map { raw, conf, words -> Line in
            let text = ReceiptPatterns.repair(raw)
            return Line(raw: raw, text: text, key: ReceiptPatterns.key(text), factor: Self.factor(conf),
                        numbers: ReceiptNumber.all(in: text), wordFactors: words.filter { $0.digits.count >= 4 })
        }
        var f = ReceiptFields()
        f.maskedText = ReceiptPatterns.maskCardNumbers(lines.map(\.text).joined(separator: "\n"))
        let locale = ReceiptLocale.decide(texts: lines.map(\.text), keys: lines.map(\.key), fleetCurrency: defaultCurrency, fleetZone: fleetZone)
        f.locale = locale
        if let mark = locale.decimalMark.value {
            // The country's decimal mark settles a lone `.` or `,` before three digits: `90.300`
            // is ninety thousand pesos, `1,000` a thousand ringgit.
            for i in lines.indices { lines[i].numbers = lines[i].numbers.map { $0.settled(decimalMark: mark) } }
        }
        let currency = ReceiptCurrency.decide(lines, fleet: defaultCurrency, locale: locale)
        f.currency = currency.field
        f.currencySource = currency.source
        if currency.source == .fleet { f.notes.append("currency not printed: the fleet's \(defaultCurrency) assumed") }
        if locale.currency.contested || locale.dayFirst.contested { f.notes.append(locale.summary) }
        let code = currency.field.value
        let minor = locale.currency.value == code ? locale.printedMinorDigits ?? Money.minorDigits(code) : Money.minorDigits(code)
        let today = CivilDate(daysSinceEpoch: Int((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        let monthFirst: Bool? = locale.dayFirst.contested ? nil : locale.dayFirst.value.map { !$0 } ?? (code == "USD")
        let dates = ReceiptDates(earliest: earliestDate, latest: today.adding(days: 1), monthFirst: monthFirst).read(lines)
        (f.date, f.time) = (dates.date, dates.time)
        if dates.beyondClock, let d = dates.date?.value {
            f.notes.append("date \(d) is after this machine's clock (system time \(Timestamp.iso(Int64((now.timeIntervalSince1970 * 1000).rounded(.down)))) at the read, "
                           + "1 day allowed for time zones): kept for review, not dropped; if the clock is wrong, set it right and accept the date with `fleetkit review accept`")
        } else {
            f.notes += dates.ignored.prefix(3).map { "date ignored: \($0)" }
        }
        f.fuelGrade = grade(lines)
        let fuel = FuelLines(lines: lines)
        let totals = ReceiptTotals(lines: lines, minorDigits: minor)
        let keywordTotals = totals.candidates()
        let fuelCue = f.fuelGrade != nil || lines.contains { l in Self.fuelWords.contains { ReceiptPatterns.contains(l.key, $0) } }
            || lines.prefix(6).contains { l in ReceiptMerchant.fuelBrands.contains { ReceiptPatterns.contains(l.key, $0) } } || fuel.pumpTable
        let fuelUnit = locale.fuelUnit.value ?? (code == "USD" ? .usGallon : .litre)
        FuelLines.choose(fuel, totals: keywordTotals, lineAmounts: fuel.lineAmounts(minorDigits: minor), minorDigits: minor, fuelCue: fuelCue,
                         defaultUnit: fuelUnit, into: &f)
        totals.settle(&f, keywordTotals: keywordTotals)
        if f.total == nil, let t = totals.fromItemsAndPayment() {
            // No total keyword was read, but the items and a payment line agree on the amount.
            f.total = t
            f.totalCheck = .lineItems
        }
        if f.total == nil, let t = totals.fromSubtotalAndChange() {
            // No total keyword; a subtotal is what cash tendered minus change says was paid.
            f.total = t
            f.totalCheck = .tenderedMinusChange
        }
        FuelLines.checkPlausible(&f)
        if f.volume != nil, f.totalCheck != .priceTimesVolume, !f.notes.contains(where: { $0.hasPrefix("volume") }) {
            f.notes.append("volume not confirmed by unit price × volume = total")
        }
        // A fuel sale: price × volume gave the total, a price per litre or gallon is printed, a
        // grade that names only fuel, or a volume on a slip that names fuel. A volume label alone
        // is not enough (`MILK 2% GAL 3.49` on a grocery slip).
        f.isFuel = f.totalCheck == .priceTimesVolume || fuel.pricePerVolume || (f.fuelGrade.map { !Self.weakGrade($0.value) } ?? false)
            || (f.volume != nil && fuelCue)
        if let line = lines.first(where: { l in Self.notReceiptPhrases.contains { ReceiptPatterns.contains(l.key, $0) } }) {
            f.notAReceipt = line.text.trimmingCharacters(in: .whitespaces)
        }
        f.cardLast4 = card(lines)
        f.unitNumber = unitNumber(lines)
        f.odometer = odometer(lines, defaultUnit: locale.distanceUnit.value ?? (code == "USD" ? "mi" : "km"))
        f.merchant = ReceiptMerchant.merchant(lines, notes: &f.notes)
        if f.isFuel {
            f.category = "fuel"
        } else {
            (f.category, f.spendKind) = ReceiptMerchant.category(lines, merchantLine: f.merchant?.line, minorDigits: minor)
        }
        return f
    }

    /// What a slip prints when it is not the receipt of the sale: a prepaid chit or a
    /// pre-authorisation, whose receipt or tax invoice follows.
    static let notReceiptPhrases = ["NOT A RECEIPT", "NOT A TAX INVOICE", "PREPAY CHIT", "BUKAN RESIT"]

    /// Words that name fuel on a slip without a grade (`DEGALAI` is Lithuanian for fuels).
    static let fuelWords = ["FUEL", "DEGALAI", "KURAS", "KRAFTSTOFF", "CARBURANT", "PUMP", "POMPE", "ZAPFSAEULE", "ZAPFSAULE", "KOLONELE", "PAM",
                            "GASOLINA", "COMBUSTIBLE", "ACPM", "SURTIDOR"]

    // MARK: - Total

    struct TotalCandidate { var amount: DecimalNumber; var weight: Double; var line: Int }

    static func isPercent(_ n: ReceiptNumber, in text: String) -> Bool { ReceiptTotals.isPercent(n, in: text) }

    // MARK: - Other fields

    /// The first grade pattern (in the order of `gradePatterns`) any line matches. A pattern runs
    /// only on lines holding one of its anchor words, so most lines cost a substring test.
    func grade(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        for (anchors, pattern) in ReceiptPatterns.gradePatterns {
            for (i, line) in lines.enumerated() where anchors.contains(where: { ReceiptPatterns.has(line.key, $0) }) {
                if let m = ReceiptPatterns.matches(pattern, in: line.text).first {
                    let value = String(line.text[m.range]).split(separator: " ").joined(separator: " ")
                    return .init(value, confidence: 0.9 * line.factor, line: i)
                }
            }
        }
        return nil
    }

    /// Grade words that also name non-fuel things (a premium car wash, a regular coffee): alone
    /// they do not make a receipt a fuel sale.
    static func weakGrade(_ grade: String) -> Bool {
        ["REGULAR", "PREMIUM", "MIDGRADE", "PLUS", "SUPER", "DEF", "ADBLUE", "LPG", "CNG", "HIGH OCTANE"].contains(grade.uppercased())
    }

    /// The last four digits of the card: after a masked run (`************1234`), of a full card
    /// number, or a lone four-digit group ending a line that names a card.
    func card(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        for (i, line) in lines.enumerated() {
            let digits = line.text.reduce(0) { $0 + ($1.isASCII && $1.isNumber ? 1 : 0) }
            guard digits >= 4 else { continue }
            if let last4 = Self.afterMask(line.text) {
                return .init(last4, confidence: 0.95 * line.factor, line: i)
            }
            // A full number: on a line that names a card, or printed in groups of four.
            let namesCard = ReceiptPatterns.cardWords.contains { ReceiptPatterns.contains(line.key, $0) }
            if digits >= 12, let m = ReceiptPatterns.matches(#"(?<![\d])(?:\d[ -]?){8,15}(\d{4})(?![\d])"#, in: line.text).first,
               (12...19).contains(String(line.text[m.range]).filter(\.isNumber).count),
               namesCard || ReceiptPatterns.matches(#"^\d{4}([ -]\d{4}){2,3}$"#, in: String(line.text[m.range])).count == 1 {
                return .init(m.groups[1]!, confidence: 0.95 * line.factor, line: i)
            }
            if namesCard, !["AUTH", "APPROVAL", "REF", "TRACE", "INVOICE"].contains(where: { ReceiptPatterns.contains(line.key, $0) }),
               let m = ReceiptPatterns.matches(#"(\d{4})[^\dA-Za-z]*$"#, in: line.text).first {
                // The last four digits ending the line; masks often OCR as letters or symbols before them.
                return .init(m.groups[1]!, confidence: 0.7 * line.factor, line: i)
            }
        }
        return nil
    }

    /// The four digits after a run of at least four mask characters (`X`, `*`, `#`, `•`) and an
    /// optional space or dash, not followed by a fifth digit: `************1234`, `XXXX-1234`.
    static func afterMask(_ text: String) -> String? {
        let c = Array(text)
        func d(_ k: Int) -> Bool { k < c.count && c[k].isASCII && c[k].isNumber }
        func mask(_ k: Int) -> Bool { k < c.count && "Xx*#•".contains(c[k]) }
        var k = 0
        while k < c.count {
            guard mask(k) else { k += 1; continue }
            var e = k
            while mask(e) { e += 1 }
            if e - k >= 4 {
                var p = e
                if p < c.count, c[p] == " " || c[p] == "-" { p += 1 }
                if d(p), d(p + 1), d(p + 2), d(p + 3), !d(p + 4) { return String(c[p..<(p + 4)]) }
            }
            k = e
        }
        return nil
    }

    func unitNumber(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        for (i, line) in lines.enumerated() {
            for label in ReceiptPatterns.unitLabels where ReceiptPatterns.contains(line.key, label) {
                guard let r = line.key.range(of: label) else { continue }
                let rest = line.key[r.upperBound...]
                guard let m = ReceiptPatterns.matches(#"^\s*(?:NO\b|NUMBER\b|NR\b|#)?\s*[:.#]?\s*([A-Z0-9][A-Z0-9-]{0,11})\b"#, in: String(rest), options: []).first,
                      let token = m.groups[1], token.contains(where: \.isNumber), !["PRICE", "PUMP"].contains(where: { token.hasPrefix($0) }) else { continue }
                return .init(token, confidence: 0.85 * line.factor, line: i)
            }
        }
        return nil
    }

    func odometer(_ lines: [Line], defaultUnit: String) -> ReceiptFields.Field<ReceiptFields.Odometer>? {
        for (i, line) in lines.enumerated() where ReceiptPatterns.odometerLabels.contains(where: { ReceiptPatterns.contains(line.key, $0) }) {
            guard let n = line.numbers.first(where: { $0.value.scale == 0 || $0.grouped != nil }) else { continue }
            let value = (n.value.scale == 0 ? n.value : n.grouped!).double
            guard value > 0, value < 3_000_000 else { continue }
            let unit = ReceiptPatterns.contains(line.key, "KM") || line.key.contains("KM-") ? "km"
                : ReceiptPatterns.contains(line.key, "MI") || ReceiptPatterns.contains(line.key, "MILES") ? "mi" : defaultUnit
            return .init(ReceiptFields.Odometer(value: value, unit: unit), confidence: 0.9 * line.factor, line: i)
        }
        return nil
    }
}
