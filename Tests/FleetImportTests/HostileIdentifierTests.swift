import XCTest
import Foundation
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// Identifiers holding control characters (NUL, ESC, BEL, a bidi override) are refused as
/// `bad_identifier` rejects with their location and raw text, in master data, facts and vendor
/// feeds alike: a NUL-bearing unit number never becomes a second asset beside the real one.
final class HostileIdentifierTests: XCTestCase {
    private func rejects(_ t: TestWarehouse) throws -> [(location: String, reason: String, message: String, raw: String)] {
        try t.rows("SELECT location, reason, message, raw FROM reject ORDER BY id").map { ($0[0], $0[1], $0[2], $0[3]) }
    }

    func testANULInAUnitNumberIsRejectedAndMakesNoSecondAsset() throws {
        let t = try TestWarehouse()
        let assets = try t.importFile(fixture("hostile/assets-nul-in-unit.csv"))
        XCTAssertEqual([assets.loaded, assets.rejected], [1, 1])
        let expenses = try t.importFile(fixture("hostile/expenses-nul-in-unit.csv"))
        XCTAssertEqual([expenses.loaded, expenses.rejected], [1, 1])
        XCTAssertEqual(try t.count("asset"), 1)
        XCTAssertEqual(try t.rows("SELECT unit_number, length(CAST(unit_number AS BLOB)) FROM asset").map { "\($0[0] as String) \($0[1] as Int)" }, ["T-01 4"])
        let r = try rejects(t)
        XCTAssertEqual(r.map { "\($0.location) \($0.reason)" }, ["line 3 bad_identifier", "line 3 bad_identifier"])
        XCTAssertTrue(r[0].message.contains("the unit number 'T-01\\x00' holds the control character \\x00"), r[0].message)
        // Kept whole: the NUL is written \x00, since SQLite text bound through GRDB ends at a NUL.
        XCTAssertEqual(r[0].raw, "T-01\\x00,truck,Ford")
        XCTAssertEqual(r[1].raw, "X-2,2026-10-03,T-01\\x00,Tolls,7.00,USD")
        XCTAssertEqual(try t.count("expense"), 1)
    }

    func testEscapeSequencesAndBidiOverridesInIdentifiersAreRejected() throws {
        let t = try TestWarehouse()
        let assets = try t.importFile(fixture("hostile/assets-esc-in-unit.csv"))
        XCTAssertEqual([assets.loaded, assets.rejected], [1, 2])
        let drivers = try t.importFile(fixture("hostile/drivers-control-in-employee-id.csv"))
        XCTAssertEqual([drivers.loaded, drivers.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["T-02"])
        XCTAssertEqual(try t.rows("SELECT employee_id FROM driver").map { $0[0] as String }, ["E2001"])
        let r = try rejects(t)
        XCTAssertEqual(r.map { "\($0.location) \($0.reason)" }, ["line 3 bad_identifier", "line 4 bad_identifier", "line 3 bad_identifier"])
        XCTAssertTrue(r[0].message.contains("'T-02\\x1b[8m'"), r[0].message)
        XCTAssertTrue(r[1].message.contains("\\u{202e}"), r[1].message)
        XCTAssertTrue(r[2].message.contains("the employee id 'E20\\x0701'"), r[2].message)
        // The message itself holds no control character; the raw text keeps the file's bytes.
        XCTAssertTrue(r.allSatisfy { ControlText.firstControl(in: $0.message) == nil })
        XCTAssertEqual(r[1].raw, "T-03\u{202E}10-T,truck,Ford")
    }

    /// A Samsara vehicle whose id holds ESC [2J is a reject at its JSON path; one whose *name*
    /// holds an OSC title sequence loads (a name is a hint, not a key; the CLI escapes it).
    func testASamsaraVehicleIdWithAnEscapeSequenceIsRejectedAtItsPath() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("hostile/samsara-vehicles-esc-in-id.json"))
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        XCTAssertEqual(outcome.rejected, 1)
        let r = try rejects(t)
        XCTAssertEqual(r.map(\.reason), ["bad_identifier"])
        XCTAssertTrue(r[0].location.contains("data[1]"), r[0].location)
        XCTAssertTrue(r[0].message.contains("'281474977075806\\x1b[2J'"), r[0].message)
        XCTAssertTrue(r[0].raw.contains("281474977075806"), r[0].raw)
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier WHERE source = 'samsara' ORDER BY id_value").map { $0[0] as String },
                       ["281474977075805", "281474977075807"])
    }

    func testControlTextFindsAndEscapesExactlyTheControls() {
        XCTAssertEqual(ControlText.escaped("a\u{0}b\u{1B}[31mc\u{7F}d\u{85}e\u{9B}f\u{202E}g\u{2069}h\ti\nj"),
                       "a\\x00b\\x1b[31mc\\x7fd\\x85e\\x9bf\\u{202e}g\\u{2069}h\\x09i\\x0aj")
        for clean in ["T-01", "Zürich 7", "שלום", "東京", "C:\\path\\x1b", "\u{202F}\u{2065}\u{206A}\u{A0}"] {
            XCTAssertEqual(ControlText.escaped(clean), clean)
            XCTAssertNil(ControlText.firstControl(in: clean), clean)
        }
        XCTAssertNil(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "42")], unitNumber: "T-01").identifierProblem)
        XCTAssertEqual(AssetRef(pin: "1DW\u{0}").identifierProblem?.reason, .badIdentifier)
        XCTAssertEqual(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "4\u{1B}2")]).identifierProblem?.reason, .badIdentifier)
        XCTAssertEqual(DriverRef(licenseNumber: "D\u{9B}1").identifierProblem?.reason, .badIdentifier)
        XCTAssertNil(DriverRef(employeeID: "E1", name: "Ann \u{1B}[1m").identifierProblem, "names are hints, not keys")
    }
}
