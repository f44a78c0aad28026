import XCTest
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Samsara and Deere saves share one walk over their pages (`SavedPagesReader`): a single page,
/// an array of pages, and the same refusals, each worded for its vendor.
final class SavedPagesReaderTests: XCTestCase {
    func outcome(_ json: String, format: String) throws -> FileOutcome {
        let t = try TestWarehouse()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("saved-pages-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try json.write(to: url, atomically: true, encoding: .utf8)
        var options = ImportOptions(format: format)
        options.attributeByFolder = false
        return try t.importFile(url, options: options)
    }

    func testEachVendorRefusesWhatIsNotASavedResponseInItsOwnWords() throws {
        let cases: [(String, String, String)] = [
            ("samsara", "[1]", "a top-level array must hold saved pages (objects with 'data' and 'pagination')"),
            ("deere", "[1]", "a top-level array must hold saved pages (objects with 'values' and 'links')"),
            ("samsara", "\"text\"", "not a Samsara API response"),
            ("deere", "\"text\"", "not an Operations Center response"),
            ("samsara", "{\"data\": []} {}", "unexpected data after the end of the"),
            ("deere", "{\"values\": []} {}", "unexpected data after the end of the"),
        ]
        for (format, json, expected) in cases {
            let o = try outcome(json, format: format)
            XCTAssertEqual(o.status, .failed, "\(format) \(json)")
            XCTAssertTrue(o.error?.contains(expected) ?? false, "\(format) \(json): \(o.error ?? "no error")")
        }
    }

    func testAnArrayOfPagesReadsEveryPage() throws {
        for (format, page) in [("samsara", "{\"data\": [], \"pagination\": {\"hasNextPage\": false}}"), ("deere", "{\"values\": [], \"links\": []}")] {
            for json in [page, "[\(page), \(page)]", "[]"] {
                let o = try outcome(json, format: format)
                XCTAssertNotEqual(o.status, .failed, "\(format) \(json): \(o.error ?? "")")
            }
        }
    }
}
