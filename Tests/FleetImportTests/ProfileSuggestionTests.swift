import XCTest
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// `profile suggest`: a first profile from a header and its values, guesses marked.
final class ProfileSuggestionTests: XCTestCase {
    func testACommonCardHeaderBecomesAProfileThatReadsTheFile() throws {
        let t = try TestWarehouse()
        let csv = try t.write("Transaction Date,Unit #,Card Number,Fuel Gallons,Price Per Gallon,Total Amount,Odometer (mi)\n13/10/2026 14:05,T-12,****1234,10,3.459,34.59,12345\n01/10/2026 08:00,T-12,****1234,5,3.5,17.50,12400\n", to: "card.csv")
        let s = try ProfileSuggestion.suggest(csv.path, name: "card")
        XCTAssertTrue(s.yaml.contains("target: fuel_purchases  # GUESS:"), s.yaml)
        XCTAssertTrue(s.yaml.contains("date_format: \"DD/MM/YYYY HH:mm\"  # GUESS:"), "13 is a day: \(s.yaml)")
        XCTAssertTrue(s.yaml.contains("\"Fuel Gallons\": {field: volume, unit: gal}  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Price Per Gallon\": {field: unit_price, unit: gal}  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Odometer (mi)\": {field: odometer, unit: mi}  # GUESS"), s.yaml)
        XCTAssertEqual(s.guesses, s.yaml.components(separatedBy: "# GUESS:").count - 1)
        let profile = try ProfileFile.parse(s.yaml, path: "card.yml")
        let rows = try ProfilePreview.rows(csv.path, profile: profile, zone: .utc, currency: "USD")
        XCTAssertEqual(rows.map(\.reject), [nil, nil])
        XCTAssertTrue(rows[0].fields.contains { $0.name == "at" && $0.value == "2026-10-13T14:05:00Z" }, "\(rows[0].fields)")
        XCTAssertTrue(rows[0].fields.contains { $0.name == "volume_ml" && $0.value == "37854.11784" }, "\(rows[0].fields)")
    }

    func testDaysOfTwelveOrLessAreMarkedAmbiguous() {
        XCTAssertEqual(ProfileSuggestion.datePattern(["10/05/2026", "11/06/2026"], withTime: false)?.ambiguous, true)
        XCTAssertEqual(ProfileSuggestion.datePattern(["10/25/2026"], withTime: false)?.text, "MM/DD/YYYY")
        XCTAssertEqual(ProfileSuggestion.datePattern(["05.10.2026 2:30 PM"], withTime: true)?.text, "DD.MM.YYYY h:mm a")
    }

    func testAWorkbookOfMeterReadings() throws {
        let s = try ProfileSuggestion.suggest(fixture("profiles/meters.xlsx").path, name: "m")
        XCTAssertTrue(s.yaml.contains("target: meter_readings"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Engine Hours\": {field: engine_hours, unit: h}"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Fuel Used (gal)\": {field: fuel_used, unit: gal}"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Odometer (km)\": {field: odometer, unit: km}"), s.yaml)
        XCTAssertNoThrow(try ProfileFile.parse(s.yaml, path: "m.yml"))
    }
}
