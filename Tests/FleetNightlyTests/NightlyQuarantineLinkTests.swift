import XCTest
import FleetKit
@testable import FleetNightly

/// Issue 35 item 5: a symbolic link planted inside the quarantine folder was written through:
/// the quarantined file and its reason file went to the folder it named, outside the job.
final class NightlyQuarantineLinkTests: XCTestCase {
    func testALinkPlantedInTheQuarantineIsNeverFollowed() throws {
        let root = URL(fileURLWithPath: NightlyPaths.canonical(FileManager.default.temporaryDirectory.appendingPathComponent("nightly-qlink-\(UUID())").path))
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("inbox/drop"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("quarantine"), withIntermediateDirectories: true)
        let outside = root.appendingPathComponent("outside")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("quarantine/drop").path, withDestinationPath: outside.path)
        try "this is no format FleetKit knows\n".write(to: root.appendingPathComponent("inbox/drop/notes.txt"), atomically: true, encoding: .utf8)
        let yml = root.appendingPathComponent("fleetkit.yml")
        try "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports\nsettle_seconds: 0\nreports_to_refresh: []\n"
            .write(to: yml, atomically: true, encoding: .utf8)
        var said = ""
        do {
            let summary = try NightlyJob(config: try NightlyConfig.load(yml.path), now: Date(timeIntervalSince1970: 1_793_620_800)).run(command: "test")
            said = summary.files.map { "\($0.action) \($0.reason ?? "")" }.joined(separator: "\n")
            XCTAssertFalse(summary.files.contains { $0.action == "quarantined" }, said)
        } catch { said = "\(error)" }
        XCTAssertTrue(said.contains("symbolic link"), said)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: outside.path), [])
        XCTAssertTrue(fm.fileExists(atPath: root.appendingPathComponent("inbox/drop/notes.txt").path))
    }
}
