import XCTest
import Foundation
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// A header of 520,000 unknown columns (1 MB, generated here) used to give 520,000 notes,
/// 237 MiB in memory, 40 MB of output and a 33 MB `import_run` row. It is now one note with
/// the count and three examples, in the outcome and in the run ledger.
final class NotesBoundTests: XCTestCase {
    static func hugeHeader(columns: Int) -> String {
        var header = "unit_number,kind"
        header.reserveCapacity(columns * 2 + 20)
        for i in 0..<columns { header += "," + String(UnicodeScalar(UInt8(97 + i % 26))) }
        return header
    }

    func testAMegabyteHeaderOfUnknownColumnsIsOneBoundedNote() throws {
        let t = try TestWarehouse()
        let text = Self.hugeHeader(columns: 520_000) + "\nT-01,truck\nT-02,truck\n"
        XCTAssertGreaterThan(text.utf8.count, 1_000_000)
        let url = try t.write(text, to: "assets-huge-header.csv")
        let summary = try t.importFiles([url.path], options: ImportOptions(format: "assets"))
        let o = summary.files[0]
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.loaded, 2)
        XCTAssertEqual(o.notes, ["columns not part of the assets format, ignored ×520,000: 'a', 'b', 'c', …"])
        let stored = try t.rows("SELECT length(summary_json) FROM import_run").map { $0[0] as Int }
        XCTAssertEqual(stored.count, 1)
        XCTAssertLessThan(stored[0], 2_000, "the run ledger row")
    }

    /// The same text from a vendor feed (a Torque log whose header has 10,000 PID columns in a
    /// unit FleetKit does not convert) is one line too.
    func testManyUnconvertibleTorqueColumnsAreOneNote() throws {
        let t = try TestWarehouse()
        var header = "GPS Time,Device Time,Longitude,Latitude,Engine RPM(rpm)"
        var row = "-,01-Oct-2026 08:00:00.000,-,-,1000"
        for i in 0..<10_000 { header += ",Fuel pressure(furlongs\(i))"; row += ",3" }
        let url = try t.write(header + "\n" + row + "\n", to: "torque-wide.csv")
        let o = try t.importFile(url, options: ImportOptions(format: "torque", asset: "T-12"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.notes?.count, 1, "\(o.notes ?? [])")
        XCTAssertTrue(o.notes?[0].hasPrefix("PID columns with a unit FleetKit does not convert, not stored ×10,000: 'Fuel pressure(furlongs0)', ") ?? false, "\(o.notes ?? [])")
        XCTAssertLessThan(o.notes?[0].utf8.count ?? 0, 400)
    }
}
