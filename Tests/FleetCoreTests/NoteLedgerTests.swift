import XCTest
@testable import FleetCore

/// Notes are aggregated by kind and bounded: counts and a few examples, at most `maxKinds`
/// lines, each text and example capped, whatever a file throws at them.
final class NoteLedgerTests: XCTestCase {
    func testAKindIsOneLineWithItsCountAndFirstExamples() {
        var l = NoteLedger()
        for i in 0..<520_000 { l.add("columns not part of the assets format, ignored", example: String(UnicodeScalar(UInt8(97 + i % 26)))) }
        XCTAssertEqual(l.lines, ["columns not part of the assets format, ignored ×520,000: 'a', 'b', 'c', …"])
        var one = NoteLedger()
        one.add("columns not part of the assets format, ignored", example: "colour")
        XCTAssertEqual(one.lines, ["columns not part of the assets format, ignored: 'colour'"])
    }

    func testFreeTextRepeatsAreCountedAndEverythingIsCapped() {
        var l = NoteLedger()
        l.add("2 point times had no zone")
        l.add("2 point times had no zone")
        l.add(String(repeating: "x", count: 1_000_000))
        l.add("long examples", example: String(repeating: "y", count: 1_000_000))
        let lines = l.lines
        XCTAssertEqual(lines[0], "2 point times had no zone (×2)")
        XCTAssertEqual(lines[1].count, NoteLedger.maxTextLength + 1)
        XCTAssertEqual(lines[2], "long examples: '" + String(repeating: "y", count: NoteLedger.maxExampleLength) + "…'")
    }

    func testKindsBeyondTheLimitAreOnlyCounted() {
        var l = NoteLedger()
        for i in 0..<100_000 { l.add("remark \(i)") }
        for i in 0..<10 { l.add("kind \(i)", example: "v") }
        let lines = l.lines
        XCTAssertEqual(lines.count, NoteLedger.maxKinds + 1)
        XCTAssertEqual(lines.last, "99,978 more notes of other kinds not kept (more than 32 kinds)")
        XCTAssertLessThan(lines.joined().utf8.count, 2_000)
        XCTAssertEqual(NoteLedger.grouped(0), "0")
        XCTAssertEqual(NoteLedger.grouped(999), "999")
        XCTAssertEqual(NoteLedger.grouped(1_000), "1,000")
        XCTAssertEqual(NoteLedger.grouped(12_345_678), "12,345,678")
    }
}
