import XCTest
import GRDB
import FleetTestSupport

/// Samsara HOS logs (`/fleet/hos/logs`) stored as duty-status intervals and counted as driving
/// on their local days (issue 30; docs/METRICS.md, "Driver qualification"; docs/FORMATS.md,
/// `samsara`, "HOS logs").
///
/// Expected values from an independent reading of the fixture (a Python script: each
/// `driving` interval's local days in America/Chicago, its end excluded, an open one on its
/// start day): 7 intervals stored, 3 rejected (status `napping`, an end before its start, no
/// status). Carla Chen drove T-12 on 10-05 (07:00–11:30 CDT), 10-06 (17:00–21:00 CDT, 22:00Z to
/// 02:00Z) and 10-09 (open, from 08:00 CDT); her yard move on 10-08 is not driving. With her
/// medical card valid through 10-05: 2 days expired (10-06, 10-09); her class C licence does not
/// cover T-12 (class B): 3 days. Ben Brooks (class C too) has only personal conveyance: no row.
final class HOSDrivingCommandTests: XCTestCase {
    static let hosLogs = """
{
  "data": [
    {
      "driver": {"id": "52000074", "name": "Carla Chen"},
      "hosLogs": [
        {"hosStatusType": "offDuty", "logStartTime": "2026-10-04T00:00:00Z", "logEndTime": "2026-10-05T12:00:00Z"},
        {"hosStatusType": "driving", "logStartTime": "2026-10-05T12:00:00Z", "logEndTime": "2026-10-05T16:30:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}},
        {"hosStatusType": "onDuty", "logStartTime": "2026-10-05T16:30:00Z", "logEndTime": "2026-10-05T17:00:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}},
        {"hosStatusType": "driving", "logStartTime": "2026-10-06T22:00:00Z", "logEndTime": "2026-10-07T02:00:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}},
        {"hosStatusType": "yardMove", "logStartTime": "2026-10-08T15:00:00Z", "logEndTime": "2026-10-08T15:20:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}},
        {"hosStatusType": "napping", "logStartTime": "2026-10-08T16:00:00Z", "logEndTime": "2026-10-08T17:00:00Z"},
        {"hosStatusType": "driving", "logStartTime": "2026-10-08T18:00:00Z", "logEndTime": "2026-10-08T17:00:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}},
        {"logStartTime": "2026-10-08T19:00:00Z", "logEndTime": "2026-10-08T20:00:00Z", "remark": "no status"},
        {"hosStatusType": "driving", "logStartTime": "2026-10-09T13:00:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}}
      ]
    },
    {
      "driver": {"id": "52000037", "name": "Ben Brooks"},
      "hosLogs": [
        {"hosStatusType": "personalConveyance", "logStartTime": "2026-10-06T01:00:00Z", "logEndTime": "2026-10-06T01:40:00Z", "vehicle": {"id": "281474977075805", "name": "T-12"}}
      ]
    }
  ],
  "pagination": {"endCursor": "", "hasNextPage": false}
}
"""
    static let assets = "unit_number,kind,vin,samsara_id,cdl_class\nT-12,truck,1FTFW1E50PFA00012,281474977075805,B\n"
    static let drivers = """
        employee_id,name,license_number,license_class,license_expiry,medical_expiry,status,samsara_id
        E-1003,Carla Chen,D412345678,C,2028-01-01,2026-10-05,active,52000074
        E-1004,Ben Brooks,D498765432,C,2028-01-01,2028-01-01,active,52000037

        """

    func testDrivingStatusIntervalsAreDrivingOnTheirLocalDays() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-hos-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago", "--carrier-name", "Prairie Haulers LLC", "--usdot", "1234567"]).status, 0)
        for (name, text) in [("assets.csv", Self.assets), ("drivers.csv", Self.drivers), ("samsara-hos-logs.json", Self.hosLogs)] {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let i = try Fleetkit.run(["import", "--db", db] + ["assets.csv", "drivers.csv", "samsara-hos-logs.json"].map { dir.appendingPathComponent($0).path })
        XCTAssertEqual(i.status, 1, "rejects make the import exit 1: " + i.stdout + i.stderr)
        let (stored, rejects) = try DatabaseQueue(path: db).read { db in
            (try String.fetchAll(db, sql: """
                SELECT d.employee_id || ' ' || h.status || ' ' || h.start_at || ' ' || COALESCE(h.end_at, 'open') || ' ' || COALESCE(a.unit_number, '-')
                FROM hos_log h JOIN driver d ON d.id = h.driver_id LEFT JOIN asset a ON a.id = h.asset_id ORDER BY h.start_at
                """),
             try String.fetchAll(db, sql: "SELECT reason FROM reject ORDER BY location"))
        }
        // Epoch milliseconds of the fixture's UTC times (date -u -d … +%s).
        XCTAssertEqual(stored, [
            "E-1003 off_duty 1791072000000 1791201600000 -",
            "E-1003 driving 1791201600000 1791217800000 T-12",
            "E-1003 on_duty 1791217800000 1791219600000 T-12",
            "E-1004 personal_conveyance 1791248400000 1791250800000 T-12",
            "E-1003 driving 1791324000000 1791338400000 T-12",
            "E-1003 yard_move 1791471600000 1791472800000 T-12",
            "E-1003 driving 1791550800000 open T-12",
        ])
        XCTAssertEqual(rejects.sorted(), ["bad_value", "bad_value", "missing_field"])

        // Importing the file again changes nothing.
        let again = try Fleetkit.run(["import", "--db", db, dir.appendingPathComponent("samsara-hos-logs.json").path])
        XCTAssertEqual(try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hos_log") }, 7, again.stdout)

        let out = dir.appendingPathComponent("r")
        let r = try Fleetkit.run(["report", "dvir-compliance", "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let documents = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-driver_documents.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertEqual(documents.count, 2, "\(documents)")
        let carla = try XCTUnwrap(documents.dropFirst().first, "\(documents)")
        XCTAssertTrue(carla.hasPrefix("E-1003,Carla Chen,medical card,\"49 CFR 391.41, 391.45, 391.51(b)(7)\",2026-10-05,T-12,2,2026-10-06,2026-10-09,"), carla)
        XCTAssertTrue(carla.contains("2026-10-06 HOS driving from 2026-10-06 17:00"), carla)
        let classes = try String(contentsOf: out.appendingPathComponent("dvir-compliance-2026-10-licence_class.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertEqual(classes.count, 2, "\(classes)")
        let wrongClass = try XCTUnwrap(classes.dropFirst().first, "\(classes)")
        XCTAssertTrue(wrongClass.hasPrefix("E-1003,Carla Chen,C,T-12,B,\"49 CFR 383.37(a), 383.91\",3,2026-10-05,2026-10-09,"), wrongClass)

        // Forgetting the file takes its intervals with it.
        let forget = try Fleetkit.run(["forget", "--db", db, dir.appendingPathComponent("samsara-hos-logs.json").path])
        XCTAssertEqual(forget.status, 0, forget.stdout + forget.stderr)
        XCTAssertEqual(try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hos_log") }, 0)
    }
}
