// libFuzzer harness for receipt field extraction (Sources/FleetOCR/Receipt*.swift and
// OCRResult.swift, compiled with FleetCore's sources by `make fuzz`; the Tesseract and
// Leptonica engine files are left out: extraction works on OCR text alone).
//
// Any text, as lines with any OCR confidences, must give fields without a crash or hang, and:
// no card number survives in the masked text (masking is idempotent and leaves no 12–19 digit
// run); the card's last four are four digits; confidences stay within 0–1; amounts, volumes,
// prices and odometers are finite and not negative; a time of day is a real one; a total at or
// above the review threshold has a second source (`totalCheck`); the currency always has a
// source; a purchase date lies between 2000 and 2199, and one after the import time is flagged with a
// note; the OCR pipeline's receipt judge
// (`ReceiptReadingJudge`) is a strict order and settled exactly when no field is doubtful, and the
// lines it names for rereading are few, distinct, in range and unsure.
import Foundation

private func digitRuns(_ text: String) -> [Int] {
    // The masker's own definition of a card-shaped run: digits, single spaces or dashes between.
    var runs: [Int] = []
    let chars = Array(text)
    var i = 0
    while i < chars.count {
        guard chars[i].isASCII, chars[i].isNumber else { i += 1; continue }
        var n = 0, j = i
        while j < chars.count {
            if chars[j].isASCII, chars[j].isNumber { n += 1; j += 1 }
            else if chars[j] == " " || chars[j] == "-", j + 1 < chars.count, chars[j + 1].isASCII, chars[j + 1].isNumber { j += 1 }
            else { break }
        }
        runs.append(n)
        i = j
    }
    return runs
}

private func check(_ f: ReceiptFields) {
    func conf<V>(_ name: String, _ field: ReceiptFields.Field<V>?) {
        guard let field else { return }
        precondition(field.confidence.isFinite && (0...1).contains(field.confidence), "\(name) confidence \(field.confidence)")
        precondition(field.line >= 0, "\(name) line \(field.line)")
    }
    conf("merchant", f.merchant); conf("date", f.date); conf("time", f.time); conf("total", f.total); conf("currency", f.currency)
    conf("volume", f.volume); conf("unitPrice", f.unitPrice); conf("fuelGrade", f.fuelGrade); conf("card", f.cardLast4)
    conf("odometer", f.odometer); conf("unit", f.unitNumber)
    precondition((0...1).contains(f.confidence), "overall confidence \(f.confidence)")
    if let c = f.cardLast4?.value { precondition(c.count == 4 && c.allSatisfy { $0.isASCII && $0.isNumber }, "card last four '\(c)'") }
    if let t = f.total?.value { precondition(t.double.isFinite && t.double >= 0, "total \(t)") }
    if let p = f.unitPrice?.value { precondition(p.double.isFinite && p.double >= 0, "unit price \(p)") }
    if let v = f.volume?.value { precondition(v.millilitres.isFinite && v.millilitres >= 0, "volume \(v.amount)") }
    if let o = f.odometer?.value { precondition(o.metres.isFinite && o.metres >= 0, "odometer \(o.value)") }
    if let t = f.time?.value { precondition((0...23).contains(t.hour) && (0...59).contains(t.minute) && (0...60).contains(t.second), "time \(t)") }
    if let c = f.computedTotal { precondition(c.isFinite, "computed total \(c)") }
    // Nothing sure on one reading: a total at or above the review threshold has a second source.
    if let t = f.total, t.confidence >= ReceiptFields.reviewThreshold { precondition(f.totalCheck != nil, "sure total \(t.value) without a check") }
    precondition(f.currency != nil && f.currencySource != nil, "no currency or no source")
    // A purchase date is never before 2000 nor after 2199; one after the import time (plus a
    // day) is kept only below the review threshold, with a note saying the clock judged it.
    if let d = f.date {
        let latest = CivilDate(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400) + 1)
        precondition(d.value.year >= 2000 && d.value <= ReceiptDates.latestPlausible, "date \(d.value) outside 2000–2199")
        if d.value > latest {
            precondition(d.confidence < ReceiptFields.reviewThreshold, "date \(d.value) after the clock is sure (\(d.confidence))")
            precondition(f.notes.contains { $0.contains("after this machine's clock") }, "date \(d.value) after the clock without a note")
        }
    }
    precondition(!digitRuns(f.maskedText).contains { (12...19).contains($0) }, "a card-shaped run survived masking: \(f.maskedText.debugDescription)")
    precondition(ReceiptPatterns.maskCardNumbers(f.maskedText) == f.maskedText, "masking is not idempotent")
    _ = f.doubtful
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceiptExtractor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Bounded like a receipt: OCR of one slip gives a few kilobytes of text.
    guard size <= 4096 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // One base currency per input (it decides day/month order and minor digits), chosen by the input.
    let currency = ["USD", "EUR", "JPY"][size % 3]
    check(ReceiptExtractor(defaultCurrency: currency).extract(text: text))
    // The same lines with confidences taken from the bytes, as Tesseract would give them.
    guard size > 0 else { return 0 }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { i, line in
        OCRResult.Line(words: line.split(separator: " ").map { OCRResult.Word(text: String($0), confidence: Double(data[i % size] % 101)) },
                       box: OCRResult.Box(x: 0, y: 30 * i, width: 400, height: 28))
    }
    let reading = OCRResult(lines: lines, meanConfidence: 55)
    check(ReceiptExtractor(defaultCurrency: currency).extract(reading))
    // The pipeline's judge (one input in four: it reads each reading again) is a strict order:
    // never both ways, never a reading over itself, and settled exactly when nothing is doubtful.
    if size % 4 == 0 {
        let judge = ReceiptReadingJudge(extractor: ReceiptExtractor(defaultCurrency: currency))
        let clean = OCRResult(lines: lines.map { OCRResult.Line(words: $0.words.map { OCRResult.Word(text: $0.text, confidence: 90) }) }, meanConfidence: 90)
        precondition(!(judge.prefers(reading, over: clean) && judge.prefers(clean, over: reading)), "the judge prefers both ways")
        precondition(!judge.prefers(reading, over: reading), "the judge prefers a reading over itself")
        precondition(judge.isSettled(reading) == ReceiptExtractor(defaultCurrency: currency).extract(reading).doubtful.isEmpty, "settled disagrees with doubtful")
        // The lines it names for rereading: distinct, in range, at most `maxRereadLines`, none
        // when settled, none read at 85 or more.
        let named = judge.linesToReread(reading)
        precondition(named.count <= ReceiptExtractor.maxRereadLines && Set(named).count == named.count, "too many or repeated reread lines")
        precondition(named.allSatisfy { reading.lines.indices.contains($0) && reading.lines[$0].confidence < 85 }, "a reread line out of range or sure")
        precondition(named.isEmpty || !judge.isSettled(reading), "a settled reading names lines")
    }
    return 0
}
