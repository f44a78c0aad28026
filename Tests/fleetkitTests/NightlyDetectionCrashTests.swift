import XCTest
import Foundation
import FleetTestSupport

/// The nightly job reads each file's format in its import child (`fleetkit import-one`), not in
/// its own process: the first thing the first child does is answer "which format is this
/// file?". That child is killed here as soon as it exists, as a crash in the reader or the
/// out-of-memory killer would end it: the file being read is quarantined naming the signal and
/// the phase, a new child reads the rest, every other file is imported, and the run exits 1.
final class NightlyDetectionCrashTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }
    static let files = ["master/assets.csv", "master/drivers.csv", "fuel-card/fuel-card-2026-10.csv"]

    func testAChildKilledWhileReadingAFormatCostsOnlyThatFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-detect-crash-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        for f in Self.files {
            let target = root.appendingPathComponent("inbox/" + f)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.sampleData.appendingPathComponent(f), to: target)
        }
        // The kill waits until the import child has this long track open, so it lands while the
        // child reads a file whatever the machine's speed: on a quiet machine the three small
        // files alone were all imported before the test had found the child.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/gpx/T-01"), withIntermediateDirectories: true)
        try Self.longTrack(points: 200_000).write(to: root.appendingPathComponent("inbox/gpx/T-01/long-track.gpx"), atomically: true, encoding: .utf8)
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago")
        let p = Process()
        p.executableURL = Fleetkit.executable
        p.arguments = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02", "--json"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // The child starts (a debug binary takes a good part of a second) before it can answer.
        let child = ChildProcessFinder.child(of: p.processIdentifier, mentioning: "import-one", within: 60)
        XCTAssertNotNil(child, "the nightly job never started an import child")
        if let child {
            XCTAssertTrue(ChildProcessFinder.wait(for: child, toOpen: "long-track.gpx", within: 60), "the import child never opened the long track")
            kill(child, SIGKILL)
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()

        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 1)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: stdout) as? [String: Any], String(decoding: stdout, as: UTF8.self))
        let results = summary["files"] as? [[String: Any]] ?? []
        let quarantined = results.filter { $0["action"] as? String == "quarantined" }
        XCTAssertEqual(quarantined.count, 1, "\(results)")
        XCTAssertEqual((quarantined.first?["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }, "long-track.gpx")
        let reason = quarantined.first?["reason"] as? String ?? ""
        XCTAssertTrue(reason.contains("killed (SIGKILL)"), reason)
        // Which phase the kill lands in depends on how fast the child starts: on a quiet machine
        // it may already be past detection. Either way only that file is lost, which is the point;
        // the phase is named in the reason.
        XCTAssertTrue(reason.contains("reading its first bytes to find its format") || reason.contains("while reading this file"), reason)
        XCTAssertEqual(results.filter { $0["action"] as? String == "archived" }.count, Self.files.count, "\(results)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("reports/summary-2026-10.json").path))
    }

    /// One vehicle's track, a fix every second along a straight road.
    static func longTrack(points: Int) -> String {
        var gpx = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>T-01</name><trkseg>\n"
        gpx.reserveCapacity(points * 90)
        let start = 1_790_000_000.0
        let iso = ISO8601DateFormatter()
        for i in 0..<points {
            let lat = 41.0 + Double(i) * 0.00005
            gpx += "<trkpt lat=\"\(lat)\" lon=\"-88.0\"><time>\(iso.string(from: Date(timeIntervalSince1970: start + Double(i))))</time></trkpt>\n"
        }
        return gpx + "</trkseg></trk></gpx>\n"
    }
}
