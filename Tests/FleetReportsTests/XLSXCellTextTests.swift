import XCTest
@testable import FleetReports

/// What one Excel cell can hold, counted the way Excel counts (UTF-16 units), which is stricter
/// than libxlsxwriter's code-point check and than Swift's grapheme count (`XLSXCellText`).
final class XLSXCellTextTests: XCTestCase {
    func testShortTextIsUntouched() {
        for s in ["", "Brake job", "e\u{301}" + String(repeating: "😀", count: 100), String(repeating: "x", count: 32_767)] {
            XCTAssertEqual(XLSXCellText.fit(s).text, s)
            XCTAssertFalse(XLSXCellText.fit(s).truncated)
        }
    }

    /// 20,000 emoji are 20,000 code points (libxlsxwriter accepts them) but 40,000 UTF-16 units
    /// (Excel does not): cut to 32,766 units plus "…", never half a surrogate pair.
    func testEmojiCountTwiceAndPairsAreNeverSplit() {
        let s = String(repeating: "😀", count: 20_000)
        let (text, truncated) = XLSXCellText.fit(s)
        XCTAssertTrue(truncated)
        XCTAssertEqual(text.utf16.count, 32_767)   // 16,383 emoji (32,766 units) + "…"
        XCTAssertEqual(text, String(repeating: "😀", count: 16_383) + "…")
    }

    /// Combining accents make code points outnumber characters: the old check counted
    /// characters (22,500 here) and let through 45,000 code points, which libxlsxwriter refused.
    func testDecomposedAccentsAreCountedPerUnitAndKeptWhole() {
        let s = String(repeating: "e\u{301}", count: 22_500)
        XCTAssertLessThan(s.count, 32_767)
        let (text, truncated) = XLSXCellText.fit(s)
        XCTAssertTrue(truncated)
        XCTAssertLessThanOrEqual(text.utf16.count, 32_767)
        XCTAssertLessThanOrEqual(text.unicodeScalars.count, 32_767)
        XCTAssertEqual(text, String(repeating: "e\u{301}", count: 16_383) + "…")   // whole letters only
    }

    /// Family emoji (ZWJ sequences, 8 units each) and flags (4 units) are whole or absent.
    func testGraphemeClustersAreWholeOrAbsent() {
        let family = "👨‍👩‍👧", flag = "🇺🇸"
        let s = String(repeating: family + flag + "a", count: 3_000)   // 13 units each: 39,000
        let (text, truncated) = XLSXCellText.fit(s)
        XCTAssertTrue(truncated)
        XCTAssertLessThanOrEqual(text.utf16.count, 32_767)
        XCTAssertTrue(s.hasPrefix(String(text.dropLast())))
        XCTAssertEqual(text.last, "…")
        XCTAssertTrue(Set(text.dropLast()).isSubset(of: [Character(family), Character(flag), "a"]))
    }

    /// One grapheme longer than a cell (a letter with 40,000 combining marks) is cut between scalars.
    func testOneGiantClusterIsCutBetweenScalars() {
        let s = "a" + String(repeating: "\u{301}", count: 40_000)
        XCTAssertEqual(s.count, 1)
        let (text, truncated) = XLSXCellText.fit(s)
        XCTAssertTrue(truncated)
        XCTAssertEqual(text.utf16.count, 32_767)
        XCTAssertTrue(text.unicodeScalars.starts(with: "a\u{301}\u{301}".unicodeScalars))
    }

    /// The library's own limit, checked against the installed libxlsxwriter: the fitted text of
    /// 40,000 emoji is a cell, the raw text is refused as it was before the fix.
    func testLibxlsxwriterTakesTheFittedCell() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let book = try Workbook(path: dir.appendingPathComponent("cells.xlsx").path)
        let sheet = try book.addSheet("Cells")
        try sheet.write(String(repeating: "😀", count: 40_000), row: 0, column: 0, format: nil)
        try sheet.write(String(repeating: "e\u{301}", count: 30_000), row: 1, column: 0, format: nil)
        XCTAssertEqual(book.truncatedCells, 2)
        try book.close()
    }
}
