import XCTest
import Foundation
import FleetTestSupport

/// "SQLite error 4: ROLLBACK TO …" was what a full disk looked like when it struck inside a
/// record's savepoint: SQLite had already rolled the whole transaction back, so the savepoint's
/// rollback failed too and hid the cause. This sweeps `fleetkit import` of every SampleData
/// format (the savepoint-per-record importers included: Samsara, DVIR, Deere-style JSON, ISO
/// XML) over warehouses on tmpfs mounts of several sizes, so the disk fills at many different
/// points: every run either succeeds or exits 2 saying the disk is full, never a raw SQLite
/// error and never a signal.
///
/// Mounts tmpfs, which needs root (or CAP_SYS_ADMIN); elsewhere skipped with the reason, as
/// NightlyDiskFullTests is.
final class ImportDiskFullSweepTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    func testAFullDiskAtAnyPointIsSaidSoNeverError4() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("disk-sweep-\(UUID())")
        let m = root.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: m, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else {
            throw XCTSkip("mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN); the disk-full sweep is not run")
        }
        var full = 0
        for size in [1100, 1500, 2400, 3200] {
            guard try Tool.status("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)k,mode=0700", "tmpfs", m.path]) == 0 else {
                // Root may mount (checked above): a failure here is a broken test machine, not a skip.
                return XCTFail("mounting a \(size)k tmpfs at \(m.path) failed as root; the disk-full sweep did not run")
            }
            defer { _ = try? Tool.status("/bin/umount", [m.path]) }
            let db = m.appendingPathComponent("fleet.sqlite").path
            XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
            for folder in ["master", "dvir", "samsara", "iso15143", "gpx", "obd", "expenses", "fuel-card", "maintenance"] {
                let r = try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent(folder).path])
                XCTAssertTrue([0, 1, 2].contains(r.status), "\(size) KB, \(folder): status \(r.status): \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("SQLite error"), "\(size) KB, \(folder): \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("ROLLBACK"), "\(size) KB, \(folder): \(r.stderr)")
                if r.status == 2 {
                    XCTAssertTrue(r.stderr.contains("the disk is full"), "\(size) KB, \(folder): \(r.stderr)")
                    full += 1
                }
            }
        }
        XCTAssertGreaterThan(full, 10, "the sweep must actually fill the disk")
    }
}
