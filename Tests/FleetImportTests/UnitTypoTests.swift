import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Identity typos (issue 29): unit numbers typed `v-101` and `V101` created two phantom vehicles
/// and split V-101's cost three ways; `T-01` with a zero-width space made four "T-01" rows in the
/// cost report. Now a unit no asset has is matched by its letters and digits when exactly one
/// master-data asset has them, else created and named on the import line with a did-you-mean;
/// invisible and look-alike characters in identifiers are refused (docs/FORMATS.md, "Identity").
final class UnitTypoTests: XCTestCase {
    private let master = "unit_number,make\nV-101,Ford\nT-01,Ford\n"

    private func card(_ units: [String]) -> String {
        "transaction_id,transaction_date,card_number,unit_number,gallons,total,currency\n"
            + units.enumerated().map { "C\($0.offset),2026-10-\(10 + $0.offset),7071000000001234,\($0.element),10.000,35.00,USD" }.joined(separator: "\n") + "\n"
    }

    private func units(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT a.unit_number || ' ' || a.auto_created || ' ' || (SELECT COUNT(*) FROM fuel_purchase f WHERE f.asset_id = a.id)
            FROM asset a ORDER BY a.unit_number
            """).map { $0[0] as String }
    }

    func testASpellingOfAMasterDataUnitIsThatUnit() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(master, to: "assets.csv"))
        let outcome = try t.importFile(try t.write(card(["v-101", "V101", "V-101", "v 101"]), to: "fuel-card.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [4, 0])
        XCTAssertEqual(try units(t), ["T-01 0 0", "V-101 0 4"])
        let note = outcome.notes?.first { $0.hasPrefix("unit numbers not in master data read as the master-data unit with the same letters and digits") } ?? ""
        XCTAssertTrue(note.contains("'v-101' → V-101") && note.contains("'V101' → V-101"), "\(outcome.notes ?? [])")
    }

    func testAnUnknownUnitIsCreatedAndNamedWithADidYouMean() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(master, to: "assets.csv"))
        let outcome = try t.importFile(try t.write(card(["V-102", "Z-900"]), to: "fuel-card.csv"))
        XCTAssertEqual(outcome.loaded, 2)
        XCTAssertEqual(try units(t), ["T-01 0 0", "V-101 0 0", "V-102 1 1", "Z-900 1 1"])
        let note = outcome.notes?.first { $0.hasPrefix("unit numbers not in master data, created as new assets") } ?? ""
        XCTAssertTrue(note.contains("'V-102' (did you mean V-101?)") && note.contains("'Z-900'"), "\(outcome.notes ?? [])")
    }

    /// Two master units with the same letters and digits: which one is meant cannot be told.
    func testAnAmbiguousSpellingIsCreatedAndNamesBoth() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write("unit_number,make\nT-01,Ford\nT01,Ford\n", to: "assets.csv"))
        XCTAssertEqual(try t.count("asset"), 2, "master data is never folded")
        let outcome = try t.importFile(try t.write(card(["t.01"]), to: "fuel-card.csv"))
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 1)
        XCTAssertTrue(outcome.notes?.contains { $0.contains("'t.01' (did you mean T-01 or T01?)") } == true, "\(outcome.notes ?? [])")
    }

    /// The facts before master data: the spellings they created are adopted, so either order
    /// gives the same warehouse.
    func testEitherImportOrderGivesTheSameWarehouse() throws {
        let masterFirst = try TestWarehouse(), factsFirst = try TestWarehouse()
        let facts = card(["v-101", "V101", "V-101"])
        try masterFirst.importFile(try masterFirst.write(master, to: "assets.csv"))
        try masterFirst.importFile(try masterFirst.write(facts, to: "fuel-card.csv"))
        try factsFirst.importFile(try factsFirst.write(facts, to: "fuel-card.csv"))
        XCTAssertEqual(try factsFirst.count("asset"), 3, "before master data, three spellings are three assets")
        try factsFirst.importFile(try factsFirst.write(master, to: "assets.csv"))
        XCTAssertEqual(try units(factsFirst), ["T-01 0 0", "V-101 0 3"])
        XCTAssertEqual(try factsFirst.factDump(tables: ["asset", "fuel_purchase"]), try masterFirst.factDump(tables: ["asset", "fuel_purchase"]))
    }

    /// `T-01` with a zero-width space, a soft hyphen, a non-breaking hyphen (U+2011) and a
    /// Cyrillic `Т`: each refused with what it holds, never a second asset printing as T-01.
    func testInvisibleAndLookAlikeCharactersAreRefused() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(master, to: "assets.csv"))
        let spellings = ["T-01\u{200B}", "T\u{AD}-01", "T\u{2011}01", "\u{0422}-01", "Ｔ-01"]
        let outcome = try t.importFile(try t.write(card(spellings + ["T-01"]), to: "fuel-card.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 5])
        XCTAssertEqual(try units(t), ["T-01 0 1", "V-101 0 0"])
        let messages = try t.rows("SELECT reason, message FROM reject ORDER BY id").map { ($0[0] as String, $0[1] as String) }
        XCTAssertEqual(Set(messages.map(\.0)), ["bad_identifier"])
        XCTAssertTrue(messages[0].1.contains("'T-01\\u{200b}' holds \\u{200b} (ZERO WIDTH SPACE), which prints as nothing"), messages[0].1)
        XCTAssertTrue(messages[1].1.contains("SOFT HYPHEN"), messages[1].1)
        XCTAssertTrue(messages[2].1.contains("NON-BREAKING HYPHEN), which prints as '-'"), messages[2].1)
        XCTAssertTrue(messages[3].1.contains("CYRILLIC CAPITAL LETTER TE), which prints as the Latin 'T'"), messages[3].1)
        XCTAssertTrue(messages[4].1.contains("FULLWIDTH LATIN CAPITAL LETTER T), which prints as 'T'"), messages[4].1)
        // A key wholly in another script is its own key; letters with accents are letters.
        XCTAssertNil(AssetRef(unitNumber: "ТРАКТОР").identifierProblem)
        XCTAssertNil(AssetRef(unitNumber: "Zürich-7").identifierProblem)
    }
}
