import XCTest
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The per-file key ledger moves to a temporary SQLite file past its memory limit; what the
/// importers see must not change when it does.
final class KeyLedgerTests: XCTestCase {
    override func tearDown() {
        KeyLedger.defaultMemoryLimit = 50_000
        super.tearDown()
    }

    func testEntriesSurviveTheMoveToDisk() throws {
        let ledger = KeyLedger(memoryLimit: 3)
        for i in 1...10 { try ledger.set("k\(i)", KeyLedger.Entry(line: i + 1, payload: "p\(i)")) }
        XCTAssertTrue(ledger.spilled)
        for i in 1...10 { XCTAssertEqual(try ledger.entry("k\(i)"), KeyLedger.Entry(line: i + 1, payload: "p\(i)")) }
        XCTAssertNil(try ledger.entry("k11"))
        try ledger.set("k2", KeyLedger.Entry(line: 99, payload: "again"))
        XCTAssertEqual(try ledger.entry("k2")?.line, 99)
        XCTAssertFalse(KeyLedger(memoryLimit: 3).spilled)
    }

    /// Issue 18 item 15: the spilled keys live in a file that is owner-only (0600) and already
    /// unlinked while in use, so neither another user nor a SIGKILL can leave them readable in
    /// TMPDIR. 60,000 keys of 300 bytes (18 MB) overflow SQLite's 8 MB page cache, so the file
    /// really exists.
    func testSpilledKeysLiveInAnUnlinkedOwnerOnlyFile() throws {
        let before = Self.temporaryFilesOpen()
        let ledger = KeyLedger(memoryLimit: 10)
        let payload = String(repeating: "x", count: 300)
        for i in 0..<60_000 { try ledger.set("key-\(i)", KeyLedger.Entry(line: i, payload: payload)) }
        XCTAssertEqual(try ledger.entry("key-59999")?.line, 59_999)
        let opened = Self.temporaryFilesOpen().filter { !before.keys.contains($0.key) }
        XCTAssertFalse(opened.isEmpty, "the ledger should have a temporary file open")
        for (target, mode) in opened {
            XCTAssertTrue(target.hasSuffix(" (deleted)"), "\(target) is still linked in the file system")
            XCTAssertEqual(mode, 0o600, "\(target) has mode \(String(mode, radix: 8))")
        }
    }

    /// SQLite temporary files this process has open: /proc/self/fd link target → permission bits.
    static func temporaryFilesOpen() -> [String: mode_t] {
        var out: [String: mode_t] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                  target.contains("etilqs_") else { continue }
            var st = stat()
            if fstat(fd, &st) == 0 { out[target] = st.st_mode & 0o777 }
        }
        return out
    }

    func testPackedPartsComeBackExactly() {
        let parts = ["", "12:34", "3:abc", "Ünïcødé ✓", "a\u{1F}b", "line\nbreak", "0:", ":"]
        XCTAssertEqual(KeyLedger.unpack(KeyLedger.pack(parts)), parts)
        XCTAssertEqual(KeyLedger.unpack(KeyLedger.pack([])), [])
    }

    /// Every DVIR fixture imports to the same rows and rejects with a ledger of two entries
    /// (on disk from the third key) as with the in-memory one.
    func testDVIRImportIsTheSameWhenTheLedgerIsOnDisk() throws {
        for name in ["good", "inconsistent-rows", "duplicate-defect", "resolved-after", "derived-after"] {
            KeyLedger.defaultMemoryLimit = 50_000
            let memory = try TestWarehouse()
            let a = try memory.importFile(fixture("dvir/\(name).csv"))
            KeyLedger.defaultMemoryLimit = 2
            let disk = try TestWarehouse()
            let b = try disk.importFile(fixture("dvir/\(name).csv"))
            XCTAssertEqual([a.loaded, a.updated, a.unchanged, a.rejected], [b.loaded, b.updated, b.unchanged, b.rejected], name)
            XCTAssertEqual(try memory.factDump(), try disk.factDump(), name)
            let rejects = "SELECT location, reason, message FROM reject ORDER BY id"
            XCTAssertEqual(try memory.rows(rejects).map(\.description), try disk.rows(rejects).map(\.description), name)
        }
        let t = try TestWarehouse()
        _ = try t.importFile(fixture("dvir/inconsistent-rows.csv"))
        XCTAssertEqual(try t.rows("SELECT message FROM reject").first?[0] as String?,
                       "DVIR D-3001 has safety_status 'safe' here but 'unsafe' on line 2; every row of one DVIR must repeat the same DVIR columns — correct the export")
    }
}
