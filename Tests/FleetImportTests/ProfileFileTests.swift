import XCTest
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// Reading mapping profiles (docs/FORMATS.md, "Mapping profiles"): every key read as written,
/// and every mistake refused with the profile's line and the fix (Fixtures/profiles/bad, one
/// file per failure mode). Line numbers are counted by hand in each fixture.
final class ProfileFileTests: XCTestCase {
    func assertRefused(_ name: String, line: Int, _ words: [String], fix: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try ProfileFile.load(fixture("profiles/bad/\(name).yml").path), file: file, line: at) { error in
            guard let e = error as? ProfileError else { return XCTFail("\(error)", file: file, line: at) }
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: at)
            for w in words { XCTAssertTrue(e.problem.message.contains(w), "'\(w)' not in: \(e.problem.message)", file: file, line: at) }
            XCTAssertTrue(e.problem.fix.contains(fix), "'\(fix)' not in the fix: \(e.problem.fix)", file: file, line: at)
            XCTAssertTrue(e.description.hasPrefix(fixture("profiles/bad/\(name).yml").path + ":\(line): "), e.description, file: file, line: at)
        }
    }

    func testEveryKeyIsReadAsWritten() throws {
        let p = try ProfileFile.load(fixture("profiles/us-card.yml").path)
        XCTAssertEqual(p.name, "us-card")
        XCTAssertEqual(p.version, 2)
        XCTAssertEqual(p.formatName, "profile:us-card@2")
        XCTAssertEqual(p.target, .fuelPurchases)
        XCTAssertEqual(p.citation, "FleetKit test layout (ProfileImportTests)")
        XCTAssertEqual(p.encoding, .utf8)
        XCTAssertEqual(p.decimalMark, ".")
        XCTAssertEqual(p.groupingMark, ",")
        XCTAssertEqual(p.dateFormat?.pattern, "MM/DD/YYYY")
        XCTAssertEqual(p.timeFormat?.pattern, "h:mm a")
        XCTAssertEqual(p.zone?.identifier, "America/Chicago")
        XCTAssertEqual(p.signature, ["Txn Ref", "Posted", "Clock", "Truck", "Card", "Gallons", "PPG", "Amount", "Odo (mi)"], "the mapped columns by default")
        XCTAssertEqual(p.columns.map(\.field), ["transaction_id", "date", "time", "unit_number", "card_number", "volume", "unit_price", "total", "odometer"])
        XCTAssertEqual(p.column(for: "volume")?.unit, .scale("gal", factor: 3785.411784))
        XCTAssertEqual(p.column(for: "odometer")?.unit, .scale("mi", factor: 1609.344))
        XCTAssertEqual(p.column(for: "total")?.unit, .currency("USD"))
        XCTAssertEqual(p.column(for: "unit_price")?.unit, .price(currency: "USD", perUnit: "gal", millilitres: 3785.411784))
        XCTAssertEqual(p.column(for: "odometer")?.line, 22)

        let e = try ProfileFile.load(fixture("profiles/eu-expenses.yml").path)
        XCTAssertEqual(e.citation, "A German accounting export (FleetKit test layout)", "comment: is read as the citation")
        XCTAssertEqual(e.decimalMark, ",")
        XCTAssertEqual(e.groupingMark, ".")
        XCTAssertNil(e.version)
        XCTAssertEqual(e.formatName, "profile:eu-expenses")

        let g = try ShippedProfiles.all().first { $0.name == "geotab-generic-fuel" }!
        XCTAssertNil(g.groupingMark, "grouping: none")
        XCTAssertEqual(g.signature.count, 10, "an explicit signature replaces the mapped columns")
        XCTAssertTrue(g.citation?.contains("github.com/Geotab/addin-fuel-transaction-import") == true)
    }

    func testUTF16IsDeclaredNeverGuessed() throws {
        let p = try ProfileFile.parse("name: u\ntarget: positions\nencoding: UTF-16\ncolumns:\n  t: datetime\n  la: latitude\n  lo: longitude\n", path: "p.yml")
        XCTAssertEqual(p.encoding, .utf16)
    }

    func testAMistakeIsRefusedWithItsLineAndTheFix() {
        assertRefused("unknown-key", line: 6, ["unknown key 'date_fromat'"], fix: "did you mean 'date_format'?")
        assertRefused("unknown-field", line: 5, ["unknown field 'totl'", "fuel_purchases"], fix: "did you mean 'total'?")
        assertRefused("unit-mismatch", line: 6, ["unit 'km' does not fit field volume"], fix: "L, mL, gal")
        assertRefused("missing-unit", line: 6, ["column 'Odo' (odometer, a distance) has no unit"], fix: "unit: U} with U one of m, km, mi")
        assertRefused("ambiguous-date", line: 6, ["mm (minutes) but no hour"], fix: "MM for the month")
        assertRefused("two-digit-year", line: 6, ["two-digit year"], fix: "YYYY")
        assertRefused("twelve-hour", line: 6, ["12-hour clock", "no AM/PM"], fix: "HH for a 24-hour clock")
        assertRefused("unknown-target", line: 2, ["unknown target 'fuel'"], fix: "fuel_purchases, expenses, meter_readings, positions")
        assertRefused("bad-zone", line: 6, ["zone 'Central'"], fix: "America/Chicago")
        assertRefused("bad-encoding", line: 6, ["encoding 'latin1' is not read"], fix: "UTF-8 or UTF-16")
        assertRefused("bad-grouping", line: 7, ["grouping mark is the decimal mark"], fix: "grouping: \".\" or none")
        assertRefused("bad-version", line: 2, ["version 'one'"], fix: "version: 1")
        assertRefused("bad-name", line: 1, ["not a plain name"], fix: "letters, digits")
        assertRefused("no-time", line: 3, ["no column is mapped to datetime or date"], fix: "map the column with the time")
        assertRefused("duplicate-field", line: 6, ["field total is mapped twice (line 5"], fix: "one column")
        assertRefused("signature-not-list", line: 6, ["'signature' must be a list"], fix: "signature: [")
        assertRefused("time-format-date", line: 3, ["not a time of day"], fix: "HH:mm")
        assertRefused("anchor", line: 2, ["an anchor"], fix: "no YAML anchors")
        assertRefused("constant-unknown-field", line: 5, ["unknown field 'vendro'", "expenses"], fix: "did you mean 'vendor'?")
        assertRefused("constant-measure", line: 7, ["field engine_hours (a duration) cannot be a constant"], fix: "map it from a column")
        assertRefused("constant-and-column", line: 4, ["field currency is both a constant and mapped from column 'Cur' (line 9)"], fix: "keep one")
        assertRefused("constant-bad-currency", line: 4, ["constant currency 'Euro' is not an ISO 4217 code"], fix: "USD or EUR")
        assertRefused("skip-bad-preamble", line: 4, ["preamble 'two' is not a number of records"], fix: "preamble: 3")
        assertRefused("skip-every-row", line: 4, ["skip pattern '*' would match every cell"], fix: "\"Total\"")
        assertRefused("skip-unknown-key", line: 4, ["unknown key 'footer' in skip"], fix: "preamble: and rows:")
        assertRefused("native-no-vehicle", line: 3, ["maintenance_records need the vehicle", "unit_number or vin"], fix: "constants: {unit_number: UNIT}")
        assertRefused("native-missing-required", line: 3, ["dvirs need a column mapped to safety_status"], fix: "safety_status column")
        assertRefused("plate-with-unit", line: 5, ["field license_plate takes no unit, but column 'Plate' gives 'km'"], fix: "remove the unit")
        assertRefused("native-tank-no-unit", line: 5, ["column 'Tank' (tank_capacity, a volume) has no unit"], fix: "L, mL, gal")
    }

    func testConstantsAndSkipRulesAreReadAsWritten() throws {
        let p = try ProfileFile.load(fixture("profiles/shop-maintenance.yml").path)
        XCTAssertEqual(p.target, .maintenanceRecords)
        XCTAssertEqual(p.preamble, 2)
        XCTAssertEqual(p.skipRows, ["Total*", "Printed *"])
        XCTAssertEqual(p.constants.map(\.header), ["constant:vendor", "constant:currency"])
        XCTAssertEqual(p.constants.map(\.value), ["Main Street Garage", "USD"])
        XCTAssertFalse(p.signature.contains { $0.hasPrefix("constant:") }, "a constant is no header the file must have")
        XCTAssertTrue(p.skips(["Total", "", "1,359.05"]))
        XCTAssertTrue(p.skips(["", "total:"]), "case aside, any cell")
        XCTAssertTrue(p.skips(["Printed 11/01/2026 08:00"]))
        XCTAssertFalse(p.skips(["WO-9", "Subtotal"]), "a pattern matches the whole cell: 'Subtotal' does not start with Total")
        XCTAssertFalse(p.skips(["Printer cartridge"]), "'Printed *' needs the space")
    }

    func testANativeTargetsMoneyUnitBecomesItsCurrency() throws {
        let p = try ProfileFile.parse("name: m\ntarget: maintenance_records\ncolumns:\n  Unit: unit_number\n  Job: service_type\n  Done: performed_at\n  Total: {field: cost, unit: EUR}\n", path: "m.yml")
        XCTAssertEqual(p.constants.map(\.header), ["constant:currency"])
        XCTAssertEqual(p.constants.map(\.value), ["EUR"], "the maintenance format reads the currency from its column, not from the cost's unit")
    }

    func testGlobIsLinearAndWhole() {
        XCTAssertTrue(Profile.glob("a*b*c", matches: "a XX b-YY c"))
        XCTAssertFalse(Profile.glob("a*b*c", matches: "a XX b YY"))
        XCTAssertTrue(Profile.glob("-*-", matches: "-anything-"), "beside punctuation `*` is any text")
        XCTAssertTrue(Profile.glob("*total*", matches: "Grand TOTAL (USD)"))
        let long = String(repeating: "a", count: 10_000)
        XCTAssertFalse(Profile.glob(String(repeating: "a*", count: 50) + "b", matches: long), "no backtracking blow-up on a long cell")
    }

    /// A totals row is recognised by its word: a data cell that only starts with the letters
    /// of `Total` (a merchant TotalEnergies, a unit Totalfina 3) is data, whatever the pattern.
    func testSkipPatternsNeverSplitAWord() throws {
        for cell in ["Total", "TOTAL", "total", "Total:", "Total (USD) 1,359.05", "Total for March"] {
            XCTAssertTrue(Profile.glob("Total*", matches: cell), cell)
        }
        for cell in ["TotalEnergies Dallas", "Totalfina 3", "Totals", "Subtotal", "Totally 4"] {
            XCTAssertFalse(Profile.glob("Total*", matches: cell), cell)
        }
        XCTAssertTrue(Profile.glob("*total", matches: "Grand total"))
        XCTAssertFalse(Profile.glob("*total", matches: "Subtotal"))
        XCTAssertFalse(Profile.glob("*total*", matches: "Subtotals"))
        XCTAssertTrue(Profile.glob("Report generated *", matches: "Report generated 11/01/2026 08:00"))

        // The rule FORMATS.md recommends: the label as a whole cell.
        let p = try ProfileFile.parse("name: c\ntarget: fuel_purchases\nskip:\n  rows: [\"Total\", \"Totals\", \"Grand total\"]\ncolumns:\n  Date: datetime\n  Unit: unit_number\n  Merchant: merchant\n  Amount: {field: total, unit: USD}\n", path: "c.yml")
        XCTAssertTrue(p.skips(["Total", "", "", "1,359.05"]))
        XCTAssertTrue(p.skips(["TOTALS", "", "", "1,359.05"]))
        XCTAssertTrue(p.skips(["", "", "grand total", "1,359.05"]))
        XCTAssertFalse(p.skips(["2026-03-02 08:15", "Totalfina 3", "Pilot #312", "41.20"]), "a unit named Totalfina is data")
        XCTAssertFalse(p.skips(["2026-03-02 08:15", "T-0007", "TotalEnergies Dallas", "41.20"]), "a merchant TotalEnergies is data")
        XCTAssertFalse(p.skips(["2026-03-02 08:15", "T-0007", "Total Access Lyon", "41.20"]), "a whole-cell pattern is not a prefix")
    }

    func testPatternsReadOneDateOnly() throws {
        let us = try ProfileDateFormat.compile("MM/DD/YYYY hh:mm:ss a", dateRequired: true).get()
        XCTAssertEqual(us.parse("10/05/2026 02:30:09 PM"), .init(year: 2026, month: 10, day: 5, hour: 14, minute: 30, second: 9))
        XCTAssertEqual(us.parse("10/05/2026 12:00:00 AM")?.hour, 0)
        XCTAssertNil(us.parse("13/05/2026 02:30:09 PM"), "month 13")
        XCTAssertNil(us.parse("02/30/2026 02:30:09 PM"), "30 February")
        XCTAssertNil(us.parse("10/05/2026 02:30:09"), "no AM/PM")
        let eu = try ProfileDateFormat.compile("DD-MMM-YYYY", dateRequired: true).get()
        XCTAssertEqual(eu.parse("05-Oct-2026"), .init(year: 2026, month: 10, day: 5))
        XCTAssertThrowsError(try ProfileDateFormat.compile("MM/YYYY", dateRequired: true).get(), "no day")
        XCTAssertThrowsError(try ProfileDateFormat.compile("DD/MM/YYYY/DD", dateRequired: true).get(), "two days")
        XCTAssertThrowsError(try ProfileDateFormat.compile("short", dateRequired: true).get(), "not a pattern")
    }

    func testUnitsFitTheirKind() {
        XCTAssertEqual(ProfileUnit.parse("h", kind: .duration)?.factor, 3600)
        XCTAssertEqual(ProfileUnit.parse("min", kind: .duration)?.factor, 60)
        XCTAssertEqual(ProfileUnit.parse("kn", kind: .speed)?.factor, 1852.0 / 3600)
        XCTAssertEqual(ProfileUnit.parse("imp gal", kind: .volume)?.factor, 4546.09)
        XCTAssertEqual(ProfileUnit.parse("EUR/L", kind: .price), .price(currency: "EUR", perUnit: "L", millilitres: 1000))
        XCTAssertNil(ProfileUnit.parse("gal", kind: .distance))
        XCTAssertNil(ProfileUnit.parse("km", kind: .duration))
        XCTAssertNil(ProfileUnit.parse("XYZ1", kind: .money))
        XCTAssertNil(ProfileUnit.parse("USD/km", kind: .price))
    }
}
