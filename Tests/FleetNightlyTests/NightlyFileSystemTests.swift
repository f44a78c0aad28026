import XCTest
import GRDB
import FleetKit
import FleetImport
import FleetTestSupport
@testable import FleetNightly

/// Issue 18, the file system as an attacker sees it, for `fleetkit nightly`: overlapping paths
/// (item 2), FIFOs (3), partial uploads (8), names that are not UTF-8 (13), future modification
/// times (14), file modes and temporary files (15), the lock file (16). One named setup each.
final class NightlyFileSystemTests: XCTestCase {
    var root: URL!
    var fifos: [URL] = []

    override func setUpWithError() throws {
        root = URL(fileURLWithPath: NightlyPaths.canonical(FileManager.default.temporaryDirectory.appendingPathComponent("nightly-fs-\(UUID())").path))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        fifos.forEach(FIFO.unblock)
        super.tearDown()
    }

    func config(_ paths: String = "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports", extra: String = "settle_seconds: 0") throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try "\(paths)\ntimezone: UTC\nreports_to_refresh: [summary]\nperiods: [previous_month]\nformats: [json]\n\(extra)\n".write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    static let assets = "unit_number,vin,make\nT-01,1FTFW1E50PFA00001,Ford\n"
    let asOf = Date(timeIntervalSince1970: 1_793_620_800)

    func write(_ text: String, _ relative: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path) }

    func mode(_ relative: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(relative).path)[.posixPermissions] as! NSNumber).intValue
    }

    // MARK: item 2

    func testOverlappingPathsAreRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inbox-link").path, withDestinationPath: "inbox")
        let cases: [(name: String, paths: String, key: String)] = [
            ("reports inside the inbox", "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: inbox/reports", "reports"),
            ("warehouse inside the inbox", "warehouse: inbox/fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports", "warehouse"),
            ("archive equal to the inbox, trailing slash", "warehouse: fleet.sqlite\ninbox: inbox\narchive: inbox/\nquarantine: quarantine\nreports: reports", "archive"),
            ("quarantine = the inbox through a link", "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: inbox-link\nreports: reports", "quarantine"),
            ("inbox inside the archive", "warehouse: fleet.sqlite\ninbox: inbox\narchive: .\nquarantine: quarantine\nreports: reports", "archive"),
            ("absolute path spelt with ./ and //", "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: \(root.path)//inbox/./q\nreports: reports", "quarantine"),
            ("archive equal to quarantine", "warehouse: fleet.sqlite\ninbox: inbox\narchive: out\nquarantine: out/\nreports: reports", "quarantine"),
        ]
        for c in cases {
            XCTAssertThrowsError(try config(c.paths), c.name) { error in
                XCTAssertTrue("\(error)".contains(": \(c.key)"), "\(c.name): \(error)")
            }
        }
        // A sidecar planted as a link into the inbox is an overlap too.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("fleet.sqlite-wal").path, withDestinationPath: "inbox/x-wal")
        XCTAssertThrowsError(try config()) { XCTAssertTrue("\($0)".contains("-wal is inside the inbox folder"), "\($0)") }
        try FileManager.default.removeItem(at: root.appendingPathComponent("fleet.sqlite-wal"))
        let ok = try config("warehouse: fleet.sqlite\ninbox: inbox/\narchive: ./archive\nquarantine: quarantine\nreports: reports//")
        XCTAssertEqual(ok.inbox, root.appendingPathComponent("inbox").path)
        XCTAssertEqual(ok.reports, root.appendingPathComponent("reports").path)
    }

    // MARK: item 3

    func testALinkToAFIFOInTheInboxIsQuarantinedWithoutBlocking() throws {
        let pipe = root.appendingPathComponent("inbox/pipe.csv")
        try FIFO.make(pipe)
        fifos.append(pipe)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inbox/link.csv").path, withDestinationPath: "pipe.csv")
        try write(Self.assets, "inbox/assets.csv")
        let config = try self.config()
        let asOf = self.asOf
        let summary = try withDeadline(60, "the nightly job with a FIFO in the inbox") { try NightlyJob(config: config, now: asOf).run(command: "test") }
        XCTAssertEqual(summary.quarantined, 2)
        XCTAssertEqual(summary.totals.imported, 1)
        for f in summary.files where f.action == "quarantined" { XCTAssertTrue(f.reason!.contains("a named pipe (FIFO), not a regular file"), f.reason!) }
        // The lock was released: a second run takes it.
        XCTAssertNoThrow(try NightlyJob(config: config, now: asOf).run(command: "test"))
    }

    /// A quarantine on another file system: a FIFO must not be copied there (copying reads it,
    /// which blocks like importing it). It is renamed when it can be, else left in the inbox
    /// with the reason; the run ends either way.
    func testAFIFOIsNeverCopiedToAQuarantineOnAnotherFileSystem() throws {
        let other = URL(fileURLWithPath: "/dev/shm/nightly-fs-q-\(UUID())")
        var a = stat(), b = stat()
        guard stat("/dev/shm", &a) == 0, stat(root.path, &b) == 0, a.st_dev != b.st_dev else {
            throw XCTSkip("needs /dev/shm on another file system than \(root.path)")
        }
        defer { try? FileManager.default.removeItem(at: other) }
        let pipe = root.appendingPathComponent("inbox/pipe.csv")
        try FIFO.make(pipe)
        fifos.append(pipe)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inbox/link.csv").path, withDestinationPath: "pipe.csv")
        try write("not,a,known\nformat,at,all\n", "inbox/odd.csv")
        let config = try self.config("warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: \(other.path)\nreports: reports")
        let asOf = self.asOf
        let summary = try withDeadline(60, "the nightly job quarantining a FIFO across file systems") { try NightlyJob(config: config, now: asOf).run(command: "test") }
        let fifo = summary.files.first { $0.path.hasSuffix("pipe.csv") }
        XCTAssertEqual(fifo?.action, "skipped")
        XCTAssertTrue(fifo?.reason?.contains("cannot be moved to the quarantine") ?? false, "\(String(describing: fifo))")
        XCTAssertTrue(exists("inbox/pipe.csv"))
        XCTAssertEqual(summary.exit_code, 1, "a file refused and left behind needs a look, like one quarantined")
        // The link to it crosses as a link (never opened), a regular file as a copy.
        XCTAssertEqual(summary.files.first { $0.path.hasSuffix("link.csv") }?.action, "quarantined")
        XCTAssertEqual(try? FileManager.default.destinationOfSymbolicLink(atPath: other.appendingPathComponent("link.csv").path), "pipe.csv")
        XCTAssertEqual(summary.files.first { $0.path.hasSuffix("odd.csv") }?.action, "quarantined")
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.appendingPathComponent("odd.csv").path))
    }

    // MARK: item 8

    func testWithRequiredDoneMarkersOnlyMarkedFilesImport() throws {
        try write("date,unit_number,category,amount,currency\n2026-10-01,T-01,tolls,12.00", "inbox/expenses/partial.csv")
        try write(Self.assets, "inbox/assets.csv")
        try write("", "inbox/assets.csv.done")
        let summary = try NightlyJob(config: try config(extra: "settle_seconds: 0\nrequire_done_marker: true"), now: asOf).run(command: "test")
        XCTAssertEqual(summary.totals.imported, 1)
        XCTAssertEqual(summary.files.first { $0.action == "skipped" }?.reason, "no partial.csv.done or .ok beside it yet (require_done_marker is on)")
        XCTAssertTrue(exists("inbox/expenses/partial.csv"))
        XCTAssertTrue(exists("archive/2026/11/02/assets.csv"))
        XCTAssertTrue(exists("archive/2026/11/02/assets.csv.done"), "the marker travels with its file")
        XCTAssertFalse(exists("inbox/assets.csv.done"))
        // A marker that arrives after its file was imported is not data: it waits, named.
        try write("", "inbox/late.csv.ok")
        let next = try NightlyJob(config: try config(extra: "settle_seconds: 0"), now: asOf).run(command: "test")
        let late = next.files.first { $0.path.hasSuffix("late.csv.ok") }
        XCTAssertEqual(late?.action, "skipped")
        XCTAssertTrue(late?.reason?.contains("a done-marker without its file late.csv") ?? false, "\(String(describing: late))")
        XCTAssertEqual(next.quarantined, 0)
    }

    func testSettleRuleJudgesOnChangeAcrossRuns() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        var st = stat()
        st.st_size = 100
        st.st_mtim.tv_sec = Int(now.timeIntervalSince1970) - 30
        var entry = InboxWalker.Entry(url: URL(fileURLWithPath: "/i/a.csv"), relative: "a.csv", problem: nil, look: InboxWalker.Look(st))
        var rule = SettleRule(settleSeconds: 60, requireMarker: false, previous: [:])
        XCTAssertEqual(rule.judge(entry, now: now), .waiting(reason: "modified less than 60 s ago; still being written?"))
        // Seen unchanged by a run 90 s ago: settled, whatever its clock says.
        rule.previous["a.csv"] = .init(look: entry.look!, seen: now.timeIntervalSince1970 - 90)
        XCTAssertEqual(rule.judge(entry, now: now), .ready(warning: nil))
        // Seen only 10 s ago: not yet.
        rule.previous["a.csv"]!.seen = now.timeIntervalSince1970 - 10
        XCTAssertEqual(rule.judge(entry, now: now), .waiting(reason: "modified less than 60 s ago; still being written?"))
        // Grown since the previous look: waits again.
        rule.previous["a.csv"] = .init(look: entry.look!, seen: now.timeIntervalSince1970 - 90)
        entry.look!.size = 200
        XCTAssertEqual(rule.judge(entry, now: now), .waiting(reason: "modified less than 60 s ago; still being written?"))
        // A marker beside it: complete now.
        entry.marker = URL(fileURLWithPath: "/i/a.csv.ok")
        XCTAssertEqual(rule.judge(entry, now: now), .ready(warning: nil))
    }

    // MARK: item 13

    func testANameThatIsNotUTF8IsQuarantinedEscaped() throws {
        let folder = root.appendingPathComponent("inbox/expenses")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try createRawNamedFile(named: Array("fuel-".utf8) + [0xE9] + Array(".csv".utf8), in: folder, contents: Self.assets)
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.quarantined, 1)
        XCTAssertEqual(summary.exit_code, 1)
        XCTAssertTrue(summary.files[0].reason!.contains("not valid UTF-8"), summary.files[0].reason!)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        let moved = "quarantine/expenses/fuel-\\xE9.csv"
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent(moved), encoding: .utf8), Self.assets)
        let reason = try String(contentsOf: root.appendingPathComponent(moved + ".reason.txt"), encoding: .utf8)
        XCTAssertTrue(reason.contains("file: \(root.path)/inbox/expenses/fuel-\\xE9.csv"), reason)
    }

    // MARK: item 14

    func testAFutureModificationTimeIsWarnedAboutAndImportedOnceUnchanged() throws {
        try write(Self.assets, "inbox/assets.csv")
        let future = Date().addingTimeInterval(86_400 * 365)
        try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: root.appendingPathComponent("inbox/assets.csv").path)
        let config = try self.config()
        let first = try NightlyJob(config: config, now: asOf).run(command: "test")
        XCTAssertEqual(first.skipped, 1)
        XCTAssertTrue(first.files[0].reason!.contains("is in the future"), first.files[0].reason!)
        XCTAssertTrue(first.files[0].reason!.contains("imported when the next run finds it unchanged"), first.files[0].reason!)
        let second = try NightlyJob(config: config, now: asOf).run(command: "test")
        XCTAssertEqual(second.totals.imported, 1)
        XCTAssertEqual(second.files[0].action, "archived")
        XCTAssertTrue(second.files[0].warning?.contains("is in the future") ?? false, "\(second.files[0])")
    }

    // MARK: item 15

    func testEverythingTheJobWritesIsOwnerOnlyWhateverTheUmask() throws {
        try write(Self.assets, "inbox/master/assets.csv")
        try write("not,a,known\nformat,at,all\n", "inbox/odd/mystery.csv")
        try write("stale", "reports/.nightly-last-run.json.tmp")   // left by a killed run
        let old = umask(0)
        defer { umask(old) }
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.quarantined, 1)
        XCTAssertEqual(try mode("reports/nightly-last-run.json"), 0o600)
        XCTAssertEqual(try mode("quarantine/odd/mystery.csv.reason.txt"), 0o600)
        for folder in ["archive/2026", "archive/2026/11", "archive/2026/11/02", "archive/2026/11/02/master", "quarantine/odd"] {
            XCTAssertEqual(try mode(folder), 0o700, folder)
        }
        XCTAssertFalse(exists("reports/.nightly-last-run.json.tmp"), "the temporary file of a killed run is reused and renamed away")
    }

    // MARK: item 16

    func testALockFilePlantedAsALinkIsNeitherFollowedNorTruncated() throws {
        let victim = root.appendingPathComponent("precious.txt")
        try "do not truncate me\n".write(to: victim, atomically: true, encoding: .utf8)
        let config = try self.config()
        try FileManager.default.createSymbolicLink(atPath: config.warehouse + ".lock", withDestinationPath: victim.path)
        XCTAssertThrowsError(try NightlyJob(config: config, now: asOf).run(command: "test")) { error in
            XCTAssertTrue("\(error)".contains("it is a symbolic link"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "do not truncate me\n")
        // A hard link to another file is refused the same way.
        try FileManager.default.removeItem(atPath: config.warehouse + ".lock")
        XCTAssertEqual(link(victim.path, config.warehouse + ".lock"), 0)
        XCTAssertThrowsError(try NightlyLock(path: config.warehouse + ".lock")) { XCTAssertTrue("\($0)".contains("not a regular file of its own"), "\($0)") }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "do not truncate me\n")
        // A real lock file with a longer old pid: overwritten in place, read back as the new pid.
        try FileManager.default.removeItem(atPath: config.warehouse + ".lock")
        try "123456789012345678901234567890\n".write(toFile: config.warehouse + ".lock", atomically: false, encoding: .utf8)
        let held = try NightlyLock(path: config.warehouse + ".lock")
        XCTAssertThrowsError(try NightlyLock(path: config.warehouse + ".lock")) { XCTAssertEqual($0 as? NightlyError, .locked(path: config.warehouse + ".lock", pid: String(getpid()))) }
        withExtendedLifetime(held) {}
    }
}
