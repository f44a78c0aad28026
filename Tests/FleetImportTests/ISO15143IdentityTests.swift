import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Machines an ISO 15143-3 feed sends without a PIN, header-less time-series pages and the empty
/// page past the last one. Expected figures are read off the fixtures (hours × 3600 = seconds).
final class ISO15143IdentityTests: XCTestCase {
    static let tables = ["asset", "asset_identifier", "meter_reading", "position"]

    func identifiers(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT COALESCE(a.unit_number, a.pin, a.name, '#'), i.source, i.id_type, i.id_value FROM asset_identifier i JOIN asset a ON a.id = i.asset_id
            ORDER BY 1, 3
            """).map { "\($0[0] as String) \($0[1] as String)/\($0[2] as String)/\($0[3] as String)" }
    }

    func hours(_ t: TestWarehouse) throws -> [String] {
        try t.rows("""
            SELECT COALESCE(a.unit_number, a.pin, a.name), m.at, m.value, m.raw_value FROM meter_reading m JOIN asset a ON a.id = m.asset_id
            WHERE m.meter = 'engine_hours' ORDER BY 1, 2
            """).map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as Double) \($0[3] as String)" }
    }

    func testMachinesWithoutAPINAreKeyedByTheirSerialAndOEM() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/trackunit-no-pin.xml"))
        XCTAssertEqual(outcome.format, "iso15143")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [4, 0], "\(outcome.notes ?? [])")
        XCTAssertEqual(try t.rows("SELECT kind, name, vin, pin, make, auto_created FROM asset ORDER BY id").map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"equipment\"|\"Telehandler 9\"|NULL|\"JCB5TVF4CJ2712345\"|\"JCB\"|1",
            "\"equipment\"|\"Seither Kramer 5085 SN: 353110979\"|NULL|NULL|\"Kramer\"|1",
            "\"equipment\"|\"Compressor 2\"|NULL|NULL|NULL|1",
            // A VIN-shaped EquipmentID without a check digit is a label: never the asset's VIN.
            "\"equipment\"|\"WDB9066331S123456\"|NULL|NULL|NULL|1",
        ])
        XCTAssertEqual(try identifiers(t), [
            "Compressor 2 iso15143/serial_number/353114411",
            // OEM + serial needs no Model; the serial alone is what master data claims.
            "Seither Kramer 5085 SN: 353110979 iso15143/oem_serial/Kramer|353110979",
            "Seither Kramer 5085 SN: 353110979 iso15143/serial_number/353110979",
            "WDB9066331S123456 iso15143/serial_number/353117002",
            "WDB9066331S123456 iso15143/vin_label/WDB9066331S123456",
        ], "the machine with a PIN gets no serial identifier: Trackunit's SerialNumber is the telematics unit")
        XCTAssertEqual(try hours(t), [
            "Compressor 2 2026-10-05T05:45:00.001Z 343800.0 95.5",
            "JCB5TVF4CJ2712345 2026-10-05T05:50:00.001Z 8677800.0 2410.5",
            "Seither Kramer 5085 SN: 353110979 2026-10-05T05:40:00.001Z 2924100.0 812.25",
        ])
        // The next snapshot of the same fleet adds the Model: the same assets, no new one.
        let later = try t.write("""
            <Fleet xmlns="http://standards.iso.org/iso/15143/-3" version="1" snapshotTime="2026-10-06T06:00:00Z">
              <Equipment><EquipmentHeader><OEMName>Kramer</OEMName><Model>5085</Model><SerialNumber>353110979</SerialNumber></EquipmentHeader>
                <CumulativeOperatingHours datetime="2026-10-06T05:40:00Z"><Hour>820.0</Hour></CumulativeOperatingHours></Equipment>
              <Equipment><EquipmentHeader><SerialNumber> 353114411 </SerialNumber></EquipmentHeader>
                <CumulativeOperatingHours datetime="2026-10-06T05:45:00Z"><Hour>99.0</Hour></CumulativeOperatingHours></Equipment>
            </Fleet>
            """, to: "trackunit-2026-10-06.xml")
        XCTAssertEqual(try t.importFile(later).loaded, 2)
        XCTAssertEqual(try t.count("asset"), 4)
        XCTAssertEqual(try t.count("meter_reading", where: "asset_id = (SELECT id FROM asset WHERE name = 'Compressor 2')"), 2)
        // Importing the same bytes again changes nothing.
        let before = try t.factDump(tables: Self.tables)
        XCTAssertEqual(try t.importFile(fixture("iso15143/trackunit-no-pin.xml")).status, .unchanged)
        XCTAssertEqual(try t.factDump(tables: Self.tables), before)
    }

    /// Master data claims the PIN-less machines by `vendor_serial`, and a European VIN typed as
    /// the EquipmentID by its VIN, exactly; whichever comes first gives the same warehouse.
    func testMasterDataClaimsMachinesWithoutAPINInEitherOrder() throws {
        let files = ["iso15143/trackunit-no-pin.xml", "iso15143/trackunit-no-pin-master.csv"]
        var dumps: [[String]] = []
        for order in [files, files.reversed()] {
            let t = try TestWarehouse()
            for f in order {
                let o = try t.importFile(fixture(f))
                XCTAssertEqual([o.rejected], [0], "\(f): \(o.error ?? "")")
            }
            XCTAssertEqual(try t.rows("SELECT COALESCE(unit_number, '-'), kind, COALESCE(vin, '-'), COALESCE(pin, '-'), COALESCE(make, '-'), auto_created FROM asset ORDER BY 1")
                .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as String) \($0[4] as String) \($0[5] as Int)" }, [
                "- equipment - - Kramer 1",
                "CMP-02 equipment - - Atlas Copco 0",
                "TH-09 equipment - JCB5TVF4CJ2712345 JCB 0",
                "VAN-31 vehicle WDB9066331S123456 - Mercedes-Benz 0",
            ])
            XCTAssertEqual(try hours(t).filter { $0.hasPrefix("CMP-02") }, ["CMP-02 2026-10-05T05:45:00.001Z 343800.0 95.5"])
            XCTAssertEqual(try t.rows("SELECT a.unit_number, p.lat, p.lon FROM position p JOIN asset a ON a.id = p.asset_id").map { "\($0[0] as String) \($0[1] as Double) \($0[2] as Double)" },
                           ["VAN-31 52.520008 13.404954"])
            dumps.append(try t.factDump(tables: Self.tables))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// The VIN-shaped label is matched as written: a lower-case or spaced label is only a name.
    func testAVINShapedLabelMatchesOnlyExactly() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("iso15143/trackunit-no-pin-master.csv"))
        let feed = try t.write("""
            <Fleet xmlns="http://standards.iso.org/iso/15143/-3" version="1" snapshotTime="2026-10-05T06:00:00Z">
              <Equipment><EquipmentHeader><EquipmentID>wdb9066331s123456</EquipmentID><SerialNumber>7001</SerialNumber></EquipmentHeader>
                <Location datetime="2026-10-05T05:00:00Z"><Latitude>52.5</Latitude><Longitude>13.4</Longitude></Location></Equipment>
            </Fleet>
            """, to: "lower.xml")
        XCTAssertEqual(try t.importFile(feed).loaded, 1)
        XCTAssertEqual(try t.count("position", where: "asset_id = (SELECT id FROM asset WHERE unit_number = 'VAN-31')"), 0)
        XCTAssertEqual(try t.count("asset_identifier", where: "id_type = 'vin_label'"), 0)
    }

    func testOneSerialUnderTwoOEMsIsAConflictNotAMerge() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("iso15143/serial-two-oems.xml"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let rejects = try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" }
        XCTAssertEqual(rejects.count, 1)
        XCTAssertTrue(rejects[0].hasPrefix("/Fleet/Equipment[2]/EquipmentHeader | identity_conflict | this row names oem_serial 'Bobcat|24680', but its other identifiers belong to the machine named 'Dumper 4', known as oem_serial 'Wacker Neuson|24680'"), rejects[0])
        XCTAssertTrue(rejects[0].hasSuffix("1 data element of it was not loaded"), rejects[0])
        XCTAssertEqual(try hours(t), ["Dumper 4 2026-10-05T05:00:00Z 432000.0 120.0"])
    }

    /// Bosch's time-series page as its API returns it: no EquipmentHeader, the machine only in the
    /// links, with its own machine id (`510TS_15075`), which is kept exactly. The fixture is the
    /// response sample of Bosch Rexroth's published API description
    /// (boschrexroth/bodas-data-management-samples, iso15143ApiEndpoints/README.md), cut to three
    /// of its readings (the first two and the last); the `[]` fixture is its "page number greater
    /// than the maximum" response.
    func testAHeaderlessJSONTimeSeriesPageIsDetectedAndNamedByItsLink() throws {
        let url = fixture("iso15143/bosch-hours-no-header.json")
        XCTAssertEqual(ImporterRegistry.detect(try FileWalker.head(of: url), filename: "page.json")?.format, "iso15143")
        let files = ["iso15143/bosch-hours-no-header.json", "iso15143/bosch-master.csv"]
        var dumps: [[String]] = []
        for (n, order) in [files, files.reversed()].enumerated() {
            let t = try TestWarehouse()
            for f in order {
                let o = try t.importFile(fixture(f))
                XCTAssertEqual(o.status, .imported, o.error ?? "")
                if f.hasSuffix(".json") {
                    XCTAssertEqual([o.loaded, o.rejected], [3, 0])
                    XCTAssertEqual(o.notes, ["this page links to a next page (/Fleet/Equipment/510TS_15075/CumulativeOperatingHours/2023-02-09T00:00:00Z/2023-02-14T00:00:00Z/2); each saved page is imported as its own file, so import that page too"])
                }
            }
            XCTAssertEqual(try identifiers(t), ["SW-510 iso15143/machine_id/510TS_15075"], "order \(n)")
            XCTAssertEqual(try hours(t), [
                "SW-510 2023-02-09T06:30:00Z 6655140.0 1848.65",
                "SW-510 2023-02-09T06:35:00Z 6655320.0 1848.7",
                "SW-510 2023-02-09T15:30:00Z 6685200.0 1857.0",
            ])
            dumps.append(try t.factDump(tables: Self.tables))
        }
        XCTAssertEqual(dumps[0], dumps[1])
    }

    /// Bosch's fleet snapshot (the same published sample): no PIN and no serial, the machine
    /// named by its `BodasMachineId`, locations under `Locations`; its time-series pages name
    /// the machine by that id in their links.
    func testBoschSnapshotMachinesAreTheirMachineIDsAndMeetTheirTimeSeries() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("iso15143/bosch-fleet-snapshot.json"))
        XCTAssertEqual(o.format, "iso15143")
        XCTAssertEqual([o.loaded, o.rejected], [4, 0])
        XCTAssertTrue(o.notes?.contains { $0.contains("EEC1__EngSpeed") } ?? false, "\(o.notes ?? [])")
        XCTAssertEqual(try t.rows("SELECT a.kind, a.model, i.id_value FROM asset a JOIN asset_identifier i ON i.asset_id = a.id ORDER BY 3")
            .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }, ["equipment model1 Machine1", "equipment model1 Machine2"])
        // 2053.8 h and 736.1 h; the fixes with their altitude in metres.
        XCTAssertEqual(try t.rows("""
            SELECT i.id_value, m.at, m.value FROM meter_reading m JOIN asset_identifier i ON i.asset_id = m.asset_id ORDER BY 1
            """).map { "\($0[0] as String) \(Timestamp.iso($0[1])) \(String(format: "%.3f", $0[2] as Double))" },
                       ["Machine1 2023-02-08T12:38:02Z 7393680.000", "Machine2 2023-02-13T10:20:09Z 2649960.000"])
        XCTAssertEqual(try t.rows("SELECT i.id_value, p.at, p.lat, p.lon, p.alt_m FROM position p JOIN asset_identifier i ON i.asset_id = p.asset_id ORDER BY 1")
            .map { "\($0[0] as String) \(Timestamp.iso($0[1])) \($0[2] as Double) \($0[3] as Double) \($0[4] as Double)" },
                       ["Machine1 2023-02-08T12:37:29Z 48.424358 9.935278 603.6", "Machine2 2023-02-13T10:24:10Z 48.424002 9.935772 607.1"])
        let page = try t.write("""
            [{"CumulativeOperatingHours": [{"Hour": 737.0, "datetime": "2023-02-14T08:00:00Z"}],
              "links": [{"rel": "self", "href": "/Fleet/Equipment/Machine2/CumulativeOperatingHours/2023-02-14T00:00:00Z/2023-02-15T00:00:00Z/1"}]}]
            """, to: "machine2-hours.json")
        XCTAssertEqual(try t.importFile(page).loaded, 1)
        XCTAssertEqual(try t.count("asset"), 2)
        XCTAssertEqual(try t.count("meter_reading", where: "asset_id = (SELECT asset_id FROM asset_identifier WHERE id_value = 'Machine2')"), 2)
    }

    func testTheEmptyPagePastTheLastIsNoDataWithANote() throws {
        let t = try TestWarehouse()
        let url = fixture("iso15143/bosch-page-past-last.json")
        let o = try t.importFile(url)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.format, "iso15143")
        XCTAssertEqual([o.loaded, o.rejected], [0, 0])
        XCTAssertEqual(o.notes, ["the file is an empty page ([]): no data to store; a vendor's paging API returns this past its last page"])
        XCTAssertEqual(try t.count("asset"), 0)
        // An array that holds something is not taken for an empty page.
        XCTAssertEqual(ISO15143Importer.sniff(Data("[1]".utf8), filename: "x.json"), .no)
        XCTAssertEqual(ISO15143Importer.sniff(Data("[{\"id\": 1}]".utf8), filename: "x.json"), .no)
    }
    /// A time series that names its machine only in a typed self link, as Tigercat's feed does
    /// (`/Fleet/Equipment/ID/844585/Locations/…`): the machine is the value after `ID`, as the
    /// vendor's machine id, never the word `ID`, so two machines stay two assets, in XML and JSON.
    /// Expected from the fixtures: two fixes per file, one asset per id.
    func testTypedSelfLinksNameTheMachineByTheValueNotTheTypeWord() throws {
        for ext in ["xml", "json"] {
            let t = try TestWarehouse()
            for id in ["844585", "844586"] {
                let o = try t.importFile(fixture("iso15143/tigercat-locations-id-\(id).\(ext)"))
                XCTAssertEqual(o.format, "iso15143", ext)
                XCTAssertEqual([o.loaded, o.rejected], [2, 0], "\(ext): \(o.error ?? "") \(o.notes ?? [])")
            }
            XCTAssertEqual(try identifiers(t), ["# iso15143/machine_id/844585", "# iso15143/machine_id/844586"], ext)
            XCTAssertEqual(try t.count("asset"), 2, ext)
            XCTAssertEqual(try t.rows("SELECT COUNT(*) FROM position GROUP BY asset_id").map { $0[0] as Int }, [2, 2], ext)
        }
    }

    /// `/SerialNumber/{serial}` names the machine by its serial, the identifier master data's
    /// `vendor_serial` claims; a link whose only word after `Equipment` is a reserved one names no
    /// machine, so the page is refused with a reason rather than loaded onto an asset called `ID`.
    func testSerialNumberLinksAndReservedWords() throws {
        let t = try TestWarehouse()
        let serial = try t.importFile(fixture("iso15143/link-serial-number.xml"))
        XCTAssertEqual([serial.loaded, serial.rejected], [1, 0], serial.error ?? "")
        XCTAssertEqual(try identifiers(t), ["# iso15143/serial_number/TC-0042"])
        let reserved = try t.importFile(fixture("iso15143/link-reserved-word-only.json"))
        XCTAssertEqual([reserved.loaded, reserved.rejected], [0, 1])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").map { $0[0] as String }, ["unknown_asset"])
        XCTAssertEqual(try t.count("asset"), 1)
    }
}
