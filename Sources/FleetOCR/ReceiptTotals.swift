import Foundation
import FleetCore

/// The total of a receipt: the candidates a total keyword introduces, and the second source
/// that confirms one.
///
/// One reading of one line is not enough to store an amount as sure: OCR turns `$50.00` into
/// `450.00`, keeps a bare `20` of `10.20`, and a `TOTAL` brand name over `75003 PARIS` makes a
/// postcode a total. A total is sure only when the receipt confirms it a second way (`TotalCheck`):
/// unit price × volume, a payment line with the same amount (card, cash), cash tendered minus
/// change, net plus tax (a subtotal and tax lines, or a tax table's row), a second total line, or
/// the line items above it adding up to it. Without one it is kept as read below the review threshold, and a bare integer in a currency
/// with cents lower still.
struct ReceiptTotals {
    typealias Line = ReceiptExtractor.Line
    typealias TotalCandidate = ReceiptExtractor.TotalCandidate

    let lines: [Line]
    let minorDigits: Int
    /// Each line's words, for keywords OCR misread (`ReceiptPatterns.resembles`).
    let tokens: [[[UInt8]]]

    init(lines: [Line], minorDigits: Int) {
        self.lines = lines
        self.minorDigits = minorDigits
        tokens = lines.map { ReceiptPatterns.wordTokens($0.key) }
    }

    static let paymentWords = ["VISA", "MASTERCARD", "MASTER CARD", "MAESTRO", "AMEX", "AMERICAN EXPRESS", "DISCOVER", "DEBIT", "CREDIT", "CARD",
                               "KARTE", "KARTENZAHLUNG", "EC-CASH", "GIROCARD", "CARTE", "CB", "KORTELE", "KORTELE", "PAID", "BEZAHLT", "PAYE",
                               "CASH", "BAR", "ESPECES", "TUNAI", "CONTANT", "GRYNIEJI", "CONTANTI", "EFECTIVO", "KAD", "WEX", "FLEET"]
    static let tenderWords = ["CASH", "BAR", "GEGEBEN", "GEG", "TENDER", "TENDERED", "TEND", "ESPECES", "TUNAI", "CONTANT", "GRYNIEJI", "お預り"]
    static let changeWords = ["CHANGE", "RUCKGELD", "RUECKGELD", "RENDU", "MONNAIE", "KEMBALI", "BAKI", "WISSELGELD", "GRAZA", "GRAZINTA", "お釣り", "釣銭"]
    static let subtotalWords = ["SUBTOTAL", "SUB TOTAL", "SUB-TOTAL", "ZWISCHENSUMME", "NET AMOUNT", "NETTO", "TOTAL HT", "HT"]
    static let taxWords = ["TAX", "VAT", "MWST", "UST", "TVA", "GST", "HST", "PST", "PVM", "BTW", "IVA", "SST", "PTU", "CUKAI"]

    /// Amounts introduced by a total keyword, on the keyword's line or, when that line has no
    /// number, on the next line if it holds only an amount. Lines about tendered cash, change,
    /// tax or subtotals are skipped first, and so is a keyword line without a number above the
    /// first amount of the slip: that is a name (`TOTAL` the brand), not a total.
    func candidates() -> [TotalCandidate] {
        var out: [TotalCandidate] = []
        let firstAmount = lines.firstIndex { l in l.numbers.contains { $0.value.scale > 0 } } ?? lines.count
        for (i, line) in lines.enumerated() {
            guard let keyword = Self.totalKeyword(key: line.key, tokens: tokens[i]) else { continue }
            var source = line, at = i
            if line.numbers.isEmpty {
                guard i >= firstAmount, i + 1 < lines.count else { continue }
                let next = lines[i + 1]
                let bare = next.numbers.count == 1 && next.key.filter(\.isLetter).count <= 3
                // `TOTAL AMOUNT` over `CASH RM 6.00`: the amount paid in one tender under the
                // keyword, on a slip that gives no change (else the tender is not the total).
                let paid = !bare && has(next, Self.paymentWords) && money(next).count == 1 && !lines.indices.contains { hasMisread($0, Self.changeWords) }
                guard bare || paid else { continue }
                source = next
                at = i + 1
            }
            let amounts = money(source)
            // In a currency with cents a total is printed with them: a bare integer after it is
            // a speck of noise read as a digit (`TOTAL $ 167.91 4`), not the total.
            let priced = minorDigits > 0 ? amounts.filter { $0.scale == minorDigits } : []
            if let amount = priced.last ?? amounts.last {
                out.append(TotalCandidate(amount: amount, weight: keyword.weight * min(line.factor, source.factor), line: at))
            }
        }
        return out
    }

    /// The total keyword of a line: as printed, else misread (`SUHHE`, `S U M H E`) at a lower
    /// weight; nil on a line about tax, cash, change or a subtotal. `glued` also takes a misread
    /// keyword joined to the next word (`TOTALTIC` for `TOTAL TTC`): enough to read the line
    /// again (`ReceiptExtractor.linesToReread`), not to take an amount from it.
    static func totalKeyword(key: String, tokens: [[UInt8]], glued: Bool = false) -> (phrase: String, weight: Double)? {
        let key = withoutIncludedTax(key)
        guard !ReceiptPatterns.notTotal.contains(where: { ReceiptPatterns.contains(key, $0) }) else { return nil }
        if let printed = ReceiptPatterns.totalKeywords.first(where: { ReceiptPatterns.contains(key, $0.phrase) }) { return printed }
        let misread = misreadTotalWords.first { w in
            ReceiptPatterns.resembles(tokens, w) || glued && tokens.contains { $0.count > w.utf8.count && $0.starts(with: w.utf8) }
        }
        return misread.map { ($0, 0.6) }
    }

    /// The money amounts of a line: not a percentage, not a postcode before its town
    /// (`75003 PARIS`), within the currency's minor digits.
    func money(_ line: Line) -> [DecimalNumber] {
        line.numbers.filter { n in
            guard !Self.isPercent(n, in: line.text) else { return false }
            if n.value.scale == 0, n.grouped == nil, (4...5).contains(n.text.count) {
                let rest = line.text[n.range.upperBound...].drop(while: { $0 == " " })
                if rest.prefix(while: \.isLetter).count >= 3 { return false }
            }
            return true
        }.compactMap { $0.money(minorDigits: minorDigits) }
    }

    static func isPercent(_ n: ReceiptNumber, in text: String) -> Bool {
        text[n.range.upperBound...].first == "%" || text[n.range.upperBound...].hasPrefix(" %")
    }

    private func same(_ a: DecimalNumber, _ b: Double, within minor: Double = 0.5) -> Bool {
        abs(a.double - b) <= minor * pow(10, -Double(minorDigits)) + 1e-9
    }

    /// The key without a tax named as included (`TOTAL SALES INCL. GST @6%`, `INKL. MWST`): the
    /// total with its tax is still the total; only a line about the tax itself is not.
    static func withoutIncludedTax(_ key: String) -> String {
        guard key.contains("INCL") || key.contains("INKL") else { return key }
        guard case let .success(re) = includedTax else { return key }
        return re.stringByReplacingMatches(in: key, range: NSRange(key.startIndex..., in: key), withTemplate: " ")
    }

    /// Compiled once; a failure is a value the tests require absent (`ReceiptPatternFailure`).
    static let includedTax = ReceiptPatternFailure.compile(#"\bIN[CK]L(?:USIVE|UDING)?\b\.?\s*(?:OF\s+)?(?:GST|SST|VAT|TAX|MWST|UST|TVA|IVA)\b"#,
                                                          owner: "ReceiptTotals.includedTax")

    /// Total keywords recognised even when misread (`ReceiptPatterns.resembles`).
    static let misreadTotalWords = ["SUMME", "TOTAL", "MOKETI", "TOTAAL", "GESAMT", "JUMLAH", "BETRAG"]

    private func has(_ line: Line, _ words: [String]) -> Bool { words.contains { ReceiptPatterns.contains(line.key, $0) } }

    /// Cash and change lines, also when OCR misread a word of five letters or more (`RUCKGELU`,
    /// `Rück9e1d`, `TUNAT` for the Malay `TUNAI`).
    private func hasMisread(_ i: Int, _ words: [String]) -> Bool {
        has(lines[i], words) || words.contains { $0.count >= 5 && ReceiptPatterns.resembles(tokens[i], $0) }
    }

    /// How the receipt itself confirms `amount` (read on line `at`), or nil.
    func confirmation(of amount: DecimalNumber, at: Int, keywordTotals: [TotalCandidate]) -> ReceiptFields.TotalCheck? {
        let value = amount.double
        if keywordTotals.contains(where: { $0.line != at && same($0.amount, value) }) { return .secondTotalLine }
        if let sum = itemSum(before: at), same(sum.amount, value) { return .lineItems }
        for (i, line) in lines.enumerated() where i != at && has(line, Self.paymentWords) && !has(line, Self.changeWords) {
            if money(line).contains(where: { same($0, value) }) { return .paymentLine }
        }
        let tendered = lines.indices.filter { hasMisread($0, Self.tenderWords) && !hasMisread($0, Self.changeWords) }.flatMap { money(lines[$0]) }.prefix(64)
        let change = lines.indices.filter { hasMisread($0, Self.changeWords) }.flatMap { money(lines[$0]) }.prefix(64)
        for t in tendered { for c in change where c.double > 0 && same(t, value + c.double) { return .tenderedMinusChange } }
        // Net and tax: a subtotal plus the tax lines, or two amounts of one line that add up to it
        // (a tax table's net, tax and gross).
        let taxes = lines.filter { has($0, Self.taxWords) && !has($0, Self.subtotalWords) }.compactMap { money($0).last }
        let taxSum = taxes.reduce(0) { $0 + $1.double }
        for s in lines.filter({ has($0, Self.subtotalWords) }).compactMap({ money($0).last }) where !taxes.isEmpty {
            if same(s, value - taxSum, within: 1) || taxes.contains(where: { same(s, value - $0.double, within: 1) }) { return .netPlusTax }
        }
        for line in lines {
            let m = Array(money(line).prefix(12))   // a tax table row has three to five amounts
            guard m.count >= 3, m.contains(where: { same($0, value) }) else { continue }
            for (x, a) in m.enumerated() { for b in m[(x + 1)...] where a.double > 0 && b.double > 0 && same(a, value - b.double, within: 1) && !same(a, value) {
                return .netPlusTax
            } }
        }
        // A tax table row whose gross OCR misread (`1=19,00 505 4,92 0,93` under `MwSt-Satz
        // Brutto Netto MwSt`): its net and tax, printed side by side, add up to the total. Only
        // on a row that names tax or sits right under a tax header, and only neighbours, so
        // that two amounts of an item list do not meet the total by chance.
        for (i, line) in lines.enumerated() where i != at {
            let m = Array(money(line).prefix(12))
            guard m.count >= 3, has(line, Self.taxTableWords) || (i > 0 && has(lines[i - 1], Self.taxTableWords) && money(lines[i - 1]).isEmpty) else { continue }
            for (a, b) in zip(m, m.dropFirst()) where a.double > 0 && b.double > 0 && b.double < a.double && same(a, value - b.double, within: 1) && !same(a, value) {
                return .netPlusTax
            }
        }
        return nil
    }

    /// Words of a tax table's header or rows (`Steuer % Netto Steuer Brutto`, `MwSt-Satz`).
    static let taxTableWords = taxWords + ["STEUER", "NETTO", "BRUTTO", "NET", "GROSS"]

    /// The amount a total line shows without its decimal mark or last digits (`TOTAL £1910`,
    /// `TOTAL $ 99.8)`): an amount of another line with the currency's minor digits whose digits
    /// are the same (any line but a change or tax line), or continue them (a payment line
    /// only). Nil when no such amount, or more than one, is printed.
    func sameDigits(as total: DecimalNumber, at: Int) -> (amount: DecimalNumber, line: Int)? {
        guard minorDigits > 0, total.scale < minorDigits, total.mantissa > 0 else { return nil }
        let digits = String(total.mantissa)
        var found: [(amount: DecimalNumber, line: Int)] = []
        for (i, line) in lines.enumerated() where i != at && !has(line, Self.changeWords) && !has(line, Self.taxWords) {
            let payment = has(line, Self.paymentWords)
            for a in money(line) where a.scale == minorDigits && a.double > 0 {
                let other = String(a.mantissa)
                let equal = total.scale == 0 && other == digits
                let continued = payment && other.count == digits.count + minorDigits - total.scale && other.hasPrefix(digits)
                if equal || continued, !found.contains(where: { $0.amount == a }) { found.append((a, i)) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The last amount of line `at` whose decimal mark OCR read as `-`, `:` or `;` (`TOTAL S$
    /// 73-58` for `$ 73.58`): digits, the mark, exactly the currency's minor digits, no digit
    /// after. Only a candidate: `settle` takes it when a second source confirms it.
    func markMisread(on at: Int) -> DecimalNumber? {
        guard minorDigits > 0, at >= 0, at < lines.count else { return nil }
        let pattern = #"(?<![\d.,:;-])(\d{1,6})[-:;](\d{"# + String(minorDigits) + #"})(?![\d]|[.,:;-]\d)"#
        // The digits either side of the misread mark are the amount's digits in minor units.
        guard let m = ReceiptPatterns.matches(pattern, in: lines[at].text).last,
              let minor = Int64(m.groups[1]! + m.groups[2]!) else { return nil }
        return DecimalNumber(mantissa: minor, scale: minorDigits)
    }

    /// The amount paid when no total keyword was read: a subtotal (`Zwischensumme EUR 15,95`, on
    /// a German slip the gross) that cash tendered minus change gives (`20,00` − `Rückgeld
    /// 4,05`). Three printed lines agree, so it is sure at 0.8. Nil otherwise.
    func fromSubtotalAndChange() -> ReceiptFields.Field<DecimalNumber>? {
        let change = lines.indices.filter { hasMisread($0, Self.changeWords) }.flatMap { c in money(lines[c]).map { (c, $0) } }
            .filter { $0.1.double > 0 }.prefix(8)
        guard !change.isEmpty else { return nil }
        for (i, line) in lines.enumerated() where has(line, Self.subtotalWords) && !has(line, Self.taxWords) {
            guard let s = money(line).last, s.scale == minorDigits, s.double > 0 else { continue }
            for (c, amount) in change where c > i {
                // The cash given: an amount on a line between the subtotal and the change.
                let given = lines[(i + 1)..<c].flatMap { money($0) }
                if given.contains(where: { same($0, s.double + amount.double) }) { return .init(s, confidence: 0.8, line: i) }
            }
        }
        return nil
    }

    /// The line items above line `end`: the last amount with the currency's minor digits of each
    /// line from the first such line on, leaving out total, tax, subtotal, payment, cash, change
    /// and date lines. Nil when no line is an item.
    ///
    /// Why a sum confirms: every item is printed and read on its own line, so an OCR slip in the
    /// total (`450.00` for `50.00`, a bare `20` for `10.20`) makes the sum disagree, and a slip in
    /// an item does too; they agree only when both were read right. A line the rules cannot
    /// class (a misread discount, a quantity line) only makes the sum miss: never a false match
    /// beyond chance, and then the receipt stays under review as before.
    func itemSum(before end: Int) -> (amount: DecimalNumber, count: Int)? {
        guard minorDigits > 0, end > 0, end <= lines.count else { return nil }
        var minor: Int64 = 0
        var count = 0, started = false
        let scale = pow(10, Double(minorDigits))
        for line in lines[..<end] {
            guard let last = money(line).last(where: { $0.scale == minorDigits && $0.double > 0 }) else { continue }
            started = true
            if Self.notItem(line) { continue }
            // Hostile text may print any number: a sum past a trillion is no receipt's.
            guard last.double < 1e12 else { return nil }
            minor += Int64((last.double * scale).rounded())
            count += 1
            guard minor < 1_000_000_000_000_000 else { return nil }
        }
        guard started, count > 0 else { return nil }
        return (DecimalNumber(mantissa: minor, scale: minorDigits), count)
    }

    /// A line that carries an amount but is no item: a total, tax, subtotal, payment, cash or
    /// change line, or a date (`Dat.18.06.2023` holds `18.06`).
    static func notItem(_ line: Line) -> Bool {
        ReceiptPatterns.totalKeywords.contains { ReceiptPatterns.contains(line.key, $0.phrase) }
            || ReceiptPatterns.notTotal.contains { ReceiptPatterns.contains(line.key, $0) }
            || (paymentWords + tenderWords + changeWords + taxWords).contains { ReceiptPatterns.contains(line.key, $0) }
            || !ReceiptPatterns.matches(#"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"#, in: line.text).isEmpty
    }

    /// The total when no total keyword was read (`nO mat £19.65`): an amount of a payment line
    /// that the line items above its first appearance add up to. Two sources agree, so it is
    /// sure at 0.8 whatever the word confidence of the payment line (as a total a second source
    /// confirms, `settle`): OCR does not misread several lines into a matching sum. Nil when
    /// they do not agree.
    func fromItemsAndPayment() -> ReceiptFields.Field<DecimalNumber>? {
        // Bounded work whatever the text: each payment amount tried costs two passes over the
        // lines, and a slip has one or two payment lines, a hostile text thousands.
        var tried = 0
        for (i, line) in lines.enumerated() where has(line, Self.paymentWords) && !has(line, Self.changeWords) {
            for p in money(line) where p.scale == minorDigits && p.double > 0 {
                tried += 1
                if tried > Self.maxPaymentAmounts { return nil }
                // The items stop at the first line that shows the amount (the unreadable total line).
                let first = lines[..<i].firstIndex { l in money(l).contains { same($0, p.double) } } ?? i
                guard let sum = itemSum(before: first), same(sum.amount, p.double) else { continue }
                return .init(p, confidence: 0.8, line: first)
            }
        }
        return nil
    }

    static let maxPaymentAmounts = 8

    /// Marks the total sure when the receipt confirms it, doubtful when nothing does; a volume and
    /// unit price whose product contradicts a confirmed total become the doubtful ones.
    func settle(_ f: inout ReceiptFields, keywordTotals: [TotalCandidate]) {
        guard let t = f.total else { return }
        let structural = confirmation(of: t.value, at: t.line, keywordTotals: keywordTotals)
        if f.totalCheck == .priceTimesVolume {
            if structural != nil, t.confidence < ReceiptFields.reviewThreshold { f.total?.confidence = 0.8 }
            return
        }
        if let structural {
            f.totalCheck = structural
            f.total?.confidence = max(t.confidence, 0.8)
            if f.computedTotal != nil {
                if let v = f.volume { f.volume?.confidence = min(v.confidence, 0.5) }
                if let p = f.unitPrice { f.unitPrice?.confidence = min(p.confidence, 0.5) }
                f.notes.append("volume × unit price does not give the confirmed total: one of them is misread")
            }
            return
        }
        if f.computedTotal == nil, let other = sameDigits(as: t.value, at: t.line) {
            f.total = .init(other.amount, confidence: max(min(t.confidence, 1), 0.8), line: t.line)
            f.totalCheck = .sameDigits
            f.notes.append("total line read \(t.value) without all its digits; \(other.amount) on line \(other.line + 1) shows them")
            return
        }
        if f.computedTotal == nil, let mended = markMisread(on: t.line), mended != t.value,
           let check = confirmation(of: mended, at: t.line, keywordTotals: keywordTotals) {
            f.total = .init(mended, confidence: max(min(t.confidence, 1), 0.8), line: t.line)
            f.totalCheck = check
            f.notes.append("total line read \(mended) with its decimal mark misread; \(check.rawValue) confirms it")
            return
        }
        let bare = minorDigits > 0 && t.value.scale == 0
        f.total?.confidence = min(t.confidence, bare ? 0.4 : FuelLines.unconfirmed)
        f.notes.append(bare ? "total printed without its minor digits and not confirmed" : "total not confirmed by a second source (payment line, price × volume, net + tax)")
    }
}
