import XCTest
import GRDB
import FleetCore
import FleetWarehouse
import FleetTestSupport
@testable import FleetImport

/// Issue 18, the file system as an attacker sees it, for `fleetkit import`: FIFOs (item 3),
/// symbolic link loops (item 9), names that are not UTF-8 (item 13) and files that change while
/// they are read (item 8). Each case builds its tiny setup in a fresh folder.
final class FileSystemHostileTests: XCTestCase {
    var dir: URL!
    var fifos: [URL] = []

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("fs-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        fifos.forEach(FIFO.unblock)   // frees a reader stuck on a regression
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    static let assets = "unit_number,vin,make\nT-01,1FTFW1E50PFA00001,Ford\n"

    func testAFIFOAndALinkToOneFailWithoutBlocking() throws {
        let pipe = dir.appendingPathComponent("pipe.csv")
        try FIFO.make(pipe)
        fifos.append(pipe)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link-to-pipe.csv").path, withDestinationPath: "pipe.csv")
        try Self.assets.write(to: dir.appendingPathComponent("assets.csv"), atomically: true, encoding: .utf8)
        let tw = try TestWarehouse()
        let path = dir.path
        let summary = try withDeadline(60, "fleetkit import of a folder with a FIFO") { try tw.importFiles([path]) }
        let failed = summary.files.filter { $0.status == .failed }
        XCTAssertEqual(failed.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted(), ["link-to-pipe.csv", "pipe.csv"])
        for f in failed { XCTAssertTrue(f.error!.contains("a named pipe (FIFO), not a regular file"), f.error!) }
        XCTAssertEqual(summary.totals.imported, 1)
        XCTAssertEqual(try tw.count("asset"), 1)
    }

    /// The check that counts is on the descriptor: `importFile` given a FIFO directly (as if it
    /// replaced a regular file after the walk) refuses it without blocking in `open`.
    func testImportFileChecksTheOpenedDescriptor() throws {
        let pipe = dir.appendingPathComponent("swapped.csv")
        try FIFO.make(pipe)
        fifos.append(pipe)
        let tw = try TestWarehouse()
        let outcome = try withDeadline(30, "importFile on a FIFO") {
            try ImportSession(warehouse: tw.warehouse).importFile(pipe, options: ImportOptions(), runID: nil)
        }
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("named pipe"), outcome.error!)
        XCTAssertThrowsError(try FileWalker.head(of: URL(fileURLWithPath: "/dev/zero"))) { XCTAssertTrue("\($0)".contains("character device"), "\($0)") }
    }

    /// The path swapped for a FIFO after the check (a race an attacker with write access to
    /// the inbox can try): the importer reads the checked descriptor, never the FIFO, and the
    /// import is rolled back because the path now names another file.
    func testAFileSwappedForAFIFOAfterTheCheckIsNeitherOpenedNorImported() throws {
        let url = dir.appendingPathComponent("assets.csv")
        try Self.assets.write(to: url, atomically: true, encoding: .utf8)
        fifos.append(url)
        let tw = try TestWarehouse()
        let moved = dir.appendingPathComponent("moved-away.csv").path
        let outcome = try withDeadline(30, "an import whose file was swapped for a FIFO") {
            try ImportSession(warehouse: tw.warehouse).importFile(url, options: ImportOptions(), runID: nil, expect: { _ in
                rename(url.path, moved)
                mkfifo(url.path, 0o600)
                return nil
            })
        }
        XCTAssertEqual(outcome.changedWhileRead, true)
        XCTAssertTrue(outcome.error!.contains("its path names another file (or none) since it was opened"), outcome.error!)
        XCTAssertEqual(try tw.count("source_file"), 0)
        XCTAssertEqual(try tw.count("asset"), 0)
    }

    func testSymbolicLinkLoopsEndAndEveryFileComesOnce() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Self.assets.write(to: dir.appendingPathComponent("sub/assets.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop-a").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop-b").path, withDestinationPath: dir.path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        let path = dir.path
        let files = try withDeadline(30, "walking a folder with link loops") { FileWalker.files(under: [path]).map { ($0.0.path, $0.1) } }
        XCTAssertEqual(files.filter { $0.1 == nil }.map { URL(fileURLWithPath: $0.0).lastPathComponent }, ["assets.csv"])
        let loops = files.filter { $0.1?.contains("already walked") ?? false }
        XCTAssertEqual(loops.map { URL(fileURLWithPath: $0.0).lastPathComponent }.sorted(), ["loop-a", "loop-b", "up"])
        XCTAssertEqual(files.count, 4)
    }

    func testANameThatIsNotUTF8IsReportedEscaped() throws {
        try createRawNamedFile(named: Array("costs-".utf8) + [0xFF, 0xFE] + Array(".csv".utf8), in: dir, contents: Self.assets)
        let tw = try TestWarehouse()
        let summary = try tw.importFiles([dir.path])
        XCTAssertEqual(summary.files.count, 1)
        let f = summary.files[0]
        XCTAssertEqual(f.status, .failed)
        XCTAssertTrue(f.path.hasSuffix("/costs-\\xFF\\xFE.csv"), f.path)
        XCTAssertTrue(f.error!.contains("not valid UTF-8"), f.error!)
        XCTAssertEqual(summary.exitCode, 1)
        XCTAssertEqual(DirectoryListing.escaped([0x61, 0x0A, 0xC3, 0xA9, 0xC3]), "a\\x0Aé\\xC3")
    }

    /// A file that grows while it is read (an upload resuming) is rolled back, not imported in part.
    func testAFileThatChangesWhileReadIsRolledBack() throws {
        let url = dir.appendingPathComponent("assets.csv")
        try Self.assets.write(to: url, atomically: true, encoding: .utf8)
        let tw = try TestWarehouse()
        let outcome = try ImportSession(warehouse: tw.warehouse).importFile(url, options: ImportOptions(), runID: nil, expect: { _ in
            let h = FileHandle(forWritingAtPath: url.path)!
            h.seekToEndOfFile()
            h.write(Data("T-02,1FTFW1E50PFA00002,Ford\n".utf8))
            try? h.close()
            return nil
        })
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(outcome.changedWhileRead, true)
        XCTAssertTrue(outcome.error!.contains("size went from 49 to 77 bytes while it was read"), outcome.error!)
        XCTAssertEqual(try tw.count("asset"), 0)
        XCTAssertEqual(try tw.count("source_file"), 0)
        // Complete now: the next try imports both rows.
        XCTAssertEqual(try tw.importFile(url).loaded, 2)
    }

    /// What a listing saw is compared with the descriptor before anything is read.
    func testAFileChangedSinceTheListingIsNotRead() throws {
        let url = dir.appendingPathComponent("assets.csv")
        try Self.assets.write(to: url, atomically: true, encoding: .utf8)
        var before = stat()
        XCTAssertEqual(stat(url.path, &before), 0)
        let h = FileHandle(forWritingAtPath: url.path)!
        h.seekToEndOfFile()
        h.write(Data("T-02,1FTFW1E50PFA00002,Ford\n".utf8))
        try h.close()
        let look = before
        let tw = try TestWarehouse()
        let outcome = try ImportSession(warehouse: tw.warehouse).importFile(url, options: ImportOptions(), runID: nil, expect: {
            $0.differs(size: Int64(look.st_size), mtimeNanoseconds: Int64(look.st_mtim.tv_sec) * 1_000_000_000 + Int64(look.st_mtim.tv_nsec),
                       device: UInt64(look.st_dev), inode: UInt64(look.st_ino))
        })
        XCTAssertEqual(outcome.changedWhileRead, true)
        XCTAssertTrue(outcome.error!.contains("its size went from 49 to 77 bytes since the inbox was listed"), outcome.error!)
        XCTAssertEqual(try tw.count("source_file"), 0)
    }
}
