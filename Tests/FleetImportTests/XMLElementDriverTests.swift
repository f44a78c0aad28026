import XCTest
import FleetTestSupport
@testable import FleetImport

/// The ISO 15143-3 / AEMP 1.2 XML reader on the byte tokenizer: the transcoding byte source,
/// line and column of failures across chunk boundaries, the checks a conforming parser made
/// that the tokenizer alone does not, and the order in which problems are reported.
final class XMLElementDriverTests: XCTestCase {
    final class Collector: XMLElementConsumer {
        var nodes: [FeedNode] = []
        var roots: [String: String] = [:]
        func shouldCollect(name: String, depth: Int) -> Bool { depth >= 2 }
        func didStartContainer(name: String, attributes: [String: String], path: FeedPath, depth: Int) throws { roots = attributes }
        func didCollect(_ node: FeedNode, path: FeedPath) throws { nodes.append(node) }
        func didEndContainer(name: String, path: FeedPath, depth: Int) throws {}
    }

    private var t: TestWarehouse!
    override func setUpWithError() throws { t = try TestWarehouse() }

    @discardableResult
    private func read(_ data: Data, _ name: String = "feed.xml") throws -> Collector {
        let c = Collector()
        try XMLElementDriver(url: try t.write(data, to: name), consumer: c).run()
        return c
    }

    private func error(_ text: String) -> String {
        do { try read(Data(text.utf8)); return "no error" } catch { return "\(error)" }
    }

    func testTranscoderGivesUTF8InAnyChunkSizeAndKeepsLines() throws {
        let text = "<?xml version=\"1.0\"\n encoding=\"UTF-16\"?>\n<Fleet><Model>Größe € 𝄞</Model></Fleet>\n"
        let url = try t.write(text.data(using: .utf16LittleEndian)!, to: "le.xml")
        for chunk in [1, 3, 7, 1 << 20] {
            let transcoder = try XMLTranscoder(url: url, source: "UTF-16LE", skip: 0)
            var out: [UInt8] = []
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
            defer { buffer.deallocate() }
            while true {
                let n = try transcoder.read(into: buffer, max: chunk)
                if n == 0 { break }
                out += UnsafeBufferPointer(start: buffer, count: n)
            }
            // The declaration becomes the newline it spanned, and one before the root: line 3 stays line 3.
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "\n\n<Fleet><Model>Größe € 𝄞</Model></Fleet>\n", "chunk \(chunk)")
        }
        XCTAssertEqual(try read(text.data(using: .utf16BigEndian)!).nodes.first?.text, "Größe € 𝄞")
    }

    func testTranscoderRefusesBytesItCannotConvertWithTheirLine() throws {
        var data = "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<Fleet>\n<Model>a".data(using: .windowsCP1252)!
        data.append(0x81)   // undefined in windows-1252
        data.append(contentsOf: "</Model></Fleet>".utf8)
        XCTAssertThrowsError(try read(data)) { XCTAssertTrue("\($0)".contains("at line 3: the bytes there are not valid windows-1252"), "\($0)") }
        let cut = "<Fleet>x</Fleet>".data(using: .utf16LittleEndian)!.dropLast()
        let bom = Data([0xFF, 0xFE]) + cut
        XCTAssertThrowsError(try read(bom)) { XCTAssertTrue("\($0)".contains("it is not complete UTF-16LE"), "\($0)") }
    }

    /// The column counts characters back to the start of the line, also when a refill moved
    /// the start of the line out of the window (tiny chunks put a boundary everywhere).
    func testColumnsSurviveRefillsAndCountCharacters() throws {
        let xml = "<Fleet>\n      <Hour>4ü</Hours>\n</Fleet>"
        for chunk in [1, 2, 5, 64] {
            let tokenizer = XMLTokenizer(XMLBytes(bytes: Array(xml.utf8), chunkSize: chunk))
            XCTAssertThrowsError(try { while true { if case .eof = try tokenizer.next() { return } } }()) { error in
                let f = error as? XMLFailure
                XCTAssertEqual(f?.kind, .endTagMismatch, "chunk \(chunk)")
                XCTAssertEqual(f?.line, 2, "chunk \(chunk)")
                XCTAssertEqual(f?.column, 23, "chunk \(chunk): after the '>' of </Hours>, ü one character")
            }
        }
    }

    func testChecksAConformingParserMadeStillFailTheFile() throws {
        XCTAssertTrue(error("<Fleet><A x=\"1\" x=\"2\">1</A></Fleet>").contains("an element has the same attribute twice"))
        XCTAssertTrue(error("<Fleet><j:A>1</j:A></Fleet>").contains("it uses a namespace prefix that is not declared"))
        XCTAssertTrue(error("<Fleet><A j:x=\"1\">1</A></Fleet>").contains("it uses a namespace prefix that is not declared"))
        XCTAssertTrue(error("<Fleet>\n<A>1\u{1}</A></Fleet>").contains("at line 2: the XML is not well-formed: it contains a character that XML does not allow"))
        var bad = Data("<Fleet><A>".utf8)
        bad.append(0xFF)
        bad.append(contentsOf: "</A></Fleet>".utf8)
        XCTAssertThrowsError(try read(bad)) { XCTAssertTrue("\($0)".contains("a character that XML does not allow"), "\($0)") }
        XCTAssertTrue(error("<Fleet>\n<?x?><A>1</A></Fleet>").contains("at line 2: the XML has a processing instruction without data"))
    }

    /// A control character is found as its chunk arrives, but an earlier problem is the one reported.
    func testTheFirstProblemInTheDocumentIsReported() {
        let e = error("<Fleet>\n<A>1</B>\n\u{2}</Fleet>")
        XCTAssertTrue(e.contains("at line 2, column 9: the XML is not well-formed: an end tag does not match its start tag"), e)
    }

    func testWhatIsStillReadAsBefore() throws {
        let c = try read(Data("<Fleet xmlns=\"urn:x\" xmlns:j=\"urn:j\" j:snapshotTime=\"t\" xml:lang=\"en\"><!-- <?x?> --><j:A at=\"a\tb\r\nc\">1\r\n2&#233;<![CDATA[&]]></j:A></Fleet>".utf8))
        XCTAssertEqual(c.roots, ["snapshotTime": "t", "lang": "en"], "namespace declarations are not attributes; prefixes are dropped")
        XCTAssertEqual(c.nodes.first?.name, "A")
        XCTAssertEqual(c.nodes.first?.attribute("at"), "a b c", "attribute whitespace is normalised")
        XCTAssertEqual(c.nodes.first?.text, "1\n2é&", "CR LF is read as LF; references and CDATA are text")
    }
}
