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
