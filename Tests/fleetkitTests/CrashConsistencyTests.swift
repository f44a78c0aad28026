import XCTest
import Foundation
import FleetTestSupport

/// Kills `fleetkit import` with SIGKILL at random moments, again and again, then reruns it, and
/// checks that the warehouse holds exactly what one uninterrupted import gives: the same facts,
/// the same derived rows (daily rollups, trips) and the same report totals. One transaction per
/// file (and the derive step inside it) is what makes this hold; this test is what proves it.
///
/// `make test` lands `FLEETKIT_KILL_ITERATIONS` kills (default 20); set it higher for a long run.
/// Kills are grouped in chains on one warehouse: each run of a chain picks up what the killed
/// one left, and a chain ends with a clean rerun and the comparison.
final class CrashConsistencyTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    static var kills: Int { ProcessInfo.processInfo.environment["FLEETKIT_KILL_ITERATIONS"].flatMap(Int.init) ?? 20 }

    /// Master data, every cost and DVIR file, and a slice of the telematics feeds (meters that
    /// feed the daily rollup): small enough for many runs, large enough that kills land inside.
    private func makeInput() throws -> URL {
        let fm = FileManager.default
        let input = fm.temporaryDirectory.appendingPathComponent("kill-input-\(UUID())")
        for folder in ["master", "maintenance", "expenses", "fuel-card", "dvir"] {
            try fm.createDirectory(at: input, withIntermediateDirectories: true)
            try fm.copyItem(at: Self.sampleData.appendingPathComponent(folder), to: input.appendingPathComponent(folder))
        }
        let pick: [(String, Int)] = [("samsara/stats", 1), ("iso15143/jdlink", 2), ("iso15143/komtrax", 2)]
        for (folder, count) in pick {
            let from = Self.sampleData.appendingPathComponent(folder)
            let to = input.appendingPathComponent(folder)
            try fm.createDirectory(at: to, withIntermediateDirectories: true)
            for name in try fm.contentsOfDirectory(atPath: from.path).sorted().prefix(count) {
                try fm.copyItem(at: from.appendingPathComponent(name), to: to.appendingPathComponent(name))
            }
        }
        try fm.copyItem(at: Self.sampleData.appendingPathComponent("samsara/vehicles.json"), to: input.appendingPathComponent("samsara/vehicles.json"))
        return input
    }

    private func newWarehouse() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let r = try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return db
    }

    private func importProcess(_ db: String, _ input: URL) -> Process { Fleetkit.process(["import", "--db", db, input.path]) }

    /// Facts and derived rows, ids replaced by natural keys (TestWarehouse.factDump).
    private func dump(_ db: String) throws -> [String] {
        try TestWarehouse(existing: db).factDump(tables: [
            "asset", "asset_identifier", "driver", "assignment", "maintenance_record", "service_schedule", "expense", "fuel_purchase",
            "dvir", "dvir_defect", "fx_rate", "meter_reading", "position", "engine_event", "dtc_event", "asset_day", "trip",
        ])
    }

    /// The `totals` of the cost and utilization reports for October, as JSON text.
    private func reportTotals(_ db: String) throws -> [String] {
        let out = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("reports")
        var totals: [String] = []
        for name in ["cost", "utilization"] {
            let r = try Fleetkit.run(["report", name, "--db", db, "--month", "2026-10", "--allow-partial", "--format", "json", "--out", out.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("\(name)-2026-10.json"))) as! [String: Any]
            let data = try JSONSerialization.data(withJSONObject: json["totals"] as Any, options: [.sortedKeys])
            totals.append(name + " " + String(decoding: data, as: UTF8.self))
        }
        return totals
    }

    func testKilledImportsThenARerunEqualACleanRun() throws {
        let input = try makeInput()
        let clean = try newWarehouse()
        let started = Date()
        let reference = importProcess(clean, input)
        try reference.run()
        reference.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(reference.terminationStatus, 0)
        let expected = try dump(clean)
        let expectedTotals = try reportTotals(clean)
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix("meter_reading: ") }.count, 300)
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix("asset_day: ") }.count, 20)
        XCTAssertGreaterThan(expected.filter { $0.hasPrefix("fuel_purchase: ") }.count, 100)

        var seed: UInt64 = 0x5EED_2026_1122
        var kills = 0, chains = 0, runs = 0
        while kills < Self.kills {
            let db = try newWarehouse()
            chains += 1
            // A chain: runs killed after a random delay within 60% of the clean run's duration
            // (each run redoes what the killed one did not commit), until one finishes on its own
            // or eight kills landed; then the rerun and the comparison.
            for _ in 0..<8 where kills < Self.kills {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let delay = 0.02 + Double(seed >> 40) / Double(1 << 24) * duration * 0.6
                let p = importProcess(db, input)
                try p.run()
                runs += 1
                Thread.sleep(forTimeInterval: delay)
                let killed = p.isRunning && kill(p.processIdentifier, SIGKILL) == 0
                p.waitUntilExit()
                if killed, p.terminationReason == .uncaughtSignal { kills += 1 } else { break }
            }
            let rerun = importProcess(db, input)
            try rerun.run()
            rerun.waitUntilExit()
            XCTAssertEqual(rerun.terminationStatus, 0, "chain \(chains)")
            let got = try dump(db)
            if got != expected {
                let missing = Set(expected).subtracting(got).sorted().prefix(5), extra = Set(got).subtracting(expected).sorted().prefix(5)
                XCTFail("chain \(chains) after \(kills) kills: \(got.count) rows vs \(expected.count); missing \(Array(missing)); extra \(Array(extra))")
                return
            }
            XCTAssertEqual(try reportTotals(db), expectedTotals, "chain \(chains)")
            let t = try TestWarehouse(existing: db)
            XCTAssertEqual(try t.count("source_file"), try TestWarehouse(existing: clean).count("source_file"))
            XCTAssertEqual(try t.rows("PRAGMA integrity_check").map { $0[0] as String }, ["ok"])
        }
        XCTAssertGreaterThanOrEqual(kills, Self.kills)
        print("CrashConsistencyTests: \(kills) SIGKILLs in \(runs) runs over \(chains) chains survived; clean import \(String(format: "%.1f", duration)) s, \(expected.count) fact rows")
    }

    // MARK: Nightly

    private func nightlyRoot(_ input: URL) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kill-nightly-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: input, to: root.appendingPathComponent("inbox"))
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago", reports: ["cost", "utilization"])
        return root
    }

    private func nightlyProcess(_ root: URL) -> Process { Fleetkit.process(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"]) }

    private func nightlyTotals(_ root: URL) throws -> [String] {
        try ["cost", "utilization"].map { name in
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/\(name)-2026-10.json"))) as! [String: Any]
            return name + " " + String(decoding: try JSONSerialization.data(withJSONObject: json["totals"] as Any, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    /// The nightly job with telematics (so the derive step and the report refresh are inside
    /// the window a kill can hit), killed `FLEETKIT_KILL_ITERATIONS` / 3 times (at least 4).
    /// NightlyCrashTests kills it 10 more times on master and cost data.
    func testKilledNightlyRunsThenARerunEqualACleanRun() throws {
        let input = try makeInput()
        let clean = try nightlyRoot(input)
        let started = Date()
        let reference = nightlyProcess(clean)
        try reference.run()
        reference.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(reference.terminationStatus, 0)
        let expected = try dump(clean.appendingPathComponent("fleet.sqlite").path)
        let expectedTotals = try nightlyTotals(clean)

        let target = max(4, Self.kills / 3)
        var seed: UInt64 = 0x0B5E_55ED_2026
        var kills = 0, runs = 0, chains = 0
        while kills < target {
            let root = try nightlyRoot(input)
            chains += 1
            for _ in 0..<8 where kills < target {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let delay = 0.02 + Double(seed >> 40) / Double(1 << 24) * duration * 0.6
                let p = nightlyProcess(root)
                try p.run()
                runs += 1
                Thread.sleep(forTimeInterval: delay)
                let killed = p.isRunning && kill(p.processIdentifier, SIGKILL) == 0
                p.waitUntilExit()
                if killed, p.terminationReason == .uncaughtSignal { kills += 1 } else { break }
            }
            let rerun = nightlyProcess(root)
            try rerun.run()
            rerun.waitUntilExit()
            XCTAssertEqual(rerun.terminationStatus, 0, "chain \(chains)")
            let got = try dump(root.appendingPathComponent("fleet.sqlite").path)
            if got != expected {
                let missing = Set(expected).subtracting(got).sorted().prefix(5), extra = Set(got).subtracting(expected).sorted().prefix(5)
                XCTFail("nightly chain \(chains) after \(kills) kills: missing \(Array(missing)); extra \(Array(extra))")
                return
            }
            XCTAssertEqual(try nightlyTotals(root), expectedTotals, "chain \(chains)")
            let left = FileManager.default.enumerator(atPath: root.appendingPathComponent("inbox").path)!.allObjects.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".json") || $0.hasSuffix(".xml") }
            XCTAssertEqual(left, [], "chain \(chains): files left in the inbox")
            let quarantined = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("quarantine").path)) ?? []
            XCTAssertEqual(quarantined, [], "chain \(chains): quarantined files")
        }
        print("CrashConsistencyTests: \(kills) nightly SIGKILLs in \(runs) runs over \(chains) chains survived; clean nightly \(String(format: "%.1f", duration)) s")
    }
}
