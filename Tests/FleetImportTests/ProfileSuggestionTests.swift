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

    /// A vendor's daily totals export (one row per vehicle and day, a distance that is no
    /// odometer, idle hours) is period totals, though most of its names are meters' too.
    /// Expected: 182.4 mi × 1609.344 = 293,544.3456 m; 10/13/2026 00:00 UTC as the period start.
    func testAVendorPeriodTotalsExportIsProposedAsPeriodTotals() throws {
        let path = fixture("profiles/vendor-period-totals.csv").path
        let s = try ProfileSuggestion.suggest(path, name: "daily")
        XCTAssertTrue(s.yaml.contains("target: period_totals  # GUESS: one row per vehicle and period of days, with a measure summed over it (distance, idle_hours)"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Date\": date  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("date_format: \"MM/DD/YYYY\"  # GUESS"), "13 is a day: \(s.yaml)")
        XCTAssertTrue(s.yaml.contains("\"Vehicle\": unit_number  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Distance (mi)\": {field: distance, unit: mi}  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Engine Hours\": {field: engine_hours, unit: h}  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Idle Hours\": {field: idle_hours, unit: h}  # GUESS"), s.yaml)
        XCTAssertTrue(s.yaml.contains("\"Fuel Used (gal)\": {field: fuel_used, unit: gal}  # GUESS"), s.yaml)
        let profile = try ProfileFile.parse(s.yaml, path: "daily.yml")
        XCTAssertEqual(profile.target, .periodTotals)
        let rows = try ProfilePreview.rows(path, profile: profile, zone: .utc, currency: "USD")
        XCTAssertEqual(rows.map(\.reject), [nil, nil, nil, nil])
        let fields = Dictionary(uniqueKeysWithValues: rows[0].fields.map { ($0.name, $0.value) })
        XCTAssertEqual(rows[0].table, "vendor_total")
        XCTAssertEqual(fields["start_at"], "2026-10-13T00:00:00Z")
        XCTAssertTrue(fields["distance"]?.hasPrefix("293544.3456 m") == true, "\(fields)")
    }

    /// The other side of the rule: readings stay meter readings.
    func testReadingsAreNotTakenForPeriodTotals() throws {
        let t = try TestWarehouse()
        // Days without a clock, but an odometer: readings taken once a day.
        let odometer = try t.write("Date,Unit,Odometer (mi),Engine Hours,Idle Hours\n10/13/2026,T-12,12345,100.5,1\n10/14/2026,T-12,12400,106,1.5\n", to: "odo.csv")
        XCTAssertTrue(try ProfileSuggestion.suggest(odometer.path, name: "o").yaml.contains("target: meter_readings  # GUESS"))
        // A distance, but a vehicle twice on one day: not one row per period.
        let twice = try t.write("Date,Unit,Distance (mi),Engine Hours\n10/13/2026,T-12,10,1\n10/13/2026,T-12,12,1.5\n", to: "twice.csv")
        XCTAssertTrue(try ProfileSuggestion.suggest(twice.path, name: "w").yaml.contains("target: meter_readings  # GUESS"))
        // A distance, but times of day: readings at instants.
        let clock = try t.write("Date,Unit,Distance (mi),Engine Hours\n10/13/2026 06:00,T-12,10,1\n10/14/2026 06:00,T-12,12,1.5\n", to: "clock.csv")
        XCTAssertTrue(try ProfileSuggestion.suggest(clock.path, name: "c").yaml.contains("target: meter_readings  # GUESS"))
        // No measure only a period has (engine hours and fuel used are meters too).
        let meters = try t.write("Date,Unit,Engine Hours,Fuel Used (gal)\n10/13/2026,T-12,100,10\n10/14/2026,T-12,106,12\n", to: "meters.csv")
        XCTAssertTrue(try ProfileSuggestion.suggest(meters.path, name: "m").yaml.contains("target: meter_readings  # GUESS"))
    }
}
