import Foundation

/// The lines of a receipt reading worth reading again on their own, cut out of the image.
///
/// Why: a page reading loses a digit or a whole amount on one line that read fine elsewhere on
/// the slip (a real German scan read `SUMME EUR oaSl` for `SUMME EUR 9,31`, and `06.00.2015`
/// for `06.06.2015`); read alone as one line (Tesseract's single-line mode), the same pixels
/// gave `9.31` and the right date. Only the lines that can settle a doubtful field are named:
/// the total's keyword lines when the total is doubtful (and a payment line below a total
/// nothing confirms), the lines shaped like a date or a
/// clock time when the date is, the fuel lines when a fuel slip's volume is. Lines read with
/// high confidence are left out: reading them again gives the same words. Whatever a reread
/// gives must still be confirmed by a second printed line (`ReceiptTotals.confirmation`, the
/// price × volume check) before it counts as sure; the reread only gives that check better text.
extension ReceiptExtractor {
    /// At most this many lines are reread per image: each costs a small reading (10–40 ms).
    public static let maxRereadLines = 4
    /// Lines whose weakest word Tesseract is at least this sure of are not reread.
    static let sureLineConfidence = 85.0

    /// Indices into `result.lines`, most useful first, at most `maxRereadLines`.
    public func linesToReread(_ result: OCRResult) -> [Int] {
        let f = extract(result)
        let fuel = f.isFuel
        var total = f.total.map { $0.confidence < ReceiptFields.reviewThreshold } ?? true
        let date = f.date.map { $0.confidence < ReceiptFields.reviewThreshold } ?? true
        let volume = fuel && (f.volume.map { $0.confidence < ReceiptFields.reviewThreshold } ?? true)
        // A fuel slip whose volume is doubtful most often lost a digit of the fuel line, which
        // also leaves price × volume unchecked: the fuel lines come first, the total lines after.
        if volume, f.total != nil { total = total || f.totalCheck != .priceTimesVolume }
        guard total || date || volume else { return [] }
        let texts = result.lines.map { ReceiptPatterns.repair($0.text) }
        let keys = texts.map(ReceiptPatterns.key)
        func unsure(_ i: Int) -> Bool { result.lines[i].box != nil && result.lines[i].confidence < Self.sureLineConfidence }
        var out: [Int] = []
        /// Up to `n` of `picks` (in their order) not sure and not named yet.
        func add(_ picks: [Int], _ n: Int) {
            var added = 0
            for i in picks where added < n && out.count < Self.maxRereadLines && unsure(i) && !out.contains(i) {
                out.append(i)
                added += 1
            }
        }
        if volume {
            let labelled = keys.indices.filter { i in
                FuelLines.volumeLabels.contains { ReceiptPatterns.contains(keys[i], $0) }
                    || Self.fuelWords.contains { ReceiptPatterns.contains(keys[i], $0) }
                    || FuelLines.priceLabels.contains { p in
                        p.unit != nil && (ReceiptPatterns.contains(keys[i], p.label) || !p.label.first!.isLetter && ReceiptPatterns.has(keys[i], p.label))
                    }
                    || Self.multiplied(texts[i])
                    || ReceiptNumber.all(in: texts[i]).contains { FuelLines.unit(after: $0, in: texts[i], lenient: true) != nil || FuelLines.perUnit(after: $0, in: texts[i]) != nil }
            }
            // A fuel line whose unit OCR lost (`36.17, lie re RM 12437`) sits next to one that kept it.
            let near = labelled.flatMap { [$0 - 1, $0 + 1] }.filter { i in
                i >= 0 && i < texts.count && !labelled.contains(i) && ReceiptNumber.all(in: texts[i]).count >= 2
            }
            add(labelled, 2)
            add(near, 1)
            // Nothing fuel-shaped left to read: the fuel line may be read past recognition
            // (`Jes AS Lee Ls OLGELURAL` for `22,43 l X 1,618 EUR/l`). It is printed between the
            // grade or pump line and the total: the least sure line there.
            if let grade = f.fuelGrade?.line, !labelled.contains(where: unsure), !near.contains(where: unsure) {
                let end = min(f.total.map { $0.line } ?? keys.count, grade + 4, keys.count)
                let between = end > grade + 1 ? Array((grade + 1)..<end) : []
                add(between.sorted { result.lines[$0].confidence < result.lines[$1].confidence }, 1)
            }
        }
        if total {
            let tokens = keys.map(ReceiptPatterns.wordTokens)
            var picks: [Int] = []
            for i in keys.indices where ReceiptTotals.totalKeyword(key: keys[i], tokens: tokens[i], glued: true) != nil {
                picks.append(i)
                // A keyword alone on its line: the amount is printed on the next.
                if i + 1 < keys.count, ReceiptNumber.all(in: texts[i]).isEmpty { picks.append(i + 1) }
            }
            add(picks, 2)
            // A total read but not confirmed: the payment, tendered or change line that would
            // confirm it is printed just below (`VESA eter tee e tt 3096 ENOROS` for
            // `VISA **** 3096 £19.65`). Of the three lines after the total's, one naming a payment
            // first, else the least sure.
            if let line = f.total?.line, f.totalCheck == nil {
                let below = Array(min(line + 1, keys.count)..<min(line + 4, keys.count))
                let words = ReceiptTotals.paymentWords + ReceiptTotals.tenderWords + ReceiptTotals.changeWords
                let paying = below.filter { i in words.contains { ReceiptPatterns.contains(keys[i], $0) } }
                add(paying + below.sorted { result.lines[$0].confidence < result.lines[$1].confidence }, 1)
            }
        }
        if date {
            let picks = texts.indices.filter { i in
                let other = ReceiptDates.otherLabels.contains { ReceiptPatterns.contains(keys[i], $0) }
                return !other && (!ReceiptDates.numericDates(in: texts[i]).isEmpty || !ReceiptDates.clockTimes(in: texts[i]).isEmpty
                    || Self.dateShaped(texts[i]) || ReceiptDates.purchaseLabels.contains { ReceiptPatterns.contains(keys[i], $0) })
            }
            add(picks, 2)
            // Nothing shaped like a date: the date line may be read past recognition
            // (`Dales 022 0 26a enka ale 577` for `Dat.13.02.2026 Zeit 09:14`); the least sure
            // lines of four digits or more after the total's line are the likeliest.
            if picks.isEmpty {
                let after = f.total?.line ?? 0
                let digity = texts.indices.filter { i in i > after && texts[i].filter { $0.isASCII && $0.isNumber }.count >= 4 }
                add(digity.sorted { result.lines[$0].confidence < result.lines[$1].confidence }, 1)
            }
        }
        return out
    }

    /// Two numbers joined by a multiplication sign (`51,45 1 x 4 725`): a price and a volume.
    static func multiplied(_ text: String) -> Bool {
        !ReceiptPatterns.matches(#"\d[\d.,]*\s*[lL|1]?\s*[xX×*@]\s*\d"#, in: text).isEmpty
    }

    /// Digits in groups of one or two, two or four around two separators, however read
    /// (`06.00.2015`, `O6.06,2015`, `06 .06.2015`): a date OCR bent out of a valid shape.
    static func dateShaped(_ text: String) -> Bool {
        !ReceiptPatterns.matches(#"(?<!\d)\d{1,2}\s?[.,/\-]\s?[\dOo]{1,2}\s?[.,/\-]\s?(?:\d{2}|\d{4})(?!\d)"#, in: text).isEmpty
    }
}
