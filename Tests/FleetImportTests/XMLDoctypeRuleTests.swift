import XCTest
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// The one DOCTYPE/entity rule set (`XMLDoctypeRule`) read the same way by both XML readers:
/// the GPX tokenizer skips a DOCTYPE without entities and refuses one with them, the ISO/AEMP
/// prolog guard refuses any DOCTYPE; an `<!ENTITY` hidden behind a `]` or `>` in a comment or
/// PI of the internal subset is found by both.
final class XMLDoctypeRuleTests: XCTestCase {
    private func judge(_ rule: XMLDoctypeRule, _ text: String, from start: Int = 0) -> XMLDoctypeRule.Verdict {
        let u = Array(text.utf8)
        return u.withUnsafeBufferPointer { rule.judge($0.baseAddress!, from: start, end: $0.count) }
    }

    private func reason(_ v: XMLDoctypeRule.Verdict) -> String? {
        if case let .refused(reason, _, _) = v { return reason }
        return nil
    }

    func testScanFindsTheEndTheEntityAndTheExternalDTD() {
        func scan(_ text: String) -> XMLDoctypeRule.Scan {
            let u = Array(text.utf8)
            return u.withUnsafeBufferPointer { XMLDoctypeRule.scan($0.baseAddress!, from: 0, end: $0.count) }
        }
        XCTAssertEqual(scan("<!DOCTYPE gpx><gpx/>"), .init(end: 14, entity: nil, newlines: 0, external: false))
        XCTAssertEqual(scan("<!DOCTYPE gpx SYSTEM \"g.dtd\"><gpx/>"), .init(end: 29, entity: nil, newlines: 0, external: true))
        XCTAssertEqual(scan("<!DOCTYPE gpx PUBLIC \"-//X//Y\" \"g.dtd\">"), .init(end: 39, entity: nil, newlines: 0, external: true))
        // `]` and `>` inside a comment, a PI or a quoted string do not end the subset.
        XCTAssertEqual(scan("<!DOCTYPE g [\n<!-- ]> -->\n<!ENTITY a \"b\">]>"), .init(end: nil, entity: 26, newlines: 2, external: false))
        XCTAssertEqual(scan("<!DOCTYPE g [<?pi ]> ?><!ENTITY a \"b\">]>"), .init(end: nil, entity: 23, newlines: 0, external: false))
        XCTAssertEqual(scan("<!DOCTYPE g [<!ELEMENT g \"]>\">\n]><g/>"), .init(end: 33, entity: nil, newlines: 1, external: false))
        // Cut inside a comment of the subset, or before the closing `>`: no end yet.
        XCTAssertEqual(scan("<!DOCTYPE g [<!-- ]> "), .init(end: nil, entity: nil, newlines: 0, external: false))
        XCTAssertEqual(scan("<!DOCTYPE g [<!ELEMENT g ANY>]"), .init(end: nil, entity: nil, newlines: 0, external: false))
    }

    func testGPXSkipsADoctypeWithoutEntitiesAndRefusesOneWithThem() {
        XCTAssertEqual(judge(.allowWithoutEntities, "<!DOCTYPE gpx>\n<gpx/>"), .skip(to: 14, newlines: 0))
        XCTAssertEqual(judge(.allowWithoutEntities, "x<!DOCTYPE gpx [\n<!ELEMENT gpx ANY>\n]>", from: 1), .skip(to: 38, newlines: 2))
        XCTAssertEqual(judge(.allowWithoutEntities, "<!DOCTYPE gpx [<!-- ] "), .needMore)
        XCTAssertEqual(judge(.allowWithoutEntities, "<!DOCTYPE g [\n<!-- ]> -->\n<!ENTITY a \"b\">]>"),
                       .refused(reason: XMLDoctypeRule.gpxEntityReason, at: 26, newlines: 2))
    }

    func testISORefusesAnyDoctypeAndItsWordsOnlyChooseTheMessage() {
        let plain = judge(.refuseAny, "<!DOCTYPE Fleet><Fleet/>")
        XCTAssertEqual(plain, .refused(reason: reason(plain)!, at: 0, newlines: 0))
        XCTAssertTrue(reason(plain)!.contains("the XML has a DOCTYPE; FleetKit refuses any DOCTYPE"))
        XCTAssertTrue(reason(judge(.refuseAny, "<!DOCTYPE Fleet SYSTEM \"f.dtd\"><Fleet/>"))!.contains("refers to an external DTD"))
        XCTAssertTrue(reason(judge(.refuseAny, "<!DOCTYPE Fleet [<?pi ]> ?><!ENTITY a \"b\">]><Fleet/>"))!.contains("declares entities in its DOCTYPE"))
        // Refused at once, even when the DOCTYPE is cut before its end.
        XCTAssertTrue(reason(judge(.refuseAny, "<!DOCTYPE Fleet [<!-- "))!.contains("FleetKit refuses any DOCTYPE"))
    }

    /// The same documents through both real readers: GPX refuses for entities exactly where
    /// the ISO/AEMP guard does, and reads on past a DOCTYPE that declares none.
    func testBothReadersApplyTheSameRules() throws {
        let t = try TestWarehouse()
        let root = "<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-10-01T08:00:00Z</time></trkpt></trkseg></trk></gpx>"
        let withEntities = [
            "<!DOCTYPE gpx [<!ENTITY a \"b\">]>",
            "<!DOCTYPE gpx [<!-- ] --><!ENTITY a \"b\">]>",
            "<!DOCTYPE gpx [<?x ]> ?><!ENTITY a \"b\">]>",
            "<!DOCTYPE gpx [<!ENTITY % remote SYSTEM \"file:///etc/passwd\"> %remote;]>",
        ]
        for (i, doctype) in withEntities.enumerated() {
            let text = "<?xml version=\"1.0\"?>\n" + doctype + "\n" + root
            for chunk in [1 << 20, 5] {
                XCTAssertThrowsError(try GPXScanner(bytes: Array(text.utf8), chunkSize: chunk).scan { _ in }, doctype) {
                    XCTAssertTrue(($0 as! GPXFileError).message.contains("the DOCTYPE declares entities"), "\($0)")
                }
            }
            XCTAssertThrowsError(try XMLPrologGuard.check(try t.write(Data(text.utf8), to: "e\(i).xml")), doctype) {
                XCTAssertTrue("\($0)".contains("the XML declares entities in its DOCTYPE"), "\($0)")
                XCTAssertTrue("\($0)".contains("at line 2"), "\($0)")
            }
        }
        let withoutEntities = ["<!DOCTYPE gpx>", "<!DOCTYPE gpx SYSTEM \"gpx.dtd\">", "<!DOCTYPE gpx [<!-- <!ENTITY in a comment> ]> --><!ELEMENT gpx ANY>]>"]
        for (i, doctype) in withoutEntities.enumerated() {
            let text = "<?xml version=\"1.0\"?>\n" + doctype + "\n" + root
            for chunk in [1 << 20, 5] {
                var points = 0
                try GPXScanner(bytes: Array(text.utf8), chunkSize: chunk).scan { _ in points += 1 }
                XCTAssertEqual(points, 1, doctype)
            }
            XCTAssertThrowsError(try XMLPrologGuard.check(try t.write(Data(text.utf8), to: "n\(i).xml")), doctype) {
                XCTAssertTrue("\($0)".contains("refuses any DOCTYPE"), "\($0)")
            }
        }
    }
}
