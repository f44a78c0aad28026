import XCTest
import FleetTestSupport
@testable import FleetImport

final class JSONReaderTests: XCTestCase {
    private func tokens(_ text: String) throws -> [JSONToken] {
        try tokens(Array(text.utf8))
    }

    private func tokens(_ bytes: [UInt8], maxTokenBytes: Int = JSONPullParser.defaultMaxTokenBytes, maxDepth: Int = 256) throws -> [JSONToken] {
        var p = try JSONPullParser(bytes: bytes, maxTokenBytes: maxTokenBytes, maxDepth: maxDepth)
        var out: [JSONToken] = []
        while let t = try p.next() { out.append(t) }
        return out
    }

    private func error(_ text: String) -> JSONReadError? {
        error(Array(text.utf8))
    }

    private func error(_ bytes: [UInt8], maxTokenBytes: Int = JSONPullParser.defaultMaxTokenBytes, maxDepth: Int = 256) -> JSONReadError? {
        do { _ = try tokens(bytes, maxTokenBytes: maxTokenBytes, maxDepth: maxDepth); return nil } catch let e as JSONReadError { return e } catch {
            XCTFail("unexpected \(error)"); return nil
        }
    }

    func testTokensKeepNumberTextAndUnescapeStrings() throws {
        XCTAssertEqual(try tokens(#" {"a": [1.50, -0, 1e309, 12345678901234567890], "b\u00e9\n": "x\"\\\/\b\f\r\t\u00e9\ud83d\ude9a", "c": true, "d": false, "e": null} "#), [
            .objectStart, .key("a"), .arrayStart, .number("1.50"), .number("-0"), .number("1e309"), .number("12345678901234567890"), .arrayEnd,
            .key("bé\n"), .string("x\"\\/\u{8}\u{c}\r\té🚚"), .key("c"), .bool(true), .key("d"), .bool(false), .key("e"), .null, .objectEnd,
        ])
        XCTAssertEqual(try tokens("\u{FEFF}[\"ok\"]"), [.arrayStart, .string("ok"), .arrayEnd], "a UTF-8 BOM is skipped")
        XCTAssertEqual(try tokens("\"é\""), [.string("é")], "a scalar at the top level is a document")
    }

    func testPathFollowsKeysAndIndexes() throws {
        var p = try JSONPullParser(bytes: Array(#"{"data": [{"id": "1"}, {"gps": [{"time": "t"}, {"latitude": 91, "odd key": 1}]}]}"#.utf8))
        var paths: [String] = []
        while let t = try p.next() {
            if case .number = t { paths.append(p.path) }
        }
        XCTAssertEqual(paths, ["data[1].gps[1].latitude", #"data[1].gps[1]["odd key"]"#])
    }

    func testStrictGrammarRejectsWhatRFC8259Does() {
        for bad in ["NaN", "[01]", "[+1]", "[1.]", "[.5]", "[1e]", "[1,]", "{\"a\":1,}", "['a']", "[1 2]", "{\"a\" 1}", "{a:1}", "[tru]",
                    "[nulls]", "// c\n[]", "[] []", "", "   ", "\"\u{01}\"", "\"\\x\"", "\"\\u12G4\"", "[Infinity]", "[-]", "{\"a\":}"] {
            XCTAssertNotNil(error(bad), "should be refused: \(bad.debugDescription)")
        }
    }

    func testTruncatedInputSaysWhereWithOffsetAndPath() {
        let text = #"{"data": [{"id": "281474977075805", "gps": [{"time": "2026-10-01T12:00:00Z", "latitude": 41.5"#
        let e = error(text)
        XCTAssertEqual(e?.offset, Int64(text.utf8.count))
        XCTAssertEqual(e?.path, "data[0].gps[0].latitude")
        XCTAssertTrue(e?.message.contains("truncated") ?? false, e?.message ?? "")
        let inString = error(#"{"data": [{"name": "Big R"#)
        XCTAssertEqual(inString?.offset, 19, "a string cut short is reported at its opening quote")
        XCTAssertEqual(inString?.path, "data[0].name")
    }

    func testInvalidUTF8AndLoneSurrogatesAreErrors() {
        let cases: [[UInt8]] = [
            [0x22, 0xC3, 0x22],                 // truncated 2-byte sequence
            [0x22, 0xC0, 0x80, 0x22],           // overlong NUL
            [0x22, 0xED, 0xA0, 0x80, 0x22],     // UTF-16 surrogate encoded in UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // above U+10FFFF
            [0x22, 0xFF, 0x22],
            Array(#""\ud800""#.utf8), Array(#""\udc00x""#.utf8), Array(#""\ud800\u0041""#.utf8),
        ]
        for c in cases {
            let e = error(c)
            XCTAssertNotNil(e, "\(c)")
        }
        XCTAssertTrue(error([0x22, 0x61, 0xFF, 0x22])!.message.contains("UTF-8"))
        XCTAssertEqual(error([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00])?.message.contains("UTF-16"), true)
    }

    func testTokenSizeAndDepthAreCapped() {
        let long = "\"" + String(repeating: "a", count: 40) + "\""
        XCTAssertTrue(error(Array(long.utf8), maxTokenBytes: 16)!.message.contains("longer than 16 bytes"))
        XCTAssertTrue(error(Array(("[" + String(repeating: "1", count: 40) + "]").utf8), maxTokenBytes: 16)!.message.contains("longer than 16 bytes"))
        XCTAssertTrue(error(Array((String(repeating: "[", count: 10) + String(repeating: "]", count: 10)).utf8), maxDepth: 8)!.message.contains("deeper than 8"))
        XCTAssertNil(error(Array((String(repeating: "[", count: 8) + String(repeating: "]", count: 8)).utf8), maxDepth: 8))
    }

    /// Strings, escapes, multi-byte characters and literals across every 64 KiB chunk boundary.
    func testChunkBoundariesDoNotMatter() throws {
        let t = try TestWarehouse()
        for shift in 0..<12 {
            let pad = String(repeating: " ", count: JSONPullParser.chunkSize - 6 + shift)
            let text = "[" + pad + #""aé🚚\u00e9\ud83d\ude9a\n", true, null, -12.5e-3, {"k": false}]"#
            let url = try t.write(text, to: "chunk-\(shift).json")
            var p = try JSONPullParser(url: url)
            var got: [JSONToken] = []
            while let tok = try p.next() { got.append(tok) }
            XCTAssertEqual(got, [.arrayStart, .string("aé🚚é🚚\n"), .bool(true), .null, .number("-12.5e-3"), .objectStart, .key("k"), .bool(false), .objectEnd, .arrayEnd], "shift \(shift)")
        }
    }

    func testReadNodeMaterialisesAndSkipsOversizedSubtrees() throws {
        var p = try JSONPullParser(bytes: Array(#"[{"id": "7", "tags": [1, "x"], "big": "0123456789012345678901234567890123456789"}, {"id": "8"}]"#.utf8))
        XCTAssertEqual(try p.next(), .arrayStart)
        let first = try p.readNode()
        XCTAssertEqual(first["id"], .string("7"))
        XCTAssertEqual(first["tags"], .array([.number("1"), .string("x")]))
        XCTAssertEqual(first.render(), #"{"id":"7","tags":[1,"x"],"big":"0123456789012345678901234567890123456789"}"#)
        XCTAssertEqual(first.render(limit: 10), #"{"id":"7",…"#)
        var q = try JSONPullParser(bytes: Array(#"[{"id": "7", "big": "0123456789012345678901234567890123456789"}, {"id": "8"}]"#.utf8))
        _ = try q.next()
        XCTAssertThrowsError(try q.readNode(limit: 30)) { XCTAssertEqual(($0 as? JSONNodeTooLarge)?.path, "[0]") }
        XCTAssertEqual(try q.readNode(), .object([.init(key: "id", value: .string("8"))]), "reading goes on after an oversized record")
        XCTAssertEqual(try q.next(), .arrayEnd)
        XCTAssertNil(try q.next())
    }

    func testSkipValueConsumesContainers() throws {
        var p = try JSONPullParser(bytes: Array(#"{"a": {"b": [1, {"c": 2}]}, "d": 3}"#.utf8))
        XCTAssertEqual(try p.next(), .objectStart)
        XCTAssertEqual(try p.next(), .key("a"))
        try p.skipValue()
        XCTAssertEqual(try p.next(), .key("d"))
        XCTAssertEqual(try p.peek(), .number("3"))
        XCTAssertEqual(try p.next(), .number("3"))
        XCTAssertEqual(try p.next(), .objectEnd)
        XCTAssertNil(try p.next())
    }

    /// Issue 35 item 18: `{"value": 1, "value": 2}` was read first-wins with no note (jq and
    /// Python take the last). Every JSON format reads through this parser: the document is
    /// refused with the key and its path, in short objects and in long ones, even when skipped.
    func testDuplicateMemberNamesAreRefusedWithTheKey() throws {
        let e = error(#"{"data": [{"id": "1", "value": 1, "value": 2}]}"#)
        XCTAssertEqual(e?.path, "data[0].value")
        XCTAssertTrue(e?.message.contains(#"the member "value" twice"#) ?? false, "\(String(describing: e))")
        let long = "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 0}"
        XCTAssertTrue(error(long)?.message.contains(#""k7" twice"#) ?? false)
        XCTAssertNil(error("{" + (0..<40).map { "\"k\($0)\": {\"a\": 1}" }.joined(separator: ", ") + "}"))
        var p = try JSONPullParser(bytes: Array(#"[{"a": 1, "a": 1}]"#.utf8))
        XCTAssertThrowsError(try p.skipValue())
        // The same name in sibling or nested objects is no duplicate.
        XCTAssertNil(error(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#))
    }

}
