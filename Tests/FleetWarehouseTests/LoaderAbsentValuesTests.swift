import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Absent is not null (issue 16): a later row without an optional value keeps the stored one,
/// for every record that declares `keepWhenAbsent`, and the stored rows are the same in either
/// import order.
final class LoaderAbsentValuesTests: XCTestCase {
    private func withFile(_ t: TestWarehouse, _ body: (inout WarehouseSink) throws -> Void) throws {
        try t.warehouse.pool.write { db in
            let file = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            try body(&sink)
        }
    }

    /// Loads `full` and `sparse` (the same key, optional values absent) in the given order,
    /// each from its own file; returns the outcomes and the table's rows without provenance.
    private func load(fullFirst: Bool, table: String, columns: String,
                      _ make: (_ asset: Int64, _ file: Int64, _ full: Bool) -> any LoadableRecord) throws -> ([LoadOutcome], [String]) {
        let t = try TestWarehouse()
        var outcomes: [LoadOutcome] = []
        for full in fullFirst ? [true, false] : [false, true] {
            try withFile(t) { sink in
                let asset = try sink.asset(AssetRef(unitNumber: "T-1"))
                outcomes.append(try Self.load(make(asset, sink.sourceFileID, full), &sink))
            }
        }
        let rows = try t.rows("SELECT \(columns) FROM \(table)").map { $0.databaseValues.map(\.description).joined(separator: "|") }
        return (outcomes, rows)
    }

    private static func load(_ r: any LoadableRecord, _ sink: inout WarehouseSink) throws -> LoadOutcome {
        switch r {
        case let p as Position: return try sink.load(p)
        case let p as Trip: return try sink.load(p)
        case let p as DtcEvent: return try sink.load(p)
        default: fatalError("unexpected record")
        }
    }

    private func assertOrderFree(table: String, columns: String, _ make: (Int64, Int64, Bool) -> any LoadableRecord, expected: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try load(fullFirst: true, table: table, columns: columns, make)
        let b = try load(fullFirst: false, table: table, columns: columns, make)
        XCTAssertEqual(a.0, [.inserted, .unchanged], "full then sparse: nothing to change", file: file, line: line)
        XCTAssertEqual(b.0, [.inserted, .updated], "sparse then full: the values are filled in", file: file, line: line)
        XCTAssertEqual(a.1, [expected], file: file, line: line)
        XCTAssertEqual(b.1, [expected], file: file, line: line)
    }

    func testPositionKeepsElevationSpeedAndHeading() throws {
        try assertOrderFree(table: "position", columns: "at, lat, lon, speed_mps, heading_deg, alt_m", { asset, file, full in
            Position(assetID: asset, at: 1_000, lat: 45.1, lon: 13.7, speedMps: full ? 12.5 : nil, headingDeg: full ? 90 : nil, altM: full ? 112.4 : nil, sourceFileID: file)
        }, expected: "1000|45.1|13.7|12.5|90.0|112.4")
    }

    func testImportedTripKeepsDistanceAndEnds() throws {
        try assertOrderFree(table: "trip", columns: "start_at, end_at, start_lat, end_lat, distance_m, duration_s", { asset, file, full in
            Trip(assetID: asset, startAt: 1_000, endAt: 3_601_000, startLat: full ? 29.44 : nil, endLat: full ? 23.41 : nil,
                 distanceM: full ? 2500 : nil, durationS: full ? 3600 : nil, source: "samsara", sourceFileID: file)
        }, expected: "1000|3601000|29.44|23.41|2500.0|3600.0")
    }

    func testDtcKeepsDescriptionAndMIL() throws {
        try assertOrderFree(table: "dtc_event", columns: "code, spn, fmi, description, mil_on", { asset, file, full in
            DtcEvent(assetID: asset, at: 1_000, code: "524019-31", system: "j1939", spn: full ? 524019 : nil, fmi: full ? 31 : nil,
                     description: full ? "Aftertreatment intake" : nil, milOn: full ? true : nil, sourceFileID: file)
        }, expected: "\"524019-31\"|524019|31|\"Aftertreatment intake\"|1")
    }

    /// A present value still replaces a different stored one: only absence is kept.
    func testPresentValuesStillReplace() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let asset = try sink.asset(AssetRef(unitNumber: "T-1"))
            XCTAssertEqual(try sink.load(Position(assetID: asset, at: 1, lat: 1, lon: 2, altM: 100, sourceFileID: sink.sourceFileID)), .inserted)
            XCTAssertEqual(try sink.load(Position(assetID: asset, at: 1, lat: 1, lon: 2, altM: 101, sourceFileID: sink.sourceFileID)), .updated)
        }
        XCTAssertEqual(try t.rows("SELECT alt_m FROM position").map { $0[0] as Double }, [101])
    }
}
