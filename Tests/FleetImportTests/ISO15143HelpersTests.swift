import XCTest
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The telematics helpers under the ISO 15143-3 and AEMP 1.2 importers: xs:duration, values and
/// units, the streaming XML element reader and its prolog guard, the streaming JSON reader.
final class ISO15143HelpersTests: XCTestCase {
    // MARK: xs:duration

    func testDurations() throws {
        XCTAssertEqual(try XSDuration.seconds("PT13H28M30S"), 48_510)
        XCTAssertEqual(try XSDuration.seconds("P1DT7H2M3S"), 111_723)
        XCTAssertEqual(try XSDuration.seconds("P13DT0H25M59.999S"), 1_124_759.999, accuracy: 1e-6)
        XCTAssertEqual(try XSDuration.seconds("PT0S"), 0)
        XCTAssertEqual(try XSDuration.seconds("P0Y0M2D"), 172_800)
        XCTAssertEqual(try XSDuration.seconds("PT1.5S"), 1.5)
        XCTAssertEqual(try XSDuration.seconds("PT36H"), 129_600, "hours may exceed 24")
        XCTAssertEqual(try XSDuration.seconds(" P2D "), 172_800)
        for bad in ["", "P", "PT", "P1DT", "13H", "PT13H28M30", "PT1.5H", "PT1M2H", "P1H", "PT1D", "P1D1D", "PTS", "P-1D", "PT1,5S"] {
            XCTAssertThrowsError(try XSDuration.seconds(bad), bad) { XCTAssertEqual($0 as? XSDuration.Problem, .syntax(bad.trimmingCharacters(in: .whitespaces)), bad) }
        }
        XCTAssertThrowsError(try XSDuration.seconds("P1Y2M3D")) { XCTAssertEqual($0 as? XSDuration.Problem, .calendarUnits("P1Y2M3D")) }
        XCTAssertThrowsError(try XSDuration.seconds("-PT5H")) { XCTAssertEqual($0 as? XSDuration.Problem, .negative("-PT5H")) }
        XCTAssertTrue(XSDuration.looksLikeDuration("PT1H"))
        XCTAssertFalse(XSDuration.looksLikeDuration("436.2"))
    }

    func testHourMeters() throws {
        XCTAssertEqual(try FeedUnits.hourMeterSeconds("436.2").seconds, 1_570_320, accuracy: 1e-6)
        XCTAssertEqual(try FeedUnits.hourMeterSeconds("436.2").unit, "hours")
        XCTAssertEqual(try FeedUnits.hourMeterSeconds("PT2H").unit, "xs:duration")
        XCTAssertThrowsError(try FeedUnits.hourMeterSeconds("-3")) { XCTAssertEqual(($0 as? RowError)?.reason, .outOfRange) }
        XCTAssertThrowsError(try FeedUnits.hourMeterSeconds("-PT3H")) { XCTAssertEqual(($0 as? RowError)?.reason, .outOfRange) }
        XCTAssertThrowsError(try FeedUnits.hourMeterSeconds("12 h")) { XCTAssertEqual(($0 as? RowError)?.reason, .badNumber) }
    }

    // MARK: Values and units

    func testNumbersAreStrict() {
        XCTAssertEqual(FeedValues.number("18871.799"), 18871.799)
        XCTAssertEqual(FeedValues.number("-90.343621"), -90.343621)
        XCTAssertEqual(FeedValues.number("1e3"), 1000)
        XCTAssertEqual(FeedValues.number(".5"), 0.5)
        for bad in ["436,2", "1,234.5", "12 km", "NaN", "inf", "", "-", "1e", "0x10", "1e999"] { XCTAssertNil(FeedValues.number(bad), bad) }
    }

    func testPlaceholdersAndInstants() {
        for p in ["missing", "N/A", "", "  ", "null", "Unknown"] { XCTAssertTrue(FeedValues.isPlaceholder(p), p) }
        XCTAssertFalse(FeedValues.isPlaceholder("0"))
        XCTAssertEqual(FeedValues.instant("2026-10-01T18:00:00.000Z"), .at(Timestamp.parse("2026-10-01T18:00:00Z")!))
        XCTAssertEqual(FeedValues.instant("2026-10-01T13:00:00-05:00"), .at(Timestamp.parse("2026-10-01T18:00:00Z")!))
        XCTAssertEqual(FeedValues.instant("2026-10-01T18:00:00"), .at(Timestamp.parse("2026-10-01T18:00:00Z")!), "no zone is UTC, as the standard says")
        XCTAssertEqual(FeedValues.instant("0001-01-01T00:00:00Z"), .placeholder)
        XCTAssertEqual(FeedValues.instant("1970-01-01T00:00:00.000Z"), .placeholder)
        XCTAssertEqual(FeedValues.instant("N/A"), .placeholder)
        XCTAssertEqual(FeedValues.instant("10/01/2026"), .invalid)
        if case .outOfRange = FeedValues.instant("2300-01-01T00:00:00Z") {} else { XCTFail("2300 is out of range") }
        XCTAssertEqual(FeedValues.bool("true"), true)
        XCTAssertEqual(FeedValues.bool("0"), false)
        XCTAssertNil(FeedValues.bool("maybe"))
    }

    func testUnits() {
        XCTAssertEqual(FeedUnits.metres(1, unit: "kilometre"), 1000)
        XCTAssertEqual(FeedUnits.metres(1, unit: "Kilometers"), 1000)
        XCTAssertEqual(FeedUnits.metres(1, unit: "km"), 1000)
        XCTAssertEqual(FeedUnits.metres(1, unit: "miles"), 1609.344)
        XCTAssertEqual(FeedUnits.metres(1, unit: "mi"), 1609.344)
        XCTAssertEqual(FeedUnits.metres(2, unit: "Metres"), 2)
        XCTAssertEqual(FeedUnits.metres(10, unit: "ft")!, 3.048, accuracy: 1e-9)
        XCTAssertNil(FeedUnits.metres(1, unit: "furlong"))
        for l in ["litre", "liter", "litres", "l", "Liters"] { XCTAssertEqual(FeedUnits.millilitres(2, unit: l), 2000, l) }
        XCTAssertEqual(FeedUnits.kilograms(499_900, unit: "Kilograms"), 499_900)
        XCTAssertEqual(FeedUnits.kilograms(2, unit: "tonnes"), 2000)
        XCTAssertNil(FeedUnits.kilograms(1, unit: "stone"))
    }

    func testFaultCodesAndLinks() {
        XCTAssertTrue(ISOElementMapper.j1939("3226-2")! == (3226, 2))
        XCTAssertTrue(ISOElementMapper.j1939("SPN 3226 FMI 2")! == (3226, 2))
        XCTAssertNil(ISOElementMapper.j1939("CA234"))
        XCTAssertNil(ISOElementMapper.j1939("E02-1"))
        XCTAssertTrue(ISOElementMapper.isOBD2("p0420"))
        XCTAssertFalse(ISOElementMapper.isOBD2("CA234"))
        XCTAssertEqual(ISOIdentity.ref(fromLink: "/pvz:fleet/Fleet/Equipment/SNP50123123456789/FuelUsed/2026-10-02T00:00:00/2026-10-02T23:59:59/1")?.pin, "SNP50123123456789")
        XCTAssertEqual(ISOIdentity.ref(fromLink: "https://x/Fleet/Equipment/1dw260exjef001076")?.pin, "1DW260EXJEF001076")
        XCTAssertNil(ISOIdentity.ref(fromLink: "/Fleet/2"))
        // Bosch's own machine id is kept as it is, never bent into a PIN by dropping the underscore.
        let bosch = ISOIdentity.ref(fromLink: "/Fleet/Equipment/510TS_15075/CumulativeOperatingHours/2023-02-09T00:00:00Z/2023-02-14T00:00:00Z/1")
        XCTAssertNil(bosch?.pin)
        XCTAssertEqual(bosch?.identifiers, [AssetRef.Identifier(source: "iso15143", type: "machine_id", value: "510TS_15075")])
        XCTAssertNil(ISOIdentity.ref(fromLink: "/Fleet/Equipment/a%20b/Location"), "a space is not part of a machine id")
        // Typed paths: the value after the type word is the identity, never the word itself.
        XCTAssertEqual(ISOIdentity.ref(fromLink: "/Fleet/Equipment/ID/844585/Locations/2026-10-01T00:00:00Z/2026-10-02T00:00:00Z/1")?.identifiers,
                       [AssetRef.Identifier(source: "iso15143", type: "machine_id", value: "844585")])
        XCTAssertNil(ISOIdentity.ref(fromLink: "/Fleet/Equipment/ID/844585/Locations/1")?.pin, "an ID is not a PIN")
        XCTAssertEqual(ISOIdentity.ref(fromLink: "/Fleet/Equipment/PIN/1dw260exjef001076/FuelUsed/1")?.pin, "1DW260EXJEF001076")
        XCTAssertEqual(ISOIdentity.ref(fromLink: "/Fleet/Equipment/pin/1DW260EXJEF001076")?.identifiers, [])
        XCTAssertEqual(ISOIdentity.ref(fromLink: "/Fleet/Equipment/SerialNumber/TC-0042/Locations/1")?.identifiers,
                       [AssetRef.Identifier(source: "iso15143", type: "serial_number", value: "TC-0042")])
        for reserved in ["/Fleet/Equipment/ID", "/Fleet/Equipment/ID/", "/Fleet/Equipment/ID/Locations/1", "/Fleet/Equipment/PIN/SerialNumber",
                         "/Fleet/Equipment/Locations/2026-10-01T00:00:00Z", "/Fleet/Equipment/CumulativeOperatingHours/1", "/Fleet/Equipment/ID/%20"] {
            XCTAssertNil(ISOIdentity.ref(fromLink: reserved), reserved)
        }
    }

    func testVINShapedLabelsAreExact() {
        XCTAssertTrue(ISOIdentity.isVINShaped("WDB9066331S123456"))     // a European VIN: no check digit
        XCTAssertFalse(ISOIdentity.isVINShaped("wdb9066331s123456"))    // lower case is a label, not upper-cased
        XCTAssertFalse(ISOIdentity.isVINShaped("WDB 9066331S123456"))   // no inner spaces removed
        XCTAssertFalse(ISOIdentity.isVINShaped("WDB9066331S12345"))     // 16 characters
        XCTAssertFalse(ISOIdentity.isVINShaped("WDB9O66331S123456"))    // the letter O never appears in a VIN
    }

    // MARK: Streaming XML

    final class Recorder: XMLElementConsumer {
        var events: [String] = []
        var nodes: [FeedNode] = []
        func shouldCollect(name: String, depth: Int) -> Bool { depth >= 2 && name != "Equipment" }
        func didStartContainer(name: String, attributes: [String: String], path: FeedPath, depth: Int) throws {
            events.append("start \(path) \(attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))")
        }
        func didCollect(_ node: FeedNode, path: FeedPath) throws {
            events.append("node \(path) line \(node.line ?? 0)")
            nodes.append(node)
        }
        func didEndContainer(name: String, path: FeedPath, depth: Int) throws { events.append("end \(path)") }
    }

    func read(_ xml: String, name: String = "feed.xml") throws -> Recorder {
        let t = try TestWarehouse()
        let r = Recorder()
        try XMLElementDriver(url: try t.write(xml, to: name), consumer: r).run()
        return r
    }

    func testReaderReportsContainersAndWholeElementsWithPaths() throws {
        let r = try read("""
            <?xml version="1.0"?>
            <!-- saved by the nightly job -->
            <j:Fleet xmlns:j="http://www.jcmanet.or.jp/english2017/ISO/15143/-3/20190501" version="20190501">
              <j:Equipment>
                <j:EquipmentHeader><j:PIN>P1</j:PIN></j:EquipmentHeader>
                <j:Location j:datetime="2026-10-01T18:00:00Z"><j:Latitude>1.5</j:Latitude><j:Note><![CDATA[a < b & c]]></j:Note></j:Location>
                <j:Location><j:datetime>2026-10-01T19:00:00Z</j:datetime></j:Location>
              </j:Equipment>
              <j:Equipment/>
              <j:Links><j:rel>self</j:rel></j:Links>
            </j:Fleet>
            """)
        XCTAssertEqual(r.events, [
            "start /Fleet version=20190501",
            "start /Fleet/Equipment[1] ",
            "node /Fleet/Equipment[1]/EquipmentHeader line 5",
            "node /Fleet/Equipment[1]/Location line 6",
            "node /Fleet/Equipment[1]/Location[2] line 7",
            "end /Fleet/Equipment[1]",
            "start /Fleet/Equipment[2] ",
            "end /Fleet/Equipment[2]",
            "node /Fleet/Links[1] line 10",
            "end /Fleet",
        ])
        let location = r.nodes[1]
        XCTAssertEqual(location.attribute("datetime"), "2026-10-01T18:00:00Z", "namespace prefixes are dropped from attributes too")
        XCTAssertEqual(location.value("Latitude"), "1.5")
        XCTAssertEqual(location.value("note"), "a < b & c", "CDATA is text; lookups ignore ASCII case")
        XCTAssertEqual(r.nodes[2].value("DateTime"), "2026-10-01T19:00:00Z")
        XCTAssertEqual(location.render(), "<Location datetime=\"2026-10-01T18:00:00Z\"><Latitude>1.5</Latitude><Note>a < b & c</Note></Location>")
    }

    func testRelativeNamespaceIsAWarningNotAnError() throws {
        let r = try read("<Fleet xmlns=\"fleet\"><A>1</A></Fleet>")
        XCTAssertEqual(r.events, ["start /Fleet ", "node /Fleet/A[1] line 1", "end /Fleet"])
    }

    func testUTF16FilesAreRead() throws {
        let t = try TestWarehouse()
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<Fleet><Model>Größe 260E</Model></Fleet>\n"
        let url = try t.write(xml.data(using: .utf16)!, to: "u16.xml")
        let r = Recorder()
        try XMLElementDriver(url: url, consumer: r).run()
        XCTAssertEqual(r.nodes.first?.trimmedText, "Größe 260E")
    }

    func testAnOversizedElementIsMarkedAndItsContentDropped() throws {
        let many = String(repeating: "<x>1</x>", count: XMLElementDriver.maxNodes + 5)
        let r = try read("<Fleet><Big>\(many)</Big><Small>ok</Small></Fleet>")
        XCTAssertEqual(r.nodes.map(\.name), ["Big", "Small"])
        XCTAssertTrue(r.nodes[0].oversized)
        XCTAssertLessThanOrEqual(r.nodes[0].children.count, XMLElementDriver.maxNodes)
        XCTAssertFalse(r.nodes[1].oversized)
    }

    func testErrorsCarryTheLineAndStopTheConsumer() throws {
        XCTAssertThrowsError(try read("<Fleet>\n<A>1</A>\n<B>2</C>\n<D>3</D>\n</Fleet>")) { error in
            XCTAssertTrue("\(error)".contains("at line 3, column"), "\(error)")
            XCTAssertTrue("\(error)".contains("an end tag does not match its start tag"), "\(error)")
        }
        XCTAssertThrowsError(try read("")) { XCTAssertTrue("\($0)".contains("not well-formed"), "\($0)") }
        XCTAssertThrowsError(try read("<Fleet><A>1</A>")) { XCTAssertTrue("\($0)".contains("<Fleet> (line 1)"), "\($0)") }
    }

    func testPrologGuard() throws {
        let t = try TestWarehouse()
        func check(_ text: String, _ data: Data? = nil) throws {
            try XMLPrologGuard.check(try t.write(data ?? Data(text.utf8), to: "p.xml"))
        }
        XCTAssertNoThrow(try check("<?xml version=\"1.0\"?><!-- <!ENTITY in a comment> --><Fleet/>"))
        XCTAssertNoThrow(try check("<Fleet><Note>&lt;!ENTITY x \"y\"&gt;</Note></Fleet>"))
        // Any DOCTYPE is refused, with or without an internal subset (issue 18 item 6).
        XCTAssertThrowsError(try check("<?xml version=\"1.0\"?><!DOCTYPE Fleet><Fleet/>")) { XCTAssertTrue("\($0)".contains("FleetKit refuses any DOCTYPE"), "\($0)") }
        XCTAssertThrowsError(try check("<!DOCTYPE Fleet [<!ELEMENT Fleet ANY>]><Fleet/>")) { XCTAssertTrue("\($0)".contains("FleetKit refuses any DOCTYPE"), "\($0)") }
        XCTAssertThrowsError(try check("<!DOCTYPE Fleet [<!-- ] --><!ENTITY a \"b\">]><Fleet/>")) { XCTAssertTrue("\($0)".contains("declares entities"), "\($0)") }
        XCTAssertThrowsError(try check("<!DOCTYPE Fleet [<!ENTITY a \"b\">]><Fleet/>")) { XCTAssertTrue("\($0)".contains("declares entities"), "\($0)") }
        XCTAssertThrowsError(try check("<?xml version=\"1.0\"?>\n\n<!doctype Fleet [\n <!ENTITY a \"]>\">\n]><Fleet/>")) { XCTAssertTrue("\($0)".contains("at line 3"), "\($0)") }
        XCTAssertThrowsError(try check("<!DOCTYPE Fleet PUBLIC \"-//X//Y\" \"http://example.com/f.dtd\"><Fleet/>")) { XCTAssertTrue("\($0)".contains("external DTD"), "\($0)") }
        XCTAssertThrowsError(try check("", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE F [<!ENTITY a \"b\">]><F/>".data(using: .utf16)!)) {
            XCTAssertTrue("\($0)".contains("declares entities"), "\($0)")
        }
    }

    // MARK: Streaming JSON

    func testJSONReaderWalksAndMaterialises() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            \u{FEFF}{"Fleet": {"Equipment": [{"Hour": 12.50, "Name": "Gr\\u00f6\\u00dfe \\ud83d\\ude9c", "ok": true, "n": null, "list": [1, 2]}],
             "skip": {"deep": [[[]]]}, "snapshotTime": "2026-10-01T00:00:00Z"}}
            """, to: "f.json")
        var r = try FeedJSON(url: url)
        try r.beginObject()
        XCTAssertEqual(try r.nextKey(), "Fleet")
        try r.beginObject()
        XCTAssertEqual(try r.nextKey(), "Equipment")
        try r.beginArray()
        XCTAssertTrue(try r.nextElement())
        let node = try r.readNodes(name: "Equipment")[0]
        XCTAssertEqual(node.value("Hour"), "12.50", "numbers keep their source text")
        XCTAssertEqual(node.value("Name"), "Größe 🚜")
        XCTAssertEqual(node.value("ok"), "true")
        XCTAssertEqual(node.value("n"), "")
        XCTAssertEqual(node.children(named: "list").map(\.text), ["1", "2"])
        XCTAssertEqual(node.line, 1)
        XCTAssertFalse(try r.nextElement())
        XCTAssertEqual(try r.nextKey(), "skip")
        try r.skipValue()
        XCTAssertEqual(try r.nextKey(), "snapshotTime")
        XCTAssertEqual(try r.line(), 2, "the key after a line break is on line 2")
        XCTAssertEqual(try r.readScalarText(), "2026-10-01T00:00:00Z")
        XCTAssertNil(try r.nextKey())
        XCTAssertNil(try r.nextKey())
        XCTAssertNoThrow(try r.finish())
    }

    func testJSONErrorsCarryTheLine() throws {
        let t = try TestWarehouse()
        for (text, expected) in [("{\"a\": [1, 2,\n", "at line 2: the JSON ends before its values are closed"),
                                 ("{\"a\": 1,\n\"b\": tru}", "at line 2: the JSON is not valid"),
                                 ("{\"a\" 1}", "found '1'"),
                                 ("[1, 2]x", "at line 1: the JSON has content after its end")] {
            var r = try FeedJSON(url: try t.write(text, to: "bad.json"))
            do {
                _ = try r.readNodes(name: "a")
                try r.finish()
                XCTFail("\(text) was read")
            } catch {
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    /// The limits of the JSON path: nesting deeper than 64 levels refuses the file; an element
    /// larger than 4 MiB of text is skipped whole and marked oversized; the file goes on.
    func testJSONLimits() throws {
        let t = try TestWarehouse()
        var deep = try FeedJSON(url: try t.write(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), to: "deep.json"))
        XCTAssertThrowsError(try deep.readNodes(name: "a")) { XCTAssertTrue("\($0)".contains("nests deeper than 64 levels"), "\($0)") }
        let big = String(repeating: "x", count: 1000)
        let items = Array(repeating: "\"\(big)\"", count: 5000).joined(separator: ",")
        var r = try FeedJSON(url: try t.write("[{\"a\": [\(items)]}, {\"b\": 1}]", to: "big.json"))
        try r.beginArray()
        XCTAssertTrue(try r.nextElement())
        let oversized = try r.readNodes(name: "Equipment")
        XCTAssertEqual(oversized.map(\.oversized), [true])
        XCTAssertEqual(oversized[0].children.count, 0, "nothing of an oversized element is kept")
        XCTAssertTrue(try r.nextElement())
        XCTAssertEqual(try r.readNodes(name: "Equipment")[0].value("b"), "1")
        XCTAssertFalse(try r.nextElement())
        try r.finish()
    }

    /// Through the importer: the oversized machine is one `oversized_record` reject that names
    /// the JSON limit, nothing of it is stored, and the machine after it loads.
    func testAnOversizedJSONMachineIsOneRejectAndTheNextLoads() throws {
        let t = try TestWarehouse()
        let filler = Array(repeating: "\"\(String(repeating: "x", count: 1000))\"", count: 5000).joined(separator: ",")
        func machine(_ pin: String, _ extra: String = "") -> String {
            "{\"EquipmentHeader\": {\"OEMName\": \"CAT\", \"Model\": \"320\", \"PIN\": \"\(pin)\"}, \"CumulativeOperatingHours\": {\"Hour\": 1200.5, \"datetime\": \"2026-10-01T18:00:00Z\"}\(extra)}"
        }
        let url = try t.write("{\"Fleet\": {\"version\": \"1\", \"Equipment\": [\(machine("CAT0320GCXYZ01234", ", \"Notes\": [\(filler)]")), \(machine("CAT0320GCXYZ05678"))]}}", to: "big-fleet.json")
        let outcome = try t.importFile(url, options: ImportOptions(format: "iso15143"))
        XCTAssertEqual(outcome.rejected, 1, outcome.error ?? "")
        let rows = try t.rows("SELECT reason, message FROM reject")
        XCTAssertEqual(rows.map { $0[0] as String }, ["oversized_record"])
        XCTAssertTrue((rows[0][1] as String).contains("(4 MiB of text); it was skipped"), rows[0][1] as String)
        XCTAssertEqual(try t.rows("SELECT pin FROM asset").map { $0[0] as String }, ["CAT0320GCXYZ05678"])
    }
}
