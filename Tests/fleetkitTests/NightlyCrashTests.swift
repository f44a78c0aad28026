import XCTest
import Foundation
import FleetTestSupport

/// Kills `fleetkit nightly` at random moments, reruns it, and checks the warehouse ends up with
/// exactly the facts of an uninterrupted run: nothing lost, nothing counted twice.
final class NightlyCrashTests: XCTestCase {
    private func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID())")
        try NightlySetup.addSampleFolders(["master", "maintenance", "expenses", "fuel-card", "dvir"], in: root)
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago", reports: ["cost", "dvir-compliance"])
        return root
    }

    private func nightly(_ root: URL) -> Process { Fleetkit.process(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"]) }

    private func facts(_ root: URL) throws -> [String] {
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        return try t.factDump(tables: ["asset", "driver", "assignment", "maintenance_record", "service_schedule", "expense", "fuel_purchase",
                                       "dvir", "dvir_defect", "fx_rate"])
    }

    private func costTotal(_ root: URL) throws -> Double {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/cost-2026-10.json"))) as! [String: Any]
        return (json["totals"] as! [String: Any])["total"] as! Double
    }

    func testKilledRunsThenARerunEqualACleanRun() throws {
        let clean = try makeRoot()
        let reference = nightly(clean)
        let started = Date()
        try reference.run()
        reference.waitUntilExit()
        // Kill moments are fractions of how long a whole run takes on this machine, so that
        // they land inside a run however fast or loaded the machine is.
        let runSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(reference.terminationStatus, 0)
        let expected = try facts(clean)
        XCTAssertGreaterThan(expected.count, 900)

        let root = try makeRoot()
        var seed: UInt64 = 20261122
        var kills = 0
        for _ in 0..<10 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let delay = runSeconds * (0.05 + Double(seed >> 40) / Double(1 << 24) * 0.9)   // 5–95 % of a run
            let p = nightly(root)
            try p.run()
            Thread.sleep(forTimeInterval: delay)
            if p.isRunning { kill(p.processIdentifier, SIGKILL); kills += 1 }
            p.waitUntilExit()
        }
        let final = nightly(root)
        try final.run()
        final.waitUntilExit()
        XCTAssertEqual(final.terminationStatus, 0)
        XCTAssertGreaterThan(kills, 0, "no run was killed: the delays are too long for this machine")
        XCTAssertEqual(try facts(root), expected)
        XCTAssertEqual(try costTotal(root), try costTotal(clean))
        // Every file left the inbox, and none went to quarantine.
        let left = FileManager.default.enumerator(atPath: root.appendingPathComponent("inbox").path)!.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".csv") }
        XCTAssertEqual(left, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("quarantine/master").path))
    }

    func testASecondConcurrentRunExits2NamingTheHolder() throws {
        let root = try makeRoot()
        let lockPath = root.appendingPathComponent("fleet.sqlite.lock").path
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o600)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        _ = "4242\n".withCString { write(fd, $0, 5) }
        defer { close(fd) }
        let r = try Fleetkit.run(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("another nightly run (pid 4242) holds"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("inbox/master/assets.csv").path))
    }
}
