import XCTest
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The byte-level fast paths of the OBD importers must read exactly what the String code they
/// replace in the hot loop reads: every fixture line and a list of quirky lines go through both.
final class OBDBytePathPerfTests: XCTestCase {
    /// Lines that probe each rule of the String parser: separators, markers, headers, odd digit
    /// counts, token parity, times and clocks, non-ASCII text.
    static let quirks: [String] = [
        ">ATZ", "AT SP 0", "at sp 0", "010C", "01 0c", "SEARCHING...", "NO DATA", "?", "STOPPED", "OK", "ok",
        "41 0D 32 <DATA ERROR", "41 0C 1A F8", "410c1af8", "41 0C 1A F", "41 0C1A F8", "41 0C 1AF8 0",
        "7E8 03 41 0D 32", "7e8 03 41 0d 32", "7E803410D32", "7E8 0341 0D32", "7E8 034 10D32", "7E8  03 41  0D 32",
        "7E8 03410D3", "7E8 0", "7E8", "7E", "014", "0 14", "01 4", "1: 46 57 31 45 54 35 44", "A: 00 11",
        "18 DA F1 10 03 41 0D 14", "18DAF11003410D14", "18 DB 33 F1 02 01 0C", "48 6B 10 41 0C 1A F8 22",
        "48 6B 10 41", "86 F1 10 41 0D 32 AA", "0A 01 02 03 04 05 06 07", "0A01020304050607",
        #"010D\r41 0D 32\r\r>"#, #"010D\n41 0D 32\n"#, #"\\r41 0D 32"#, #"41\r0D"#, #"\ r41"#, "41 0D 32\u{0B}41 0C 1A F8\u{0C}OK",
        "Connecting...", "12.6V", "12,6V", "BUS INIT: ...ERROR", "BUS INIT: OK", "ELM327 v2.1", "AUTO, ISO 15765-4 (CAN 11/500)",
        "SEND: 010C", "RECV: 41 0C 1A F8", "TX: 010C", "Rx: 41 0D 32", "tx: 010C", "<< 41 0D 32", "<- 41 0D 32", "-> 010C",
        ">> 010C", "# comment", "// comment", "/ 41", "   ", "\t41 0D 32\t", "41 0D 32 | 41 0C",
        "[2026-10-01 08:00:03.500] 41 0D 32", "2026-10-01T10:00:00+02:00 RX: 41 0D 32", "2026-10-01T08:00:00Z >010C",
        "2026-10-01T08:00:00,25Z - 41 0D 32", "2026-10-01T08:00:00z|41 0D 32", "2026-10-01 08:00:00 41 0D 32",
        "2026-10-01T08:00:00.123456+0530: 41 0D 32", "2026-13-45T08:00:00Z 41 0D 32", "1960-01-01T00:00:00Z 41 0D 32",
        "  [2026-10-01T08:00:00Z]41 0D 32", "2026-10-01T08:00:0041 0D 32", "2026-10-01T08:00:00Z",
        "08:00:01.250 41 0D 32", "[08:00:01] 41 0D 32", "08:00:01>010C", "08:00:01|41 0D 32", "08:00 41 0D 32",
        "25:00:00 41 0D 32", "08:00:01.2x 41", "0: 49 02 01 31 46 54", "12:34", "23:59:59.999 41 0C 1A F8",
        "41 0D 32 °", "Ünknown", "\u{FEFF}2026-10-01T08:00:00Z 41 0D 32", "41 0D 32 \u{00A0}", "41\u{2028}0D",
    ]

    func testBytePiecesEqualStringPiecesOnQuirksAndFixtures() throws {
        var lines = Self.quirks
        let folder = fixture("obd/elm-errors.log").deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
            var reader = try TextLineReader(url: folder.appendingPathComponent(name))
            while let line = try reader.next() { lines.append(line.text) }
        }
        XCTAssertGreaterThan(lines.count, 150)
        for zone in [TimeZone(identifier: "UTC")!, TimeZone(identifier: "America/Chicago")!] {
            assertPathsAgree(lines, zone: zone, from: ELMLineTime(instant: 1_790_841_600_000))
        }
    }

    /// Both parsers through `lines` in file order, the time a line inherits threaded through as in
    /// a file: equal pieces and equal inherited time after every line. Returns the times.
    @discardableResult
    func assertPathsAgree(_ lines: [String], zone: TimeZone, from start: ELMLineTime, file: StaticString = #filePath, line: UInt = #line) -> [Int64?] {
        var slowTime = start
        var fast = ELMByteParser(zone: zone)
        fast.lastTime = slowTime
        var times: [Int64?] = []
        for (n, text) in lines.enumerated() {
            let slow = ELMLineParser.pieces(of: text, line: n + 1, lastTime: &slowTime, zone: zone)
            var got: [ELMPiece] = []
            Array(text.utf8).withUnsafeBufferPointer { fast.pieces($0, line: n + 1, into: &got) }
            XCTAssertEqual(got, slow, "line \(n + 1): \(text.debugDescription)", file: file, line: line)
            XCTAssertEqual(fast.lastTime, slowTime, "time after line \(n + 1): \(text.debugDescription)", file: file, line: line)
            times.append(slowTime.instant)
        }
        return times
    }

    /// Lines glued from transcript fragments by a seeded generator: byte and String parsers agree
    /// on every one, pieces and inherited time alike, also on Berlin's DST nights (02:30 on
    /// 2026-03-29 was skipped, on 2026-10-25 it came twice).
    func testBytePiecesEqualStringPiecesOnGeneratedLines() {
        let fragments = ["41", "0C", "0d", " ", "  ", "7E8", "7e9", "1", "A", "\\r", "\\n", "\\", ">", "SEARCHING...", "NO DATA", "OK",
                         "2026-10-01T08:00:0", "2026-10-01 08:59:5", "2026-03-29 02:30:0", "2026-10-25 02:30:0", "02:59:59", "02:00:0", "1Z", "9z", "9.25Z", "0+02:00", "0-0530", "3", "08:00:01", "23:59:59.9",
                         ":", "49 02", "0:", "1:", "AT", "at", "\t", "<<", "RX:", "Tx:", "SEND:", "°", "18 DA F1 10", "48 6B 10", "014",
                         "BUS INIT", "12.6V", "#", "//", "[", "]", "|", "-", ".", ",", "?", "DATA ERROR", "ELM327 v1.5", "\u{FEFF}"]
        var seed: UInt64 = 0x2545F4914F6CDD1D
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let zone = TimeZone(identifier: "Europe/Berlin")!
        var slowTime = ELMLineTime()
        var fast = ELMByteParser(zone: zone)
        var mismatches = 0
        for n in 0..<6000 {
            let line = (0..<(1 + next(9))).map { _ in fragments[next(fragments.count)] }.joined()
            let slow = ELMLineParser.pieces(of: line, line: n, lastTime: &slowTime, zone: zone)
            var got: [ELMPiece] = []
            Array(line.utf8).withUnsafeBufferPointer { fast.pieces($0, line: n, into: &got) }
            if got != slow || fast.lastTime != slowTime {
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(line.debugDescription): \(got) vs \(slow)") }
                fast.lastTime = slowTime
            }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertNotNil(slowTime.instant, "some generated lines carry a time")
    }

    func testTheVINPassLeavesOutOnlySingleLineAnswersThatAreNoVIN() throws {
        var lines = Self.quirks + ["49 02 01 31 46 54 46 57", "7E8 10 14 49 02 01 31 46 54", "48 6B 10 49 02 01 00 00 00 31 AA",
                                   "48 6B 10 41 0D 32 AA", "86 F1 10 49 02 AA", "4902013146", "18 DA F1 10 10 14 49 02 01 31", "41 0D", "49"]
        let folder = fixture("obd/elm-errors.log").deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
            var reader = try TextLineReader(url: folder.appendingPathComponent(name))
            while let line = try reader.next() { lines.append(line.text) }
        }
        var all = ELMByteParser(zone: TimeZone(identifier: "UTC")!), vin = all
        vin.vinOnly = true
        var left = 0
        for line in lines {
            var full: [ELMPiece] = [], kept: [ELMPiece] = []
            Array(line.utf8).withUnsafeBufferPointer { all.pieces($0, line: 1, into: &full); vin.pieces($0, line: 1, into: &kept) }
            // A line with non-ASCII text takes the String parser, which leaves nothing out.
            let ascii = line.utf8.allSatisfy { $0 < 0x80 }
            let expected = !ascii ? full : full.filter { piece in
                switch piece.kind {
                case let .frame(nil, bytes), let .frame(.kwp?, bytes): return bytes.count >= 3 && bytes[0] == 0x49 && bytes[1] == 0x02
                default: return true
                }
            }
            left += full.count - kept.count
            XCTAssertEqual(kept, expected, line.debugDescription)
        }
        XCTAssertGreaterThan(left, 30, "answers are left out")
    }

    func testSingleSampleIsWhatMode01ReturnsForOnePID() throws {
        for hex in ["0C1AF8", "0D32", "A600012345", "0500", "2FCB", "0C1A", "0C1AF80D32", "00BE3FA813", "6B01", "0D", ""] {
            let data = ELMLineParser.hexBytes(hex).map { $0[...] } ?? []
            let single = OBDDecoder.singleSample(data)
            // No single sample: mode01 either refuses the bytes (throws) or finds something else.
            let values = Result { try OBDDecoder.mode01(data) }
            if let single {
                XCTAssertEqual(try values.get(), [.sample(pid: single.pid, value: single.value)], hex)
            } else if case .success(let found) = values {
                XCTAssertFalse(found.count == 1 && { if case .sample = found[0] { return true } else { return false } }(), hex)
            }
        }
        XCTAssertEqual(OBDDecoder.singleSample([0x0C, 0x1A, 0xF8])?.value, 1726)
    }

    func testSameStampTextIsReusedButANewOneIsParsed() {
        var p = ELMByteParser(zone: TimeZone(identifier: "UTC")!)
        var out: [ELMPiece] = []
        for line in ["2026-10-01T08:00:00Z 41 0D 32", "2026-10-01T08:00:00Z 41 0C 1A F8", "2026-10-01T08:00:01Z 41 0D 33", "41 0D 34",
                     "2026-10-01T08:00:59.5Z 41 0D 35", "2026-10-01T08:00:60Z 41 0D 36", "2026-10-01T08:01:00,123456Z 41 0D 37",
                     "2026-10-01T24:00:00Z 41 0D 38", "2026-10-01T24:00:01Z 41 0D 39", "2026-10-01T08:00:02+00:00 41 0D 3A"] {
            Array(line.utf8).withUnsafeBufferPointer { p.pieces($0, line: 1, into: &out) }
        }
        // Seconds within a cached minute, second 60 (read as 59), hour 24 only at 00:00, an offset.
        XCTAssertEqual(out.map(\.time), [1_790_841_600_000, 1_790_841_600_000, 1_790_841_601_000, 1_790_841_601_000,
                                         1_790_841_659_500, 1_790_841_659_000, 1_790_841_660_123, 1_790_899_200_000, 1_790_899_200_000, 1_790_841_602_000])
        XCTAssertEqual(out.last?.kind, .frame(header: nil, bytes: [0x41, 0x0D, 0x3A]))
        XCTAssertEqual(out[8].kind, .unknown, "24:00:01 is no time, so the line is text")
        XCTAssertEqual(out.prefix(4).map(\.kind), [
            .frame(header: nil, bytes: [0x41, 0x0D, 0x32]), .frame(header: nil, bytes: [0x41, 0x0C, 0x1A, 0xF8]),
            .frame(header: nil, bytes: [0x41, 0x0D, 0x33]), .frame(header: nil, bytes: [0x41, 0x0D, 0x34]),
        ])
    }

    /// In the repeated hour a local stamp's instant depends on the latest one, so a stamp text
    /// seen before is resolved again when a line read another way (non-ASCII, on the String path;
    /// a time of day) moved the time in between. Chicago, 2026-11-01: 01:15 after 01:45 CST is
    /// its first occurrence by the file-order rule (later ≥ latest fails), as the String path says.
    func testARepeatedStampAfterAnotherLineMovedTheTimeIsResolvedAgain() {
        let lines = ["2026-11-01 01:59:00.000 >> 010D", "2026-11-01 01:15:00.100 << 41 0D 28",
                     "2026-11-01 01:45:00.000 °", "2026-11-01 01:15:00.100 << 41 0D 28",
                     "01:50:00 >> 010D", "2026-11-01 01:15:00.100 << 41 0D 28"]
        let times = assertPathsAgree(lines, zone: TimeZone(identifier: "America/Chicago")!, from: ELMLineTime())
        // 01:59 CDT = 06:59Z; 01:15 after it is CST, 07:15Z; 01:45 CST = 07:45Z; 01:15 after 07:45Z is 06:15Z.
        XCTAssertEqual(times[1], 1_793_517_300_100)
        XCTAssertEqual(times[2], 1_793_519_100_000)
        XCTAssertEqual(times[3], 1_793_513_700_100)
    }

    /// Torque's Device Time: the byte reader takes its usual shape and must agree with `parse`
    /// there (value or error); it declines everything else.
    func testQuickDeviceTimeAgreesWithParse() {
        let texts = [
            "01-Oct-2026 04:00:00.000 CDT", "01-Oct-2026 04:00:01.000 CDT", "1-Oct-2026 04:00:00.5 cdt", "01-oct-2026 23:59:59.999",
            "01-OCT-2026 04:00:00.1234 GMT+02:00", "01-Oct-2026 04:00:00 UTC-3", "01-Oct-2026 04:00:00 XYZT", "01-Oct-2026 04:00:60.000",
            "01-Oct-2026 24:00:00", "31-Feb-2026 04:00:00", "01-Foo-2026 04:00:00", "01-Oct-2026  04:00:00.250   CDT ", "\t01-Oct-2026 04:00:00\t",
            "01-Oct-2026 04:00:00. CDT", "01-Oct-2026 04:00:00.x", "01-Oct-2026 4:00:00", "01-Oct-2026 04:00:00CDT", "01-Oct-2026 04:00:00 C DT",
            "01-Oct-2026", "001-Oct-2026 04:00:00", "01-Oct-26 04:00:00", "2026-10-01T04:00:00Z", "Thu Oct 01 13:00:00 GMT+02:00 2026",
            "01-Oct-2026 04:00:00 CDT\u{00A0}", "01-Oct-2026 04:00:00 ZZZ", "01-Oct-2026 04:00:00 GMT+15", "",
        ]
        var clock = OBDLocalClock(zone: TimeZone(identifier: "America/Chicago")!)
        var taken = 0
        for text in texts + texts.reversed() {
            let slow = Result { try OBDLocalClock.parse(text) }
            switch Result(catching: { try clock.quickParse(text) }) {
            case .success(nil):
                continue  // declined: parse reads it
            case let .success(q?):
                taken += 1
                guard case let .success(s) = slow else { XCTFail("parse refuses what the quick reader took: \(text)"); continue }
                XCTAssertEqual(q.0, s.0, text)
                XCTAssertEqual(q.1, s.1, text)
            case let .failure(e):
                guard case let .failure(se) = slow else { XCTFail("parse accepts what the quick reader refused: \(text)"); continue }
                XCTAssertEqual(e as? OBDLocalClock.Problem, se as? OBDLocalClock.Problem, text)
            }
        }
        XCTAssertGreaterThanOrEqual(taken, 14)
        XCTAssertThrowsError(try clock.quickParse("01-Oct-2026 04:00:00 XYZT")) { XCTAssertEqual($0 as? OBDLocalClock.Problem, .unknownZone("XYZT")) }
    }

    /// Cell numbers, blank checks and column keys: the ASCII paths against the Foundation rules.
    func testNumbersKeysAndBlanksAgreeWithTheFoundationRules() {
        func slowNumber(_ text: String) -> Double?? {
            let t = text.trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t == "-" || t == "—" { return .some(nil) }
            if let d = Double(t), d.isFinite { return d }
            if !t.contains("."), t.filter({ $0 == "," }).count == 1, let d = Double(t.replacingOccurrences(of: ",", with: ".")), d.isFinite { return d }
            return nil
        }
        func slowKey(_ name: String) -> String {
            String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
        }
        for text in ["732.00", " 0.01 ", "-", " - ", "", "\t", "12,5", "1,234.5", "1e3", "inf", "nan", "0x1p3", "+7", "-0.5", "—", " 12\u{00A0}", "1 2", "abc", ".5", "5."] {
            XCTAssertEqual(OBDChannels.number(text), slowNumber(text), text.debugDescription)
            XCTAssertEqual(OBDText.isBlank(text), text.trimmingCharacters(in: .whitespaces).isEmpty, text.debugDescription)
            XCTAssertEqual(OBDText.trimmed(text), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
        }
        for name in ["GPS Time", " Device Time", "Engine RPM(rpm)", "Speed (OBD)(km/h)", "Engine Coolant Temperature(°C)", "ÄÖÜ Temp", "G(x)", "\u{FEFF}GPS Time", "-"] {
            XCTAssertEqual(OBDChannels.key(name), slowKey(name), name)
        }
        for unit in ["°F", "psi", "km/h", "mph", "", "L/h", "gal/h", "bar", "lb/min", "kg"] {
            for pid in [0x05, 0x0B, 0x0D, 0x5E, 0x10] {
                XCTAssertEqual(OBDChannels.convert(77.5, unit: unit, pid: pid), OBDChannels.conversion(unit: unit, pid: pid)?.apply(77.5))
            }
        }
        XCTAssertEqual(OBDChannels.convert(212, unit: "°F", pid: 0x05), 100)
        XCTAssertEqual(OBDChannels.convert(10, unit: "bar", pid: 0x0B), 1000)
    }

    /// Torque rows are loaded without a savepoint each: a row with a bad value anywhere, also in
    /// a column read after the position's, must still leave no row behind, only its reject.
    func testARejectedTorqueRowWritesNothing() throws {
        let t = try TestWarehouse()
        let csv = """
            GPS Time,Device Time,Longitude,Latitude,GPS Speed (Meters/second),Altitude,Bearing,Engine RPM(rpm),Speed (OBD)(km/h)
            -,01-Oct-2026 08:00:00.000 UTC,10.5,50.25,5,120,90,1000,18
            -,01-Oct-2026 08:00:01.000 UTC,10.6,50.26,5,120,north,1100,18
            -,01-Oct-2026 08:00:02.000 UTC,10.7,50.27,5,120,90,fast,18
            -,01-Oct-2026 08:00:03.000 UTC,10.8,50.28,5,high,90,1200,18
            -,01-Oct-2026 08:00:04.000 UTC,10.9,50.29,5,120,90,1300,0
            """
        let o = try t.importFile(try t.write(csv, to: "torque-rejects.csv"), options: ImportOptions(asset: "T-12"))
        XCTAssertEqual(o.format, "torque")
        XCTAssertEqual(OBDRows.counts(o), [9, 0, 0, 3], "2 positions, 4 samples, 3 engine events")
        XCTAssertEqual(try OBDRows.rejects(t), ["line 3 bad_number", "line 4 bad_number", "line 5 bad_number"])
        XCTAssertEqual(try t.rows("SELECT at || '|' || lat || '|' || printf('%.3f', speed_mps) || '|' || alt_m FROM position ORDER BY at").map { $0[0] as String },
                       ["1790841600000|50.25|5.000|120.0", "1790841604000|50.29|5.000|120.0"])
        XCTAssertEqual(try OBDRows.samples(t), ["T-12|1790841600000|0C|1000.000000", "T-12|1790841600000|0D|18.000000",
                                                "T-12|1790841604000|0C|1300.000000", "T-12|1790841604000|0D|0.000000"])
        XCTAssertEqual(try OBDRows.events(t), ["1790841600000|on", "1790841604000|idle", "1790841664000|off"])
    }

    func testLineReaderSplitsCRLFCRAndLFAcrossChunksAndCutsLongLines() throws {
        let long = String(repeating: "A", count: TextLineReader.maxLine + 10)
        let text = "\u{FEFF}one\r\ntwo\rthree\n\nfour\r\r\n\(long)\nfive"
        var reader = TextLineReader(data: Data(text.utf8))
        var got: [String] = [], cut: [Bool] = [], numbers: [Int] = []
        while let line = try reader.next() {
            got.append(line.truncated ? "cut:\(line.text.count)" : line.text)
            cut.append(line.truncated)
            numbers.append(line.number)
        }
        XCTAssertEqual(got, ["one", "two", "three", "", "four", "", "cut:\(TextLineReader.maxLine)", "five"])
        XCTAssertEqual(numbers, Array(1...8))
        // From a file, read in chunks: the same lines.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obd-lines-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: url) }
        let many = (0..<40_000).map { "2026-10-01T08:00:00Z 41 0D \($0 % 100)" }
        try Data((many.joined(separator: "\r") + "\r\n").utf8).write(to: url)
        var file = try TextLineReader(url: url)
        var read: [String] = []
        while let line = try file.next() { read.append(line.text) }
        XCTAssertEqual(read, many)
        // In place: the same lines and numbers, also across the read buffer's chunk ends.
        var inPlace = try TextLineReader(url: url)
        var lines: [String] = [], lineNumbers: [Int] = []
        while try inPlace.withNextLine({ number, truncated, line in
            XCTAssertFalse(truncated)
            lines.append(String(decoding: line, as: UTF8.self))
            lineNumbers.append(number)
        }) {}
        XCTAssertEqual(lines, many)
        XCTAssertEqual(lineNumbers, Array(1...many.count))
        // A CRLF split by the end of the first 256 KiB chunk is one line end, not two.
        let padding = (0..<5).map { _ in String(repeating: "A", count: 50_000) }
        let split = padding + [String(repeating: "B", count: 256 * 1024 - 5 * 50_001 - 1), "41 0D 32", "", "41 0C 1A F8"]
        try Data((padding.joined(separator: "\n") + "\n" + split[5] + "\r\n41 0D 32\r\n\r41 0C 1A F8").utf8).write(to: url)
        for inPlaceRead in [false, true] {
            var r = try TextLineReader(url: url)
            var got: [String] = []
            if inPlaceRead {
                while try r.withNextLine({ _, _, line in got.append(String(decoding: line, as: UTF8.self)) }) {}
            } else {
                while let line = try r.next() { got.append(line.text) }
            }
            XCTAssertEqual(got, split, "in place: \(inPlaceRead)")
        }
        var memory = TextLineReader(data: Data(text.utf8))
        var fromMemory: [String] = []
        while try memory.withNextLine({ _, truncated, line in
            fromMemory.append(truncated ? "cut:\(line.count)" : String(decoding: line, as: UTF8.self))
        }) {}
        XCTAssertEqual(fromMemory, got)
    }
}
