import XCTest
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Each hostile XML fixture (Fixtures/hostile/xml, one per failure mode of issue 18 items 1 and
/// 6) through the real ISO 15143-3 and AEMP 1.2 importers and through `fleetkit import`: every
/// one fails whole with a message that says what and what to do, nothing of it is loaded, and
/// no process ends with a signal. Before the fix the encoding fixtures killed the process with
/// SIGSEGV inside libxml2, and the DOCTYPE fixtures with a `]` in a comment or PI imported.
final class XMLHostileTests: XCTestCase {
    /// Fixture name and the words its refusal must contain.
    static let cases: [(String, String)] = [
        ("decl-newline-ebcdic-us.xml", "declares the encoding 'EBCDIC-US', which FleetKit does not read"),
        ("decl-tab-utf32.xml", "declares the encoding 'UTF-32', which FleetKit does not read"),
        ("decl-crlf-utf32.xml", "declares the encoding 'UTF-32', which FleetKit does not read"),
        ("decl-newline-utf7-seed.xml", "declares the encoding 'UTF-7', which FleetKit does not read"),
        // Found by the iso harness from the old seed: a declaration never closed with `?>`.
        ("decl-unterminated-utf7.xml", "at line 1: the XML declares the encoding 'UTF-7', which FleetKit does not read"),
        ("ebcdic-us.xml", "the XML is encoded in EBCDIC, which FleetKit does not read"),
        ("utf32-bom.xml", "the XML is encoded in UTF-32 (UCS-4), which FleetKit does not read"),
        ("utf32be-no-bom.xml", "the XML is encoded in UTF-32 (UCS-4), which FleetKit does not read"),
        ("utf32le-no-declaration.xml", "the XML is encoded in UTF-32 (UCS-4), which FleetKit does not read"),
        ("utf16-declares-latin1.xml", "the file's bytes are UTF-16 but its declaration names another encoding"),
        // Found by the iso campaign on 2026-11-24 (192,651st execution): an odd spelling of UTF-8.
        ("decl-odd-utf8-spelling.xml", "at line 1: the XML is in the encoding 'UT-F-8', which FleetKit cannot convert to UTF-8"),
        // libxml2's own decoders crash on bytes they cannot convert; FleetKit transcodes first.
        ("utf16-lone-surrogate.xml", "at line 4: the bytes there are not valid UTF-16"),
        ("windows1252-undefined-byte.xml", "at line 4: the bytes there are not valid windows-1252"),
        ("doctype-bracket-in-comment.xml", "the XML declares entities in its DOCTYPE"),
        ("doctype-bracket-in-pi.xml", "the XML declares entities in its DOCTYPE"),
        ("doctype-plain.xml", "FleetKit refuses any DOCTYPE"),
        ("pi-without-data.xml", "at line 5: the XML has a processing instruction without data (<?name?>)"),
        ("pi-without-data-utf16.xml", "at line 5: the XML has a processing instruction without data (<?name?>)"),
        ("pi-without-data-fuzz-crash.xml", "at line 1: the XML has a processing instruction without data (<?name?>)"),
    ]

    static func url(_ name: String, file: StaticString = #filePath) -> URL { fixture("hostile/xml/" + name, file: file) }

    func testEveryHostileFixtureFailsWholeThroughISOAndAEMP() throws {
        for format in ["iso15143", "aemp12"] {
            let t = try TestWarehouse()
            for (name, expected) in Self.cases {
                let outcome = try t.importFile(Self.url(name), options: ImportOptions(format: format))
                XCTAssertEqual(outcome.status, .failed, "\(format) \(name)")
                XCTAssertTrue(outcome.error?.contains(expected) ?? false, "\(format) \(name): \(outcome.error ?? "no error")")
                XCTAssertTrue(outcome.error?.contains("Nothing of this file was imported") ?? false, "\(format) \(name): \(outcome.error ?? "no error")")
                XCTAssertTrue(outcome.error?.contains("line ") ?? false, "\(format) \(name) names no line: \(outcome.error ?? "")")
            }
            XCTAssertEqual(try t.count("asset"), 0, format)
            XCTAssertEqual(try t.count("meter_reading"), 0, format)
        }
    }

    /// The same XML whitespace that once slipped past the guard, with encodings that read: the
    /// files load (UTF-16 with and without a byte order mark, a newline, tab and CRLF in the
    /// declaration), so the fix refuses the encoding, not the spelling.
    func testReadableFilesWithAnyXMLWhitespaceInTheDeclarationStillLoad() throws {
        let t = try TestWarehouse()
        let body = "\n<Fleet version=\"1\" snapshotTime=\"2026-10-01T19:00:00Z\"><Equipment><EquipmentHeader><OEMName>JOHN DEERE</OEMName><Model>310SL</Model>"
            + "<PIN>PIN%d</PIN></EquipmentHeader><CumulativeOperatingHours datetime=\"2026-10-01T18:00:00Z\"><Hour>318.5</Hour></CumulativeOperatingHours></Equipment></Fleet>\n"
        let files: [(String, Data)] = [
            ("nl-utf8.xml", Data(("<?xml\nversion=\"1.0\"\nencoding=\"UTF-8\"?>" + String(format: body, 1)).utf8)),
            ("tab-latin1.xml", ("<?xml\tversion=\"1.0\"\tencoding=\"ISO-8859-1\"?>" + String(format: body, 2)).data(using: .isoLatin1)!),
            ("crlf-utf16-bom.xml", ("<?xml\r\nversion=\"1.0\"\r\nencoding=\"UTF-16\"?>" + String(format: body, 3)).data(using: .utf16)!),
            ("utf16le-no-bom.xml", try Data(contentsOf: Self.url("utf16le-no-bom.xml")).replacingUTF16("1T0310SLPKF385111", with: "PIN4")),
            ("utf8-bom.xml", Data([0xEF, 0xBB, 0xBF]) + Data(("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + String(format: body, 5)).utf8)),
        ]
        for (name, data) in files {
            let outcome = try t.importFile(try t.write(data, to: name), options: ImportOptions(format: "iso15143"))
            XCTAssertEqual(outcome.status, .imported, "\(name): \(outcome.error ?? "")")
            XCTAssertEqual(outcome.loaded, 1, name)
        }
        XCTAssertEqual(try t.rows("SELECT pin FROM asset ORDER BY pin").map { $0[0] as String }, ["PIN1", "PIN2", "PIN3", "PIN4", "PIN5"])
    }

    /// 8-bit and UTF-16 files are transcoded to UTF-8 before libxml2 reads them: their text
    /// arrives right, and the line numbers of errors stay those of the file.
    func testTranscodedFilesKeepTheirTextAndLineNumbers() throws {
        let t = try TestWarehouse()
        func file(_ model: String, _ pin: String) -> String {
            "<?xml version=\"1.0\"\n encoding=\"%@\"?>\n<Fleet snapshotTime=\"2026-10-01T19:00:00Z\"><Equipment><EquipmentHeader><OEMName>JOHN DEERE</OEMName><Model>\(model)</Model><PIN>\(pin)</PIN></EquipmentHeader>"
                + "<CumulativeOperatingHours datetime=\"2026-10-01T18:00:00Z\"><Hour>1</Hour></CumulativeOperatingHours></Equipment></Fleet>\n"
        }
        let files: [(String, Data)] = [
            ("cp1252.xml", String(format: file("Bagger 5 €", "PINCP1252"), "windows-1252").data(using: .windowsCP1252)!),
            ("latin1.xml", String(format: file("Größe", "PINLATIN1"), "ISO-8859-1").data(using: .isoLatin1)!),
            ("utf16be.xml", String(format: file("Größe €", "PINUTF16"), "UTF-16").data(using: .utf16BigEndian)!),
        ]
        for (name, data) in files {
            XCTAssertEqual(try t.importFile(try t.write(data, to: name), options: ImportOptions(format: "iso15143")).status, .imported, name)
        }
        XCTAssertEqual(try t.rows("SELECT pin, model FROM asset ORDER BY pin").map { "\($0[0] as String) \($0[1] as String)" },
                       ["PINCP1252 Bagger 5 €", "PINLATIN1 Größe", "PINUTF16 Größe €"])
        let broken = ("<?xml version=\"1.0\"\n encoding=\"UTF-16\"?>\n<Fleet>\n<A>1</B>\n</Fleet>").data(using: .utf16LittleEndian)!
        let outcome = try t.importFile(try t.write(broken, to: "broken.xml"), options: ImportOptions(format: "iso15143"))
        XCTAssertTrue(outcome.error?.contains("at line 4, column") ?? false, outcome.error ?? "")
    }

    /// Every 8-bit encoding name the guard lets through reaches libxml2's encoding switch from a
    /// stream: none may crash the process (a crash ends this test run with a signal), each
    /// either loads or fails with a located message.
    func testEveryAllowedDeclaredEncodingIsSafeInLibxml2() throws {
        let t = try TestWarehouse()
        var loaded = 0
        for (i, name) in XMLByteEncoding.readable8Bit.sorted().enumerated() {
            for spelling in [name, name.lowercased()] {
                let url = try t.write("<?xml version=\"1.0\" encoding=\"\(spelling)\"?>\n<Fleet snapshotTime=\"2026-10-03T06:00:00Z\"><Equipment><EquipmentHeader><PIN>P\(i)</PIN></EquipmentHeader></Equipment></Fleet>\n",
                                      to: "enc-\(spelling).xml")
                let outcome = try t.importFile(url, options: ImportOptions(format: "iso15143"))
                if outcome.status == .failed { XCTAssertNotNil(outcome.error, spelling) } else { loaded += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(loaded, 40, "most allowed encodings read: \(loaded) did")
    }

    /// The GPX scanner is FleetKit's own (no libxml2, no DTD, no entity ever expanded): a `]` or
    /// `>` in a comment or PI of the internal subset cannot end its DOCTYPE early, so the
    /// `<!ENTITY` after it is refused as such, not as stray markup.
    func testGPXDoctypeWithABracketInACommentOrPIIsRefusedForItsEntities() throws {
        let t = try TestWarehouse()
        for name in ["gpx-doctype-bracket-in-comment.gpx", "gpx-doctype-bracket-in-pi.gpx"] {
            let outcome = try t.importFile(Self.url(name), options: ImportOptions(format: "gpx"))
            XCTAssertEqual(outcome.status, .failed, name)
            XCTAssertTrue(outcome.error?.contains("line 4") ?? false, "\(name): \(outcome.error ?? "")")
            XCTAssertTrue(outcome.error?.contains("the DOCTYPE declares entities") ?? false, "\(name): \(outcome.error ?? "")")
        }
        XCTAssertEqual(try t.count("position"), 0)
    }

    /// A PI with data, before and inside the root, in UTF-8 and UTF-16, still loads.
    func testProcessingInstructionsWithDataStillLoad() throws {
        let t = try TestWarehouse()
        let text = "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\"?><Fleet snapshotTime=\"2026-10-01T19:00:00Z\"><?x ?><?y data?><Equipment><EquipmentHeader><OEMName>JOHN DEERE</OEMName><Model>310SL</Model><PIN>PIPI%d</PIN></EquipmentHeader>"
            + "<CumulativeOperatingHours datetime=\"2026-10-01T18:00:00Z\"><Hour>1</Hour></CumulativeOperatingHours></Equipment></Fleet>"
        for (i, data) in [Data(String(format: text, 1).utf8), String(format: text, 2).data(using: .utf16)!].enumerated() {
            let outcome = try t.importFile(try t.write(data, to: "pi-\(i).xml"), options: ImportOptions(format: "iso15143"))
            XCTAssertEqual(outcome.status, .imported, outcome.error ?? "")
        }
        XCTAssertEqual(try t.count("meter_reading"), 2)
    }

    func testDeclarationSpellingsCannotHideTheEncoding() throws {
        func declared(_ s: String) -> String? { XMLPrologGuard.declaredEncoding(ArraySlice(Array(s.utf8))) }
        XCTAssertEqual(declared("<?xml version=\"1.0\" encoding=\"UTF-32\""), "UTF-32")
        XCTAssertEqual(declared("<?xml\tversion='1.0'\r\nencoding\n=\t'EBCDIC-US'"), "EBCDIC-US")
        XCTAssertEqual(declared("<?xml version=\"1.0\" encoding=UTF-32"), "", "an unquoted name is refused as the empty name")
        XCTAssertNil(declared("<?xml version=\"1.0\""))
        XCTAssertEqual(XMLByteEncoding.sniff([0, 0, 0, 0x3C]), .unreadable(name: "UTF-32 (UCS-4)"))
        XCTAssertEqual(XMLByteEncoding.sniff([0x3C, 0, 0x3F, 0]), .utf16(bigEndian: false, bom: false))
        XCTAssertEqual(XMLByteEncoding.sniff([0x3C, 0x3F]), .ascii(bom: false), "a file shorter than four bytes")
        XCTAssertNotNil(XMLByteEncoding.ascii(bom: false).refusal(declared: "ISO-8859-99"), "a made-up name is not tried")
        XCTAssertNotNil(XMLByteEncoding.ascii(bom: true).refusal(declared: "ISO-8859-1"), "a UTF-8 BOM contradicts Latin-1")
        XCTAssertNotNil(XMLByteEncoding.ascii(bom: false).refusal(declared: "UTF-16"), "8-bit bytes cannot be UTF-16")
        XCTAssertNil(XMLByteEncoding.utf16(bigEndian: true, bom: false).refusal(declared: "utf-16"))
        // Odd spellings of allowed names never reach libxml2's own lookup: iconv reads or refuses them.
        let t = try TestWarehouse()
        for spelling in ["U_T-F8", "utf_8", "ISO_8859_1", "Windows_1252"] {
            let url = try t.write("<?xml version=\"1.0\" encoding=\"\(spelling)\"?>\n<Fleet snapshotTime=\"2026-10-01T19:00:00Z\"></Fleet>\n", to: "\(spelling).xml")
            let outcome = try t.importFile(url, options: ImportOptions(format: "iso15143"))
            if outcome.status == .failed { XCTAssertTrue(outcome.error?.contains("which FleetKit cannot convert to UTF-8") ?? false, outcome.error ?? "") }
        }
    }

    /// `fleetkit import` on each fixture: exit code 1 (the file is counted as failed), never a
    /// signal, and the refusal on the terminal.
    func testTheCommandExitsOneWithTheMessageNeverASignal() throws {
        let t = try TestWarehouse()
        let db = t.directory.appendingPathComponent("cli.sqlite").path
        for format in ["iso15143", "aemp12"] {
            for (name, expected) in Self.cases {
                let r = try Fleetkit.run(["import", "--db", db, "--create", "--format", format, Self.url(name).path])
                XCTAssertEqual(r.status, 1, "\(format) \(name): \(r.stdout) \(r.stderr)")
                XCTAssertTrue((r.stdout + r.stderr).contains(expected), "\(format) \(name): \(r.stdout) \(r.stderr)")
            }
        }
    }
}

private extension Data {
    /// Replaces a string inside UTF-16LE bytes (the fixture's PIN, so each file is its own asset).
    func replacingUTF16(_ old: String, with new: String) -> Data {
        let o = old.data(using: .utf16LittleEndian)!, n = new.data(using: .utf16LittleEndian)!
        guard let r = range(of: o) else { return self }
        var copy = self
        copy.replaceSubrange(r, with: n)
        return copy
    }
}
