import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Trip detection fed while a file's positions load (TripStream) must give exactly the trips
/// and days that reading the positions back gives, and must step aside whenever it could not.
final class TripStreamTests: XCTestCase {
    let chicago = FleetZone(identifier: "America/Chicago")!
    typealias Fix = (at: Int64, lat: Double, lon: Double)

    /// Loads `piece` as one file in one batch, as an importer does, with trip detection fed
    /// while it loads when `streamed` (WarehouseSink.streamTrips), then the derivation.
    /// Returns whether trip detection could use the stream.
    @discardableResult
    private func load(_ t: TestWarehouse, _ piece: [Fix], streamed: Bool, engineOnAt: Int64? = nil) throws -> Bool {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            let settings = DeriveSettings(zone: chicago)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            sink.derive = settings
            sink.streamTrips = streamed
            let a = try sink.asset(AssetRef(unitNumber: "V-1"))
            if let at = engineOnAt {
                try db.execute(sql: "INSERT INTO engine_event (asset_id, at, state, source_file_id) VALUES (?, ?, 'on', ?)", arguments: [a, at, f.id!])
            }
            let rows = piece.map { Position(assetID: a, at: $0.at, lat: $0.lat, lon: $0.lon, sourceFileID: f.id!) }
            try sink.load(contentsOf: rows)
            let streams = sink.finishTripStreams()
            if !streamed { XCTAssertTrue(streams.isEmpty) }
            var used = false
            if let s = streams[a], let span = sink.touched.ranges[a] {
                var run = TripRun(rules: settings.trips)
                let from = try TripDetection.start(db, asset: a, lower: span.lowerBound, run: &run)
                used = try s.result(db, span: span, from: from, rules: settings.trips, zone: chicago) != nil
            }
            try Derivations.refresh(db, touched: sink.touched, settings: settings, streams: streams)
            return used
        }
    }

    private func derived(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT * FROM trip ORDER BY start_at").map { $0.databaseValues.map(\.description).joined(separator: " ") }
            + t.rows("SELECT * FROM asset_day ORDER BY day").map { $0.databaseValues.map(\.description).joined(separator: " ") }
    }

    private func pieces() -> (all: [Fix], pieces: [[Fix]]) {
        let all = DriveFixtures.sixDays(chicago)
        let cuts = [2, 3, 5].map { (d: Int) -> Int64 in chicago.start(of: CivilDate(year: 2026, month: 10, day: d)!) + 12 * 3_600_000 }
        let bounds = [Int64.min] + cuts + [Int64.max]
        return (all, (0..<4).map { i in all.filter { $0.at >= bounds[i] && $0.at < bounds[i + 1] } })
    }

    /// Whole, in order (each file restarts from the stored trips before it), backwards and
    /// with a middle piece last: after every file the tables are those of the read-back, and
    /// the stream was used exactly when no stored position followed the file's first.
    func testStreamsGiveTheReadBackTablesInEveryLoadOrder() throws {
        let (all, pieces) = pieces()
        for (order, expectUsed) in [([Int](), [true]), ([0, 1, 2, 3], [true, true, true, true]),
                                    ([3, 2, 1, 0], [true, false, false, false]), ([0, 2, 3, 1], [true, true, true, false])] {
            let (plain, streamed) = (try TestWarehouse(), try TestWarehouse())
            var used: [Bool] = []
            for piece in order.isEmpty ? [all] : order.map({ pieces[$0] }) {
                try load(plain, piece, streamed: false)
                used.append(try load(streamed, piece, streamed: true))
                XCTAssertEqual(try derived(streamed), try derived(plain), "order \(order)")
            }
            XCTAssertEqual(used, expectUsed, "order \(order)")
            XCTAssertGreaterThan(try plain.count("trip"), 5)
        }
    }

    /// A file whose points are out of order, or repeat a time, leaves the stream unusable; an
    /// engine event after the starting point keeps it from starting. The tables are still right.
    func testAStreamStepsAsideWhenItCouldDiffer() throws {
        let all = DriveFixtures.sixDays(chicago)
        var swapped = all
        swapped.swapAt(100, 101)
        var repeated = all
        repeated.insert(all[200], at: 201)
        for (name, file, engine) in [("swapped", swapped, nil as Int64?), ("repeated", repeated, nil), ("engine", all, all[50].at)] {
            let (plain, streamed) = (try TestWarehouse(), try TestWarehouse())
            try load(plain, file, streamed: false, engineOnAt: engine)
            XCTAssertFalse(try load(streamed, file, streamed: true, engineOnAt: engine), name)
            XCTAssertEqual(try derived(streamed), try derived(plain), name)
        }
    }

    /// The stream itself: it starts at the first point it was begun for and refuses anything
    /// that is not strictly later.
    func testAStreamTakesOnlyStrictlyIncreasingTimes() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let a = try sink.asset(AssetRef(unitNumber: "V-1"))
            var s = try XCTUnwrap(try TripStream(db, asset: a, firstAt: 1000, settings: DeriveSettings()))
            s.add(Position(assetID: a, at: 1000, lat: 1, lon: 1, sourceFileID: f.id!))
            s.add(Position(assetID: a, at: 2000, lat: 1, lon: 1, sourceFileID: f.id!))
            XCTAssertEqual([s.count, Int(s.lastAt)], [2, 2000])
            XCTAssertTrue(s.usable)
            s.add(Position(assetID: a, at: 2000, lat: 1, lon: 1, sourceFileID: f.id!))
            XCTAssertFalse(s.usable)
            var late = try XCTUnwrap(try TripStream(db, asset: a, firstAt: 1000, settings: DeriveSettings()))
            late.add(Position(assetID: a, at: 1500, lat: 1, lon: 1, sourceFileID: f.id!))
            XCTAssertFalse(late.usable, "the first point must be the one it was begun for")
        }
    }

    /// An engine event loaded with the file (after its positions, as a Samsara page gives
    /// them) stops the asset's stream at once: the derivation would refuse it anyway, and the
    /// trips, now using the engine, are those of the read-back.
    func testASignalLoadedWithTheFileStopsTheStream() throws {
        let all = DriveFixtures.sixDays(chicago)
        var tables: [[String]] = []
        for on in [false, true] {
            let t = try TestWarehouse()
            try t.warehouse.pool.write { db in
                let f = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: f.id!)
                sink.derive = DeriveSettings(zone: chicago)
                sink.streamTrips = on
                let a = try sink.asset(AssetRef(unitNumber: "V-1"))
                try sink.load(contentsOf: all.map { Position(assetID: a, at: $0.at, lat: $0.lat, lon: $0.lon, sourceFileID: f.id!) })
                try sink.load(contentsOf: [EngineEvent(assetID: a, at: all[50].at, state: "on", sourceFileID: f.id!)])
                XCTAssertTrue(sink.finishTripStreams().isEmpty)
                try sink.deriveAfterLoad()
            }
            tables.append(try derived(t))
        }
        XCTAssertEqual(tables[1], tables[0])
        XCTAssertFalse(tables[0].isEmpty)
    }

    /// The sink streams each asset of a batch on its own (files of several vehicles, such as a
    /// Samsara export); a position stored on its own, or a batch overlapping stored positions
    /// (a re-export), stops its asset's stream. The tables are those of the read-back always.
    func testTheSinkStreamsEachAssetAndStepsAsideOnOverlaps() throws {
        let all = DriveFixtures.sixDays(chicago)
        let (plain, streamed) = (try TestWarehouse(), try TestWarehouse())
        var streamsSeen: [[Int64]] = []
        var ids: [Int64] = []
        for (t, on) in [(plain, false), (streamed, true)] {
            try t.warehouse.pool.write { db in
                let f = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: f.id!)
                sink.derive = DeriveSettings(zone: chicago)
                sink.streamTrips = on
                let (a, b, c) = (try sink.asset(AssetRef(unitNumber: "V-1")), try sink.asset(AssetRef(unitNumber: "V-2")), try sink.asset(AssetRef(unitNumber: "V-3")))
                // Two batches (the file's halves), each with V-1's positions, then V-2's, then
                // V-3's; V-3's first position was stored on its own before them.
                try sink.load(Position(assetID: c, at: all[0].at, lat: all[0].lat, lon: all[0].lon, sourceFileID: f.id!))
                let half = all.count / 2
                for range in [0 ..< half, half ..< all.count] {
                    let batch = [a, b, c].flatMap { asset in
                        all[range].filter { asset != c || $0.at > all[0].at }
                            .map { Position(assetID: asset, at: $0.at, lat: $0.lat, lon: $0.lon, sourceFileID: f.id!) }
                    }
                    try sink.load(contentsOf: batch)
                }
                ids = [a, b]
                let streams = sink.finishTripStreams()
                streamsSeen.append(streams.keys.sorted())
                try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: chicago), streams: streams)
            }
            // A re-export overlapping the stored positions: loaded row by row, unchanged; no stream.
            try t.warehouse.pool.write { db in
                let f = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: f.id!)
                sink.derive = DeriveSettings(zone: chicago)
                sink.streamTrips = on
                let a = try sink.asset(AssetRef(unitNumber: "V-1"))
                try sink.load(contentsOf: all.map { Position(assetID: a, at: $0.at, lat: $0.lat, lon: $0.lon, sourceFileID: f.id!) })
                let streams = sink.finishTripStreams()
                XCTAssertTrue(streams.isEmpty, "a stored position was seen again")
                try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: chicago), streams: streams)
            }
        }
        XCTAssertEqual(streamsSeen, [[], ids], "V-1 and V-2 streamed, V-3 (a position on its own) not")
        let tables = { (t: TestWarehouse) in
            try t.rows("SELECT * FROM trip ORDER BY asset_id, start_at").map { $0.databaseValues.map(\.description).joined(separator: " ") }
                + t.rows("SELECT * FROM asset_day ORDER BY asset_id, day").map { $0.databaseValues.map(\.description).joined(separator: " ") }
        }
        XCTAssertEqual(try tables(streamed), try tables(plain))
        XCTAssertGreaterThan(try plain.count("trip"), 15, "trips of three vehicles")
    }
}
