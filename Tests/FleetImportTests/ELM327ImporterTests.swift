import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Shared queries for the OBD importer tests: values printed with fixed decimals so the
/// expectations are exact text.
enum OBDRows {
    static func samples(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT a.unit_number || '|' || s.at || '|' || printf('%02X', s.pid) || '|' || printf('%.6f', s.value) FROM obd_sample s JOIN asset a ON a.id = s.asset_id ORDER BY s.at, s.pid")
            .map { $0[0] }
    }

    static func codes(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT at || '|' || code || '|' || system || '|' || status FROM dtc_event ORDER BY at, code").map { $0[0] }
    }

    static func events(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT at || '|' || state FROM engine_event ORDER BY at").map { $0[0] }
    }

    static func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location || ' ' || reason FROM reject ORDER BY id").map { $0[0] }
    }

    static func counts(_ o: FileOutcome) -> [Int] { [o.loaded, o.updated, o.unchanged, o.rejected] }
}

final class ELM327ImporterTests: XCTestCase {
    let t12 = ImportOptions(asset: "T-12")
    let vin = "1FTFW1ET5DFC10312"

    func testEchoPromptsSearchingAndNoData() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/elm-echo-prompts.log"), options: t12)
        XCTAssertEqual(o.format, "elm327")
        XCTAssertEqual(OBDRows.counts(o), [9, 0, 0, 0])
        XCTAssertEqual(o.notes, ["requests without a usable answer (the adapter said so): 1 NO DATA"])
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790841603000|0C|1726.000000",
            "T-12|1790841603500|0D|50.000000",
            "T-12|1790841604000|05|83.000000",
            "T-12|1790841605000|2F|50.196078",
            "T-12|1790841606000|A6|12345.600000",
        ])
        // RPM > 0 with no speed yet: on; the log ends, so off 60 s after the last RPM.
        XCTAssertEqual(try OBDRows.events(t), ["1790841603000|on", "1790841663000|off"])
        XCTAssertEqual(try t.rows("SELECT meter || '|' || printf('%.1f', value) || '|' || raw_value || '|' || raw_unit FROM meter_reading ORDER BY at").map { $0[0] as String },
                       ["fuel_level|50.2|50.19607843137255|%", "odometer|12345600.0|12345.6|km"])
    }

    func testNoEchoNoPromptsNoSpacesAndEveryPID() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/elm-no-echo-no-prompt-nospaces.log"), options: t12)), [19, 0, 0, 0])
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1790842201000|0C|1000.000000", "T-12|1790842201000|0D|0.000000",
            "T-12|1790842202250|04|5.098039", "T-12|1790842202250|0B|33.000000",
            "T-12|1790842203000|0F|20.000000", "T-12|1790842203000|10|2.910000",
            "T-12|1790842204000|11|20.000000", "T-12|1790842204000|1F|300.000000",
            "T-12|1790842205000|21|5.000000", "T-12|1790842205000|31|400.000000",
            "T-12|1790842206000|42|12.600000", "T-12|1790842206000|46|25.000000",
            "T-12|1790842207000|5C|90.000000", "T-12|1790842207000|5E|5.000000",
            "T-12|1790842208000|0C|1726.000000", "T-12|1790842208000|0D|50.000000",
        ])
        // Engine on below 1 km/h is idle; moving, on.
        XCTAssertEqual(try OBDRows.events(t), ["1790842201000|idle", "1790842208000|on", "1790842268000|off"])
    }

    func testHeadersOnTwoECUsISOTPVINAndTroubleCodes() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/elm-headers-can.log"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(OBDRows.counts(o), [9, 0, 0, 0])
        XCTAssertEqual(o.notes, ["1 answers from a second ECU to the same request were not stored; the lowest ECU address (the engine ECU) was kept"])
        // The VIN from mode 09 attributes the log: a new asset with that VIN.
        XCTAssertEqual(try t.rows("SELECT vin, auto_created FROM asset").map { "\($0[0] as String)|\($0[1] as Int)" }, ["\(vin)|1"])
        XCTAssertEqual(try t.rows("SELECT printf('%02X', pid) || '|' || value FROM obd_sample ORDER BY at").map { $0[0] as String },
                       ["0D|50.0", "0C|1000.0", "0D|20.0"], "7E8's speed beats 7E9's; a 29-bit header is read too")
        XCTAssertEqual(try OBDRows.codes(t), [
            "1790842803000|P0133|obd2|confirmed", "1790842803000|U0123|obd2|confirmed",
            "1790842804000|C0220|obd2|pending", "1790842804000|P0300|obd2|pending",
        ])
    }

    func testELMMultiFrameFormatAndKWPHeaders() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/elm-multiframe-elm-format.log"))), [7, 0, 0, 0])
        XCTAssertEqual(try OBDRows.codes(t), [
            "1790843401000|B1104|obd2|confirmed", "1790843401000|P0133|obd2|confirmed",
            "1790843401000|P0300|obd2|confirmed", "1790843401000|U0123|obd2|confirmed",
        ])
        XCTAssertEqual(try t.rows("SELECT at || '|' || printf('%02X', pid) || '|' || value FROM obd_sample").map { $0[0] as String }, ["1790843402000|0C|750.0"])
        // KWP/J1850 headers with checksums, and the VIN in five older-protocol messages: the same vehicle.
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/elm-kwp-headers.log"))), [5, 0, 0, 0])
        XCTAssertEqual(try t.count("asset"), 1)
        XCTAssertEqual(try t.rows("SELECT at || '|' || printf('%02X', pid) || '|' || value FROM obd_sample WHERE at >= 1790844600000 ORDER BY at").map { $0[0] as String },
                       ["1790844601000|0D|50.0", "1790844602000|0C|1726.0"])
        XCTAssertEqual(try t.count("dtc_event", where: "at = 1790844604000 AND code = 'P0133'"), 1)
    }

    func testLiteralBackslashRAndDirectionMarkers() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/elm-literal-cr.log"), options: t12)), [4, 0, 0, 0])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790844002200|0D|50.000000", "T-12|1790844003200|0C|1726.000000"])
    }

    func testTimeOfDayPrefixesTakeTheDateOfTheLatestFullTimeAndPassMidnight() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(OBDRows.counts(try t.importFile(fixture("obd/elm-clock-times.log"), options: t12)), [5, 0, 0, 0])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790899199620|0D|50.000000", "T-12|1790899200220|0C|1726.000000", "T-12|1790899201170|05|83.000000"])
    }

    /// Issue 35 item 4 for ELM327: a local stamp in the hour America/Chicago skipped on
    /// 2026-03-08 was placed with the offset from before the change, so 02:00:00.220 became
    /// 08:00:00.220Z, the instant of the real 03:00:00.220 answer. Now every answer whose time
    /// (a full stamp, a time of day alone, or one inherited from either) names no instant is a
    /// `bad_date` reject saying so; the rest load. Expected instants: python3 zoneinfo,
    /// datetime(2026,3,8,1,59,59,620000,tzinfo=ZoneInfo("America/Chicago")).timestamp() =
    /// 1772956799.62, (3,0,0,220000) = 1772956800.22, (3,0,1,170000) = 1772956801.17; a stamp
    /// with its own offset (02:15:00.120-06:00) is 1772957700.12 whatever the zone says.
    func testLocalStampsInTheSpringForwardGapAreRejectedNotFolded() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/elm-spring-forward-gap.log"), options: options)
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(try OBDRows.rejects(t), ["line 6 bad_date", "line 8 bad_date", "line 10 bad_date"])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1772956799620|0D|50.000000", "T-12|1772956800220|0C|1728.000000",
                                                "T-12|1772956801170|05|84.000000", "T-12|1772957700120|0D|52.000000"])
        let messages = try t.rows("SELECT message FROM reject ORDER BY id").map { $0[0] as String }
        guard messages.count == 3 else { return XCTFail("three rejects expected: \(messages)") }
        XCTAssertTrue(messages[0].hasPrefix("the answer's time '2026-03-08 02:00:00.220' (2026-03-08 02:00:00.220) does not exist in America/Chicago: the clocks went forward"), messages[0])
        XCTAssertTrue(messages[1].hasPrefix("the answer's time '2026-03-08 02:00:00.220'"), "inherited from the line before: \(messages[1])")
        XCTAssertTrue(messages[2].hasPrefix("the answer's time '02:30:00.500' (2026-03-08 02:30:00.500) does not exist"), messages[2])
        // The same transcript in UTC has no gap: every answer loads.
        let u = try TestWarehouse()
        XCTAssertEqual(try u.importFile(fixture("obd/elm-spring-forward-gap.log"), options: t12).rejected, 0)
        XCTAssertEqual(try OBDRows.samples(u).count, 7)
    }

    /// The repeated hour of a fall-back night (2026-11-01, America/Chicago): local stamps take
    /// the OBD logs' file-order rule, as Torque's Device Time does. 01:15 after 01:59 is the
    /// second pass (CST), and so is the time of day 01:45 after it; before, both took the first
    /// occurrence and were placed an hour early, among the earlier answers. Expected: python3
    /// zoneinfo, 00:59:00.1 → 1793512740100, 01:30:00.1 fold=0 → 1793514600100, 01:59:00.1
    /// fold=0 → 1793516340100, 01:15:00.1 fold=1 → 1793517300100, 01:45:00.1 fold=1 →
    /// 1793519100100, 02:10:00.1 → 1793520600100.
    func testLocalStampsInTheRepeatedHourFollowFileOrder() throws {
        let t = try TestWarehouse()
        var options = t12
        options.zone = FleetZone(identifier: "America/Chicago")!
        let o = try t.importFile(fixture("obd/elm-fall-back.log"), options: options)
        XCTAssertEqual(o.rejected, 0, o.error ?? "")
        XCTAssertEqual(try OBDRows.samples(t), [
            "T-12|1793512740100|0D|10.000000", "T-12|1793514600100|0D|20.000000", "T-12|1793516340100|0D|30.000000",
            "T-12|1793517300100|0D|40.000000", "T-12|1793519100100|0D|50.000000", "T-12|1793520600100|0D|60.000000",
        ])
    }

    func testErrorsBecomeRejectsOrNotesNeverCrashes() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("obd/elm-errors.log"), options: t12)
        XCTAssertEqual(OBDRows.counts(o), [1, 0, 0, 7])
        XCTAssertEqual(o.notes, ["requests without a usable answer (the adapter said so): 1 ?, 1 STOPPED, 1 UNABLE TO CONNECT"])
        XCTAssertEqual(try OBDRows.rejects(t), [
            "line 4 missing_time", "line 9 unrecognised_line", "line 12 data_error", "line 14 bad_value",
            "line 17 unrecognised_line", "line 19 incomplete_message", "line 24 bad_vin",
        ])
        // A VIN with an O (ISO 3779 excludes it) names no vehicle: rejected, not used.
        XCTAssertEqual(try t.rows("SELECT message FROM reject WHERE reason = 'bad_vin'").map { $0[0] as String },
                       ["'1FTFW1ET5DFC1031O' is not a VIN: a VIN never contains the letter O (ISO 3779 excludes I, O and Q); the log was not attributed by it"])
        XCTAssertEqual(try t.count("asset", where: "vin IS NOT NULL"), 0)
        XCTAssertEqual(try t.rows("SELECT raw FROM reject WHERE reason = 'incomplete_message'").map { $0[0] as String },
                       ["7E8 10 14 49 02 01 31 46 54\n7E8 21 46 57 31 45 54 35 44"])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790845208000|05|50.000000"])
    }

    func testAttributionVINElseAssetElseTheFileFails() throws {
        let t = try TestWarehouse()
        // No VIN, no --asset, no unit folder: the whole file fails and names the rule.
        let o = try t.importFile(fixture("obd/elm-echo-prompts.log"))
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("Use --asset UNIT, or put the file in a folder named after a known unit"), o.error!)
        XCTAssertTrue(o.error!.contains("no mode 09 VIN answer in the transcript), and its folder 'obd' is not a known unit number or VIN"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
        // With a VIN and --asset, the one ref links the two.
        XCTAssertEqual(try t.importFile(fixture("obd/elm-no-times.log"), options: t12).rejected, 1, "the answer without a time")
        XCTAssertEqual(try t.rows("SELECT unit_number || '|' || vin FROM asset").map { $0[0] as String }, ["T-12|\(vin)"])
        // A unit folder of a known unit.
        let copy = try t.write(try Data(contentsOf: fixture("obd/elm-literal-cr.log")), to: "inbox/obd/T-12/elm.log")
        XCTAssertEqual(OBDRows.counts(try t.importFile(copy)), [4, 0, 0, 0])
        XCTAssertEqual(try t.count("asset"), 1)
    }

    func testAVINOfAnotherVehicleInAUnitFolderFailsTheFile() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("assets/good.csv"))
        let copy = try t.write(try Data(contentsOf: fixture("obd/elm-headers-can.log")), to: "inbox/obd/T-01/elm.log")
        let o = try t.importFile(copy)
        XCTAssertEqual(o.status, .failed)
        XCTAssertTrue(o.error!.contains("The vehicle's VIN \(vin) and unit T-01 disagree"), o.error!)
        XCTAssertEqual(try t.count("obd_sample"), 0)
        XCTAssertEqual(try t.count("asset", where: "vin = '\(vin)'"), 0)
    }

    /// SampleData/obd (three vehicles, a transcript and two app logs each, in unit folders) with
    /// the sample fleet's assets: every file attributed, nothing rejected.
    func testSampleFleetOBDLogsImportCleanly() throws {
        let t = try TestWarehouse()
        let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try t.importFile(root.appendingPathComponent("SampleData/master/assets.csv"))
        let summary = try t.importFiles([root.appendingPathComponent("SampleData/obd").path])
        XCTAssertEqual([summary.totals.imported, summary.totals.failed, summary.totals.rejected], [9, 0, 0], "\(summary.files.compactMap(\.error))")
        XCTAssertEqual(Set(summary.files.compactMap(\.format)), ["elm327", "torque", "car-scanner"])
        XCTAssertEqual(try t.rows("SELECT a.unit_number || ' ' || COUNT(*) FROM obd_sample s JOIN asset a ON a.id = s.asset_id GROUP BY a.unit_number ORDER BY 1").map { $0[0] as String },
                       ["T-01 1960", "T-02 1960", "T-05 1960"])
        XCTAssertEqual(try t.rows("SELECT a.unit_number || ' ' || d.code FROM dtc_event d JOIN asset a ON a.id = d.asset_id").map { $0[0] as String }, ["T-01 P0420"])
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 0, "the transcripts' VINs are the master data's")
    }

    func testReimportIsUnchanged() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("obd/elm-headers-can.log"))
        XCTAssertEqual(try t.importFile(fixture("obd/elm-headers-can.log")).status, .unchanged)
    }

    func testSniffing() throws {
        let head = try Data(contentsOf: fixture("obd/elm-echo-prompts.log"))
        XCTAssertEqual(ImporterRegistry.detect(head, filename: "x.log").map { $0.format }, "elm327")
        for name in ["elm-no-echo-no-prompt-nospaces.log", "elm-headers-can.log", "elm-multiframe-elm-format.log", "elm-literal-cr.log",
                     "elm-kwp-headers.log", "elm-errors.log", "elm-no-times.log", "elm-clock-times.log"] {
            XCTAssertEqual(ImporterRegistry.detect(try Data(contentsOf: fixture("obd/\(name)")), filename: name).map { $0.format }, "elm327", name)
        }
        XCTAssertEqual(ELM327Importer.sniff(Data("unit,vin,make\nT-12,1FT,Ford\n".utf8), filename: "assets.csv"), .no)
        XCTAssertEqual(ELM327Importer.sniff(try Data(contentsOf: fixture("obd/torque-basic.csv")), filename: "t.csv"), .no)
    }

    /// A photo's bytes are no transcript (they used to be parsed as 200 lines of one, the
    /// dearest sniff of a receipt folder) and no XML (no longer decoded and searched for a root
    /// tag), while a capture with an adapter's stray NULs at its start still is a transcript.
    func testBinaryFilesAreNeitherATranscriptNorXMLButStrayNULsAreTolerated() throws {
        let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetOCRTests/Fixtures/photos")
        for name in ["lt-fuel-phone-upright.jpg", "us-expense-total-unconfirmed.png"] {
            let head = try Data(contentsOf: photos.appendingPathComponent(name)).prefix(InputFile.headLength)
            XCTAssertTrue(ELM327Importer.looksBinary(head), name)
            XCTAssertEqual(ELM327Importer.sniff(head, filename: "elm-\(name)"), .no, name)
            XCTAssertNil(ISOFeed.rootTag(head), name)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: name).map { $0.format }, "receipt", name)
        }
        let capture = try Data(contentsOf: fixture("obd/elm-echo-prompts.log"))
        let noisy = Data([0, 0, 0, 0xFF, 0]) + capture
        XCTAssertFalse(ELM327Importer.looksBinary(noisy))
        XCTAssertEqual(ImporterRegistry.detect(noisy, filename: "x.log").map { $0.format }, "elm327")
        // XML starts with markup after a byte order mark and white space, nothing else.
        XCTAssertEqual(ISOFeed.rootTag(Data("\u{FEFF} \n<?xml version=\"1.0\"?>\n<Fleet version=\"2\">".utf8))?.name, "Fleet")
        XCTAssertNil(ISOFeed.rootTag(Data("Fleet export\n<Fleet>".utf8)))
    }
}
