import XCTest
import Foundation
import FleetTestSupport
import GRDB

/// The nightly job on a warehouse whose disk fills up: the run stops with exit 2 naming the real
/// cause (not "SQLite error 4: ROLLBACK TO …"), the file being imported stays in the inbox
/// instead of being quarantined as if it were broken, and after space is freed the next run
/// imports everything exactly once.
///
/// Mounts a small tmpfs, which needs root (or CAP_SYS_ADMIN); elsewhere skipped with the reason.
final class NightlyDiskFullTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }
    private var root: URL!
    private var mount: URL?

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-full-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let mount { _ = try? Tool.status("/bin/umount", [mount.path]) }
        try? FileManager.default.removeItem(at: root)
    }

    private func regularFiles(under folder: URL) -> [String] {
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (e?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { String($0.path.dropFirst(folder.path.count + 1)) }.sorted()
    }

    private let tables = ["asset", "driver", "assignment", "maintenance_record", "service_schedule", "expense", "fuel_purchase", "dvir", "dvir_defect", "fx_rate"]

    func testAFullDiskStopsTheNightlyRunWithExit2AndKeepsTheFileInTheInbox() throws {
        let m = root.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: m, withIntermediateDirectories: true)
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount"),
              try Tool.status("/bin/mount", ["-t", "tmpfs", "-o", "size=600k,mode=0700", "tmpfs", m.path]) == 0 else {
            throw XCTSkip("mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN); the nightly disk-full case is not run")
        }
        mount = m
        try NightlySetup.addSampleFolders(["master", "fuel-card", "expenses", "dvir", "maintenance"], in: root)
        let inboxBefore = regularFiles(under: root.appendingPathComponent("inbox"))
        try """
        warehouse: mnt/fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        reports_to_refresh: [cost]
        periods: [previous_month]
        formats: [json]
        """.write(to: root.appendingPathComponent("fleetkit.yml"), atomically: true, encoding: .utf8)
        let args = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"]

        let full = try Fleetkit.run(args)
        XCTAssertEqual(full.status, 2, full.stdout + full.stderr)
        XCTAssertTrue(full.stderr.contains("the disk is full"), full.stderr)
        XCTAssertFalse(full.stderr.contains("ROLLBACK TO"), full.stderr)
        // The disk may fill in an import child (then the message names the file, which stays in
        // the inbox) or in the job's own writes (the run ledger); never is a file quarantined.
        if let r = full.stderr.range(of: "(while importing ") {
            let file = String(full.stderr[r.upperBound...].prefix { $0 != ";" })
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), "\(file) must stay in the inbox")
            XCTAssertTrue(full.stderr.contains("it stays in the inbox and the next run imports it"), full.stderr)
        }
        // Nothing quarantined: the files are fine, the disk is not.
        XCTAssertEqual(regularFiles(under: root.appendingPathComponent("quarantine")), [])
        let left = regularFiles(under: root.appendingPathComponent("inbox"))
        XCTAssertFalse(left.isEmpty, "the disk filled only after every file was imported; make the tmpfs smaller")
        let archived = regularFiles(under: root.appendingPathComponent("archive/2026/11/02"))
        XCTAssertEqual((left + archived).sorted(), inboxBefore, "every file is either still in the inbox or archived")
        // Read-only: opening the warehouse for writing needs a little space, which the full disk has not.
        var readOnly = Configuration()
        readOnly.readonly = true
        XCTAssertEqual(try DatabaseQueue(path: m.appendingPathComponent("fleet.sqlite").path, configuration: readOnly)
                        .read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }, ["ok"])

        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,size=50m", m.path]), 0)
        let rerun = try Fleetkit.run(args)
        XCTAssertEqual(rerun.status, 0, rerun.stdout + rerun.stderr)
        XCTAssertEqual(regularFiles(under: root.appendingPathComponent("inbox")), [])
        XCTAssertEqual(regularFiles(under: root.appendingPathComponent("archive/2026/11/02")), inboxBefore)

        let clean = root.appendingPathComponent("clean.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", clean, "--tz", "America/Chicago"]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", clean] + ["master", "fuel-card", "expenses", "dvir", "maintenance"].map {
            Self.sampleData.appendingPathComponent($0).path }).status, 0)
        XCTAssertEqual(try TestWarehouse(existing: m.appendingPathComponent("fleet.sqlite").path).factDump(tables: tables),
                       try TestWarehouse(existing: clean).factDump(tables: tables))
    }
}
