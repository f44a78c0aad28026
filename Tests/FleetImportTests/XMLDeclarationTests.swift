import XCTest
@testable import FleetImport

/// Both XML readers read an XML declaration's `encoding` with one parser
/// (`XMLPrologGuard.declaredEncoding`) and one table of names (`XMLByteEncoding`): the GPX
/// scanner takes UTF-8 and Latin-1 however the name is spelled, and refuses the rest by name.
final class XMLDeclarationTests: XCTestCase {
    private func scan(_ declaration: String, name: [UInt8] = Array("T".utf8)) throws -> (points: Int, name: String?) {
        let bytes = Array("<?xml version=\"1.0\" \(declaration)?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>".utf8)
            + name + Array("</name><trkseg><trkpt lat=\"41.5\" lon=\"-93.6\"><time>2026-10-01T12:00:00Z</time></trkpt></trkseg></trk></gpx>\n".utf8)
        let scanner = GPXScanner(bytes: bytes)
        var points = 0
        try scanner.scan { _ in points += 1 }
        return (points, scanner.trackName)
    }

    func testTheGPXScannerReadsUTF8AndLatin1DeclarationsAnySpelling() throws {
        for d in ["encoding=\"UTF-8\"", "encoding='utf8'", "encoding = \"US-ASCII\"", "", "standalone=\"yes\""] {
            XCTAssertEqual(try scan(d, name: Array("Größe".utf8)).name, "Größe", d)
        }
        for d in ["encoding=\"ISO-8859-1\"", "encoding=\"latin1\"", "encoding=\"windows-1252\"", "encoding=\"ISO_8859_1\""] {
            XCTAssertEqual(try scan(d, name: [0x47, 0x72, 0xF6, 0xDF, 0x65]).name, "Größe", "\(d): one byte per character")
        }
    }

    func testTheGPXScannerRefusesOtherEncodingsByName() {
        for name in ["Shift_JIS", "UTF-16", "EBCDIC-US", "x-unknown"] {
            XCTAssertThrowsError(try scan("encoding=\"\(name)\"")) {
                XCTAssertTrue("\($0)".contains("declares encoding \(name); FleetKit reads GPX in UTF-8 or ISO-8859-1"), "\($0)")
            }
        }
        XCTAssertThrowsError(try scan("encoding=utf-8"), "an unquoted value is no declaration of an encoding")
    }

    func testOneTableOfNames() {
        XCTAssertEqual(XMLByteEncoding.textDecoding(declared: "utf-8"), .utf8)
        XCTAssertEqual(XMLByteEncoding.textDecoding(declared: "Windows_1252"), .latin1)
        XCTAssertNil(XMLByteEncoding.textDecoding(declared: "KOI8-R"), "the ISO guard reads KOI8-R through iconv; the GPX scanner does not")
        XCTAssertNil(XMLByteEncoding.ascii(bom: false).refusal(declared: "KOI8-R"))
    }
}
