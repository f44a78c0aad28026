import XCTest
@testable import FleetImport

final class OBDDecoderTests: XCTestCase {
    func value(_ hex: String) throws -> Double {
        let bytes = ELMLineParser.hexBytes(hex)!
        guard case let .sample(_, v)? = try OBDDecoder.mode01(bytes[...]).first else { XCTFail("no sample for \(hex)"); return .nan }
        return v
    }

    func testEveryRequiredPIDByItsJ1979Formula() throws {
        XCTAssertEqual(try value("04 FF"), 100)
        XCTAssertEqual(try value("04 80"), 12800.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(try value("05 7B"), 83)
        XCTAssertEqual(try value("05 00"), -40)
        XCTAssertEqual(try value("0B 65"), 101)
        XCTAssertEqual(try value("0C 1A F8"), 1726)
        XCTAssertEqual(try value("0C FF FF"), 16383.75)
        XCTAssertEqual(try value("0D 32"), 50)
        XCTAssertEqual(try value("0F 3C"), 20)
        XCTAssertEqual(try value("10 01 23"), 2.91, accuracy: 1e-12)
        XCTAssertEqual(try value("11 33"), 20)
        XCTAssertEqual(try value("1F 01 2C"), 300)
        XCTAssertEqual(try value("21 00 05"), 5)
        XCTAssertEqual(try value("2F 80"), 50.19607843137255, accuracy: 1e-12)
        XCTAssertEqual(try value("31 01 90"), 400)
        XCTAssertEqual(try value("42 31 38"), 12.6, accuracy: 1e-12)
        XCTAssertEqual(try value("46 41"), 25)
        XCTAssertEqual(try value("5C 82"), 90)
        // Fuel trims, evap purge and pressure, pedal: PIDs Car Scanner logs (issue 16).
        XCTAssertEqual(try value("06 80"), 0)
        XCTAssertEqual(try value("07 00"), -100)
        XCTAssertEqual(try value("06 82"), 1.5625)
        XCTAssertEqual(try value("2E FF"), 100)
        XCTAssertEqual(try value("53 4F 21"), 101.285, accuracy: 1e-12)
        XCTAssertEqual(try value("5A 33"), 20)
        XCTAssertEqual(try value("5E 00 64"), 5)
        XCTAssertEqual(try value("A6 00 01 E2 40"), 12345.6, accuracy: 1e-9)
        XCTAssertEqual(try value("A6 FF FF FF FF"), 429496729.5)
        for pid in [0x04, 0x05, 0x0B, 0x0C, 0x0D, 0x0F, 0x10, 0x11, 0x1F, 0x21, 0x2F, 0x31, 0x42, 0x46, 0x5C, 0x5E, 0xA6] {
            XCTAssertNotNil(OBDDecoder.pid(pid), "PID \(OBDDecoder.hex(pid)) is in the table")
        }
    }

    func testSeveralPIDsInOneAnswerBitmapsAndUnknownPIDs() throws {
        XCTAssertEqual(try OBDDecoder.mode01(ELMLineParser.hexBytes("0C1AF80D32")![...]), [.sample(pid: 0x0C, value: 1726), .sample(pid: 0x0D, value: 50)])
        XCTAssertEqual(try OBDDecoder.mode01(ELMLineParser.hexBytes("00BE3FA813")![...]), [.bitmap(pid: 0)])
        XCTAssertEqual(try OBDDecoder.mode01(ELMLineParser.hexBytes("0D32 6B01")![...]), [.sample(pid: 0x0D, value: 50), .unsupported(pid: 0x6B)])
        XCTAssertThrowsError(try OBDDecoder.mode01(ELMLineParser.hexBytes("0C1A")![...])) { error in
            XCTAssertEqual((error as? OBDDecoder.DecodeError)?.message, "PID 0C (engine speed) needs 2 data byte(s), got 1")
        }
        XCTAssertThrowsError(try OBDDecoder.mode01([][...]))
    }

    func testTroubleCodesAllFourSystemsAndBothLayouts() throws {
        XCTAssertEqual(OBDDecoder.dtc(0x01, 0x33), "P0133")
        XCTAssertEqual(OBDDecoder.dtc(0x42, 0x20), "C0220")
        XCTAssertEqual(OBDDecoder.dtc(0x91, 0x04), "B1104")
        XCTAssertEqual(OBDDecoder.dtc(0xC1, 0x23), "U0123")
        XCTAssertEqual(OBDDecoder.dtc(0x3F, 0xFF), "P3FFF")
        // CAN: count byte, then pairs.
        XCTAssertEqual(try OBDDecoder.dtcs([0x02, 0x01, 0x33, 0xC1, 0x23][...]), ["P0133", "U0123"])
        XCTAssertEqual(try OBDDecoder.dtcs([0x00][...]), [])
        // Older protocols: three codes, padded with 00 00.
        XCTAssertEqual(try OBDDecoder.dtcs([0x01, 0x33, 0x00, 0x00, 0x00, 0x00][...]), ["P0133"])
        XCTAssertThrowsError(try OBDDecoder.dtcs([0x03, 0x01, 0x33][...]))
    }

    func testVINFromCANAndFromFiveOlderMessages() throws {
        let chars = Array("1FTFW1ET5DFC10312".utf8)
        XCTAssertEqual(try OBDDecoder.vin([0x01] + chars), "1FTFW1ET5DFC10312")
        var parts = VINParts()
        let padded: [UInt8] = [0, 0, 0] + chars
        var result: String?
        for n in 0..<5 {
            result = try parts.add([0x49, 0x02, UInt8(n + 1)] + Array(padded[(n * 4)..<(n * 4 + 4)]))
            if n < 4 { XCTAssertNil(result) }
        }
        XCTAssertEqual(result, "1FTFW1ET5DFC10312")
        XCTAssertThrowsError(try OBDDecoder.vin([0x01] + Array("1FTFW1ET5".utf8)))
        // Five parts that join into something other than a VIN: an error once complete (the
        // importer rejects it as bad_vin), not a silent nil.
        let junk: [UInt8] = [0, 0, 0] + Array("1FTFW1ET5DFC1\u{7}\u{7}\u{7}\u{7}".utf8)
        for n in 0..<4 { XCTAssertNil(try parts.add([0x49, 0x02, UInt8(n + 1)] + Array(junk[(n * 4)..<(n * 4 + 4)]))) }
        XCTAssertThrowsError(try parts.add([0x49, 0x02, 5] + Array(junk[16..<20])))
    }

    func testLineParserHandlesEveryTranscriptQuirk() {
        var time = ELMLineTime()
        let utc = TimeZone(identifier: "UTC")!
        func kinds(_ line: String) -> [ELMPiece.Kind] { ELMLineParser.pieces(of: line, line: 1, lastTime: &time, zone: utc).map(\.kind) }
        XCTAssertEqual(kinds(">ATZ"), [.at("ATZ")])
        XCTAssertEqual(kinds("AT SP 0"), [.at("ATSP0")])
        XCTAssertEqual(kinds("010C"), [.request([0x01, 0x0C])])
        XCTAssertEqual(kinds("SEARCHING..."), [.status(.searching)])
        XCTAssertEqual(kinds("NO DATA"), [.status(.noData)])
        XCTAssertEqual(kinds("UNABLE TO CONNECT"), [.status(.unableToConnect)])
        XCTAssertEqual(kinds("?"), [.status(.unknownCommand)])
        XCTAssertEqual(kinds("STOPPED"), [.status(.stopped)])
        XCTAssertEqual(kinds("41 0D 32 <DATA ERROR"), [.damaged])
        XCTAssertEqual(kinds("41 0C 1A F8"), [.frame(header: nil, bytes: [0x41, 0x0C, 0x1A, 0xF8])])
        XCTAssertEqual(kinds("410C1AF8"), [.frame(header: nil, bytes: [0x41, 0x0C, 0x1A, 0xF8])])
        XCTAssertEqual(kinds("7E8 03 41 0D 32"), [.frame(header: .can("7E8"), bytes: [0x03, 0x41, 0x0D, 0x32])])
        XCTAssertEqual(kinds("7E803410D32"), [.frame(header: .can("7E8"), bytes: [0x03, 0x41, 0x0D, 0x32])])
        XCTAssertEqual(kinds("18 DA F1 10 03 41 0D 14"), [.frame(header: .can("18DAF110"), bytes: [0x03, 0x41, 0x0D, 0x14])])
        XCTAssertEqual(kinds("48 6B 10 41 0C 1A F8 22"), [.frame(header: .kwp("10"), bytes: [0x41, 0x0C, 0x1A, 0xF8])])
        XCTAssertEqual(kinds("014"), [.byteCount(0x14)])
        XCTAssertEqual(kinds("1: 46 57 31 45 54 35 44"), [.indexed(1, [0x46, 0x57, 0x31, 0x45, 0x54, 0x35, 0x44])])
        // Literal backslash-r, echo and prompt on one line.
        XCTAssertEqual(kinds(#"010D\r41 0D 32\r\r>"#), [.request([0x01, 0x0D]), .frame(header: nil, bytes: [0x41, 0x0D, 0x32])])
        XCTAssertEqual(kinds("Connecting..."), [.unknown])
        XCTAssertEqual(time, ELMLineTime())
        // A time at the start of a line is taken, then inherited.
        XCTAssertEqual(kinds("[2026-10-01 08:00:03.500] 41 0D 32"), [.frame(header: nil, bytes: [0x41, 0x0D, 0x32])])
        XCTAssertEqual(time.instant, 1_790_841_603_500)
        XCTAssertEqual(ELMLineParser.pieces(of: "41 0D 33", line: 2, lastTime: &time, zone: utc).first?.time, 1_790_841_603_500)
        XCTAssertEqual(kinds("2026-10-01T10:00:00+02:00 RX: 41 0D 32").count, 1)
        XCTAssertEqual(time.instant, 1_790_841_600_000)
    }

    func testISOTPReassemblyWithTwoECUsInterleaved() {
        var a = ELMAssembler()
        func frame(_ ecu: String, _ hex: String, _ line: Int) -> ELMPiece {
            ELMPiece(kind: .frame(header: .can(ecu), bytes: ELMLineParser.hexBytes(hex)!), line: line, time: 5, text: "\(ecu) \(hex)")
        }
        var events: [ELMEvent] = []
        events += a.feed(frame("7E8", "10 0A 43 04 01 33 03 00", 1))
        events += a.feed(frame("7E9", "10 08 43 03 C1 23 91 04", 2))
        events += a.feed(frame("7E9", "21 42 20 00 00 00 00 00", 3))
        events += a.feed(frame("7E8", "21 C1 23 91 04 AA AA AA", 4))
        let messages = events.compactMap { e -> ELMMessage? in if case let .message(m) = e { return m } else { return nil } }
        XCTAssertEqual(messages.map(\.ecu), ["7E9", "7E8"])
        XCTAssertEqual(messages.map(\.line), [2, 1])
        XCTAssertEqual(messages[0].payload, [0x43, 0x03, 0xC1, 0x23, 0x91, 0x04, 0x42, 0x20])
        XCTAssertEqual(messages[1].payload, [0x43, 0x04, 0x01, 0x33, 0x03, 0x00, 0xC1, 0x23, 0x91, 0x04])
        // A consecutive frame out of sequence, and a first frame left open at the end.
        XCTAssertEqual(a.feed(frame("7E8", "22 00", 5)).count, 1)
        _ = a.feed(frame("7E8", "10 14 49 02 01 31 46 54", 6))
        guard case let .problem(line, reason, _, _)? = a.finish().first else { return XCTFail("incomplete message expected") }
        XCTAssertEqual(line, 6)
        XCTAssertEqual(reason, .incompleteMessage)
    }

    func testLocalTimesWithAbbreviationsOffsetsAndTheRepeatedHour() throws {
        var clock = OBDLocalClock(zone: TimeZone(identifier: "America/Chicago")!)
        XCTAssertEqual(try clock.utc("01-Oct-2026 08:00:00.000 CDT"), 1_790_859_600_000)
        XCTAssertEqual(try clock.utc("Thu Oct 01 15:00:00 GMT+02:00 2026"), 1_790_859_600_000)
        XCTAssertEqual(try clock.utc("01-Nov-2026 01:30:00.000 CDT"), 1_793_514_600_000)
        XCTAssertEqual(try clock.utc("01-Nov-2026 01:30:00.000 CST"), 1_793_518_200_000)
        XCTAssertThrowsError(try clock.utc("01-Oct-2026 08:00:00 XYZT")) { XCTAssertEqual($0 as? OBDLocalClock.Problem, .unknownZone("XYZT")) }
        XCTAssertThrowsError(try clock.utc("yesterday"))
        // No abbreviation: the fleet zone; in the repeated hour, file order picks the occurrence.
        var fleet = OBDLocalClock(zone: TimeZone(identifier: "America/Chicago")!)
        XCTAssertEqual(try fleet.utc("01-Nov-2026 01:50:00.000"), 1_793_515_800_000)  // first (CDT)
        XCTAssertEqual(try fleet.utc("01-Nov-2026 01:10:00.000"), 1_793_517_000_000)  // earlier wall time: second (CST)
        XCTAssertEqual(try fleet.utc("01-Nov-2026 01:20:00.000"), 1_793_517_600_000)  // stays in CST
    }
}
