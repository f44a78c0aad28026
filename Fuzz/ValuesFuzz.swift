// libFuzzer harness for the value parsers every importer relies on: decimals and money,
// ISO 8601 times, civil dates and VINs. None may crash; round trips must hold.
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
    _ = try? Money.parse(text, currency: "USD")
    _ = try? Money.parse(text, currency: "JPY")
    if let ms = Timestamp.parse(text, zone: TimeZone(identifier: "America/Chicago")) {
        precondition(Timestamp.parse(Timestamp.iso(ms)) == ms, "ISO round trip failed for \(text.debugDescription)")
    }
    _ = CivilDate(text)
    _ = VIN.problem(VIN.normalise(text))
    _ = VIN.hasValidCheckDigit(VIN.normalise(text))
    return 0
}
