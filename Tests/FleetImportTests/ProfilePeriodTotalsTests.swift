import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetWarehouse
import FleetTestSupport
@testable import FleetImport

/// Vendor period totals (`period_totals` profiles, table `vendor_total`), end to end through
/// `ImportSession` and `FileLoad`. Expected values computed apart, in Python: 1 mi = 1609.344 m,
/// 1 US gal = 3.785411784 L, 1 h = 3600 s; local midnights of America/Chicago to UTC with
/// `zoneinfo` (`datetime(2026, 10, 5, tzinfo=ZoneInfo("America/Chicago")).timestamp()`).
final class ProfilePeriodTotalsTests: XCTestCase {
    var t: TestWarehouse!
    override func setUpWithError() throws { t = try TestWarehouse() }

    static let daily = """
        name: portal-daily
        version: 1
        target: period_totals
        zone: America/Chicago
        date_format: MM/DD/YYYY
        constants:
          source: acme-portal
        columns:
          Vehicle: unit_number
          Day: date
          Distance (mi): {field: distance, unit: mi}
          Engine Hours: {field: engine_hours, unit: h}
          Idle (min): {field: idle_hours, unit: min}
          Fuel Used (gal): {field: fuel_used, unit: gal}
        """

    static let ifta = """
        name: ifta-quarter
        version: 1
        target: period_totals
        zone: America/Chicago
        columns:
          Unit: unit_number
          From: period_start
          To: period_end
          State: jurisdiction
          Fuel: fuel_type
          Miles: {field: distance, unit: mi}
          Gallons: {field: fuel_purchased, unit: gal}
          Generated: reported_at
        """

    static let iftaV1 = """
        Unit,From,To,State,Fuel,Miles,Gallons,Generated
        T-12,2026-10-01,2026-10-31,IL,Diesel,1000.5,150,2026-11-02T08:00:00Z
        T-12,2026-10-01,2026-10-31,in,Diesel,200,0,2026-11-02T08:00:00Z
        T-12,2026-10-31,2026-10-01,WI,Diesel,1,1,2026-11-02T08:00:00Z

        """
    /// The vendor's corrected re-export: Illinois miles lowered, generated later.
    static let iftaV2 = """
        Unit,From,To,State,Fuel,Miles,Gallons,Generated
        T-12,2026-10-01,2026-10-31,IL,Diesel,990.25,150,2026-11-05T08:00:00Z
        T-12,2026-10-01,2026-10-31,IN,Diesel,200,0,2026-11-05T08:00:00Z

        """

    func profiles(_ t: TestWarehouse) throws -> ImportOptions {
        let dir = t.directory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Self.daily.write(to: dir.appendingPathComponent("portal-daily.yml"), atomically: true, encoding: .utf8)
        try Self.ifta.write(to: dir.appendingPathComponent("ifta-quarter.yml"), atomically: true, encoding: .utf8)
        var o = ImportOptions()
        o.profileFolders = [dir.path]
        return o
    }

    func testADailyReportIsStoredInSIOverTheLocalDayWithRejectsKept() throws {
        let file = try t.write("""
            Vehicle,Day,Distance (mi),Engine Hours,Idle (min),Fuel Used (gal)
            T-12,10/05/2026,123.4,6.5,45,15.25
            T-12,10/06/2026,80,4.25,30,9.5
            T-12,10/07/2026,-5,1,0,1
            T-12,10/08/2026,10,25,0,1
            T-12,10/05/2026,1,1,1,1

            """, to: "portal-daily.csv")
        let o = try t.importFile(file, options: profiles(t))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.format, "profile:portal-daily@1")
        XCTAssertEqual([o.loaded, o.rejected], [8, 3], "four measures on each of two rows; three rows rejected")
        let rows = try t.rows("SELECT source, start_at, end_at, measure, value, raw_value, raw_unit, jurisdiction, fuel_type, state_at, (SELECT unit_number FROM asset WHERE id = asset_id) AS unit FROM vendor_total ORDER BY start_at, measure")
        XCTAssertEqual(rows.count, 8)
        let first = rows.filter { ($0["start_at"] as Int64?) == 1_791_176_400_000 }
        XCTAssertEqual(first.count, 4)
        XCTAssertTrue(first.allSatisfy { ($0["end_at"] as Int64?) == 1_791_262_800_000 }, "10/05 local midnight to 10/06 local midnight (CDT, 05:00Z)")
        XCTAssertTrue(rows.allSatisfy { ($0["source"] as String?) == "acme-portal" && ($0["unit"] as String?) == "T-12" && ($0["jurisdiction"] as String?) == "" && ($0["state_at"] as Int64?) == nil })
        let values = Dictionary(uniqueKeysWithValues: first.map { (($0["measure"] as String?) ?? "", ($0["value"] as Double?) ?? -1) })
        XCTAssertEqual(values["distance"]!, 198_593.0496, accuracy: 1e-6)
        XCTAssertEqual(values["engine_hours"], 23_400)
        XCTAssertEqual(values["idle_hours"], 2_700)
        XCTAssertEqual(values["fuel_used"]!, 57_727.529706, accuracy: 1e-6, "millilitres")
        XCTAssertEqual(first.first { ($0["measure"] as String?) == "distance" }?["raw_value"] as String?, "123.4")
        XCTAssertEqual(first.first { ($0["measure"] as String?) == "distance" }?["raw_unit"] as String?, "mi")
        let second = rows.filter { ($0["start_at"] as Int64?) == 1_791_262_800_000 }
        XCTAssertEqual(second.first { ($0["measure"] as String?) == "fuel_used" }?["value"] as Double? ?? 0, 35_961.411948, accuracy: 1e-6)

        let rejects = try t.rows("SELECT reason, location, raw, message FROM reject ORDER BY location")
        XCTAssertEqual(rejects.map { $0["reason"] as String? }, ["out_of_range", "out_of_range", "duplicate_key"])
        XCTAssertTrue((rejects[0]["location"] as String? ?? "").hasSuffix("line 4"))
        XCTAssertEqual(rejects[0]["raw"] as String?, "T-12,10/07/2026,-5,1,0,1")
        XCTAssertTrue((rejects[1]["message"] as String? ?? "").contains("longer than the period"), rejects[1]["message"] as String? ?? "")

        let again = try t.importFile(file, options: profiles(t))
        XCTAssertEqual(again.status, .unchanged, "the same bytes again change nothing")
        XCTAssertEqual(try t.count("vendor_total"), 8)
    }

    func testACorrectedReExportUpdatesInAnyOrderAndForgetTakesItBack() throws {
        let v1 = try t.write(Self.iftaV1, to: "ifta-2026q4-v1.csv"), v2 = try t.write(Self.iftaV2, to: "ifta-2026q4-v2.csv")
        let a = try t.importFile(v1, options: profiles(t))
        XCTAssertEqual([a.loaded, a.rejected], [4, 1], "two states × two measures; the period that ends before it starts is rejected")
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").first?["reason"] as String?, "bad_value")
        let rows = try t.rows("SELECT start_at, end_at, jurisdiction, fuel_type, state_at FROM vendor_total WHERE measure = 'distance' ORDER BY jurisdiction")
        XCTAssertEqual(rows.map { $0["jurisdiction"] as String? }, ["IL", "IN"], "jurisdictions upper-cased")
        XCTAssertEqual(rows[0]["start_at"] as Int64?, 1_790_830_800_000, "2026-10-01 00:00 CDT")
        XCTAssertEqual(rows[0]["end_at"] as Int64?, 1_793_509_200_000, "2026-11-01 00:00 CDT: the last day is included")
        XCTAssertEqual(rows[0]["fuel_type"] as String?, "diesel")
        XCTAssertEqual(rows[0]["state_at"] as Int64?, 1_793_606_400_000)
        XCTAssertEqual(try t.warehouse.pool.read { db in try Double.fetchOne(db, sql: "SELECT value FROM vendor_total WHERE jurisdiction = 'IL' AND measure = 'fuel_purchased'") } ?? 0,
                       567_811.7676, accuracy: 1e-6)

        let b = try t.importFile(v2, options: profiles(t))
        // Every row takes the later state time (so the stored rows do not depend on the order);
        // of the figures, only Illinois' miles changed.
        XCTAssertEqual([b.loaded, b.updated, b.unchanged], [0, 4, 0])
        XCTAssertEqual(try t.count("vendor_total", where: "state_at = 1793865600000"), 4)
        XCTAssertEqual(try t.warehouse.pool.read { db in try Double.fetchOne(db, sql: "SELECT value FROM vendor_total WHERE jurisdiction = 'IN' AND measure = 'distance'") } ?? 0,
                       321_868.8, accuracy: 1e-6)
        func illinois(_ w: TestWarehouse) throws -> Double? {
            try w.warehouse.pool.read { db in try Double.fetchOne(db, sql: "SELECT value FROM vendor_total WHERE jurisdiction = 'IL' AND measure = 'distance'") }
        }
        XCTAssertEqual(try illinois(t) ?? 0, 1_593_652.896, accuracy: 1e-6)

        // The other order: the older export imported last changes nothing.
        let other = try TestWarehouse()
        let c = try other.importFile(try other.write(Self.iftaV2, to: "ifta-2026q4-v2.csv"), options: profiles(other))
        let d = try other.importFile(try other.write(Self.iftaV1, to: "ifta-2026q4-v1.csv"), options: profiles(other))
        XCTAssertEqual([c.loaded, d.loaded, d.updated], [4, 0, 0])
        XCTAssertEqual(try t.factDump(tables: ["asset", "vendor_total"]), try other.factDump(tables: ["asset", "vendor_total"]))

        // Forgetting the correction puts the first export's figure back; forgetting both empties the table.
        _ = try Corrections.forget(in: t.warehouse, v2.path, allowRestatement: true, dryRun: false, by: "test")
        XCTAssertEqual(try illinois(t) ?? 0, 1_610_148.672, accuracy: 1e-6)
        _ = try Corrections.forget(in: t.warehouse, v1.path, allowRestatement: true, dryRun: false, by: "test")
        XCTAssertEqual(try t.count("vendor_total"), 0)
    }

    func testThePreviewShowsThePeriodAndTheSIFigures() throws {
        let file = try t.write("Vehicle,Day,Distance (mi),Engine Hours,Idle (min),Fuel Used (gal)\nT-12,10/05/2026,123.4,6.5,45,15.25\nT-12,10/06/2026,1,30,0,1\n", to: "p.csv")
        let profile = try ProfileFile.parse(Self.daily, path: "portal-daily.yml")
        let rows = try ProfilePreview.rows(file.path, profile: profile, zone: .utc, currency: "USD")
        XCTAssertEqual(rows.count, 2)
        let fields = Dictionary(uniqueKeysWithValues: rows[0].fields.map { ($0.name, $0.value) })
        XCTAssertEqual(rows[0].table, "vendor_total")
        XCTAssertEqual(fields["start_at"], "2026-10-05T05:00:00Z", "the profile's zone, not the warehouse's")
        XCTAssertEqual(fields["end_at"], "2026-10-06T05:00:00Z")
        XCTAssertEqual(fields["idle_hours"], "2700 s (45 min)")
        XCTAssertTrue(rows[1].reject?.hasPrefix("out_of_range") == true, rows[1].reject ?? "")
    }

    func testTheProfileIsRefusedWithoutAPeriodOrAMeasure() throws {
        XCTAssertThrowsError(try ProfileFile.parse(Self.ifta.replacingOccurrences(of: "  To: period_end\n", with: ""), path: "p.yml")) { e in
            XCTAssertTrue("\(e)".contains("period_start is mapped without period_end"), "\(e)")
        }
        XCTAssertThrowsError(try ProfileFile.parse(Self.daily.replacingOccurrences(of: "  Day: date\n", with: "  Day: date\n  From: period_start\n  To: period_end\n"), path: "p.yml")) { e in
            XCTAssertTrue("\(e)".contains("date and period_start/period_end are both mapped"), "\(e)")
        }
        let noMeasure = Self.ifta.replacingOccurrences(of: "  Miles: {field: distance, unit: mi}\n  Gallons: {field: fuel_purchased, unit: gal}\n", with: "")
        XCTAssertThrowsError(try ProfileFile.parse(noMeasure, path: "p.yml")) { e in XCTAssertTrue("\(e)".contains("at least one measure"), "\(e)") }
        XCTAssertThrowsError(try ProfileFile.parse(Self.daily.replacingOccurrences(of: "unit: mi}", with: "unit: gal}"), path: "p.yml")) { e in
            XCTAssertTrue("\(e)".contains("does not fit field distance"), "\(e)")
        }
    }
}
