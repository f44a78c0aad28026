import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// ELM327 traffic inside programs' debug logs, and transcripts with nothing to store. The
/// fixtures' names hold no "elm": detection must work from the content.
final class ELMWrapperTests: XCTestCase {
    /// 7E8 10 14 49 02 01 | 31 47 31 + 21: 4A 43 35 34 34 34 52 + 22: 37 32 35 32 33 36 37 = 1G1JC5444R7252367
    /// (check digit 4 at position 9, verified by hand with the ISO 3779 weights).
    let vin = "1G1JC5444R7252367"

    func testPythonOBDDebugLogDecodesTheMultiFrameVIN() throws {
        let t = try TestWarehouse()
        let url = fixture("obd/obd-python-debug.log")
        XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: url), filename: "debug.log").map { $0.format }, "elm327")
        // No --asset: the VIN from the ISO-TP answer inside `read: b'…'` names the vehicle.
        let o = try t.importFile(url)
        XCTAssertEqual(o.format, "elm327")
        XCTAssertNotEqual(o.status, .failed, o.error ?? "")
        XCTAssertEqual(try t.rows("SELECT vin FROM asset").map { $0[0] as String }, [vin])
        // python-OBD's default format writes no time, but its one mode 01 answer is the 0100
        // support bitmap, which holds no value to place: nothing rejected, no "consecutive
        // frame" rejects, exit 0.
        XCTAssertEqual(try OBDRows.rejects(t), [])
        XCTAssertEqual(o.status, .imported)
        XCTAssertTrue((o.notes ?? []).contains("6 lines of the logging program's own messages (not adapter traffic) were skipped"), "\(o.notes ?? [])")
    }

    func testPythonOBDDebugLogWithTimesStoresTheAnswers() throws {
        let t = try TestWarehouse()
        let url = fixture("obd/obd-python-debug-times.log")
        XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: url), filename: "run.log").map { $0.format }, "elm327")
        let o = try t.importFile(url, options: ImportOptions(asset: "T-12"))
        let rejects = try OBDRows.rejects(t)
        XCTAssertEqual(o.rejected, 0, "\(rejects)")
        // 0x1AF8 / 4 = 1726 rpm at 08:00:02.200 UTC; 0x32 = 50 km/h at 08:00:03.200.
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841602200|0C|1726.000000", "T-12|1790841603200|0D|50.000000"])
    }

    func testDebugReceivedWrapperDecodesTheMultiFrameVIN() throws {
        let t = try TestWarehouse()
        let url = fixture("obd/obd-debug-received.txt")
        XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: url), filename: "capture.txt").map { $0.format }, "elm327")
        let o = try t.importFile(url)
        XCTAssertNotEqual(o.status, .failed, o.error ?? "")
        XCTAssertEqual(try t.rows("SELECT vin FROM asset").map { $0[0] as String }, [vin])
        let rejects = try OBDRows.rejects(t)
        XCTAssertFalse(rejects.contains { $0.contains("incomplete_message") }, "\(rejects)")
    }

    /// Only AT commands, the banner, SEARCHING…, UNABLE TO CONNECT and a request met by silence:
    /// an ELM327 transcript with nothing to store. Imported (nothing lost: there is nothing), with
    /// a note, even without --asset; never "format not recognised".
    func testATOnlyTranscriptIsANoteNotAFailure() throws {
        let t = try TestWarehouse()
        let url = fixture("obd/obd-at-only.txt")
        XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: url), filename: "capture.txt").map { $0.format }, "elm327")
        let o = try t.importFile(url)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(OBDRows.counts(o), [0, 0, 0, 0])
        // An `ATZ` alone, and requests met by silence, are transcripts too.
        XCTAssertEqual(ImporterRegistry.detect(Data("ATZ\r\n".utf8), filename: "a.txt").map { $0.format }, "elm327")
        XCTAssertEqual(ImporterRegistry.detect(Data(">010C\r\n>010D\r\n>\r\n".utf8), filename: "a.txt").map { $0.format }, "elm327")
        XCTAssertEqual(o.notes, ["an ELM327 transcript with nothing to store: 6 AT commands and requests, and no answer from the vehicle; the adapter said: 1 ELM327, 2 OK, 2 SEARCHING, 2 UNABLE TO CONNECT"])
    }

    /// `[RX] 41 0C 1A F8`: a tag before traffic is a wrapper, not a logger's chatter; the answer
    /// is stored. `[obd.obd] Connected` (a dotted logger name) stays chatter.
    func testATagBeforeTrafficIsReadNotSkipped() throws {
        let t = try TestWarehouse()
        let log = t.directory.appendingPathComponent("tagged.log")
        try Data("2026-10-01T08:00:00Z [TX] ATZ\n2026-10-01T08:00:00Z [RX] ELM327 v1.5\n2026-10-01T08:00:01Z [TX] 010C\n2026-10-01T08:00:01Z [RX] 41 0C 1A F8\n2026-10-01T08:00:02Z [obd.obd] Connected\n2026-10-01T08:00:03Z DEBUG 41 0D 32\n2026-10-01T08:00:04Z obd - INFO - 7E8 03 41 0D 14\n".utf8).write(to: log)
        let o = try t.importFile(log, options: ImportOptions(asset: "T-12"))
        XCTAssertEqual(o.format, "elm327")
        XCTAssertEqual(o.rejected, 0)
        // Traffic after a level word is read too: 0x32 = 50 km/h, 0x14 = 20 km/h.
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841601000|0C|1726.000000", "T-12|1790841603000|0D|50.000000", "T-12|1790841604000|0D|20.000000"])
        XCTAssertTrue((o.notes ?? []).contains("1 lines of the logging program's own messages (not adapter traffic) were skipped"), "\(o.notes ?? [])")
    }

    /// A VIN answer that cannot be read must not be reported as no VIN answer.
    func testAnUnreadableVINAnswerIsNamedInTheAttributionError() throws {
        let t = try TestWarehouse()
        let dir = t.directory.appendingPathComponent("loose")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let log = dir.appendingPathComponent("capture.log")
        // The first frame announces 0x14 bytes, but only one consecutive frame follows.
        try Data("2026-10-01T08:00:00Z >ATH1\n2026-10-01T08:00:00Z OK\n2026-10-01T08:00:01Z >0902\n2026-10-01T08:00:01Z 7E8 10 14 49 02 01 31 47 31\n2026-10-01T08:00:01Z 7E8 21 4A 43 35 34 34 34 52\n2026-10-01T08:00:02Z >010D\n2026-10-01T08:00:02Z 7E8 03 41 0D 32\n".utf8).write(to: log)
        let o = try t.importFile(log)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("its mode 09 VIN answer could not be read, line 4: a multi-frame answer from 7E8 ended after"), o.error!)
        XCTAssertFalse(o.error!.contains("no mode 09 VIN answer"), o.error!)
    }
}
