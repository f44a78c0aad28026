import XCTest
import FleetCore
@testable import FleetImport

/// The byte-level fast paths of the telematics readers must give exactly what the general
/// code gives; these compare them on the spellings feeds use and on the edge cases.
final class TelematicsFastPathTests: XCTestCase {
    func testStrictUTCMatchesTheGeneralParser() {
        let texts = ["2026-10-01T14:30:00Z", "2026-10-01t14:30:00z", "2026-10-01T14:30:00.5Z", "2026-10-01T14:30:00.455Z",
                     "2026-10-01T14:30:00.4559Z", "2026-10-01T14:30:00,25Z", "2024-02-29T23:59:59.999Z", "1971-01-01T00:00:00Z",
                     "2199-12-31T23:59:59Z", "2026-10-01T06:30:00-05:00", "2026-10-01T06:30:00.25+05:30", "2026-10-01T23:30:00+14:00",
                     "2026-01-01T00:10:00-00:30"]
        for t in texts {
            XCTAssertNotNil(FeedValues.strictUTC(t), t)
            XCTAssertEqual(FeedValues.strictUTC(t), Timestamp.parse(t, zone: FeedValues.utc), t)
        }
        XCTAssertEqual(FeedValues.strictUTC("2026-10-01T14:30:00.455Z"), 1_790_865_000_455)
        XCTAssertEqual(FeedValues.strictUTC("2026-10-01T14:30:00.4559Z"), 1_790_865_000_455)   // truncated, not rounded
    }

    func testStrictUTCLeavesEverythingElseToTheGeneralPath() {
        for t in ["2026-10-01T14:30:00", "2026-10-01T14:30:00+0200", "2026-10-01T14:30:00+02", "2026-10-01T14:30:00+15:00",
                  "2026-10-01T14:30:00+02:60", "2026-10-01T14:30:00.+02:00", " 2026-10-01T14:30:00Z", "2026-10-01T14:30:00Z ", "2026-10-01 14:30:00Z",
                  "2026-10-01T24:00:00Z", "2026-10-01T23:59:60Z", "2026-02-30T00:00:00Z", "2026-10-01T14:30:00.Z", "2026-10-01T14:30Z",
                  "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-10-01T14:30:00.5XZ", "missing"] {
            XCTAssertNil(FeedValues.strictUTC(t), t)
        }
        // The general path still decides those.
        XCTAssertEqual(FeedValues.instant("0001-01-01T00:00:00Z"), .placeholder)
        XCTAssertEqual(FeedValues.instant("2026-10-01T24:00:00Z"), .at(1_790_899_200_000))
        XCTAssertEqual(FeedValues.instant("2026-10-01T14:30:00+0200"), .at(1_790_857_800_000))
        XCTAssertEqual(FeedValues.strictUTC("2026-10-01T14:30:00+02:00"), 1_790_857_800_000)
    }

    func testInstantClassifiesFastPathTimesLikeTheGeneralPath() {
        XCTAssertEqual(FeedValues.instant("1970-01-01T00:00:00Z"), .placeholder)
        XCTAssertEqual(FeedValues.instant("2026-10-01T14:30:00Z"), .at(1_790_865_000_000))
        XCTAssertEqual(FeedValues.instant("1950-06-01T00:00:00Z"), .outOfRange(-618_105_600_000))
    }

    func testUnitFastPathsGiveTheGeneralFactors() {
        for u in ["m", "meter", "meters", "metre", "metres", "km", "kilometer", "kilometers", "kilometre", "kilometres", "mi", "mile", "miles"] {
            XCTAssertEqual(FeedUnits.metres(12.5, unit: u), Units.metres(12.5, unit: u), u)
        }
        for u in ["l", "litre", "liter", "litres", "liters", "gal", "gallon", "gallons", "Litre", " l "] {
            XCTAssertEqual(FeedUnits.millilitres(2.5, unit: u), Units.millilitres(2.5, unit: u), u)
        }
        XCTAssertEqual(FeedUnits.metres(2, unit: "Kilometres"), 2000)
        XCTAssertEqual(FeedUnits.metres(2, unit: "ft"), 0.6096)
        XCTAssertEqual(FeedUnits.millilitres(2, unit: "gallon"), 7570.823568)
        XCTAssertNil(FeedUnits.millilitres(2, unit: "barrel"))
    }

    func testSamsaraTrimKeepsPlainTextAndTrimsUnicodeSpace() {
        XCTAssertEqual(JSONFields.trimmed("2026-10-01T14:05:00Z"), "2026-10-01T14:05:00Z")
        XCTAssertEqual(JSONFields.trimmed(" 281474977075801\n"), "281474977075801")
        XCTAssertEqual(JSONFields.trimmed("\u{00A0}Truck 7\u{2003}"), "Truck 7")
        XCTAssertEqual(JSONFields.trimmed("Größe"), "Größe")
        XCTAssertNil(JSONFields.trimmed(" \t "))
        XCTAssertNil(JSONFields.trimmed(""))
    }

    func testPINCharacterTestIsTheCharacterWiseOne() {
        for s in ["1DW644KXCKF600000", "abc123", "ABCD", "AB-CD", "AB CD", "ÄBCD", "ABCD١", "ＡＢＣＤ", ""] {
            XCTAssertEqual(ISOIdentity.isAlphanumericASCII(s), s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, s)
        }
    }
}

extension TelematicsFastPathTests {
    func testPointKeyCheckIsTheSetCheck() {
        let nodes: [JSONNode] = [
            .object([.init(key: "time", value: .string("t")), .init(key: "value", value: .number("1"))]),
            .object([.init(key: "time", value: .string("t")), .init(key: "value", value: .number("1")), .init(key: "decorations", value: .null)]),
            .object([.init(key: "value", value: .number("1")), .init(key: "unit", value: .string("m")), .init(key: "Time", value: .null)]),
            .object([]),
        ]
        for n in nodes {
            let f = JSONFields(n, at: "data[0].obdOdometerMeters", index: 0)
            XCTAssertEqual(f.unknownPointKeys(), f.unknownKeys(SamsaraStat.pointKeys))
        }
        XCTAssertEqual(JSONFields(nodes[2], at: "x").unknownPointKeys(), ["unit", "Time"])
    }
}
