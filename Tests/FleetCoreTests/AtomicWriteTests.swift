import XCTest
import Foundation
@testable import FleetCore

/// The one atomic writer: the destination is the old file or the whole new one, with the mode
/// asked for whatever the umask; a planted link is never written through; a failed write leaves
/// no temporary file behind.
final class AtomicWriteTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
    }

    func testItReplacesTheFileWholeWithTheModeAskedWhateverTheUmask() throws {
        let url = dir.appendingPathComponent("run.json")
        try Data("old".utf8).write(to: url)
        let saved = umask(0)
        defer { umask(saved) }
        try AtomicWrite.write(Data("new".utf8), to: url)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "new")
        XCTAssertEqual(try mode(url), 0o600)
        try AtomicWrite.write(Data("shared".utf8), to: url, mode: 0o640, temporary: .unique, durable: false)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "shared")
        XCTAssertEqual(try mode(url), 0o640)
        XCTAssertEqual(try leftovers(), [])
    }

    func testAPlantedLinkAtTheTemporaryNameIsNotWrittenThrough() throws {
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("keep".utf8).write(to: victim)
        let url = dir.appendingPathComponent("out.txt")
        try FileManager.default.createSymbolicLink(at: AtomicWrite.temporaryURL(for: url, .fixed), withDestinationURL: victim)
        try AtomicWrite.write(Data("report".utf8), to: url)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "report")
        XCTAssertEqual(try leftovers(), [])
    }

    func testAFailedBodyOrRenameLeavesNoTemporaryFileAndNoDestination() throws {
        struct Stop: Error {}
        let url = dir.appendingPathComponent("book.xlsx")
        XCTAssertThrowsError(try AtomicWrite.produce(url) { tmp in
            try Data("half".utf8).write(to: tmp)
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(try leftovers(), [])

        // A folder with something in it where the file should go: rename fails.
        let blocked = dir.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicWrite.write(Data("x".utf8), to: blocked)) { error in
            XCTAssertTrue("\(error)".contains("cannot move"), "\(error)")
            XCTAssertTrue("\(error)".contains(blocked.path), "\(error)")
        }
        XCTAssertEqual(try leftovers(), [])
    }

    /// Issue 35 item 19: a report killed by SIGTERM left `.NAME.<pid>.<random>.tmp` behind. The
    /// signal handler removes every temporary file in flight (`removeTemporaries`), and one left
    /// by a process killed outright (SIGKILL) is swept when a writer next uses the folder.
    func testTemporariesInFlightAreRemovedOnRequestAndAbandonedOnesSwept() throws {
        let target = dir.appendingPathComponent("cost-2026-10.csv")
        var seen: URL?
        try AtomicWrite.produce(target, temporary: .unique) { tmp in
            let fd = try AtomicWrite.create(tmp, for: target)
            close(fd)
            seen = tmp
            XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.path))
            AtomicWrite.removeTemporaries()   // what the SIGTERM handler does before exiting
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.path))
            FileManager.default.createFile(atPath: tmp.path, contents: Data("x".utf8))   // let the rename succeed
        }
        XCTAssertNotNil(seen)
        // A dead writer's file (no pid 99,999,999 runs: pid_max is at most 2^22) goes; a live
        // writer's (this process's parent) and files of other shapes stay.
        let dead = ".cost-2026-10.csv.99999999.0A1B2C3D.tmp", live = ".cost-2026-10.csv.\(getppid()).0A1B2C3D.tmp"
        for name in [dead, live, ".notes.tmp", "cost.99999999.0A1B2C3D.tmp"] {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        XCTAssertEqual(try AtomicWrite.sweepAbandoned(in: dir), 1)
        XCTAssertEqual(try leftovers().sorted(), [live, ".notes.tmp", "cost.99999999.0A1B2C3D.tmp"].sorted())
    }

    /// A folder that cannot be listed is an error that says so and why, never "0 removed" (before,
    /// the sweep returned 0 for it, and abandoned files piled up unseen). A file where the folder
    /// should be and a folder that is gone are the failures a test can make as any user.
    func testAFolderThatCannotBeListedIsAnErrorNotNoneRemoved() throws {
        let file = dir.appendingPathComponent("not-a-folder")
        FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        for (path, says) in [(file, "Not a directory"), (dir.appendingPathComponent("gone"), "No such file or directory")] {
            XCTAssertThrowsError(try AtomicWrite.sweepAbandoned(in: path)) { error in
                guard case let FleetError.io(at, reason) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(at, path.path)
                XCTAssertTrue(reason.contains("cannot list the folder") && reason.contains(says), reason)
            }
        }
    }

}
