import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The Traccar importer on tiny named fixtures (Fixtures/traccar), written from Traccar's
/// openapi.yaml (`Position`, `Device`, `ReportTrips`) and Position.java, not from FleetKit's
/// output. Expected figures are read off the fixtures with Traccar's units: speed in knots
/// (`python3 -c "print(20*1852/3600)"` → 10.2889 m/s), odometer in metres, hours in
/// milliseconds (3600030000 ms → 3600030 s), times in UTC (`2026-10-01T08:00:30Z` →
/// 1790841630000 ms, `python3 -c "import datetime; print(int(datetime.datetime(2026,10,1,8,0,30,tzinfo=datetime.timezone.utc).timestamp()*1000))"`).
final class TraccarImporterTests: XCTestCase {
    func strings(_ t: TestWarehouse, _ sql: String) throws -> [String] {
        try t.rows(sql).map { $0.databaseValues.map { v -> String in
            if case let .string(s) = v.storage { return s }
            return v.description
        }.joined(separator: "|") }
    }

    /// A route report of device 11: five rows, of which 1003 has `valid: false` (no fix, at 0°, 0°)
    /// and 1004 `outdated: true` (the last fix copied, deviceTime 08:01:30): three positions, in
    /// m/s; every row's odometer and hours at its deviceTime; ignition on at 08:00, off at 08:01:30.
    func testRoutePositionsInSIWithInvalidAndOutdatedFixesCounted() throws {
        let t = try TestWarehouse()
        let url = fixture("traccar/route-11.json")
        let o = try t.importFile(url)
        XCTAssertEqual(o.format, "traccar", o.error ?? "")
        XCTAssertEqual(o.rejected, 0, "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT at, lat, lon, ROUND(speed_mps, 4), heading_deg, alt_m FROM position ORDER BY at"), [
            "1790841600000|41.8781|-87.6298|0.0|0.0|181.0",
            "1790841630000|41.879|-87.6262|10.2889|90.5|182.5",
            "1790841720000|41.8795|-87.624|0.0|91.0|183.0",
        ])
        XCTAssertEqual(try strings(t, "SELECT meter, at, value, raw_unit FROM meter_reading WHERE meter = 'odometer' ORDER BY at"), [
            "odometer|1790841600000|48250300.0|m", "odometer|1790841630000|48250600.0|m", "odometer|1790841660000|48250900.0|m",
            "odometer|1790841690000|48251200.0|m", "odometer|1790841720000|48251200.0|m",
        ])
        XCTAssertEqual(try strings(t, "SELECT at, value, raw_value FROM meter_reading WHERE meter = 'engine_hours' ORDER BY at LIMIT 2"),
                       ["1790841600000|3600000.0|3600000000", "1790841630000|3600030.0|3600030000"])
        XCTAssertEqual(try strings(t, "SELECT at, state FROM engine_event ORDER BY at"), ["1790841600000|on", "1790841690000|off"])
        XCTAssertEqual(try strings(t, "SELECT i.source, i.id_type, i.id_value FROM asset_identifier i"), ["traccar|device_id|11"])
        let notes = o.notes ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("positions with valid: false not stored") && $0.hasSuffix(": 1") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("positions with outdated: true not stored") && $0.hasSuffix(": 1") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.contains("totalDistance (Traccar's own GPS distance, resettable) 2") && $0.contains("fuel (litres or percent") }, "\(notes)")
        let before = try t.canonicalDump()
        let again = try t.importFile(url)
        XCTAssertEqual(again.status, .unchanged, "re-import is a no-op")
        XCTAssertEqual(try t.canonicalDump(), before)
    }

    /// Traccar 4.x writes offsets without a colon (`+0000`): read as UTC. Devices name assets
    /// (tabs as one space; the tracker's uniqueId only when there is no name) and never key them:
    /// positions of devices 11 and 12 land on the devices' assets in either import order.
    func testDevicesNameAssetsAndOldOffsetsAreRead() throws {
        let files = ["traccar/devices.json", "traccar/positions-traccar4-offset.json"]
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order {
                let o = try t.importFile(fixture(f))
                XCTAssertEqual([o.format, "\(o.rejected)"], ["traccar", "0"], "\(f): \(o.error ?? "")")
            }
            XCTAssertEqual(try t.count("asset"), 2, "\(order)")
            XCTAssertEqual(try strings(t, """
                SELECT i.id_value, a.name, p.at, ROUND(p.speed_mps, 4) FROM position p JOIN asset a ON a.id = p.asset_id
                JOIN asset_identifier i ON i.asset_id = a.id AND i.source = 'traccar' ORDER BY p.at
                """), ["12|864035051234567|1790846140000|2.5722", "11|Truck 12|1790846400000|0.0"], "\(order)")
            XCTAssertEqual(try t.count("asset_identifier", where: "id_value = '358480081523995'"), 0, "a tracker's IMEI moves between vehicles: never a key")
        }
    }

    /// Latitude 91.5 and longitude -187.6 are rejected with their paths; the good row is stored.
    func testOutOfRangeCoordinatesAreRejected() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/latitude-out-of-range.json"))
        XCTAssertEqual([o.rejected], [2], "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject ORDER BY location"), ["out_of_range|[0].latitude", "out_of_range|[1].longitude"])
        XCTAssertTrue(try strings(t, "SELECT raw FROM reject ORDER BY location")[0].contains("91.5"))
        XCTAssertEqual(try t.count("position"), 1)
    }

    /// The odometer falls from 48,250,300 m to 1,200 m: that reading is rejected with both values;
    /// both fixes and both hours readings (which rose) are stored.
    func testAnOdometerGoingDownIsRejected() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/odometer-goes-down.json"))
        XCTAssertEqual(o.rejected, 1, "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["meter_rollback|[1].attributes.odometer"])
        let message = try strings(t, "SELECT message FROM reject").first ?? ""
        XCTAssertTrue(message.contains("1200.0 m") && message.contains("48250300.0 m"), message)
        XCTAssertEqual(try strings(t, "SELECT meter, value FROM meter_reading ORDER BY meter, at"),
                       ["engine_hours|3600000.0", "engine_hours|3600030.0", "odometer|48250300.0"])
        XCTAssertEqual(try t.count("position"), 2)
    }

    /// Engine hours rising 2 h in 30 s of clock time (more than the clock plus 0.1 h) are
    /// rejected as `meter_too_fast`; the position and the odometer of that row are kept.
    func testEngineHoursFasterThanTheClockAreRejected() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/hours-too-fast.json"))
        XCTAssertEqual(o.rejected, 1, "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["meter_too_fast|[1].attributes.hours"])
        let message = try strings(t, "SELECT message FROM reject").first ?? ""
        XCTAssertTrue(message.contains("rose 2.00 h in 0.01 h of clock time"), message)
        XCTAssertEqual(try strings(t, "SELECT meter, value FROM meter_reading ORDER BY meter, at"),
                       ["engine_hours|3600000.0", "odometer|48250300.0", "odometer|48250330.0"])
        XCTAssertEqual(try t.count("position"), 2)
    }

    /// A row without `deviceId`, or with 0, belongs to no vehicle: rejected, no asset made.
    func testRowsWithoutADeviceAreRejected() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/no-device.json"), options: ImportOptions(format: "traccar"))
        XCTAssertEqual([o.loaded, o.rejected], [0, 2])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject ORDER BY location"), ["unknown_asset|[0].deviceId", "unknown_asset|[1].deviceId"])
        XCTAssertEqual(try t.count("asset"), 0)
    }

    /// An object at the top is not what the API returns: the file is refused saying so.
    func testAnObjectIsRefusedSayingWhatToSave() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/object-not-list.json"), options: ImportOptions(format: "traccar"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains("not a Traccar API response") == true, o.error ?? "")
        XCTAssertEqual(try t.count("position"), 0)
    }

    /// A trip report (Traccar's `ReportTrips`): t1 from 08:00:00 to 08:25:30 (1,530 s), 18,520 m,
    /// max 48.6 knots = 25.002 m/s (`python3 -c "print(48.6*1852/3600)"`), idle 120,000 ms = 120 s,
    /// ends at 41.9742, -87.9073. t2's endOdometer is 5,000 m below its startOdometer: rejected.
    /// A summary report row is counted, not stored.
    func testTripsInSIAndATripWhoseOdometerFallsIsRejected() throws {
        let t = try TestWarehouse()
        let url = fixture("traccar/trips-11.json")
        let o = try t.importFile(url)
        XCTAssertEqual(o.format, "traccar", o.error ?? "")
        XCTAssertEqual(o.rejected, 1, "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, """
            SELECT start_at, end_at, distance_m, duration_s, idle_s, ROUND(max_speed_mps, 4), start_lat, start_lon, end_lat, end_lon, source
            FROM trip WHERE source = 'traccar'
            """), ["1790841600000|1790843130000|18520.0|1530.0|120.0|25.002|41.8781|-87.6298|41.9742|-87.9073|traccar"])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["meter_rollback|[1].endOdometer"])
        XCTAssertEqual(try t.importFile(url).status, .unchanged, "re-import is a no-op")

        let s = try t.importFile(fixture("traccar/summary-11.json"))
        XCTAssertEqual([s.format, "\(s.rejected)"], ["traccar", "0"], s.error ?? "")
        XCTAssertTrue((s.notes ?? []).contains { $0.hasPrefix("summary report rows read, not stored") && $0.hasSuffix(": 1") }, "\(s.notes ?? [])")
        XCTAssertEqual(try t.count("trip", where: "source = 'traccar'"), 1)
    }

    /// A stop report (`/api/reports/stops`) in both documented spellings: StopReportItem's
    /// `positionId`, `latitude`, `longitude` (row 0) and openapi.yaml `ReportStops`' `lat`, `lon`
    /// with a Traccar 4.x offset (row 1). Stops carry `duration`, which made them zero-distance
    /// trips: neither row is a trip now, both are counted, and the trips report beside them is
    /// unchanged. A stop that ends before it starts is a reject at its `endTime`.
    func testStopRowsAreCountedAndNeverStoredAsTrips() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/stops-11.json"))
        XCTAssertEqual(o.format, "traccar", o.error ?? "")
        XCTAssertEqual(o.rejected, 0, "\(o.notes ?? [])")
        XCTAssertEqual(try t.count("trip"), 0)
        XCTAssertEqual(try t.count("position"), 0)
        let notes = o.notes ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("stop report rows read, not stored") && $0.hasSuffix(": 2") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("records read: Stop 2") }, "\(notes)")
        XCTAssertFalse(notes.contains { $0.contains("unknown key") }, "every member of both spellings is known: \(notes)")

        XCTAssertEqual(try t.importFile(fixture("traccar/trips-11.json")).rejected, 1)
        XCTAssertEqual(try t.count("trip", where: "source = 'traccar'"), 1)

        let bad = try TestWarehouse()
        let b = try bad.importFile(fixture("traccar/stop-ends-before-start.json"))
        XCTAssertEqual(b.format, "traccar", b.error ?? "")
        XCTAssertEqual(b.rejected, 1)
        XCTAssertEqual(try strings(bad, "SELECT reason, location FROM reject"), ["bad_value|[0].endTime"])
        XCTAssertEqual(try bad.count("trip"), 0)
    }

    /// An events report (`/api/reports/events`, openapi.yaml `Event`): two ignition events and an
    /// overspeed are counted, not stored (no engine_event from events: the positions give ignition,
    /// and older servers stamp eventTime with their own clock). A missing or zoneless eventTime is a
    /// reject; a member written twice fails the file naming it, as in every JSON format.
    func testEventRowsAreCheckedAndCountedNotStored() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("traccar/events-11.json"))
        XCTAssertEqual(o.format, "traccar", o.error ?? "")
        XCTAssertEqual(o.rejected, 0, "\(o.notes ?? [])")
        XCTAssertEqual(try t.count("engine_event"), 0)
        let notes = o.notes ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("ignitionOn/ignitionOff event rows read, not stored") && $0.hasSuffix(": 2") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("event report rows of other types read, not stored") && $0.hasSuffix(": 1") }, "\(notes)")

        let bad = try TestWarehouse()
        XCTAssertEqual(try bad.importFile(fixture("traccar/event-without-time.json")).rejected, 2)
        XCTAssertEqual(try strings(bad, "SELECT reason, location FROM reject ORDER BY location"), ["missing_field|[0].eventTime", "bad_date|[1].eventTime"])

        let dup = try TestWarehouse()
        let d = try dup.importFile(fixture("traccar/event-duplicate-member.json"))
        XCTAssertEqual(d.status, .failed)
        XCTAssertTrue(d.error?.contains(#"the member "deviceId" twice"#) == true, d.error ?? "")
        XCTAssertEqual(try dup.count("asset"), 0)
    }

    /// The assets CSV's `traccar_id` claims device 11 in either import order: one asset, T-12,
    /// holding the route's positions and meters.
    func testMasterDataClaimsADeviceByItsTraccarID() throws {
        let files = ["traccar/assets-traccar.csv", "traccar/route-11.json"]
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order { XCTAssertEqual(try t.importFile(fixture(f)).status, .imported, f) }
            XCTAssertEqual(try t.count("asset"), 1, "\(order)")
            XCTAssertEqual(try strings(t, "SELECT a.unit_number, COUNT(*) FROM position p JOIN asset a ON a.id = p.asset_id GROUP BY a.id"), ["T-12|3"], "\(order)")
            XCTAssertEqual(try strings(t, "SELECT DISTINCT a.unit_number FROM meter_reading m JOIN asset a ON a.id = m.asset_id"), ["T-12"], "\(order)")
        }
    }

    /// Each fixture is detected as Traccar from its bytes, and no other format's sniffer claims it.
    func testDetectionFromContent() throws {
        for name in ["route-11.json", "devices.json", "positions-traccar4-offset.json", "latitude-out-of-range.json", "trips-11.json", "summary-11.json", "stops-11.json", "events-11.json", "stop-ends-before-start.json", "event-without-time.json"] {
            let head = try Data(contentsOf: fixture("traccar/\(name)"))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "input.json")?.format, "traccar", name)
        }
        XCTAssertEqual(TraccarTime.colonOffset("2026-10-01T09:15:40.000+0000"), "2026-10-01T09:15:40.000+00:00")
        XCTAssertEqual(TraccarTime.colonOffset("2026-10-01T09:15:40.000-0530"), "2026-10-01T09:15:40.000-05:30")
        XCTAssertEqual(TraccarTime.colonOffset("2026-10-01T09:15:40Z"), "2026-10-01T09:15:40Z")
    }
}
