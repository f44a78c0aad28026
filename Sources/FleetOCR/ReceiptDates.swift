import Foundation
import FleetCore

/// The purchase date and time of a receipt.
///
/// A slip prints several dates: the purchase, a card's expiry (`EXP 12/27`, `Date d'expiration`),
/// a validity or offer period, sometimes a print date. Only the purchase date is wanted, so a date
/// labelled as one of the others is never taken, and a date outside the window
/// `earliest...latest` (the import time, plus a day for time zones) is an OCR slip or not a
/// purchase at all: `2099` is not accepted because it parses. The clock is not trusted alone:
/// when no date on the slip is within the window, a plausible date after it is kept, doubtful
/// (`beyondClockConfidence`, below the review threshold), with a note naming the clock, so a
/// machine whose clock is wrong sends its receipts to review instead of losing their dates. Numeric dates are scanned by hand
/// (this runs on every OCR line); the rarer month-name and CJK shapes use patterns, run only on
/// lines that hold a month name or `年`.
struct ReceiptDates {
    typealias Line = ReceiptExtractor.Line

    var earliest: CivilDate
    var latest: CivilDate
    /// `03/04/2025` is March 4 (US) rather than 3 April; used only when neither number can be a
    /// month, nor another date on the slip settles it. Nil when the receipt's evidence disagrees
    /// on the order (`ReceiptLocale`): such a date is then doubtful (`unsettledOrder`).
    var monthFirst: Bool?

    /// Labels of the purchase date.
    static let purchaseLabels = ["DATE", "DATUM", "DATA", "DAT", "FECHA", "TARIKH", "日付", "SALE DATE", "TRANS DATE"]
    /// Labels of dates that are not the purchase (matched as whole words, diacritics folded).
    static let otherLabels = ["EXP", "EXPIRY", "EXPIRES", "EXPIRATION", "EXPIRATION DATE", "VALID", "VALIDITY", "VALABLE", "VALIDE",
                              "GULTIG", "GUELTIG", "BEST BEFORE", "USE BY", "MHD", "PRINTED", "IMPRIME", "GEDRUCKT", "GALIOJA", "UNTIL", "BIS"]

    struct Candidate { var date: CivilDate; var confidence: Double; var line: Int; var labelled: Bool; var unsettled = false }

    /// The confidence of a date whose day/month order nothing settles: below the review threshold.
    static let unsettledOrder = 0.5

    /// What was read, and the dates left out (outside the window or labelled as another kind of
    /// date), for the review notes.
    struct Outcome {
        var date: ReceiptFields.Field<CivilDate>?
        var time: ReceiptFields.Field<ReceiptFields.ClockTime>?
        var ignored: [String]
        /// The date taken is after `latest` (the run's clock plus the tolerance): nothing on the
        /// slip was within the window, so it is kept doubtful for review rather than dropped.
        var beyondClock = false
    }

    /// The last date a slip may print at all: later ones are OCR slips whatever the clock says
    /// (the warehouse's plausible times end in 2200).
    static let latestPlausible = CivilDate(year: 2199, month: 12, day: 31)!

    /// The confidence of a date after the run's clock: below the review threshold, so a person
    /// confirms it (the clock may be wrong, or the date misread).
    static let beyondClockConfidence = 0.4

    func read(_ lines: [Line]) -> Outcome {
        var found: [Candidate] = []
        // Dates after `latest` but plausible: the clock judges them, so they are never dropped on
        // its word alone; taken (doubtful) only when no date within the window is on the slip.
        var beyondClock: [Candidate] = []
        var ambiguous: [(a: Int, b: Int, y: Int, line: Int, labelled: Bool, factor: Double)] = []
        var ignored: [String] = []
        for (i, line) in lines.enumerated() {
            for m in Self.numericDates(in: line.text) {
                let (kind, labelled) = label(line, before: m.start)
                let year = m.c < 100 && !m.yearFirst ? 2000 + m.c : m.c
                func add(_ y: Int, _ mo: Int, _ d: Int, _ conf: Double) {
                    guard let date = CivilDate(year: y, month: mo, day: d) else { return }
                    if kind == .other { ignored.append("\(date) (\(line.text.trimmingCharacters(in: .whitespaces).prefix(40)))"); return }
                    let candidate = Candidate(date: date, confidence: conf * line.factor(holding: [m.a, m.b, m.c]), line: i, labelled: labelled)
                    if date > latest, date <= Self.latestPlausible { beyondClock.append(candidate) }
                    guard date >= earliest, date <= latest else { ignored.append("\(date) outside \(earliest)…\(latest)"); return }
                    found.append(candidate)
                }
                if m.yearFirst { add(m.a, m.b, m.c, 0.95); continue }
                guard kind != .other else { ignored.append("\(m.a)\(m.separator)\(m.b)\(m.separator)\(m.c) (\(line.text.trimmingCharacters(in: .whitespaces).prefix(40)))"); continue }
                if m.separator == "." || (m.a > 12 && m.b <= 12) { add(year, m.b, m.a, 0.95) }          // dots: day first, always
                else if m.b > 12 && m.a <= 12 { add(year, m.a, m.b, 0.95) }
                else if m.a == m.b { add(year, m.a, m.b, 0.95) }
                else if (1...12).contains(m.a), (1...12).contains(m.b) { ambiguous.append((m.a, m.b, year, i, labelled, line.factor(holding: [m.a, m.b, m.c]))) }
            }
            for (y, mo, d) in Self.namedDates(in: line) {
                guard let date = CivilDate(year: y < 100 ? 2000 + y : y, month: mo, day: d) else { continue }
                guard label(line, before: nil).kind != .other else { continue }
                let candidate = Candidate(date: date, confidence: 0.95 * line.factor, line: i, labelled: label(line, before: nil).labelled)
                if date > latest, date <= Self.latestPlausible { beyondClock.append(candidate) }
                guard date >= earliest, date <= latest else { ignored.append("\(date) outside \(earliest)…\(latest)"); continue }
                found.append(candidate)
            }
        }
        // An ambiguous day/month order is settled by an unambiguous date on the same slip, else by convention.
        for amb in ambiguous {
            let factor = amb.factor
            let dm = CivilDate(year: amb.y, month: amb.b, day: amb.a), md = CivilDate(year: amb.y, month: amb.a, day: amb.b)
            if let settled = found.first(where: { $0.date == dm || $0.date == md }) {
                found.append(Candidate(date: settled.date, confidence: 0.95 * factor, line: amb.line, labelled: amb.labelled))
            } else if let monthFirst {
                if let d = monthFirst ? md : dm, d >= earliest, d <= latest {
                    found.append(Candidate(date: d, confidence: 0.75 * factor, line: amb.line, labelled: amb.labelled))
                } else if let d = monthFirst ? dm : md, d >= earliest, d <= latest {
                    // The conventional order is in the future: the other one is the only possible date.
                    found.append(Candidate(date: d, confidence: 0.75 * factor, line: amb.line, labelled: amb.labelled))
                }
            } else {
                // The evidence disagrees on the order: the possible reading (day first when both
                // are) is kept for the reviewer, doubtful.
                let possible = [dm, md].compactMap { $0 }.filter { $0 >= earliest && $0 <= latest }
                if let d = possible.first {
                    found.append(Candidate(date: d, confidence: (possible.count == 1 ? 0.75 : Self.unsettledOrder) * factor, line: amb.line,
                                           labelled: amb.labelled, unsettled: possible.count > 1))
                }
            }
        }
        if found.isEmpty, let best = beyondClock.max(by: { score($0, beyondClock) < score($1, beyondClock) }) {
            return Outcome(date: .init(best.date, confidence: min(best.confidence, Self.beyondClockConfidence), line: best.line),
                           time: Self.time(lines, dateLine: best.line), ignored: ignored, beyondClock: true)
        }
        var dateField: ReceiptFields.Field<CivilDate>? = nil
        if let best = found.max(by: { score($0, found) < score($1, found) }) {
            let agreeing = found.filter { $0.date == best.date }.count
            var conf = best.confidence * (agreeing == found.count ? 1 : 0.8) + (agreeing > 1 ? 0.05 : 0)
            // Printed twice (the dm slip's head and foot): two lines OCR read apart agree on
            // every digit, and no other date on the slip disagrees. However faint each word, a
            // misreading does not repeat itself on another line. Printed once at a low word
            // confidence (`06.06.2015` under 20) it stays doubtful: nothing else confirms it.
            if agreeing == found.count, Set(found.map(\.line)).count >= 2, !found.contains(where: \.unsettled) { conf = max(conf, Self.printedTwice) }
            dateField = .init(best.date, confidence: conf, line: best.line)
        }
        return Outcome(date: dateField, time: Self.time(lines, dateLine: dateField?.line), ignored: ignored)
    }

    /// The confidence of a date two lines print alike (and no line contradicts).
    static let printedTwice = 0.8

    /// Labelled dates first, then the one most other dates agree with, then the earliest line.
    private func score(_ c: Candidate, _ all: [Candidate]) -> Double {
        (c.labelled ? 10 : 0) + Double(all.filter { $0.date == c.date }.count) + c.confidence - Double(c.line) * 0.001
    }

    enum Kind { case purchase, other, none }

    /// The label nearest before the date on its line (`DATE 01/02/2025 EXP 12/27` labels each
    /// date by what precedes it); without one before it, any label on the line.
    func label(_ line: Line, before: String.Index?) -> (kind: Kind, labelled: Bool) {
        let key = before.map { ReceiptPatterns.key(String(line.text[..<$0])) } ?? line.key
        func last(_ labels: [String]) -> String.Index? {
            labels.compactMap { l in ReceiptPatterns.contains(key, l) ? key.range(of: l, options: .backwards)?.lowerBound : nil }.max()
        }
        let p = last(Self.purchaseLabels), o = last(Self.otherLabels)
        switch (p, o) {
        case let (p?, o?): return p > o ? (.purchase, true) : (.other, false)
        case (_?, nil): return (.purchase, true)
        case (nil, _?): return (.other, false)
        case (nil, nil): return before == nil ? (.none, false) : label(line, before: nil)
        }
    }

    struct NumericDate { var a: Int; var b: Int; var c: Int; var separator: Character; var yearFirst: Bool; var start: String.Index }

    /// `2025-03-14` (year first; the separators may differ) and `14.03.2025`, `03/14/25`,
    /// `Dat.31.08.2015` (one separator used twice; a two- or four-digit year). A date does not
    /// continue a number: it must not follow a digit, nor a separator that follows one.
    static func numericDates(in text: String) -> [NumericDate] {
        let chars = Array(text)
        var starts: [String.Index] = []
        starts.reserveCapacity(chars.count)
        var idx = text.startIndex
        while idx < text.endIndex { starts.append(idx); idx = text.index(after: idx) }
        func d(_ k: Int) -> Bool { k >= 0 && k < chars.count && chars[k].isASCII && chars[k].isNumber }
        func sep(_ k: Int) -> Bool { k >= 0 && k < chars.count && (chars[k] == "-" || chars[k] == "/" || chars[k] == ".") }
        func run(_ k: Int) -> Int { var e = k; while d(e) { e += 1 }; return e }
        func value(_ k: Int, _ e: Int) -> Int { chars[k..<e].reduce(0) { $0 * 10 + Int($1.asciiValue! - 48) } }
        var out: [NumericDate] = []
        var k = 0
        while k < chars.count {
            guard d(k), !d(k - 1) else { k += 1; continue }
            let e1 = run(k)
            let afterNumber = (chars.indices.contains(k - 1) && (chars[k - 1] == "." || chars[k - 1] == "," || chars[k - 1] == "/" || chars[k - 1] == "-")) && d(k - 2)
            guard !afterNumber, e1 - k <= 4, sep(e1), d(e1 + 1) else { k = e1; continue }
            let e2 = run(e1 + 1)
            guard e2 - (e1 + 1) <= 2, sep(e2), d(e2 + 1) else { k = e2; continue }
            let e3 = run(e2 + 1)
            let l1 = e1 - k, l3 = e3 - (e2 + 1)
            if l1 == 4, l3 <= 2 {
                out.append(NumericDate(a: value(k, e1), b: value(e1 + 1, e2), c: value(e2 + 1, e3), separator: chars[e1], yearFirst: true, start: starts[k]))
            } else if l1 <= 2, chars[e1] == chars[e2], l3 == 2 || l3 == 4 {
                out.append(NumericDate(a: value(k, e1), b: value(e1 + 1, e2), c: value(e2 + 1, e3), separator: chars[e1], yearFirst: false, start: starts[k]))
            }
            k = e3
        }
        return out
    }

    /// `05-JAN-2017`, `JAN 5, 2017` and `2025年3月14日`, as (year, month, day).
    static func namedDates(in line: Line) -> [(Int, Int, Int)] {
        var out: [(Int, Int, Int)] = []
        if ReceiptPatterns.has(line.text, "年") {
            for m in ReceiptPatterns.matches(#"(?<![\d.,])(\d{4})\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日"#, in: line.text) {
                out.append((Int(m.groups[1]!)!, Int(m.groups[2]!)!, Int(m.groups[3]!)!))
            }
        }
        let words = line.key.split(whereSeparator: { !$0.isLetter })
        guard words.contains(where: { ReceiptPatterns.months[String($0)] != nil }), line.key.contains(where: \.isNumber) else { return out }
        for m in ReceiptPatterns.matches(#"(?<![\d])(\d{1,2})\s?[-/. ]?\s?([A-Z]{3,9})\.?\s?[-/. ]?\s?(\d{4}|\d{2})(?![\d])"#, in: line.key, options: []) {
            if let month = ReceiptPatterns.months[m.groups[2]!] { out.append((Int(m.groups[3]!)!, month, Int(m.groups[1]!)!)) }
        }
        for m in ReceiptPatterns.matches(#"\b([A-Z]{3,9})\.? (\d{1,2}),? (\d{4})(?![\d])"#, in: line.key, options: []) {
            if let month = ReceiptPatterns.months[m.groups[1]!] { out.append((Int(m.groups[3]!)!, month, Int(m.groups[2]!)!)) }
        }
        return out
    }

    /// `07:42`, `07:42:10`, `7:42 PM`, `07h42`: on the date's line first, then labelled, then
    /// the first one printed. Scanned by hand.
    static func time(_ lines: [Line], dateLine: Int?) -> ReceiptFields.Field<ReceiptFields.ClockTime>? {
        let labels = ["TIME", "ZEIT", "UHRZEIT", "HEURE", "LAIKAS", "TIJD", "HORA", "MASA", "ORA"]
        var best: (field: ReceiptFields.Field<ReceiptFields.ClockTime>, score: Int)? = nil
        for (i, line) in lines.enumerated() where line.text.contains(where: { $0 == ":" || $0 == "h" || $0 == "H" }) {
            for t in clockTimes(in: line.text) {
                let score = (i == dateLine ? 4 : 0) + (labels.contains { ReceiptPatterns.contains(line.key, $0) } ? 2 : 0)
                if best == nil || score > best!.score {
                    best = (.init(t, confidence: 0.9 * line.factor, line: i), score)
                }
            }
        }
        return best?.field
    }

    /// Every clock time in a line: an hour (0–23, one or two digits, not after a digit, `:`, `.`
    /// or `,`), `:` or `h` (a space may stand either side), two-digit minutes, optional seconds,
    /// and an optional AM/PM that makes the hour 1–12 a 12-hour one.
    static func clockTimes(in text: String) -> [ReceiptFields.ClockTime] {
        let c = Array(text)
        func d(_ k: Int) -> Bool { k >= 0 && k < c.count && c[k].isASCII && c[k].isNumber }
        func v(_ k: Int) -> Int { Int(c[k].asciiValue! - 48) }
        func space(_ k: Int) -> Bool { k < c.count && c[k].isWhitespace }
        var out: [ReceiptFields.ClockTime] = []
        var k = 0
        while k < c.count {
            guard d(k), k == 0 || !(d(k - 1) || c[k - 1] == ":" || c[k - 1] == "." || c[k - 1] == ",") else { k += 1; continue }
            // The hour: two digits when they make 00–23 and a separator follows, else one.
            func separatorEnd(_ p: Int) -> Int? {
                var q = p
                if space(q) { q += 1 }
                guard q < c.count, c[q] == ":" || c[q] == "h" || c[q] == "H" else { return nil }
                q += 1
                if space(q) { q += 1 }
                return q
            }
            var hour = -1, p = k
            if d(k + 1), v(k) * 10 + v(k + 1) <= 23, let q = separatorEnd(k + 2) { hour = v(k) * 10 + v(k + 1); p = q }
            else if !d(k + 1), let q = separatorEnd(k + 1) { hour = v(k); p = q }
            guard hour >= 0, d(p), d(p + 1), v(p) <= 5 else { k += 1; continue }
            let minute = v(p) * 10 + v(p + 1)
            var end = p + 2, second = 0
            if end < c.count, c[end] == ":", d(end + 1), d(end + 2), v(end + 1) <= 5, !d(end + 3) {
                second = v(end + 1) * 10 + v(end + 2)
                end += 3
            }
            guard !d(end) else { k = end; continue }
            // AM/PM: spaces, A or P, an optional dot and space, M, not followed by a letter or digit.
            var q = end
            while space(q) { q += 1 }
            var h = hour
            if q < c.count, "AaPp".contains(c[q]) {
                var r = q + 1
                if r < c.count, c[r] == "." { r += 1 }
                if space(r) { r += 1 }
                if r < c.count, c[r] == "M" || c[r] == "m", r + 1 == c.count || !(c[r + 1].isLetter || c[r + 1].isNumber || c[r + 1] == "_") {
                    guard (1...12).contains(hour) else { k = end; continue }
                    h = (c[q] == "P" || c[q] == "p") ? (hour % 12) + 12 : hour % 12
                    end = r + 1
                }
            }
            out.append(ReceiptFields.ClockTime(hour: h, minute: minute, second: second))
            k = end
        }
        return out
    }
}
