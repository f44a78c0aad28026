import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The Geotab importer on tiny named fixtures, one per shape or failure mode
/// (Fixtures/geotab). Expected figures are read off the fixtures and the MyGeotab SDK's units:
/// metres, seconds, litres, percent, km/h.
final class GeotabImporterTests: XCTestCase {
    func strings(_ t: TestWarehouse, _ sql: String) throws -> [String] {
        try t.rows(sql).map { $0.databaseValues.map { v -> String in
            if case let .string(s) = v.storage { return s }
            return v.description
        }.joined(separator: "|") }
    }

    func testAResponseWithoutResultIsRefusedSayingWhat() throws {
        let t = try TestWarehouse()
        for (file, says) in [("no-result.json", "no 'result' member"), ("error-response.json", "Incorrect login credentials")] {
            let o = try t.importFile(fixture("geotab/\(file)"), options: ImportOptions(format: "geotab"))
            XCTAssertEqual(o.status, .failed, file)
            XCTAssertTrue(o.error?.contains(says) == true, "\(file): \(o.error ?? "")")
        }
        XCTAssertEqual(try t.count("source_file", where: "status = 'imported'"), 0)
    }

    /// Device b1 has a VIN and a name with a tab; b2 has MyGeotab's `?` for an unknown VIN and the
    /// same name; b3 has text that is no VIN. Three assets: a shared name never merges two devices.
    func testDevicesQuestionMarkVINTabsAndDuplicateNames() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/devices.json"))
        XCTAssertEqual(o.format, "geotab")
        XCTAssertEqual([o.loaded, o.rejected], [0, 0], o.error ?? "")
        XCTAssertEqual(try strings(t, "SELECT i.id_value, COALESCE(a.vin, '-'), a.name FROM asset a JOIN asset_identifier i ON i.asset_id = a.id AND i.id_type = 'device_id' ORDER BY 1"),
                       ["b1|1M8GDM9AXKP042788|Truck 12", "b2|-|Truck 12", "b3|-|Van 7"])
        XCTAssertEqual(try t.count("asset_identifier", where: "id_type = 'serial_number'"), 0, "a GO device's serial moves between vehicles: never a key")
        XCTAssertEqual(try t.count("asset_identifier", where: "id_value = '?'"), 0)
        let notes = o.notes ?? []
        XCTAssertTrue(notes.contains { $0.contains("vehicleIdentificationNumber is '?'") && $0.hasSuffix(": 1") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.contains("device b3: vehicleIdentificationNumber 'NOTAVIN' is not used") }, "\(notes)")
        // StatusData of b1 lands on the Device's asset, in SI.
        let s = try t.importFile(fixture("geotab/status-b1.json"))
        XCTAssertEqual([s.loaded, s.rejected], [2, 0])
        XCTAssertEqual(try t.count("asset"), 3)
        XCTAssertEqual(try strings(t, "SELECT a.vin, m.meter, m.value, m.raw_unit FROM meter_reading m JOIN asset a ON a.id = m.asset_id ORDER BY 2"),
                       ["1M8GDM9AXKP042788|engine_hours|3600000.0|s", "1M8GDM9AXKP042788|odometer|99500.0|m"])
    }

    /// A database-specific diagnostic is never taken for a meter, even with an odometer-like value.
    func testDatabaseSpecificDiagnosticsAreNotedNeverGuessed() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/database-specific-diagnostic.json"))
        XCTAssertEqual([o.loaded, o.rejected], [0, 0])
        XCTAssertEqual(try t.count("meter_reading"), 0)
        XCTAssertTrue((o.notes ?? []).contains { $0.contains("database-specific") && $0.contains("aDD1bu5XaYUiSdhyYEni8OA 1") && $0.contains("aZZ9odometerLooking 1") },
                      "\(o.notes ?? [])")
    }

    /// Records in no time order, one older than the others: each at its own time, and the same
    /// warehouse as the sorted bare list.
    func testUnorderedRecordsGiveTheSameWarehouseAsOrderedOnes() throws {
        var dumps: [[String]] = []
        for file in ["unordered.json", "ordered.json"] {
            let t = try TestWarehouse()
            let o = try t.importFile(fixture("geotab/\(file)"))
            XCTAssertEqual(o.format, "geotab", file)
            XCTAssertEqual([o.loaded, o.rejected], [4, 0], file)
            XCTAssertEqual(try strings(t, "SELECT meter, at, value FROM meter_reading ORDER BY at"),
                           ["fuel_level|1790582400000|75.5", "odometer|1790856000000|100000.0", "odometer|1790859600000|115000.0", "odometer|1790863200000|130000.0"], file)
            if file == "unordered.json" {
                XCTAssertTrue((o.notes ?? []).contains { $0.contains("2 came earlier than the record before them") }, "\(o.notes ?? [])")
            }
            dumps.append(try t.factDump(tables: ["asset_identifier", "meter_reading"]).map { $0.replacingOccurrences(of: #"source_file_id=\d+"#, with: "", options: .regularExpression) })
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// Two `data` members in one record: the JSON reader refuses the document naming the member
    /// and its path (every JSON format does), so nothing of the response is stored.
    func testADuplicateMemberFailsTheResponseNamingIt() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/duplicate-member.json"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error?.contains(#"the member "data" twice"#) == true, o.error ?? "")
        XCTAssertTrue(o.error?.contains("result[0].data") == true, o.error ?? "")
        XCTAssertEqual(try t.count("meter_reading"), 0)
    }

    /// `NoDeviceId` and a record with no device are refused with the reason, kept with their text.
    func testUnknownDeviceIdentityIsRefused() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/unknown-device.json"))
        XCTAssertEqual([o.loaded, o.rejected], [1, 2])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject ORDER BY location"),
                       ["unknown_asset|result[0].device.id", "unknown_asset|result[1].device"])
        XCTAssertTrue(try strings(t, "SELECT raw FROM reject ORDER BY location")[0].contains("NoDeviceId"))
        XCTAssertEqual(try t.count("asset"), 1)
    }

    /// A GetFeed of LogRecords: km/h to m/s, the 0°, 0° record without a fix counted, latitude 95 rejected.
    func testGetFeedLogRecords() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/logrecords-feed.json"))
        XCTAssertEqual(o.format, "geotab")
        XCTAssertEqual([o.loaded, o.rejected], [2, 1])
        XCTAssertEqual(try strings(t, "SELECT at, lat, lon, speed_mps FROM position ORDER BY at"),
                       ["1790856000000|43.6532|-79.3832|10.0", "1790856030000|43.654|-79.384|15.0"])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["out_of_range|result.data[3].latitude"])
        XCTAssertTrue((o.notes ?? []).contains { $0.hasPrefix("positions at 0°, 0° not stored") && $0.hasSuffix(": 1") }, "\(o.notes ?? [])")
    }

    /// J1939 and OBD-II faults with their diagnostics expanded are DTCs; a GO-device fault is
    /// counted; a fault named only by a database id is rejected, never stored under a guess.
    func testFaultDataEngineCodesOnly() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/faults-engine.json"))
        XCTAssertEqual([o.loaded, o.rejected], [2, 1], "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT code, system, COALESCE(spn, '-'), COALESCE(fmi, '-'), status, mil_on FROM dtc_event ORDER BY at"),
                       ["3226-2|j1939|3226|2|active|1", "P0420|obd2|-|-|pending|0"])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["bad_value|result[3].diagnostic.id"])
        XCTAssertTrue((o.notes ?? []).contains { $0.contains("DiagnosticDeviceRestartedBecauseOfFirmwareUpdateId 1") }, "\(o.notes ?? [])")
    }
    /// The assets CSV's `geotab_id` claims the device in either import order: one asset, T-12.
    func testMasterDataClaimsADeviceByItsGeotabID() throws {
        let files = ["geotab/assets-geotab.csv", "geotab/status-b1.json"]
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order { XCTAssertEqual(try t.importFile(fixture(f)).status, .imported, f) }
            XCTAssertEqual(try t.count("asset"), 1, "\(order)")
            XCTAssertEqual(try strings(t, "SELECT a.unit_number, m.meter FROM meter_reading m JOIN asset a ON a.id = m.asset_id ORDER BY 2"),
                           ["T-12|engine_hours", "T-12|odometer"], "\(order)")
        }
    }
    /// FuelTransactions as card purchases, read against the SDK reference (`FuelTransaction`,
    /// `FuelEvent`: volume in litres, cost in `currencyCode`, odometer in km, `cardNumber` masked
    /// or partial): ft1 device b1, 52.3 L = 52,300 mL, 78.45 CAD = 7,845 minor, card …4444,
    /// Diesel, 123,456.7 km; ft2 no device but a VIN, no currency (the base USD, assumed),
    /// `Unknown` product so the provider's description, odometer 0 = none; ft3 `NoDeviceId` and
    /// no VIN: no asset, its plate the hint. Rejected: ft4 12.345 USD (a third decimal, never
    /// rounded), ft5 no cost; their raw text keeps only the card's last four digits. Before,
    /// all five were counted and nothing stored.
    func testFuelTransactionsAreCardPurchases() throws {
        let t = try TestWarehouse()
        let url = fixture("geotab/fuel-transactions.json")
        let o = try t.importFile(url)
        XCTAssertEqual(o.format, "geotab")
        XCTAssertEqual([o.loaded, o.rejected], [3, 2], "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, """
            SELECT f.source_key, f.origin, COALESCE(a.vin, l.id_value, '-'), f.at, f.volume_ml, f.total_minor, f.currency, f.currency_assumed,
                   COALESCE(f.card_last4, '-'), COALESCE(f.fuel_grade, '-'), COALESCE(f.odometer_m, '-'), COALESCE(f.merchant, '-'), COALESCE(f.unit_hint, '-')
            FROM fuel_purchase f LEFT JOIN asset a ON a.id = f.asset_id
            LEFT JOIN asset_identifier l ON l.asset_id = a.id AND l.source = 'geotab' ORDER BY f.at
            """), [
                "geotab:ft1|card|b1|1790863500000|52300.0|7845|CAD|0|4444|Diesel|123456700.0|Petro-Canada Toronto|-",
                "geotab:ft2|card|1FTFW1ET9DFC10312|1790933400000|60000.0|10000|USD|1|9876|ULSD #2|-|Shell 12|-",
                "geotab:ft3|card|-|1791050400000|40500.0|6120|USD|0|1234|-|-|-|ABC 123",
            ])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject ORDER BY location"),
                       ["bad_number|result[3].cost", "missing_field|result[4].cost"])
        let raws = try strings(t, "SELECT raw FROM reject").joined()
        XCTAssertFalse(raws.contains("4111111111111111") || raws.contains("4111 1111 1111 1111"), raws)
        XCTAssertTrue(raws.contains("************1111"), raws)
        XCTAssertEqual(try t.importFile(url).status, .unchanged, "re-import is a no-op")
    }

    /// A Trip: km to m, km/h to m/s, TimeSpans to seconds, the stop point as its end; one that
    /// stops before it starts is rejected; an ExceptionEvent is counted, not stored.
    func testTripsAndExceptionEvents() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/trips.json"))
        XCTAssertEqual([o.loaded, o.rejected], [1, 1], "\(o.notes ?? [])")
        XCTAssertEqual(try strings(t, "SELECT start_at, end_at, distance_m, duration_s, moving_s, idle_s, max_speed_mps, end_lat, end_lon, source FROM trip WHERE source = 'geotab'"),
                       ["1790856000000|1790857800000|24500.0|1800.0|1500.0|210.5|25.0|43.6532|-79.3832|geotab"])
        XCTAssertEqual(try strings(t, "SELECT reason, location FROM reject"), ["bad_value|result[1].stop"])
        XCTAssertTrue((o.notes ?? []).contains { $0.hasPrefix("ExceptionEvent entities, not stored (rule violations") && $0.hasSuffix(": 1 (RuleHarshBrakingId 1)") },
                      "\(o.notes ?? [])")
        XCTAssertEqual(GeotabReader<WarehouseSink>.seconds(ofTimeSpan: "1.02:00:00"), 93_600)
        XCTAssertNil(GeotabReader<WarehouseSink>.seconds(ofTimeSpan: "25:00"))
        XCTAssertNil(GeotabReader<WarehouseSink>.seconds(ofTimeSpan: "00:61:00"))
    }
}
