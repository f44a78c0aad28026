import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetKit
import FleetSample

/// The warehouse is a function of the set of imported files, not of their order
/// (docs/METRICS.md, "Import order"): random seeded permutations of a mixed set — master data,
/// Samsara, GPX, OBD, ISO 15143-3, AEMP 1.2 and Deere files, with overlapping GPX files, an
/// older file after a newer one and trips that touch at file boundaries — and the real public
/// files of ../shared/realdata forwards and reversed give byte-identical canonical dumps of
/// every fact and derived table.
final class ImportOrderPropertyTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sample = repository.appendingPathComponent("SampleData")
    static let realdata = repository.deletingLastPathComponent().appendingPathComponent("shared/realdata")
    let zone = FleetZone(identifier: "America/Chicago")!

    /// One file to import and the asset it belongs to when the file cannot say (GPX, OBD CSV).
    struct Input { var path: String; var asset: String? }

    func files(_ folder: String, _ names: [String]? = nil, asset: String? = nil) throws -> [Input] {
        let dir = Self.sample.appendingPathComponent(folder)
        let all = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return all.filter { names == nil || names!.contains($0) }.map { Input(path: dir.appendingPathComponent($0).path, asset: asset) }
    }

    /// A 90-minute drive of T-04 at 15 m/s with a fix every 5 s, split into three GPX files: the
    /// first two overlap by 20 minutes, the third starts at the second's last fix (a trip
    /// touching the file boundary), and a fourth file the day before.
    func overlappingGPX(in dir: URL) throws -> [Input] {
        let start = Timestamp.parse("2026-10-12T13:00:00Z")!
        func point(_ k: Int) -> String {
            let s = k * 5
            let lat = 41.52 + 15 * Double(min(s, 2400)) / 111_195, lon = -88.08 + (s > 2400 ? 15 * Double(s - 2400) / 83_300 : 0)
            let moving = s < 5200
            return "<trkpt lat=\"\(String(format: "%.6f", moving ? lat : 41.52 + 15 * 2400 / 111_195))\" lon=\"\(String(format: "%.6f", moving ? lon : -88.08 + 15 * 2800 / 83_300))\">"
                + "<time>\(Timestamp.iso(start + Int64(s) * 1000))</time></trkpt>"
        }
        func gpx(_ name: String, _ range: ClosedRange<Int>) throws -> Input {
            let body = range.map(point).joined(separator: "\n")
            let text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>T-04</name><trkseg>\n\(body)\n</trkseg></trk></gpx>\n"
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return Input(path: url.path, asset: "T-04")
        }
        // The day before: the same drive 24 h earlier (an older file, imported after newer ones in
        // some orders).
        let dayBefore = try gpx("t04-day-before.gpx", 0...1200).path
        let text = try String(contentsOfFile: dayBefore, encoding: .utf8)
        try text.replacingOccurrences(of: "2026-10-12T", with: "2026-10-11T").write(toFile: dayBefore, atomically: true, encoding: .utf8)
        return [try gpx("t04-a.gpx", 0...480), try gpx("t04-b.gpx", 240...840), try gpx("t04-c.gpx", 840...1200),
                Input(path: dayBefore, asset: "T-04")]
    }

    func mixedSet(_ dir: URL) throws -> [Input] {
        var out: [Input] = try files("master", ["assets.csv", "drivers.csv", "assignments.csv"])
        out += try files("samsara", ["vehicles.json"])
        out += try files("samsara/stats", ["2026-10-08.json", "2026-10-15.json"])
        // With the unit named (as `--asset`): a GPX file whose folder names a unit not yet in
        // the warehouse is refused by design (names never create an asset), whatever the order.
        out += try files("gpx/T-03", asset: "T-03").prefix(3)
        out += try files("gpx/T-07", asset: "T-07").prefix(2)
        out += try files("obd/T-01", asset: "T-01")
        out += try files("iso15143/jdlink").filter { $0.path.contains("2026-10-1") }.prefix(6)
        out += try files("aemp12/gpsinsight").prefix(3)
        out += try overlappingGPX(in: dir)
        // The rest of master data and every other tabular format, and Deere's saves.
        out += try files("master", ["fx-rates.csv", "service-schedules.csv"])
        out += try files("maintenance") + files("expenses") + files("fuel-card") + files("dvir")
        out += try files("deere", ["equipment.json"]) + files("deere/engine-hours").prefix(2) + files("deere/location-history")
        return out
    }

    func importEach(_ inputs: [Input], into t: TestWarehouse) throws {
        for input in inputs {
            var options = ImportOptions(asset: input.asset, zone: zone)
            options.attributeByFolder = true
            _ = try t.importFiles([input.path], options: options)
        }
    }

    func testRandomPermutationsOfAMixedSetGiveTheSameWarehouse() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try mixedSet(dir)
        XCTAssertGreaterThan(inputs.count, 30)
        let reference = try TestWarehouse()
        _ = try reference.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
        try importEach(inputs, into: reference)
        let expected = try reference.canonicalDump()
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix("trip|") }.count, 10)
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix("asset_day|") }.count, 10)
        for seed in [UInt64(1), 2, 3] {
            var rng = SeededRandom(seed: seed)
            let order = inputs.shuffled(using: &rng)
            let t = try TestWarehouse()
            _ = try t.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
            try importEach(order, into: t)
            assertSame(expected, try t.canonicalDump(), "seed \(seed): " + order.map { URL(fileURLWithPath: $0.path).lastPathComponent }.joined(separator: ", "))
        }
    }

    func testRealDataForwardsAndReversedGiveTheSameWarehouse() throws {
        var inputs: [Input] = []
        for (folder, asset) in [("gpx", "R-GPX"), ("obd", "R-OBD"), ("samsara", nil)] {
            let dir = Self.realdata.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            XCTAssertFalse(names.isEmpty, "\(dir.path) is missing")
            inputs += names.map { Input(path: dir.appendingPathComponent($0).path, asset: asset) }
        }
        var dumps: [[String]] = []
        for order in [inputs, inputs.reversed()] {
            let t = try TestWarehouse()
            // The asset the files name by --asset exists first, as `fleetkit import --asset` expects.
            try t.importFiles([try t.write("unit_number,kind\nR-GPX,vehicle\nR-OBD,vehicle\n", to: "assets.csv").path])
            try importEach(order, into: t)
            dumps.append(try t.canonicalDump())
        }
        XCTAssertGreaterThan(dumps[0].filter { $0.hasPrefix("trip|") }.count, 10)
        // Among them a Samsara defects export before the DVIR export it belongs to: its defect
        // waits in dvir_defect_pending and joins the DVIR (docs/METRICS.md, "Import order").
        XCTAssertTrue(dumps[0].contains { $0.hasPrefix("dvir_defect|") && $0.contains("samsara-defect:trailer:18") })
        XCTAssertFalse(dumps[0].contains { $0.hasPrefix("reject|") && $0.contains("unknown_dvir") })
        assertSame(dumps[0], dumps[1], "forwards against reversed")
    }
}
