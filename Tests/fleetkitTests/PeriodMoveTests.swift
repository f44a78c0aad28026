import XCTest
import GRDB
import FleetTestSupport

/// An update that moves a stored record to another month, or a DVIR id that comes back for
/// another day, is never silent (issue 29): "139 updated" was the only trace of October's rows
/// moving into November and of 485 retained inspections vanishing.
final class PeriodMoveTests: XCTestCase {
    private func setUp(_ name: String) throws -> (dir: URL, db: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moves-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        return (dir, db)
    }

    private func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static let fuelHeader = "transaction_id,transaction_date,transaction_time,card_number,unit_number,driver_id,merchant,merchant_city,merchant_state,fuel_grade,gallons,price_per_gallon,total,currency,odometer_mi\n"

    /// The same transaction id sent again with a date in the next month: the update stands
    /// (a later export is a correction) and the line says it moved, naming the row and the
    /// file it came from.
    func testAFillMovedToTheNextMonthIsNamedOnTheImportLine() throws {
        let (dir, db) = try setUp("fuel")
        let october = try write(Self.fuelHeader + "T1,2026-10-30,08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,70.00,USD,1000\n"
                                + "T2,2026-10-30,09:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,10.000,3.500,35.00,USD,1010\n", "fuel-oct.csv", in: dir)
        let november = try write(Self.fuelHeader + "T1,2026-11-02,08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,70.00,USD,1000\n"
                                 + "T2,2026-10-30,09:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,10.000,3.500,35.00,USD,1010\n", "fuel-nov.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, october]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, november])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("1 updated (1 moved to another month)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("fuel purchase card:T1 2026-10-30 → 2026-11-02 (was from fuel-oct.csv)"), r.stdout)
        let json = try Fleetkit.run(["import", "--db", db, "--json", try write(Self.fuelHeader + "T1,2026-12-01,08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,70.00,USD,1000\n", "fuel-dec.csv", in: dir)])
        XCTAssertTrue(json.stdout.contains("\"moved_to_another_month\" : 1"), json.stdout)
    }

    /// An update within the month is an ordinary update: nothing is said of months.
    func testAnUpdateWithinTheMonthIsNoMove() throws {
        let (dir, db) = try setUp("same")
        let a = try write(Self.fuelHeader + "T1,2026-10-03,08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,70.00,USD,1000\n", "a.csv", in: dir)
        let b = try write(Self.fuelHeader + "T1,2026-10-04,08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,70.00,USD,1000\n", "b.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, a]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, b])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("1 updated, "), r.stdout)
        XCTAssertFalse(r.stdout.contains("moved"), r.stdout)
    }

    static let dvirHeader = "dvir_id,unit_number,driver_id,driver_name,type,started_at,signed_at,safety_status,odometer_mi,location,updated_at\n"

    /// A DVIR id stored for October 30 comes back signed on November 2 with a later state: the
    /// October inspection stays (a retained record is never overwritten by another day's), the
    /// November row is a reject with its reason and raw text, and the import exits 1.
    func testADVIROfAnotherDayIsARejectAndTheRetainedOneStays() throws {
        let (dir, db) = try setUp("dvir")
        let october = try write(Self.dvirHeader + "70001,T-01,E-1001,Ana Alvarez,pre_trip,2026-10-30T06:11:00-05:00,2026-10-30T07:03:00-05:00,safe,68782,Yard,2026-10-30T07:03:00-05:00\n", "dvir-oct.csv", in: dir)
        let november = try write(Self.dvirHeader + "70001,T-01,E-1001,Ana Alvarez,pre_trip,2026-11-02T06:11:00-06:00,2026-11-02T07:03:00-06:00,safe,68900,Yard,2026-11-02T07:03:00-06:00\n"
                                 + "70002,T-01,E-1001,Ana Alvarez,pre_trip,2026-11-03T06:11:00-06:00,2026-11-03T07:03:00-06:00,safe,68950,Yard,2026-11-03T07:03:00-06:00\n", "dvir-nov.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, october]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, november])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("1 loaded, 0 updated, 0 unchanged, 1 rejected"), r.stdout)
        let queue = try DatabaseQueue(path: db)
        try queue.read { db in
            let signed = try Int64.fetchOne(db, sql: "SELECT signed_at FROM dvir WHERE source_key LIKE '%70001%'")
            // 2026-10-30T07:03:00-05:00 = 12:03 UTC.
            XCTAssertEqual(signed, 1_793_361_780_000)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dvir"), 2)
            let reject = try Row.fetchOne(db, sql: "SELECT reason, message, raw FROM reject")
            XCTAssertEqual(reject?["reason"], "dvir_day_conflict")
            let message: String = reject?["message"] ?? ""
            XCTAssertTrue(message.contains("stored for 2026-10-30 (from dvir-oct.csv)"), message)
            XCTAssertTrue(message.contains("2026-11-02"), message)
            XCTAssertTrue((reject?["raw"] as String?)?.hasPrefix("70001,T-01") == true)
        }
        let rejects = try Fleetkit.run(["rejects", "--db", db])
        XCTAssertTrue(rejects.stdout.contains("dvir_day_conflict"), rejects.stdout)
    }

    /// The same DVIR again on the same day with a later state (a repair certified) is an update,
    /// as before: the rule is about the day, not about any change.
    func testADVIRUpdatedOnItsOwnDayStillUpdates() throws {
        let (dir, db) = try setUp("dvir-same")
        let a = try write(Self.dvirHeader + "70001,T-01,E-1001,Ana Alvarez,pre_trip,2026-10-30T06:11:00-05:00,2026-10-30T07:03:00-05:00,unsafe,68782,Yard,2026-10-30T07:03:00-05:00\n", "a.csv", in: dir)
        let b = try write(Self.dvirHeader + "70001,T-01,E-1001,Ana Alvarez,pre_trip,2026-10-30T06:11:00-05:00,2026-10-30T07:03:00-05:00,resolved,68782,Yard,2026-10-30T15:00:00-05:00\n", "b.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, a]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, b])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("0 loaded, 1 updated, 0 unchanged, 0 rejected"), r.stdout)
    }
}
