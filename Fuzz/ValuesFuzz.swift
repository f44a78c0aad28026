// libFuzzer harness for the value parsers every importer relies on: decimals and money,
// ISO 8601 times, civil dates and VINs. None may crash; round trips must hold. Since issue 35
// also the numeric bounds: accepted amounts within `Money.limitMinor` (9,000 of them sum
// without overflow), conversions at any rate (`Money.converted`), float-to-integer conversion
// (`Checked`) and trip-rule values (`RuleBounds`).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for convention in [DecimalNumber.Convention.point, .comma] {
        if let n = try? DecimalNumber.parse(text, convention: convention) {
            // What was read prints back to a number that reads the same.
            let again = try? DecimalNumber.parse(n.description, convention: .point)
            precondition(again == n, "round trip failed for \(text.debugDescription) → \(n)")
        }
    }
    // Issue 35: amounts are bounded where they are read, so a sum of 9,000 of them fits.
    for currency in ["USD", "JPY", "KWD"] {
        if let m = try? Money.parse(text, currency: currency) {
            precondition(Money.isWithinLimit(m.minor), "an amount beyond the limit was accepted: \(text.debugDescription)")
            precondition(!Int64(9_000).multipliedReportingOverflow(by: m.minor.magnitude > UInt64(Int64.max) ? Int64.max : Int64(m.minor.magnitude)).overflow)
            precondition((try? Checked.add(m.minor, m.minor, "test")) == m.minor * 2)
        }
    }
    // Rates and conversions: "AMOUNT RATE" converts without trapping; a result is exact
    // enough (within one minor unit of the Double product, which it rounds).
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    if words.count >= 2, let amount = try? Money.parse(String(words[0]), currency: "USD"), let rate = Double(words[1]) {
        for target in ["JPY", "EUR", "KWD"] {
            if let c = Money.converted(minor: amount.minor, from: "USD", to: target, rate: rate) {
                let exact = Double(amount.minor) * rate * pow(10, Double(Money.minorDigits(target) - 2))
                precondition(abs(Double(c) - exact) <= max(1, abs(exact) * 1e-15), "conversion \(text.debugDescription) gave \(c)")
            }
        }
    }
    // Any number to an integer: nil or within half a unit, never a trap.
    if let d = Double(text.trimmingCharacters(in: .whitespaces)) {
        if let i = Checked.int64(d) { precondition(abs(Double(i) - d) <= 0.5 || abs(d) >= 9.0e18) }
        if let ms = Checked.int64(d * 1000) { _ = ms }
        // Trip rules as `KEY=VALUE` gives them: an accepted value converts to milliseconds and
        // metres with room to spare (the derivation's `(2 × gap + stop) × 1000`).
        for key in ["gap_seconds", "stop_seconds", "start_distance_m", "idle_speed_mps"] where RuleBounds.problem(key: key, value: d) == nil {
            precondition(d.isFinite && d >= 0 && d <= RuleBounds.limit(of: key))
            precondition(Checked.int64((2 * d + d) * 1000) != nil)
        }
    }
    _ = QuotedText.cut(text, limit: 7)
    if let ms = Timestamp.parse(text, zone: TimeZone(identifier: "America/Chicago")) {
        precondition(Timestamp.parse(Timestamp.iso(ms)) == ms, "ISO round trip failed for \(text.debugDescription)")
    }
    _ = CivilDate(text)
    _ = VIN.problem(VIN.normalise(text))
    _ = VIN.hasValidCheckDigit(VIN.normalise(text))
    return 0
}
