import Foundation
import FleetCore

/// The volume and unit-price readings of a receipt, and the choice among them by the
/// cross-check unit price × volume ≈ total.
///
/// Readings come from three shapes of line: `1,560 X 12,820 l` or `10.05 L @ 175` (price and
/// volume on one line; the number with the unit, or the one before `@`, is the volume), a label
/// (`GALLONS 12.345`, `PRICE/GAL $ 3.459`, `EUR/l 1,688`), and a number followed by a volume
/// unit (`35.10 litre`). A multiplication without any volume unit (`2 X 4.99`) is a shop line
/// and is ignored.
struct FuelLines {
    typealias Line = ReceiptExtractor.Line
    typealias TotalCandidate = ReceiptExtractor.TotalCandidate

    struct Reading {
        var amount: DecimalNumber
        var unit: ReceiptFields.VolumeUnit?
        var line: Int
        var range: Range<String.Index>
        var weight: Double      // how clearly the line says what the number is, times OCR factor
        /// From a `a X b` line without a unit: either number may be the price.
        var unitless = false
    }

    var volumes: [Reading] = []
    var prices: [Reading] = []
    /// A price per litre or gallon was printed: a fuel sale even if the volume is unreadable.
    var pricePerVolume = false
    /// A pump's table row (`pumpRow`): names fuel as a grade would, for the cross-check.
    var pumpTable = false
    let lines: [Line]

    static let volumeLabels = ["IMPERIAL GALLONS", "IMP GALLONS", "IMP GAL", "GALLONS", "GALLON", "GALONES", "GALON", "GALS", "GAL", "LITRES", "LITERS", "LITRE", "LITER", "LTRS", "LTR", "LITROS", "LITRI",
                               "VOLUME", "MENGE", "QTY", "QUANTITY", "KIEKIS", "LITRAI"]
    static let priceLabels: [(label: String, unit: ReceiptFields.VolumeUnit?)] = [
        ("/IMP GAL", .imperialGallon), ("PER IMP GAL", .imperialGallon), ("PRICE/GAL", .usGallon), ("PRICE / GAL", .usGallon), ("PRICE/G", .usGallon), ("PPG", .usGallon), ("/GAL", .usGallon), ("PER GAL", .usGallon),
        ("PRICE/LTR", .litre), ("PRICE/LITRE", .litre), ("PRICE/LITER", .litre), ("PRICE/L", .litre), ("PREIS/L", .litre), ("PRIX/L", .litre),
        ("/LTR", .litre), ("/LITRE", .litre), ("/L", .litre), ("PER LITRE", .litre), ("PER LITER", .litre), ("UNIT PRICE", nil),
        ("PRICE", nil), ("PREIS", nil), ("PRIX", nil), ("KAINA", nil),
    ]

    init(lines: [Line]) {
        self.lines = lines
        for (i, line) in lines.enumerated() { read(line, at: i) }
        // A price whose lone mark the country uses to group thousands (`PRECIO/GAL $15.050`,
        // pesos) is also read as a whole number; the cross-check picks.
        for p in prices {
            guard let n = lines[p.line].numbers.first(where: { $0.range == p.range }), n.groupsThousands, let g = n.grouped else { continue }
            var r = p
            r.amount = g
            prices.append(r)
        }
    }

    /// The volume unit a number is followed by (`43,88 l`, `35.10 litre`, `12.345 GAL`).
    /// `lenient` also takes a lone `|`, `1` or `I` for the litre sign, which is how OCR reads a
    /// small `l` at the end of a `price X volume l` line.
    static func unit(after n: ReceiptNumber, in text: String, lenient: Bool = false) -> ReceiptFields.VolumeUnit? {
        var rest = text[n.range.upperBound...]
        if let c = rest.first, c.isWhitespace { rest = rest.dropFirst() }
        let word = rest.prefix(while: { $0.isLetter })
        let next = rest.dropFirst(word.count).first
        let upper = word.uppercased()
        // `12.345 IMP GAL`, `IMPERIAL GALLONS`: the imperial gallon only where printed so.
        if ["IMP", "IMPERIAL"].contains(upper) {
            let after = rest.dropFirst(word.count).drop(while: { $0 == " " || $0 == "." }).prefix(while: { $0.isLetter }).uppercased()
            return ["GAL", "GALS", "GALLON", "GALLONS"].contains(after) ? .imperialGallon : nil
        }
        if ["LITRES", "LITERS", "LITRE", "LITER", "LITROS", "LTRS", "LTR", "L", "GALLONS", "GALLON", "GALONES", "GALON", "GLS", "GALS", "GAL"].contains(upper),
           !(next.map { $0.isNumber || $0 == "/" } ?? false) {
            return upper.hasPrefix("G") ? .usGallon : .litre
        }
        guard lenient else { return nil }
        // `|`, `1`, `I`, `LL`, `1L`, `L1` alone at the end of the line: the litre sign misread.
        let token = rest.prefix(while: { !$0.isWhitespace })
        guard rest.dropFirst(token.count).allSatisfy(\.isWhitespace), ["|", "1", "I", "LL", "1L", "L1", "l", "lL", "Ll"].contains(String(token)) else { return nil }
        return .litre
    }

    /// A price per volume unit printed after the number: `1.599/L`, `€1.599/L`, `2.200 RM / litre`,
    /// `1,725 EUR/1` (the `L` read as `1`, `|` or `I`),
    /// `3.459 $/GAL`, with at most a currency mark between the number and the slash.
    static func perUnit(after n: ReceiptNumber, in text: String) -> ReceiptFields.VolumeUnit? {
        var rest = Substring(text[n.range.upperBound...])
        func skipSpaces() { while let c = rest.first, c == " " { rest = rest.dropFirst() } }
        skipSpaces()
        let head = String(rest.prefix(3)).uppercased()
        for mark in ["EUR", "USD", "MYR", "SGD", "GBP", "COP", "IDR", "INR", "MAD", "RM", "RP", "RS", "DH", "S$", "$", "€", "£", "₹"] where head.hasPrefix(mark) {
            rest = rest.dropFirst(mark.count)
            break
        }
        skipSpaces()
        guard rest.first == "/" else { return nil }
        rest = rest.dropFirst()
        skipSpaces()
        // `1,725 EUR/1`, `EUR/|`: the litre's `L` misread, alone after the slash, after a price
        // with decimals (not `Bon 1433/1`, a receipt number).
        if n.value.scale >= 2, let c = rest.first, "1|I".contains(c), !(rest.dropFirst().first.map { $0.isLetter || $0.isNumber } ?? false) { return .litre }
        let word = rest.prefix(while: \.isLetter).uppercased()
        guard !(rest.dropFirst(word.count).first?.isLetter ?? false) else { return nil }
        if ["L", "LTR", "LITRE", "LITER", "LITRO", "LITRAS", "LT"].contains(word) { return .litre }
        if ["G", "GAL", "GALLON", "GALON", "GL"].contains(word) { return .usGallon }
        return nil
    }

    /// What stands between two numbers of one line, once units, currency marks and spaces are
    /// taken out: `X`, `×`, `*` or `@` makes them a price and a volume (`1,560 X 12.820 l`).
    static func operatorBetween(_ between: Substring) -> String {
        let tokens = ["LITRES", "LITERS", "LITRE", "LITER", "LTRS", "LTR", "GALLONS", "GALONES", "GAL", "EUR", "USD", "IDR", "INR", "MAD", "RM", "RP", "RS", "DH", "YEN", "S$", "$", "€", "£", "¥", "₹"]
        let c = Array(between.uppercased())
        var out = "", k = 0
        outer: while k < c.count {
            if c[k].isWhitespace { k += 1; continue }
            for t in tokens where k + t.count <= c.count && String(c[k..<(k + t.count)]) == t { k += t.count; continue outer }
            if c[k] == "L", !(k > 0 && (c[k - 1].isLetter || c[k - 1].isNumber)), !(k + 1 < c.count && (c[k + 1].isLetter || c[k + 1].isNumber)) { k += 1; continue }
            out.append(c[k])
            k += 1
            if out.count > 2 { break }
        }
        return out
    }

    /// `65,501` on a `price X volume l` line: the litre sign read as a final `1` and joined to
    /// the volume. The volume without it, in litres, when the number has three or more decimals.
    static func litreSlip(_ n: ReceiptNumber) -> DecimalNumber? {
        guard n.value.scale >= 3, n.text.last == "1" else { return nil }
        return DecimalNumber(mantissa: n.value.mantissa / 10, scale: n.value.scale - 1)
    }

    /// A table header naming a unit price and a quantity (`Item U\Price Qnty Amount`).
    static func isPriceQuantityHeader(_ line: Line) -> Bool {
        ["PRICE", "HARGA"].contains { ReceiptPatterns.contains(line.key, $0) } && ["QTY", "QNTY", "QUANTITY", "KUANTITI"].contains { ReceiptPatterns.contains(line.key, $0) }
    }

    /// A pump's sale as a row of a table headed by unit price and quantity, no unit printed
    /// (`infiniti 97 E4MP3 2.570 16.32 41.95`): a price to the tenth of a cent, a quantity with
    /// decimals and an amount with cents whose product is the amount. A shop's row prices in cents
    /// (`50 1.60 80.00`) and a prepaid chit counts whole units (`1.000 6 6.00`).
    mutating func pumpRow(_ line: Line, at i: Int, _ nums: [ReceiptNumber]) -> Bool {
        guard i > 0, nums.count >= 3, lines[max(0, i - 3)..<i].contains(where: Self.isPriceQuantityHeader) else { return false }
        let t = Array(nums.suffix(3))
        let (p, q, a) = (t[0], t[1], t[2])
        guard p.value.scale == 3, q.value.scale >= 2, a.value.scale == 2 else { return false }
        let tolerance = 0.0005 * q.value.double + 0.5 * pow(10, -Double(q.value.scale)) * p.value.double + 0.015
        guard abs(p.value.double * q.value.double - a.value.double) <= tolerance else { return false }
        volumes.append(Reading(amount: q.value, unit: nil, line: i, range: q.range, weight: 0.8 * line.factor, unitless: true))
        prices.append(Reading(amount: p.value, unit: nil, line: i, range: p.range, weight: 0.8 * line.factor, unitless: true))
        pumpTable = true
        return true
    }

    private mutating func read(_ line: Line, at i: Int) {
        let text = line.text
        let nums = line.numbers.filter { !ReceiptExtractor.isPercent($0, in: text) }
        if pumpRow(line, at: i, nums) { return }
        var used = Set<Range<String.Index>>()
        // A price per unit printed after its number: `€1.599/L`, `2.200 RM / litre`.
        for n in nums where !used.contains(n.range) {
            if let unit = Self.perUnit(after: n, in: text) {
                prices.append(Reading(amount: n.value, unit: unit, line: i, range: n.range, weight: 0.95 * line.factor))
                pricePerVolume = true
                used.insert(n.range)
            }
        }
        // `57,45 1X 1,725 EUR/L` (or `1 X`): the litre sign read as `1` (or `I`, `|`) before the
        // multiplication sign, on a line whose price is printed per litre. Only a reading: the
        // cross-check with the total decides whether it is the volume.
        if prices.contains(where: { $0.line == i && $0.unit == .litre }) {
            for n in nums where !used.contains(n.range) && n.value.scale >= 2 {
                let rest = text[n.range.upperBound...].drop(while: { $0 == " " })
                guard let sign = rest.first, "1lI|".contains(sign), let times = rest.dropFirst().drop(while: { $0 == " " }).first, "xX×".contains(times) else { continue }
                volumes.append(Reading(amount: n.value, unit: .litre, line: i, range: n.range, weight: 0.9 * line.factor))
                used.insert(n.range)
            }
        }
        // Price and volume on one line, joined by X or @.
        for (a, b) in zip(nums, nums.dropFirst()) where !used.contains(a.range) && !used.contains(b.range) {
            let op = Self.operatorBetween(text[a.range.upperBound..<b.range.lowerBound])
            guard ["X", "×", "*", "@"].contains(op) else { continue }
            let ua = Self.unit(after: a, in: text, lenient: true), ub = Self.unit(after: b, in: text, lenient: true)
            var pair: (vol: ReceiptNumber, price: ReceiptNumber, unit: ReceiptFields.VolumeUnit?, weight: Double)
            if ua != nil { pair = (a, b, ua, 1) }
            else if ub != nil { pair = (b, a, ub, 1) }
            else if op == "@", a.value.scale >= 2 { pair = (a, b, nil, 0.8) }   // `10.05 @ 175`: quantity @ price; whole numbers are shop items
            else if let slip = Self.litreSlip(b) {
                volumes.append(Reading(amount: slip, unit: .litre, line: i, range: b.range, weight: 0.9 * line.factor))
                pair = (b, a, nil, 0.6)
            } else if op != "@", a.value.scale >= 2, b.value.scale >= 2, max(a.value.scale, b.value.scale) == 3 {
                // `1,509 X 53,710 | 81,05`: no unit says which is the price. Both readings are
                // kept, marked unit-less: only the cross-check (and a plausible price) can pick
                // one, and alone they do not make the slip a fuel sale.
                for (v, p) in [(a, b), (b, a)] {
                    volumes.append(Reading(amount: v.value, unit: nil, line: i, range: v.range, weight: 0.6 * line.factor, unitless: true))
                    prices.append(Reading(amount: p.value, unit: nil, line: i, range: p.range, weight: 0.6 * line.factor, unitless: true))
                }
                used.formUnion([a.range, b.range])
                continue
            } else { continue }
            volumes.append(Reading(amount: pair.vol.value, unit: pair.unit, line: i, range: pair.vol.range, weight: pair.weight * line.factor))
            prices.append(Reading(amount: pair.price.value, unit: pair.unit, line: i, range: pair.price.range, weight: pair.weight * line.factor))
            pricePerVolume = true
            used.formUnion([pair.vol.range, pair.price.range])
        }
        // A price label, then the first number after it; a volume label before it on the same
        // line (`GALLONS 12.345 PRICE/GAL $3.459`) is read too.
        var volumeKey = Substring(line.key)
        if !prices.contains(where: { $0.line == i }),
           let (label, unit) = Self.priceLabels.first(where: { ReceiptPatterns.contains(line.key, $0.label) || (!$0.label.first!.isLetter && ReceiptPatterns.has(line.key, $0.label)) }),
           let r = line.key.range(of: label) {
            let offset = line.key.distance(from: line.key.startIndex, to: r.upperBound)
            if let n = nums.first(where: { text.distance(from: text.startIndex, to: $0.range.lowerBound) >= offset && !used.contains($0.range) }) {
                prices.append(Reading(amount: n.value, unit: unit, line: i, range: n.range, weight: (unit == nil ? 0.7 : 0.95) * line.factor))
                pricePerVolume = pricePerVolume || unit != nil
                used.insert(n.range)
            }
            volumeKey = line.key[..<r.lowerBound]
            guard Self.volumeLabels.contains(where: { ReceiptPatterns.contains(String(volumeKey), $0) }) else { return }
        }
        // A number standing free and followed by a volume unit (`35.10 litre   RM 41.95`; not
        // the `1` of a label `EUR/1L`).
        let suffixed = nums.filter { n in
            !used.contains(n.range) && (n.range.lowerBound == text.startIndex || " :=".contains(text[text.index(before: n.range.lowerBound)]))
        }.compactMap { n in Self.unit(after: n, in: text).map { (n, $0) } }
        for (n, unit) in suffixed {
            volumes.append(Reading(amount: n.value, unit: unit, line: i, range: n.range, weight: 0.9 * line.factor))
        }
        guard suffixed.isEmpty else { return }
        // A volume label, then the number after it (or the line's first).
        let vkey = String(volumeKey)
        if let label = Self.volumeLabels.first(where: { ReceiptPatterns.contains(vkey, $0) }), let r = vkey.range(of: label) {
            let offset = vkey.distance(from: vkey.startIndex, to: r.upperBound)
            let unit: ReceiptFields.VolumeUnit? = label.hasPrefix("IMP") ? .imperialGallon : label.hasPrefix("GAL") ? .usGallon : label.hasPrefix("LIT") || label.hasPrefix("LTR") ? .litre : nil
            if let n = nums.first(where: { text.distance(from: text.startIndex, to: $0.range.lowerBound) >= offset && !used.contains($0.range) })
                ?? nums.first(where: { !used.contains($0.range) }) {
                volumes.append(Reading(amount: n.value, unit: unit ?? Self.unit(after: n, in: text), line: i, range: n.range, weight: 0.95 * line.factor))
                used.insert(n.range)
            }
        }
    }

    /// Amounts printed without a total keyword (a line total such as `EUR/l 1,688   74,07` or
    /// `35.10 litre   RM 41.95`, or any amount when the total line itself is unreadable),
    /// except the volume and price themselves and amounts on cash, change or tax lines. They
    /// become the total only when price × volume confirms them: two printed numbers whose
    /// product is a third are not a coincidence.
    func lineAmounts(minorDigits: Int) -> [TotalCandidate] {
        guard !volumes.isEmpty, !prices.isEmpty else { return [] }
        let taken = Set((volumes + prices).map { "\($0.line):\(lines[$0.line].text.distance(from: lines[$0.line].text.startIndex, to: $0.range.lowerBound))" })
        return lines.indices.flatMap { i -> [TotalCandidate] in
            let line = lines[i]
            guard !ReceiptPatterns.notTotal.contains(where: { ReceiptPatterns.contains(line.key, $0) }) else { return [] }
            return line.numbers.filter { !taken.contains("\(i):\(line.text.distance(from: line.text.startIndex, to: $0.range.lowerBound))") }
                .compactMap { n in n.money(minorDigits: minorDigits).map { TotalCandidate(amount: $0, weight: 0.5 * line.factor, line: i) } }
        }
    }

    /// Picks volume, unit price and total. A triple whose price × volume matches the total within
    /// what rounding explains wins, keyword totals first; without one, the best reading of each,
    /// and a total that contradicts price × volume is marked doubtful.
    ///
    /// - parameter fuelCue: the slip names a fuel (a grade, `DEGALAI`, `FUEL`, …): only then may a
    ///   unit-less `a X b` line be a price and a volume.
    static func choose(_ fuel: FuelLines, totals: [TotalCandidate], lineAmounts: [TotalCandidate], minorDigits: Int, fuelCue: Bool,
                       defaultUnit: ReceiptFields.VolumeUnit, into f: inout ReceiptFields) {
        let minorUnit = pow(10, -Double(minorDigits))
        let plausible = f.currency.flatMap { ReceiptPatterns.plausiblePricePerLitre[$0.value] }
        var best: (v: Reading, p: Reading, t: TotalCandidate, score: Double, computed: Double)? = nil
        // Bounded work whatever the text: a slip has a few readings, a hostile text thousands,
        // and the search is volumes × prices × amounts.
        let volumes = fuel.volumes.sorted { $0.weight > $1.weight }.prefix(maxReadings)
        let prices = fuel.prices.sorted { $0.weight > $1.weight }.prefix(maxReadings)
        let amounts = Array((totals + lineAmounts).prefix(maxAmounts))
        for v in volumes {
            for p in prices where !(p.line == v.line && p.range == v.range) {
                if v.unitless || p.unitless {
                    // Both numbers of one unit-less `a X b` line, on a slip that names a fuel, at a price a pump charges.
                    guard fuelCue, v.line == p.line, let plausible else { continue }
                    let perLitre = p.amount.double * 1000 / (v.unit ?? p.unit ?? defaultUnit).millilitres
                    guard plausible.contains(perLitre) else { continue }
                }
                let computed = v.amount.double * p.amount.double
                let tolerance = 0.5 * pow(10, -Double(p.amount.scale)) * v.amount.double + 0.5 * pow(10, -Double(v.amount.scale)) * p.amount.double + 1.5 * minorUnit
                for t in amounts where abs(computed - t.amount.double) <= tolerance {
                    let keyword = totals.contains { $0.line == t.line && $0.amount == t.amount }
                    let perLitre = p.amount.double * 1000 / (v.unit ?? p.unit ?? defaultUnit).millilitres
                    let score = v.weight + p.weight + t.weight * (keyword ? 2 : 1) + (plausible?.contains(perLitre) ?? false ? 0.2 : 0)
                    if best == nil || score > best!.score { best = (v, p, t, score, computed) }
                }
            }
        }
        let strongest = strongestTotal(totals)
        if let best {
            let unit = best.v.unit ?? best.p.unit ?? defaultUnit
            f.volume = .init(ReceiptFields.Volume(amount: best.v.amount, unit: unit), confidence: 0.15 + best.v.weight, line: best.v.line)
            f.unitPrice = .init(best.p.amount, confidence: 0.15 + best.p.weight, line: best.p.line)
            f.computedTotal = best.computed
            f.totalCheck = .priceTimesVolume
            if let s = strongest, s.amount != best.t.amount, s.weight > best.t.weight {
                // The total line names another amount: a misread total, or fuel plus a shop item.
                // Keep the amount two printed numbers agree on, and send the receipt to review.
                f.total = .init(best.t.amount, confidence: 0.5, line: best.t.line)
            } else {
                f.total = .init(best.t.amount, confidence: max(best.t.weight, 0.5) + 0.3, line: best.t.line)
            }
            return
        }
        // Nothing confirms a volume or a unit price: kept as read, below the review threshold.
        if let v = fuel.volumes.filter({ !$0.unitless }).max(by: { $0.weight < $1.weight }) {
            let unit = v.unit ?? fuel.prices.compactMap(\.unit).first ?? defaultUnit
            f.volume = .init(ReceiptFields.Volume(amount: v.amount, unit: unit), confidence: min(unconfirmed, v.weight * (fuel.prices.isEmpty ? 1 : 0.85)), line: v.line)
        }
        if let p = fuel.prices.filter({ !$0.unitless }).max(by: { $0.weight < $1.weight }) {
            f.unitPrice = .init(p.amount, confidence: min(unconfirmed, p.weight * (fuel.volumes.isEmpty ? 1 : 0.85)), line: p.line)
        }
        if let s = strongest {
            var confidence = s.confidence
            if let v = f.volume?.value.amount, let p = f.unitPrice?.value {
                f.computedTotal = v.double * p.double
                confidence *= 0.6   // printed total and price × volume disagree: one of them is misread
            }
            f.total = .init(s.amount, confidence: confidence, line: s.line)
        }
    }

    static let maxReadings = 24
    static let maxAmounts = 400

    /// The highest confidence of a reading no second source confirms: below the review threshold.
    static let unconfirmed = 0.55

    /// Lowers the confidence of a volume (and unit price) implying a price per litre no pump
    /// charges: unit price, else total ÷ volume, against `plausiblePricePerLitre`.
    static func checkPlausible(_ f: inout ReceiptFields) {
        guard let v = f.volume, let code = f.currency?.value, let range = ReceiptPatterns.plausiblePricePerLitre[code] else { return }
        let litres = v.value.millilitres / 1000
        guard litres > 0, let perLitre = f.unitPrice.map({ $0.value.double * 1000 / v.value.unit.millilitres })
                ?? f.total.map({ $0.value.double / litres }) else { return }
        if !range.contains(perLitre) {
            f.volume?.confidence *= 0.5
            f.unitPrice?.confidence *= 0.5
        }
    }

    /// The total most keyword weight stands behind; its confidence drops when other keyword
    /// lines name a different amount and rises a little when several agree.
    static func strongestTotal(_ totals: [TotalCandidate]) -> (amount: DecimalNumber, weight: Double, confidence: Double, line: Int)? {
        var byAmount: [(amount: DecimalNumber, weight: Double, top: Double, count: Int, line: Int)] = []
        for t in totals {
            if let i = byAmount.firstIndex(where: { $0.amount.double == t.amount.double }) {
                byAmount[i].weight += t.weight
                byAmount[i].count += 1
                if t.weight > byAmount[i].top { (byAmount[i].top, byAmount[i].line) = (t.weight, t.line) }
            } else {
                byAmount.append((t.amount, t.weight, t.weight, 1, t.line))
            }
        }
        guard let best = byAmount.max(by: { ($0.top, $0.weight, $0.line) < ($1.top, $1.weight, $1.line) }) else { return nil }
        var confidence = best.top + (best.count > 1 ? 0.05 : 0)
        if byAmount.count > 1 { confidence *= 0.75 }
        return (best.amount, best.top, confidence, best.line)
    }
}
