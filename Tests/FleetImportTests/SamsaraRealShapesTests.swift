import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// What Samsara's published examples taught (issue 16), one fixture per failure mode, written
/// from the published shapes: placeholders are refused and leave nothing, a vehicle whose every
/// point is rejected leaves no asset, a vehicle and a trailer defect with one id are two
/// defects, and a reject's raw text keeps the source's JSON types.
final class SamsaraRealShapesTests: XCTestCase {
    func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" }
    }

    /// `"id": "id"`, `"name": "name"`: refused with a reason, never an asset called `name`.
    func testPlaceholderValuesAreRefusedAndCreateNoAsset() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/placeholder-vehicle.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual([o.loaded, o.rejected], [0, 2])
        XCTAssertEqual(try rejects(t), ["data[0].id placeholder", "data[1].name placeholder"])
        let message: String = try t.rows("SELECT message FROM reject ORDER BY id")[0][0]
        XCTAssertTrue(message.contains("'id' is \"id\", the placeholder of a generated API example"), message)
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("asset_identifier"), 0)
        XCTAssertEqual(try t.count("engine_event"), 0)
    }

    /// Every point rejected: the rejects stay, the vehicle is not created. The raw text is the
    /// point as the source wrote it: numbers, booleans, null and the string "7" keep their types.
    func testFullyRejectedVehicleLeavesNoAssetAndRawKeepsJSONTypes() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/all-points-rejected.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual([o.loaded, o.rejected], [0, 3])
        XCTAssertEqual(try rejects(t), ["data[0].fuelPercents[0].value out_of_range", "data[0].fuelPercents[1].time placeholder",
                                        "data[0].gps[0].latitude out_of_range"])
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("asset_identifier"), 0)
        let raws = try t.rows("SELECT raw FROM reject ORDER BY id").map { $0[0] as String }
        let source = try String(contentsOf: fixture("samsara/all-points-rejected.json"), encoding: .utf8)
        for raw in [raws[0], raws[2]] { XCTAssertTrue(source.contains(raw), "raw is not the source text: \(raw)") }
        XCTAssertEqual(raws[0], #"{"time":"2026-10-01T07:00:00Z","value":-5,"decorations":{"flag":true,"note":null,"code":"7"}}"#)
    }

    /// Samsara's own DVIR example lists a vehicle defect and a trailer defect both with id
    /// "18": two defects, and a re-import changes nothing.
    func testVehicleAndTrailerDefectWithOneIdAreTwoDefects() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/dvir-same-defect-id.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual([o.loaded, o.updated, o.rejected], [3, 0, 0])
        XCTAssertEqual(try t.rows("SELECT source_key, defect_type, comment FROM dvir_defect ORDER BY source_key").map { "\($0[0] as String)|\($0[1] as String)|\($0[2] as String)" }, [
            "samsara-defect:18|Air Compressor|Slow build-up",
            "samsara-defect:trailer:18|Tires|Trailer 53-11: Right rear outer low",
        ])
        XCTAssertEqual(try t.importFile(fixture("samsara/dvir-same-defect-id.json")).status, .unchanged)
        XCTAssertEqual(try t.count("dvir_defect"), 2)
    }

    /// `/assets/location-and-speed/stream`: a fix per record, GPS speed before ECU speed; a
    /// refused fix leaves no asset for its vehicle.
    func testAssetLocationAndSpeedStreamBecomesPositions() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/asset-location-speed.json"))
        XCTAssertEqual(o.format, "samsara")
        XCTAssertEqual([o.loaded, o.rejected], [2, 1])
        XCTAssertEqual(try rejects(t), ["data[2].location.latitude out_of_range"])
        XCTAssertEqual(try t.rows("SELECT i.id_value, p.at, p.lat, p.lon, p.speed_mps, p.heading_deg FROM position p JOIN asset_identifier i ON i.asset_id = p.asset_id ORDER BY p.at")
                        .map { $0.databaseValues.map(\.description).joined(separator: "|") }, [
            "\"281474977099020\"|1790838000000|41.8781|-87.6298|12.4|90.0",
            "\"281474977099020\"|1790838030000|41.879|-87.628|11.5|NULL",
        ])
        XCTAssertEqual(try t.count("asset"), 1)
    }

    /// IFTA jurisdiction reports are recognised as Samsara and counted, not stored (no table).
    func testIFTAJurisdictionReportIsRecognisedAndCounted() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("samsara/ifta-jurisdictions.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.format, "samsara")
        XCTAssertEqual([o.loaded, o.rejected], [0, 0])
        XCTAssertTrue(o.notes?.contains("IFTA report rows not stored (jurisdiction distances have no warehouse table): 2") ?? false, "\(o.notes ?? [])")
    }
}
