import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Files read through mapping profiles, end to end through `ImportSession` and `FileLoad`.
/// Expected values by hand: 1 US gallon = 3.785411784 L, 1 mi = 1609.344 m, 1 h = 3600 s,
/// 1 mph = 0.44704 m/s; local times to UTC by the zone's offset that day (Chicago CDT −5,
/// Berlin CEST +2); epoch milliseconds from Python's `datetime(..., tzinfo=utc).timestamp()`.
final class ProfileImportTests: XCTestCase {
    var t: TestWarehouse!
    override func setUpWithError() throws { t = try TestWarehouse() }

    func options(profiles: [String] = [], profile: String? = nil) -> ImportOptions {
        var o = ImportOptions()
        o.profileFolders = profiles
        o.profile = profile
        return o
    }

    /// A folder holding copies of the named fixture profiles.
    func folder(_ names: [String]) throws -> String {
        let dir = t.directory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for n in names { try FileManager.default.copyItem(at: fixture("profiles/\(n).yml"), to: dir.appendingPathComponent("\(n).yml")) }
        return dir.path
    }

    func testACardStatementIsMatchedByItsHeaderAndStoredInSIAndMinorUnits() throws {
        let o = try t.importFile(fixture("profiles/us-card.csv"), options: options(profiles: [folder(["us-card"])]))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.format, "profile:us-card@2")
        XCTAssertEqual([o.loaded, o.rejected], [2, 1])
        let rows = try t.rows("SELECT source_key, at, volume_ml, unit_price_minor_per_l, total_minor, currency, odometer_m, odometer_entered, odometer_entered_unit, card_last4, needs_review, origin, (SELECT unit_number FROM asset WHERE id = asset_id) AS unit FROM fuel_purchase ORDER BY at")
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["source_key"] as String?, "card:A-1", "keyed as the fuel-card format keys a transaction id")
        XCTAssertEqual(rows[0]["at"] as Int64?, 1_791_228_600_000, "10/05/2026 2:30 PM CDT = 19:30Z")
        XCTAssertEqual(rows[0]["volume_ml"] as Double?, 37_854.11784, "10 gal")
        XCTAssertEqual(rows[0]["unit_price_minor_per_l"] as Double? ?? 0, 345.9 / 3.785411784, accuracy: 1e-9)
        XCTAssertEqual(rows[0]["total_minor"] as Int64?, 3459)
        XCTAssertEqual(rows[0]["currency"] as String?, "USD")
        XCTAssertEqual(rows[0]["odometer_m"] as Double? ?? 0, 12_345.6 * 1609.344, accuracy: 1e-6)
        XCTAssertEqual(rows[0]["odometer_entered"] as String?, "12,345.6")
        XCTAssertEqual(rows[0]["odometer_entered_unit"] as String?, "mi")
        XCTAssertEqual(rows[0]["card_last4"] as String?, "1234")
        XCTAssertEqual(rows[0]["needs_review"] as Int64?, 0, "3.459 × 10 = 34.59")
        XCTAssertEqual(rows[0]["origin"] as String?, "card")
        XCTAssertEqual(rows[0]["unit"] as String?, "T-12")
        XCTAssertEqual(rows[1]["at"] as Int64?, 1_791_288_300_000, "10/06/2026 7:05 AM CDT = 12:05Z")
        XCTAssertEqual(rows[1]["volume_ml"] as Double? ?? 0, 1000.5 * 3785.411784, accuracy: 1e-6, "'1,000.5' with ',' grouping")
        XCTAssertEqual(rows[1]["total_minor"] as Int64?, 350_175)

        let rejects = try t.rows("SELECT reason, location, raw, message FROM reject")
        XCTAssertEqual(rejects.count, 1)
        XCTAssertEqual(rejects[0]["reason"] as String?, "bad_date")
        XCTAssertTrue((rejects[0]["location"] as String? ?? "").hasSuffix("line 4"), rejects[0]["location"] as String? ?? "")
        XCTAssertEqual(rejects[0]["raw"] as String?, "A-3,13/06/2026,7:05 AM,T-12,XXXX1234,5,3.5,17.50,12500")
        XCTAssertTrue((rejects[0]["message"] as String? ?? "").contains("MM/DD/YYYY"))
        XCTAssertEqual(try t.rows("SELECT format FROM source_file").first?["format"] as String?, "profile:us-card@2", "the import records the profile and its version")

        let again = try t.importFile(fixture("profiles/us-card.csv"), options: options(profiles: [folder(["us-card"])]))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.count("fuel_purchase"), 2)
    }

    func testAFuelCardRowAndTheSameTransactionThroughAProfileAreOneRow() throws {
        let card = try t.write("transaction_id,transaction_date,transaction_time,unit_number,card_number,gallons,total,currency\nA-1,2026-10-05,14:30,T-12,1234,10,34.59,USD\n", to: "card.csv")
        var o = options(profiles: [try folder(["us-card"])])
        o.zone = FleetZone(identifier: "America/Chicago")!
        XCTAssertEqual(try t.importFile(card, options: o).loaded, 1)
        let p = try t.importFile(fixture("profiles/us-card.csv"), options: o)
        XCTAssertEqual([p.loaded, p.updated], [1, 1], "card:A-1 is updated in place, A-2 is new")
        XCTAssertEqual(try t.count("fuel_purchase"), 2)
    }

    func testDecimalCommaZoneAndCurrencyColumnForExpenses() throws {
        let o = try t.importFile(fixture("profiles/eu-expenses.csv"), options: options(profiles: [folder(["eu-expenses"])]))
        XCTAssertEqual([o.loaded, o.rejected], [2, 0], o.error ?? "\(o)")
        let rows = try t.rows("SELECT source_key, at, category, amount_minor, currency, currency_assumed FROM expense ORDER BY at")
        XCTAssertEqual(rows.map { $0["source_key"] as String? }, ["id:R-1", "id:R-2"])
        XCTAssertEqual(rows.map { $0["at"] as Int64? }, [1_791_008_100_000, 1_791_128_700_000], "08:15 and 17:45 CEST")
        XCTAssertEqual(rows.map { $0["category"] as String? }, ["tolls", "tires"])
        XCTAssertEqual(rows.map { $0["amount_minor"] as Int64? }, [123_456, 8_990], "1.234,56 and 89,90")
        XCTAssertEqual(rows.map { $0["currency"] as String? }, ["EUR", "EUR"])
        XCTAssertEqual(rows.map { $0["currency_assumed"] as Int64? }, [0, 0])
    }

    func testAWorkbookOfMeterReadingsRejectsAtTheCell() throws {
        let o = try t.importFile(fixture("profiles/meters.xlsx"), options: options(profiles: [folder(["meters"])]))
        XCTAssertEqual(o.format, "profile:machine-hours")
        XCTAssertEqual([o.loaded, o.rejected], [6, 1], o.error ?? "")
        let rows = try t.rows("SELECT meter, at, value, raw_value, raw_unit FROM meter_reading ORDER BY at, meter")
        XCTAssertEqual(rows.map { $0["meter"] as String? }, ["engine_hours", "fuel_used", "odometer", "engine_hours", "fuel_used", "odometer"])
        XCTAssertEqual(rows.map { $0["at"] as Int64? }, [1_790_834_400_000, 1_790_834_400_000, 1_790_834_400_000, 1_791_007_200_000, 1_791_007_200_000, 1_791_007_200_000])
        let values = rows.map { $0["value"] as Double? ?? -1 }
        for (v, e) in zip(values, [1234.5 * 3600, 10 * 3785.411784, 5_678_000, 1250.25 * 3600, 20 * 3785.411784, 5_710_500]) { XCTAssertEqual(v, e, accuracy: 1e-6) }
        XCTAssertEqual(rows[0]["raw_value"] as String?, "1234.5")
        XCTAssertEqual(rows[0]["raw_unit"] as String?, "h")
        let reject = try t.rows("SELECT reason, location, raw FROM reject")
        XCTAssertEqual(reject.first?["reason"] as String?, "bad_number")
        XCTAssertTrue((reject.first?["location"] as String? ?? "").hasSuffix("Hours!C3"), reject.first?["location"] as String? ?? "")
        XCTAssertEqual(reject.first?["raw"] as String?, "M-1,2026-10-02T06:00:00,n/a,5700,12.5")
    }

    func testPositionsInMilesPerHourWithAnImpossibleLatitudeRejected() throws {
        let o = try t.importFile(fixture("profiles/gps.csv"), options: options(profiles: [folder(["gps"])]))
        XCTAssertEqual([o.loaded, o.rejected], [2, 1], o.error ?? "")
        let rows = try t.rows("SELECT at, lat, lon, speed_mps, heading_deg, alt_m FROM position ORDER BY at")
        XCTAssertEqual(rows.map { $0["at"] as Int64? }, [1_790_942_400_000, 1_790_942_410_000])
        XCTAssertEqual(rows[0]["speed_mps"] as Double? ?? 0, 13.4112, accuracy: 1e-9, "30 mph")
        XCTAssertEqual(rows[1]["speed_mps"] as Double? ?? 0, 20.34032, accuracy: 1e-9, "45.5 mph")
        XCTAssertEqual(rows[1]["heading_deg"] as Double?, 91)
        XCTAssertNil(rows[0]["alt_m"] as Double?, "an empty cell, and the column is not mapped")
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").first?["reason"] as String?, "out_of_range")
    }

    func testGeotabsGenericTemplateIsReadWithTheShippedProfile() throws {
        let o = try t.importFile(fixture("profiles/geotab-generic.csv"))
        XCTAssertEqual(o.format, "profile:geotab-generic-fuel@1", o.error ?? "")
        XCTAssertEqual([o.loaded, o.rejected], [1, 0])
        let r = try t.rows("SELECT at, volume_ml, total_minor, currency, odometer_m, (SELECT vin FROM asset WHERE id = asset_id) AS vin FROM fuel_purchase")[0]
        XCTAssertEqual(r["at"] as Int64?, 1_791_236_348_277)
        XCTAssertEqual(r["volume_ml"] as Double?, 100_200, "100.2 L")
        XCTAssertEqual(r["total_minor"] as Int64?, 15_020)
        XCTAssertEqual(r["currency"] as String?, "CAD")
        XCTAssertEqual(r["odometer_m"] as Double?, 19_000_000, "19000 km")
        XCTAssertEqual(r["vin"] as String?, "1FTFW1ET9DFC10312")
    }

    /// The header and the example values of Loadsmart's published template (01/13/2020, 14:49 UTC,
    /// unit 112, CO, 304.95); the second row's time is no time of day.
    func testLoadsmartsFuelTemplateIsReadWithTheShippedProfile() throws {
        let o = try t.importFile(fixture("profiles/loadsmart-fuel-template.csv"))
        XCTAssertEqual(o.format, "profile:loadsmart-fuel-template@1", o.error ?? "")
        XCTAssertEqual([o.loaded, o.rejected], [1, 1])
        let r = try t.rows("SELECT at, volume_ml, total_minor, currency, currency_assumed, merchant_state, product_code, (SELECT unit_number FROM asset WHERE id = asset_id) AS unit FROM fuel_purchase")[0]
        XCTAssertEqual(r["at"] as Int64?, 1_578_926_940_000, "2020-01-13T14:49Z: the template's time is UTC")
        XCTAssertNil(r["volume_ml"] as Double?, "Quantity has no published unit and is not mapped")
        XCTAssertEqual(r["total_minor"] as Int64?, 30_495)
        XCTAssertEqual(r["currency_assumed"] as Int64?, 1, "no currency is published: the warehouse's, marked assumed")
        XCTAssertEqual(r["merchant_state"] as String?, "CO")
        XCTAssertEqual(r["product_code"] as String?, "ULSD")
        XCTAssertEqual(r["unit"] as String?, "112")
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").first?["reason"] as String?, "bad_date", "'25:05'")
    }

    func testTwoMatchingProfilesAreAnErrorNamingBoth() throws {
        let dir = try folder(["us-card"])
        let copy = try String(contentsOf: fixture("profiles/us-card.yml"), encoding: .utf8).replacingOccurrences(of: "name: us-card", with: "name: us-card-copy")
        try copy.write(toFile: dir + "/copy.yml", atomically: true, encoding: .utf8)
        let o = try t.importFile(fixture("profiles/us-card.csv"), options: options(profiles: [dir]))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("matches 2 profiles: us-card-copy (") == true && o.error?.contains(" and us-card (") == true, o.error ?? "")
        XCTAssertTrue(o.error?.contains("--profile NAME") == true)
        XCTAssertEqual(try t.count("fuel_purchase"), 0)
        let forced = try t.importFile(fixture("profiles/us-card.csv"), options: options(profiles: [dir], profile: "us-card-copy"))
        XCTAssertEqual(forced.format, "profile:us-card-copy@2")
        XCTAssertEqual(forced.loaded, 2)
    }

    func testAForcedProfileByPathAndAColumnMissingFromTheFile() throws {
        let o = try t.importFile(fixture("profiles/us-card.csv"), options: options(profile: fixture("profiles/bad/missing-column.yml").path))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("missing-column.yml:9: column 'Odometer Reading' (mapped to odometer) is not in the file's header") == true, o.error ?? "")
        XCTAssertTrue(o.error?.contains("fix: write the column name exactly") == true)
        XCTAssertEqual(try t.count("fuel_purchase"), 0)
        XCTAssertThrowsError(try t.importFiles([fixture("profiles/us-card.csv").path], options: options(profile: "no-such-profile")))
    }

    func testTheFolderBesideTheWarehouseIsReadOnceEvenWhenAlsoNamed() throws {
        let beside = t.directory.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture("profiles/us-card.yml"), to: beside.appendingPathComponent("us-card.yml"))
        let o = try t.importFile(fixture("profiles/us-card.csv"), options: options(profiles: [beside.path + "/"]))
        XCTAssertEqual(o.format, "profile:us-card@2", o.error ?? "")
        XCTAssertEqual(o.loaded, 2)
    }

    func testABadProfileInTheFolderStopsTheImportWithItsLine() throws {
        let dir = try folder([])
        try FileManager.default.copyItem(at: fixture("profiles/bad/unknown-field.yml"), to: URL(fileURLWithPath: dir + "/x.yml"))
        XCTAssertThrowsError(try t.importFiles([fixture("profiles/us-card.csv").path], options: options(profiles: [dir]))) { error in
            XCTAssertEqual((error as? ProfileError)?.line, 5, "\(error)")
        }
    }

    func testAnyImportOrderGivesTheSameWarehouse() throws {
        let dir = try folder(["us-card", "eu-expenses", "gps"])
        let files = ["us-card.csv", "eu-expenses.csv", "gps.csv"].map { fixture("profiles/\($0)").path }
        try t.importFiles(files, options: options(profiles: [dir]))
        let other = try TestWarehouse()
        for f in files.reversed() { try other.importFiles([f], options: options(profiles: [dir])) }
        XCTAssertEqual(try t.factDump(), try other.factDump())
    }

    func testUTF16DeclaredAgainstAUTF8File() throws {
        let dir = try folder([])
        try String(contentsOf: fixture("profiles/gps.yml"), encoding: .utf8).replacingOccurrences(of: "target: positions", with: "target: positions\nencoding: UTF-16")
            .write(toFile: dir + "/gps16.yml", atomically: true, encoding: .utf8)
        let o = try t.importFile(fixture("profiles/gps.csv"), options: options(profiles: [dir]))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("declares UTF-16 but the file has no UTF-16 byte order mark") == true, o.error ?? "")
        var bytes = Data([0xFF, 0xFE])
        bytes.append(try String(contentsOf: fixture("profiles/gps.csv"), encoding: .utf8).data(using: .utf16LittleEndian)!)
        let o16 = try t.importFile(try t.write(bytes, to: "gps16.csv"), options: options(profiles: [dir]))
        XCTAssertEqual([o16.loaded, o16.rejected], [2, 1], o16.error ?? "")
    }

    func testThePreviewShowsWhatTheImportStores() throws {
        let p = try ProfileFile.load(fixture("profiles/us-card.yml").path)
        let rows = try ProfilePreview.rows(fixture("profiles/us-card.csv").path, profile: p, zone: .utc, currency: "USD")
        XCTAssertEqual(rows.map(\.location), ["line 2", "line 3", "line 4"])
        XCTAssertTrue(rows[0].fields.contains { $0.name == "volume_ml" && $0.value == "37854.11784" }, "\(rows[0].fields)")
        XCTAssertTrue(rows[0].fields.contains { $0.name == "at" && $0.value == "2026-10-05T19:30:00Z" }, "\(rows[0].fields)")
        XCTAssertTrue(rows[0].fields.contains { $0.name == "total_minor" && $0.value.hasPrefix("3459 ") })
        XCTAssertTrue(rows[2].reject?.hasPrefix("bad_date: ") == true)
        let m = try ProfilePreview.rows(fixture("profiles/meters.xlsx").path, profile: ProfileFile.load(fixture("profiles/meters.yml").path), zone: .utc, currency: "USD")
        XCTAssertEqual(m.count, 3)
        XCTAssertTrue(m[1].reject?.hasPrefix("bad_number: 'Engine Hours'") == true, m[1].reject ?? "")
        XCTAssertTrue(m[0].fields.contains { $0.name == "engine_hours" && $0.value.hasPrefix("4444200 s") }, "\(m[0].fields)")
    }
}
