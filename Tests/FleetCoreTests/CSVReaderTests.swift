import Foundation
import XCTest
@testable import FleetCore
import FleetTestSupport
import FleetSample

final class CSVReaderTests: XCTestCase {
    /// Chunk sizes that put chunk boundaries inside every construct (CRLF, `""`, multi-byte
    /// characters, UTF-16 surrogate pairs).
    static let tinyChunks = [1, 2, 3, 7, 64]

    /// Reads every record with the given chunk size.
    func readAll(_ bytes: [UInt8], delimiter: UInt8? = nil, max: Int = CSVReader.defaultMaxRecordBytes,
                 chunkSize: Int = CSVReader.defaultChunkSize) throws -> [CSVRecord] {
        var reader = try CSVReader(data: Data(bytes), delimiter: delimiter, maxRecordBytes: max, chunkSize: chunkSize)
        var records: [CSVRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// Parses with the default chunk size, checks that tiny chunks give the same records, and
    /// returns them; so every test below is also a chunk-boundary test.
    func parse(_ bytes: [UInt8], delimiter: UInt8? = nil, max: Int = CSVReader.defaultMaxRecordBytes,
               file: StaticString = #filePath, line: UInt = #line) throws -> [CSVRecord] {
        let reference = try readAll(bytes, delimiter: delimiter, max: max)
        for size in Self.tinyChunks {
            let records = try readAll(bytes, delimiter: delimiter, max: max, chunkSize: size)
            XCTAssertEqual(records, reference, "chunk size \(size)", file: file, line: line)
        }
        return reference
    }

    func parse(_ text: String, delimiter: UInt8? = nil, max: Int = CSVReader.defaultMaxRecordBytes,
               file: StaticString = #filePath, line: UInt = #line) throws -> [CSVRecord] {
        try parse(Array(text.utf8), delimiter: delimiter, max: max, file: file, line: line)
    }

    func utf16(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
        let units = (bom ? [0xFEFF] : []) + Array(text.utf16)
        return units.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    // MARK: - Line endings

    func testLF() throws {
        let records = try parse("id,name\n1,Truck\n2,Van\n")
        XCTAssertEqual(records.map(\.fields), [["id", "name"], ["1", "Truck"], ["2", "Van"]])
        XCTAssertEqual(records.map(\.number), [1, 2, 3])
        XCTAssertEqual(records.map(\.line), [1, 2, 3])
        XCTAssertEqual(records.map(\.raw), ["id,name", "1,Truck", "2,Van"])
        XCTAssertEqual(records.map(\.hadInvalidUTF8), [false, false, false])
        XCTAssertEqual(records.map(\.oversized), [false, false, false])
    }

    func testCRLF() throws {
        let records = try parse("id,name\r\n1,Truck\r\n2,Van")
        XCTAssertEqual(records.map(\.fields), [["id", "name"], ["1", "Truck"], ["2", "Van"]])
        XCTAssertEqual(records.map(\.line), [1, 2, 3])
        XCTAssertEqual(records.map(\.raw), ["id,name", "1,Truck", "2,Van"])
    }

    func testLoneCR() throws {
        let records = try parse("id,name\r1,Truck\r2,Van\r")
        XCTAssertEqual(records.map(\.fields), [["id", "name"], ["1", "Truck"], ["2", "Van"]])
        XCTAssertEqual(records.map(\.line), [1, 2, 3])
    }

    func testMixedEndings() throws {
        let records = try parse("a\r\nb\nc\rd\r\n\re")
        XCTAssertEqual(records.map(\.fields), [["a"], ["b"], ["c"], ["d"], ["e"]])
        XCTAssertEqual(records.map(\.line), [1, 2, 3, 4, 6])
        XCTAssertEqual(records.map(\.number), [1, 2, 3, 4, 5])
    }

    func testBlankLinesSkippedButCounted() throws {
        let records = try parse("\n\na,b\r\n\r\n1,2\r\r3,4\n\n")
        XCTAssertEqual(records.map(\.fields), [["a", "b"], ["1", "2"], ["3", "4"]])
        XCTAssertEqual(records.map(\.number), [1, 2, 3])
        XCTAssertEqual(records.map(\.line), [3, 5, 7])
    }

    func testTrailingNewlineMakesNoEmptyRecord() throws {
        XCTAssertEqual(try parse("a,b\n1,2\n").map(\.fields), [["a", "b"], ["1", "2"]])
        XCTAssertEqual(try parse("a,b\r\n1,2\r\n").map(\.fields), [["a", "b"], ["1", "2"]])
        XCTAssertEqual(try parse("a,b\n1,2").map(\.fields), [["a", "b"], ["1", "2"]])
    }

    func testEmptyInput() throws {
        XCTAssertEqual(try parse([]), [])
        XCTAssertEqual(try parse([0xEF, 0xBB, 0xBF]), [])
        XCTAssertEqual(try parse("\n\r\n\r"), [])
        XCTAssertEqual(try parse(utf16("", bigEndian: false)), [])
    }

    func testHeaderOnly() throws {
        for text in ["unit,date,litres", "unit,date,litres\n", "unit,date,litres\r\n\r\n"] {
            let records = try parse(text)
            XCTAssertEqual(records.map(\.fields), [["unit", "date", "litres"]], text)
            XCTAssertEqual(records.map(\.number), [1])
        }
    }

    func testEmptyFields() throws {
        XCTAssertEqual(try parse(",a,,\n\"\"\n,\n").map(\.fields), [["", "a", "", ""], [""], ["", ""]])
    }

    // MARK: - Quoting

    func testQuotedDelimiter() throws {
        let records = try parse("name,city\n\"Smith, John\",\"Paris, FR\"\n")
        XCTAssertEqual(records[1].fields, ["Smith, John", "Paris, FR"])
    }

    func testDoubledQuotes() throws {
        let records = try parse("\"a \"\"big\"\" truck\",\"\"\"\",\"x\"\"\"\n")
        XCTAssertEqual(records.map(\.fields), [["a \"big\" truck", "\"", "x\""]])
    }

    func testQuotedNewlines() throws {
        for eol in ["\r\n", "\n", "\r"] {
            let text = "id,note\(eol)1,\"two\(eol)lines\"\(eol)2,\"three\(eol)\(eol)lines\"\(eol)3,x\(eol)"
            let records = try parse(text)
            XCTAssertEqual(records.map(\.fields), [["id", "note"], ["1", "two\(eol)lines"],
                                                   ["2", "three\(eol)\(eol)lines"], ["3", "x"]])
            XCTAssertEqual(records.map(\.line), [1, 2, 4, 7], "line ends \(eol.debugDescription)")
            XCTAssertEqual(records.map(\.number), [1, 2, 3, 4])
            XCTAssertEqual(records[2].raw, "2,\"three\(eol)\(eol)lines\"")
        }
    }

    func testLenientQuotes() throws {
        let records = try parse("5\" tire,\"abc\"def,\"x\"y\"z\",a\"\"b\n")
        XCTAssertEqual(records.map(\.fields), [["5\" tire", "abcdef", "xy\"z\"", "a\"\"b"]])
    }

    func testUnterminatedQuote() throws {
        var reader = try CSVReader(data: Data("a,b\n\n1,2\n3,\"oops\n4,5\n".utf8))
        XCTAssertEqual(try reader.next()?.fields, ["a", "b"])
        XCTAssertEqual(try reader.next()?.fields, ["1", "2"])
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(error as? CSVError, .unterminatedQuote(record: 3, line: 4))
            XCTAssertEqual("\(error)", "unterminated quoted field in record 3 (starting at line 4); "
                + "the file is probably truncated, or a quote is not doubled")
        }
        XCTAssertNil(try reader.next())
        for size in Self.tinyChunks {
            XCTAssertThrowsError(try readAll(Array("x\n\"a\"\"\r\n".utf8), chunkSize: size)) {
                XCTAssertEqual($0 as? CSVError, .unterminatedQuote(record: 2, line: 2))
            }
        }
    }

    func testRawKeepsSourceText() throws {
        let records = try parse("1, \"a \"\"b\"\"\" ,c\r\n\"x\r\ny\",z\n")
        XCTAssertEqual(records.map(\.raw), ["1, \"a \"\"b\"\"\" ,c", "\"x\r\ny\",z"])
        XCTAssertEqual(records.map(\.fields), [["1", " \"a \"\"b\"\"\" ", "c"], ["x\r\ny", "z"]])
    }

    // MARK: - Delimiters

    func testSniffing() {
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("a;b;c\n1,5;2,5;3".utf8)), UInt8(ascii: ";"))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("a\tb\tc\r\n".utf8)), UInt8(ascii: "\t"))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("a|b|c".utf8)), UInt8(ascii: "|"))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("\"a;b;c\",d\n".utf8)), UInt8(ascii: ","))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("\n\r\na;b\n".utf8)), UInt8(ascii: ";"))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("5\" tire;x;y\n".utf8)), UInt8(ascii: ";"))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("a,b;c".utf8)), UInt8(ascii: ","))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data("abc\nd;e;f".utf8)), UInt8(ascii: ","))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data()), UInt8(ascii: ","))
        XCTAssertEqual(CSVReader.sniffDelimiter(Data(utf16("a\tb;c\td", bigEndian: true))), UInt8(ascii: "\t"))
    }

    func testSemicolonAndTabFiles() throws {
        let semicolon = try CSVReader(data: Data("unit;litres\nT1;12,5\n".utf8))
        XCTAssertEqual(semicolon.delimiter, UInt8(ascii: ";"))
        XCTAssertEqual(try parse("unit;litres\nT1;12,5\n").map(\.fields), [["unit", "litres"], ["T1", "12,5"]])
        XCTAssertEqual(try parse("unit\tnote\nT1\ta, b; c\n").map(\.fields), [["unit", "note"], ["T1", "a, b; c"]])
        XCTAssertEqual(try parse("a;b\n1;2\n", delimiter: UInt8(ascii: ",")).map(\.fields), [["a;b"], ["1;2"]])
        XCTAssertEqual(try parse("a|\"b|c\"\n", delimiter: UInt8(ascii: "|")).map(\.fields), [["a", "b|c"]])
    }

    // MARK: - Encodings

    func testUTF8BOM() throws {
        let records = try parse([0xEF, 0xBB, 0xBF] + Array("unit,city\nT1,Zürich\n".utf8))
        XCTAssertEqual(records.map(\.fields), [["unit", "city"], ["T1", "Zürich"]])
        XCTAssertEqual(records[0].raw, "unit,city")
    }

    func testUTF16WithBOM() throws {
        let text = "name\tcity\tnote\r\nRené\t€ 5\t\"🚚 big, \"\"red\"\"\r\ntruck\"\r\nÉlise\t😀\tx"
        for bigEndian in [false, true] {
            let records = try parse(utf16(text, bigEndian: bigEndian))
            XCTAssertEqual(records.map(\.fields), [["name", "city", "note"],
                                                   ["René", "€ 5", "🚚 big, \"red\"\r\ntruck"],
                                                   ["Élise", "😀", "x"]], "bigEndian \(bigEndian)")
            XCTAssertEqual(records.map(\.line), [1, 2, 4])
            XCTAssertEqual(records[1].raw, "René\t€ 5\t\"🚚 big, \"\"red\"\"\r\ntruck\"")
            XCTAssertFalse(records.contains(where: \.hadInvalidUTF8))
            XCTAssertEqual(try CSVReader(data: Data(utf16(text, bigEndian: bigEndian))).delimiter, UInt8(ascii: "\t"))
        }
    }

    func testUTF16WithoutBOM() throws {
        for bigEndian in [false, true] {
            let records = try parse(utf16("unit;litres\nT1;12,5\n", bigEndian: bigEndian, bom: false))
            XCTAssertEqual(records.map(\.fields), [["unit", "litres"], ["T1", "12,5"]])
        }
    }

    func testUnpairedSurrogatesBecomeReplacementCharacters() throws {
        let units: [UInt16] = [0xFEFF, 0x61, 0xD800, 0x62, 0x0A, 0x63, 0xDC00, 0x0A, 0x64, 0x0A, 0x78, 0xD83D]
        let records = try parse(units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        XCTAssertEqual(records.map(\.fields), [["a\u{FFFD}b"], ["c\u{FFFD}"], ["d"], ["x\u{FFFD}"]])
        XCTAssertEqual(records.map(\.hadInvalidUTF8), [true, true, false, true])
    }

    func testUnsupportedEncodings() {
        let inputs: [[UInt8]] = [[0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0], [0, 0, 0xFE, 0xFF, 0, 0, 0, 0x61],
                                 utf16("a,b\n", bigEndian: false) + [0x61]]
        for bytes in inputs {
            XCTAssertThrowsError(try CSVReader(data: Data(bytes))) { error in
                guard case .unsupportedEncoding = error as? CSVError else { return XCTFail("\(error)") }
            }
        }
    }

    func testInvalidUTF8() throws {
        let records = try parse(Array("a,b\n".utf8) + [0xFF, 0x78, 0x2C, 0xC3] + Array("\nc,é\n".utf8))
        XCTAssertEqual(records.map(\.fields), [["a", "b"], ["\u{FFFD}x", "\u{FFFD}"], ["c", "é"]])
        XCTAssertEqual(records.map(\.hadInvalidUTF8), [false, true, false])
        XCTAssertEqual(records[1].raw, "\u{FFFD}x,\u{FFFD}")
    }

    // MARK: - Limits and streaming

    func testOversizedRecordIsSkippedToItsRealEnd() throws {
        let big = "2,\"" + String(repeating: "x", count: 50) + "\n,\"\"" + String(repeating: "y", count: 50) + "\",z"
        let records = try parse("id,v\n\(big)\n3,ok\n", max: 20)
        XCTAssertEqual(records.map(\.fields), [["id", "v"], [], ["3", "ok"]])
        XCTAssertEqual(records.map(\.oversized), [false, true, false])
        XCTAssertEqual(records.map(\.number), [1, 2, 3])
        XCTAssertEqual(records.map(\.line), [1, 2, 4])
        XCTAssertEqual(records[1].raw, big)
        // Exactly at the limit is not oversized.
        XCTAssertEqual(try parse("12345\n123456\n", max: 5).map(\.oversized), [false, true])
    }

    func testRawIsCappedAt4096Characters() throws {
        let long = String(repeating: "é", count: 10_000)
        let records = try parse("a,\(long)\nb\n", max: 100)
        XCTAssertEqual(records[0].raw, "a," + String(repeating: "é", count: 4094))
        XCTAssertEqual(records.map(\.oversized), [true, false])
        XCTAssertFalse(records[0].hadInvalidUTF8)
        let kept = try parse("\(long)\n")
        XCTAssertEqual(kept[0].fields, [long])
        XCTAssertEqual(kept[0].raw, String(repeating: "é", count: 4096))
    }

    func testChunkBoundariesEverywhere() throws {
        let text = "\u{FEFF}unit;note;€\r\n\r\nT1;\"a;\"\"b\"\"\r\nc\";é\rT2;5\" tire;🚚\n\n\"\";x\"y;\"z\"w\r\nlast;;"
        let expected = [["unit", "note", "€"], ["T1", "a;\"b\"\r\nc", "é"], ["T2", "5\" tire", "🚚"],
                        ["", "x\"y", "zw"], ["last", "", ""]]
        for bytes in [Array(text.utf8), utf16(String(text.dropFirst()), bigEndian: false),
                      utf16(String(text.dropFirst()), bigEndian: true)] {
            let reference = try readAll(bytes)
            XCTAssertEqual(reference.map(\.fields), expected)
            XCTAssertEqual(reference.map(\.line), [1, 3, 5, 7, 8])
            for size in Self.tinyChunks {
                XCTAssertEqual(try readAll(bytes, chunkSize: size), reference, "chunk size \(size)")
            }
        }
    }

    func testFileStreaming() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csvreader-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = "unit;litres\r\n"
        for i in 0..<5000 { text += "T\(i);\"\(i),5\"\r\n" }  // about 80 KiB: past the head
        try Data(text.utf8).write(to: url)
        for chunkSize in [CSVReader.defaultChunkSize, 4093] {
            var reader = try CSVReader(url: url, chunkSize: chunkSize)
            XCTAssertEqual(reader.delimiter, UInt8(ascii: ";"))
            var count = 0
            while let record = try reader.next() {
                count += 1
                if count > 1 { XCTAssertEqual(record.fields, ["T\(count - 2)", "\(count - 2),5"]) }
                XCTAssertEqual(record.line, count)
            }
            XCTAssertEqual(count, 5001)
        }
        try Data(utf16("a\tb\n", bigEndian: false) + [0x61]).write(to: url)
        XCTAssertThrowsError(try CSVReader(url: url)) { error in
            guard case .unsupportedEncoding = error as? CSVError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try CSVReader(url: url.appendingPathExtension("missing"))) { error in
            guard case .io = error as? CSVError else { return XCTFail("\(error)") }
        }
    }

    func testFirstRecord() {
        XCTAssertEqual(CSVReader.firstRecord(Data("\n\"Unit #\";Date\n1;2".utf8)), ["Unit #", "Date"])
        XCTAssertEqual(CSVReader.firstRecord(Data(utf16("Unit\tDate\r\nT1", bigEndian: true).dropLast())), ["Unit", "Date"])
        XCTAssertNil(CSVReader.firstRecord(Data()))
        XCTAssertNil(CSVReader.firstRecord(Data("\"Unit, cut off".utf8)))
    }

    /// Random inputs from the troublesome atoms, against a naive parser that sees the whole input
    /// at once: records, lines, raw text, oversized flags and errors must agree for every chunk
    /// size and for UTF-16. Seeded, so a failure reproduces.
    func testAgainstReferenceParser() throws {
        let atoms = ["a", "é", "🚚", ",", ",", ";", "\"", "\"", "\r", "\n", "\r\n", " "].map { Array($0.utf8) }
        var rng = SeededRandom(seed: 4180)
        for iteration in 0..<1500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &rng) { bytes += atoms.randomElement(using: &rng)! }
            let limit = iteration % 3 == 0 ? Int.random(in: 1...12, using: &rng) : CSVReader.defaultMaxRecordBytes
            let (expected, unterminated) = Self.reference(bytes)
            let utf16: [UInt8] = [0xFF, 0xFE] + String(decoding: bytes, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            for (input, size) in [(bytes, 1), (bytes, 3), (bytes, 65536), (utf16, 1), (utf16, 65536)] {
                var reader = try CSVReader(data: Data(input), delimiter: 0x2C, maxRecordBytes: limit, chunkSize: size)
                var records: [CSVRecord] = []
                var threw = false
                do { while let record = try reader.next() { records.append(record) } } catch { threw = true }
                let context = "\(String(decoding: bytes, as: UTF8.self).debugDescription), chunk \(size), max \(limit)"
                XCTAssertEqual(threw, unterminated, context)
                XCTAssertEqual(records.map(\.number), expected.indices.map { $0 + 1 }, context)
                XCTAssertEqual(records.map(\.line), expected.map(\.line), context)
                XCTAssertEqual(records.map(\.raw), expected.map(\.raw), context)
                XCTAssertEqual(records.map(\.oversized), expected.map { $0.raw.utf8.count > limit }, context)
                XCTAssertEqual(records.map(\.fields), expected.map { $0.raw.utf8.count > limit ? [] : $0.fields }, context)
            }
        }
    }

    /// The rules of the reader written the obvious way, on the whole input.
    static func reference(_ b: [UInt8]) -> (records: [(line: Int, fields: [String], raw: String)], unterminated: Bool) {
        var records: [(line: Int, fields: [String], raw: String)] = []
        var i = 0, line = 1
        func lineBreak() -> [UInt8] {
            let n = b[i] == 0x0D && i + 1 < b.count && b[i + 1] == 0x0A ? 2 : 1
            defer { i += n; line += 1 }
            return Array(b[i..<(i + n)])
        }
        while i < b.count {
            if b[i] == 0x0A || b[i] == 0x0D { _ = lineBreak(); continue }
            let (start, startLine) = (i, line)
            var fields: [String] = []
            while true {
                var field: [UInt8] = []
                if i < b.count && b[i] == 0x22 {
                    i += 1
                    while true {
                        guard i < b.count else { return (records, true) }
                        if b[i] == 0x22 && i + 1 < b.count && b[i + 1] == 0x22 { field.append(0x22); i += 2 }
                        else if b[i] == 0x22 { i += 1; break }
                        else if b[i] == 0x0A || b[i] == 0x0D { field += lineBreak() }
                        else { field.append(b[i]); i += 1 }
                    }
                }
                while i < b.count && ![0x2C, 0x0A, 0x0D].contains(b[i]) { field.append(b[i]); i += 1 }
                fields.append(String(decoding: field, as: UTF8.self))
                guard i < b.count && b[i] == 0x2C else { break }
                i += 1
            }
            records.append((startLine, fields, String(decoding: b[start..<i], as: UTF8.self)))
            if i < b.count { _ = lineBreak() }
        }
        return (records, false)
    }

    /// Not timed (timings are flaky on shared runners): checks that a large input streams through.
    func testManyRowsSanity() throws {
        var text = "id,unit,date,litres,note\n"
        text.reserveCapacity(6_000_000)
        for i in 0..<100_000 { text += "\(i),T\(i % 97),2024-01-\(i % 28 + 1),\(i % 500).25,\"note, \(i)\"\n" }
        var reader = try CSVReader(data: Data(text.utf8))
        var count = 0, last: CSVRecord?
        while let record = try reader.next() { count += 1; last = record }
        XCTAssertEqual(count, 100_001)
        XCTAssertEqual(last?.fields, ["99999", "T89", "2024-01-12", "499.25", "note, 99999"])
        XCTAssertEqual(last?.line, 100_001)
    }
}
