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
    /// The fleet's base currency, used only when the slip names none and has no language cue.
    public var defaultCurrency: String

    public init(defaultCurrency: String = "USD") {
        self.defaultCurrency = defaultCurrency
    }

    /// A line as the rules see it.
    struct Line {
        var raw: String
        var text: String        // repaired
        var key: String         // upper case, diacritics folded
        var factor: Double      // OCR confidence mapped to 0–1
        var numbers: [ReceiptNumber]
    }

    public func extract(_ result: OCRResult) -> ReceiptFields {
        extract(lines: result.lines.map { ($0.text, $0.words.isEmpty ? 0 : $0.words.map(\.confidence).reduce(0, +) / Double($0.words.count)) })
    }

    /// Text without OCR confidences (tests, pasted text): every line counts as read with certainty.
    public func extract(text: String) -> ReceiptFields {
        extract(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map { (String($0), 100) })
    }

    /// `confidence` is Tesseract's, 0–100: 80 and above counts as certain, 20 and below as noise.
    public func extract(lines input: [(text: String, confidence: Double)]) -> ReceiptFields {
        let lines = input.map { raw, conf -> Line in
            let text = ReceiptPatterns.repair(raw)
            return Line(raw: raw, text: text, key: ReceiptPatterns.key(text), factor: min(1, max(0, (conf - 20) / 60)),
                        numbers: ReceiptNumber.all(in: text))
        }
        var f = ReceiptFields()
        f.maskedText = ReceiptPatterns.maskCardNumbers(lines.map(\.text).joined(separator: "\n"))
        f.currency = currency(lines)
        let code = f.currency?.value ?? defaultCurrency
        let minor = Money.minorDigits(code)
        (f.date, f.time) = dateAndTime(lines, monthFirst: ["USD"].contains(code))
        let fuel = FuelLines(lines: lines)
        let totals = totalCandidates(lines, minorDigits: minor)
        FuelLines.choose(fuel, totals: totals, lineAmounts: fuel.lineAmounts(minorDigits: minor), minorDigits: minor, into: &f)
        FuelLines.checkPlausible(&f)
        f.fuelGrade = grade(lines)
        f.isFuel = f.volume != nil || fuel.pricePerVolume || (f.fuelGrade.map { !Self.weakGrade($0.value) } ?? false)
        f.cardLast4 = card(lines)
        f.unitNumber = unitNumber(lines)
        f.odometer = odometer(lines, currency: code)
        f.merchant = merchant(lines)
        f.category = f.isFuel ? "fuel" : category(lines)
        return f
    }

    // MARK: - Currency

    func currency(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        var votes: [String: (count: Int, line: Int, factor: Double)] = [:]
        for (i, line) in lines.enumerated() {
            var key = line.key
            for (mark, code) in ReceiptPatterns.currencyMarks {
                let isWord = mark.allSatisfy(\.isLetter)
                while let r = key.range(of: mark) {
                    let before = r.lowerBound == key.startIndex ? nil : key[key.index(before: r.lowerBound)]
                    let after = r.upperBound == key.endIndex ? nil : key[r.upperBound]
                    let whole = !(before?.isLetter ?? false) && !(after?.isLetter ?? false)
                    // `RN` counts only before an amount: it is the OCR slip for `RM`, and a word otherwise.
                    let slipOK = mark != "RN" || (after.map { $0 == " " || $0.isNumber } ?? false) && line.numbers.count > 0
                    if (!isWord || whole) && slipOK {
                        let c = code == "$" ? (["USD", "CAD", "AUD", "NZD", "SGD", "HKD"].contains(defaultCurrency) ? defaultCurrency : "USD") : code
                        let v = votes[c] ?? (0, i, line.factor)
                        votes[c] = (v.count + 1, v.line, max(v.factor, line.factor))
                    }
                    key.replaceSubrange(r, with: String(repeating: "_", count: mark.count))
                }
            }
        }
        if let best = votes.max(by: { ($0.value.count, -$0.value.line) < ($1.value.count, -$1.value.line) }) {
            let contested = votes.count > 1
            return .init(best.key, confidence: (best.value.count > 1 ? 0.95 : 0.85) * (contested ? 0.8 : 1) * max(best.value.factor, 0.7), line: best.value.line)
        }
        // No mark: words of euro-area slips are a cue; otherwise the fleet's currency, doubtfully.
        let euroWords = ["SUMME", "MWST", "TTC", "TVA", "MOKETI", "PVM", "TOTAAL", "BTW", "BETRAG", "GESAMT"]
        if let i = lines.firstIndex(where: { l in euroWords.contains { ReceiptPatterns.contains(l.key, $0) } }) {
            return .init("EUR", confidence: 0.6, line: i)
        }
        return nil
    }

    // MARK: - Date and time

    struct DateCandidate { var date: CivilDate; var confidence: Double; var line: Int; var labelled: Bool }

    /// - parameter monthFirst: `03/04/2025` is March 4 (US) rather than 3 April; used only when
    ///   neither number can be a month, nor another date on the slip settles it.
    func dateAndTime(_ lines: [Line], monthFirst: Bool) -> (ReceiptFields.Field<CivilDate>?, ReceiptFields.Field<ReceiptFields.ClockTime>?) {
        var found: [DateCandidate] = []
        var ambiguous: [(a: Int, b: Int, y: Int, line: Int, labelled: Bool)] = []
        for (i, line) in lines.enumerated() {
            let labelled = ReceiptPatterns.dateLabels.contains { ReceiptPatterns.contains(line.key, $0) }
            func add(_ y: Int, _ m: Int, _ d: Int, _ conf: Double) {
                let year = y < 100 ? 2000 + y : y
                guard (2000...2099).contains(year), let date = CivilDate(year: year, month: m, day: d) else { return }
                found.append(DateCandidate(date: date, confidence: conf * line.factor, line: i, labelled: labelled))
            }
            for m in ReceiptPatterns.matches(#"(?<![\d.,])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])"#, in: line.text) {
                add(Int(m.groups[1]!)!, Int(m.groups[2]!)!, Int(m.groups[3]!)!, 0.95)
            }
            for m in ReceiptPatterns.matches(#"(?<![\d.,])(\d{4})\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日"#, in: line.text) {
                add(Int(m.groups[1]!)!, Int(m.groups[2]!)!, Int(m.groups[3]!)!, 0.95)
            }
            for m in ReceiptPatterns.matches(#"(?<![\d.,/-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d])"#, in: line.text) {
                let a = Int(m.groups[1]!)!, b = Int(m.groups[3]!)!, y = Int(m.groups[4]!)!
                if m.groups[2] == "." || (a > 12 && b <= 12) { add(y, b, a, 0.95) }          // dots: day first, always
                else if b > 12 && a <= 12 { add(y, a, b, 0.95) }
                else if a == b { add(y, a, b, 0.95) }
                else { ambiguous.append((a, b, y, i, labelled)) }
            }
            for m in ReceiptPatterns.matches(#"(?<![\d])(\d{1,2})\s?[-/. ]?\s?([A-Z]{3,9})\.?\s?[-/. ]?\s?(\d{4}|\d{2})(?![\d])"#, in: line.key, options: []) {
                if let month = ReceiptPatterns.months[m.groups[2]!] { add(Int(m.groups[3]!)!, month, Int(m.groups[1]!)!, 0.95) }
            }
            for m in ReceiptPatterns.matches(#"\b([A-Z]{3,9})\.? (\d{1,2}),? (\d{4})(?![\d])"#, in: line.key, options: []) {
                if let month = ReceiptPatterns.months[m.groups[1]!] { add(Int(m.groups[3]!)!, month, Int(m.groups[2]!)!, 0.95) }
            }
        }
        // An ambiguous day/month order is settled by an unambiguous date on the same slip, else by convention.
        for amb in ambiguous {
            let factor = lines[amb.line].factor
            let year = amb.y < 100 ? 2000 + amb.y : amb.y
            let dm = CivilDate(year: year, month: amb.b, day: amb.a), md = CivilDate(year: year, month: amb.a, day: amb.b)
            if let settled = found.first(where: { $0.date == dm || $0.date == md }) {
                found.append(DateCandidate(date: settled.date, confidence: 0.95 * factor, line: amb.line, labelled: amb.labelled))
            } else if let d = monthFirst ? md : dm, (2000...2099).contains(year) {
                found.append(DateCandidate(date: d, confidence: 0.75 * factor, line: amb.line, labelled: amb.labelled))
            }
        }
        var dateField: ReceiptFields.Field<CivilDate>? = nil
        if let best = found.max(by: { score($0, found) < score($1, found) }) {
            let agreeing = found.filter { $0.date == best.date }.count
            let conf = best.confidence * (agreeing == found.count ? 1 : 0.8) + (agreeing > 1 ? 0.05 : 0)
            dateField = .init(best.date, confidence: conf, line: best.line)
        }
        return (dateField, time(lines, dateLine: dateField?.line))
    }

    /// Labelled dates first, then the one most other dates agree with, then the earliest line.
    private func score(_ c: DateCandidate, _ all: [DateCandidate]) -> Double {
        (c.labelled ? 10 : 0) + Double(all.filter { $0.date == c.date }.count) + c.confidence - Double(c.line) * 0.001
    }

    func time(_ lines: [Line], dateLine: Int?) -> ReceiptFields.Field<ReceiptFields.ClockTime>? {
        let labels = ["TIME", "ZEIT", "UHRZEIT", "HEURE", "LAIKAS", "TIJD", "HORA", "MASA", "ORA"]
        var best: (field: ReceiptFields.Field<ReceiptFields.ClockTime>, score: Int)? = nil
        for (i, line) in lines.enumerated() {
            for m in ReceiptPatterns.matches(#"(?<![\d:.,])([01]?\d|2[0-3])\s?[:h]\s?([0-5]\d)(?::([0-5]\d))?(?![\d])(\s*([AP])\.?\s?M\b\.?)?"#, in: line.text) {
                var hour = Int(m.groups[1]!)!
                let minute = Int(m.groups[2]!)!, second = m.groups[3].flatMap { Int($0) } ?? 0
                if let ap = m.groups[5]?.uppercased() {
                    guard (1...12).contains(hour) else { continue }
                    hour = ap == "P" ? (hour % 12) + 12 : hour % 12
                }
                // On the date's line first, then labelled, then the first one printed.
                let score = (i == dateLine ? 4 : 0) + (labels.contains { ReceiptPatterns.contains(line.key, $0) } ? 2 : 0)
                if best == nil || score > best!.score {
                    best = (.init(ReceiptFields.ClockTime(hour: hour, minute: minute, second: second), confidence: 0.9 * line.factor, line: i), score)
                }
            }
        }
        return best?.field
    }

    // MARK: - Total

    struct TotalCandidate { var amount: DecimalNumber; var weight: Double; var line: Int }

    /// Amounts introduced by a total keyword, on the keyword's line or, when that line has no
    /// number, on the next line if it holds only an amount. Lines about tendered cash, change,
    /// tax or subtotals are skipped first.
    func totalCandidates(_ lines: [Line], minorDigits: Int) -> [TotalCandidate] {
        var out: [TotalCandidate] = []
        for (i, line) in lines.enumerated() {
            guard !ReceiptPatterns.notTotal.contains(where: { ReceiptPatterns.contains(line.key, $0) }),
                  let keyword = ReceiptPatterns.totalKeywords.first(where: { ReceiptPatterns.contains(line.key, $0.phrase) }) else { continue }
            var source = line, at = i
            if line.numbers.isEmpty, i + 1 < lines.count, lines[i + 1].numbers.count == 1,
               lines[i + 1].key.filter(\.isLetter).count <= 3 {
                source = lines[i + 1]
                at = i + 1
            }
            let amounts = source.numbers.filter { !Self.isPercent($0, in: source.text) }.compactMap { $0.money(minorDigits: minorDigits) }
            // In a currency with cents a total is printed with them: a bare integer after it is
            // a speck of noise read as a digit (`TOTAL $ 167.91 4`), not the total.
            let priced = minorDigits > 0 ? amounts.filter { $0.scale == minorDigits } : []
            if let amount = priced.last ?? amounts.last {
                out.append(TotalCandidate(amount: amount, weight: keyword.weight * min(line.factor, source.factor), line: at))
            }
        }
        return out
    }

    static func isPercent(_ n: ReceiptNumber, in text: String) -> Bool {
        text[n.range.upperBound...].first == "%" || text[n.range.upperBound...].hasPrefix(" %")
    }

    // MARK: - Other fields

    func grade(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        for pattern in ReceiptPatterns.gradePatterns {
            for (i, line) in lines.enumerated() {
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
            if let m = ReceiptPatterns.matches(#"[X*#•]{4,}[ -]?(\d{4})(?!\d)"#, in: line.text).first {
                return .init(m.groups[1]!, confidence: 0.95 * line.factor, line: i)
            }
            // A full number: on a line that names a card, or printed in groups of four.
            let namesCard = ReceiptPatterns.cardWords.contains { ReceiptPatterns.contains(line.key, $0) }
            if let m = ReceiptPatterns.matches(#"(?<![\d])(?:\d[ -]?){8,15}(\d{4})(?![\d])"#, in: line.text).first,
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

    func odometer(_ lines: [Line], currency: String) -> ReceiptFields.Field<ReceiptFields.Odometer>? {
        for (i, line) in lines.enumerated() where ReceiptPatterns.odometerLabels.contains(where: { ReceiptPatterns.contains(line.key, $0) }) {
            guard let n = line.numbers.first(where: { $0.value.scale == 0 || $0.grouped != nil }) else { continue }
            let value = (n.value.scale == 0 ? n.value : n.grouped!).double
            guard value > 0, value < 3_000_000 else { continue }
            let unit = ReceiptPatterns.contains(line.key, "KM") || line.key.contains("KM-") ? "km"
                : ReceiptPatterns.contains(line.key, "MI") || ReceiptPatterns.contains(line.key, "MILES") ? "mi" : currency == "USD" ? "mi" : "km"
            return .init(ReceiptFields.Odometer(value: value, unit: unit), confidence: 0.9 * line.factor, line: i)
        }
        return nil
    }

    /// The first line near the top that reads as a name: mostly letters, not a greeting or a
    /// document title, not an address line starting with a house number.
    func merchant(_ lines: [Line]) -> ReceiptFields.Field<String>? {
        let skip = ["WELCOME", "RECEIPT", "TAX INVOICE", "INVOICE", "CUSTOMER COPY", "MERCHANT COPY", "COPY", "ORIGINAL", "KASSENBON",
                    "BELEG", "QUITTUNG", "TICKET", "RECU", "KVITAS", "DUPLICATE", "SALE", "THANK YOU"]
        var seen = 0
        for (i, line) in lines.enumerated() {
            let name = line.text.trimmingCharacters(in: CharacterSet(charactersIn: " ~|_=*-.,:;'\"`!"))
            let visible = name.filter { !$0.isWhitespace }
            guard !visible.isEmpty else { continue }
            seen += 1
            if seen > 6 { break }
            let letters = visible.filter(\.isLetter).count
            let longestWord = name.split(whereSeparator: { !$0.isLetter }).map(\.count).max() ?? 0
            guard longestWord >= 3, Double(letters) >= 0.5 * Double(visible.count), !(name.first?.isNumber ?? false),
                  !skip.contains(where: { ReceiptPatterns.key(name) == $0 || ReceiptPatterns.key(name).hasPrefix($0 + " ") && $0.count > 6 }) else { continue }
            let collapsed = name.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            return .init(collapsed, confidence: (seen == 1 ? 0.9 : 0.75) * line.factor, line: i)
        }
        return nil
    }

    func category(_ lines: [Line]) -> String {
        var best = (category: "other", hits: 0)
        for (category, words) in ReceiptPatterns.categoryWords {
            let hits = lines.reduce(0) { n, line in n + words.filter { ReceiptPatterns.contains(line.key, $0) }.count }
            if hits > best.hits { best = (category, hits) }
        }
        return best.category
    }
}
