import XCTest
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// The evidence pack for one vehicle, printed by headless Chromium and read back as an auditor's
/// tools would: `pdftotext` for the words of each page, `pdftoppm` for its pixels (poppler-utils;
/// `make deps` installs both with chromium).
final class EvidencePackTests: XCTestCase {
    static let carrier = Carrier(name: "Prairie Haulers LLC", usdotNumber: "1234567", address: "1200 W Industrial Dr, Joliet IL")

    func pack() throws -> (pdf: URL, fixture: DVIRFixture) {
        let f = try DVIRFixture(drives: DVIRChainTests.drives, dvirs: DVIRChainTests.dvirs)
        let request = ReportRequest(period: .month(2026, 10), zone: .utc, units: .metric, currency: "USD", dvirPolicy: .law, generatedAt: 0,
                                    asOf: CivilDate(year: 2026, month: 11, day: 1)!, carrier: Self.carrier)
        let out = try ReportFixture.temporaryDirectory("evidence")
        let files = try EvidencePack.write(f.t.warehouse, request: request, units: ["T-01"], to: out, printer: try PDFPrinter.find())
        XCTAssertEqual(files.map(\.lastPathComponent), ["evidence-T-01-2026-10.pdf"])
        return (files[0], f)
    }

    func tool(_ name: String, _ arguments: [String]) throws -> ToolRunner.Result {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/" + name) else {
            XCTFail("\(name) is needed: run `make deps` (Debian package poppler-utils)")
            throw CocoaError(.fileNoSuchFile)
        }
        return try ToolRunner.run("/usr/bin/" + name, arguments)
    }

    func testEveryPageNamesTheCarrierTheVehicleAndItsNumber() throws {
        let (pdf, _) = try pack()
        let text = try tool("pdftotext", ["-layout", pdf.path, "-"]).stdout
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init).filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        XCTAssertGreaterThanOrEqual(pages.count, 7, "a cover and six sections, each on its own page")
        for (i, page) in pages.enumerated() {
            XCTAssertTrue(page.contains("page \(i + 1) of \(pages.count)"), "page \(i + 1): \(page.suffix(300))")
            XCTAssertTrue(page.contains("Prairie Haulers LLC · USDOT 1234567"), "page \(i + 1) header")
            XCTAssertTrue(page.contains("Unit T-01 · VIN 1FTFW1E50PFA00001 · 2026-10"), "page \(i + 1) header")
            XCTAssertTrue(page.contains("policy law"), "page \(i + 1) footer")
        }
        let all = pages.joined()
        for expected in ["DVIR evidence pack: T-01", "1200 W Industrial Dr, Joliet IL", "2026-10-01 – 2026-10-31", "Contents", "DVIR register",
                         "Signature chains", "Defects and work orders", "reviewed before the repair was", "reviewed 2026-10-08 07:30 by Ann Lee", "Retention"] {
            XCTAssertTrue(all.contains(expected), expected)
        }
    }

    /// The contents give each section's page, and each is the page the section starts on, as
    /// pdftotext reads the printed file: its heading is the first line under the running header
    /// of that page.
    func testTheContentsGiveThePageEachSectionStartsOn() throws {
        let (pdf, _) = try pack()
        let cover = try tool("pdftotext", ["-layout", "-f", "1", "-l", "1", pdf.path, "-"]).stdout
        var listed: [(title: String, page: Int)] = []
        let entry = try NSRegularExpression(pattern: #"^\s*(\S.*?)\s{2,}(\d+)\s*$"#)
        for line in cover.components(separatedBy: "\n").drop(while: { $0.trimmingCharacters(in: .whitespaces) != "Contents" }) {
            let ns = line as NSString
            guard let m = entry.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)), let page = Int(ns.substring(with: m.range(at: 2))) else { continue }
            listed.append((ns.substring(with: m.range(at: 1)), page))
        }
        XCTAssertEqual(listed.map(\.title), ["Summary", "DVIR register", "Signature chains", "Defects and work orders", "Driven with an uncertified safety defect",
                                              "Drivers with an expired licence or medical card", "Drivers whose licence class does not cover the vehicle",
                                              "Licences and medical cards expired or due within 90 days", "Retention", "Data quality and sources"], cover)
        XCTAssertEqual(listed.map(\.page), listed.map(\.page).sorted(), "in page order")
        let count = try tool("pdfinfo", [pdf.path]).stdout.components(separatedBy: "\n").first { $0.hasPrefix("Pages:") }
        let pages = try XCTUnwrap(count.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) })
        XCTAssertEqual(listed.first?.page, 2, "the cover is page 1")
        for (title, page) in listed {
            XCTAssertLessThanOrEqual(page, pages)
            let text = try tool("pdftotext", ["-layout", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]).stdout
            let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // Line 0 is the running header (carrier · USDOT, unit · VIN · period).
            XCTAssertTrue(lines.first?.contains("USDOT 1234567") ?? false, "page \(page): \(lines.prefix(3))")
            XCTAssertEqual(lines.dropFirst().first, title, "page \(page) should start \(title): \(lines.prefix(4))")
        }
    }

    /// Each page rendered to pixels: ink in the top margin (the running header) and the bottom
    /// margin (the footer) of every page, and a page of real content, not blank.
    func testEveryPageRendersWithItsHeaderAndFooter() throws {
        let (pdf, _) = try pack()
        let dir = try ReportFixture.temporaryDirectory("evidence-pages")
        let r = try tool("pdftoppm", ["-r", "72", "-gray", pdf.path, dir.appendingPathComponent("p").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".pgm") }.sorted()
        XCTAssertGreaterThanOrEqual(pages.count, 7)
        for name in pages {
            let image = try PGM(Data(contentsOf: dir.appendingPathComponent(name)))
            // A4 landscape at 72 dpi is 842 × 595; the margins are 18 mm (51 px) at the top and 15 mm (42 px) at the bottom.
            XCTAssertEqual([image.width, image.height], [842, 595], name)
            XCTAssertGreaterThan(image.dark(rows: 0..<48), 30, "\(name): no header")
            XCTAssertGreaterThan(image.dark(rows: (image.height - 40)..<image.height), 30, "\(name): no footer")
            XCTAssertGreaterThan(image.dark(rows: 48..<(image.height - 40)), 300, "\(name): blank page")
        }
    }

    /// An engine that fails and leaves a log that cannot be read: the error says the log cannot
    /// be read and why (before, the unreadable log read as an empty one: "…(exit 3): ").
    func testAFailedPrintWhoseLogCannotBeReadSaysSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The stand-in engine puts a folder where its stderr log was (the log is in the profile
        // folder of `--user-data-dir`), then fails.
        let engine = dir.appendingPathComponent("engine.sh")
        try """
            #!/bin/sh
            for a in "$@"; do case "$a" in --user-data-dir=*) p="${a#--user-data-dir=}";; esac; done
            rm -f "$p/stderr.txt" && mkdir "$p/stderr.txt"
            exit 3
            """.write(to: engine, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(engine.path, 0o755), 0)
        let html = dir.appendingPathComponent("pack.html")
        try "<html></html>".write(to: html, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PDFPrinter(executable: engine.path).print(html, to: dir.appendingPathComponent("pack.pdf"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("(exit 3)") && text.contains("stderr.txt cannot be read (Is a directory)"), text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pack.pdf").path))
    }

    func testAMissingEngineIsAnErrorNamingThePackage() {
        XCTAssertThrowsError(try PDFPrinter.find(environment: ["PATH": "/nonexistent"])) { error in
            XCTAssertTrue("\(error)".contains("install the Debian package `chromium`"), "\(error)")
        }
    }
}

/// A binary PGM (P5, 8-bit), as `pdftoppm -gray` writes it.
struct PGM {
    var width: Int, height: Int, pixels: [UInt8]

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [String] = [], i = 0, current = ""
        while fields.count < 4, i < bytes.count {
            let c = bytes[i]; i += 1
            if c == 0x23 { while i < bytes.count, bytes[i] != 0x0A { i += 1 }; continue }   // a comment
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { if !current.isEmpty { fields.append(current); current = "" } } else { current.append(Character(UnicodeScalar(c))) }
        }
        guard fields.count == 4, fields[0] == "P5", let w = Int(fields[1]), let h = Int(fields[2]), bytes.count - i >= w * h else { throw CocoaError(.fileReadCorruptFile) }
        width = w; height = h; pixels = Array(bytes[i..<(i + w * h)])
    }

    /// Pixels of ink in the given rows: darker than light grey (small antialiased text is grey).
    func dark(rows: Range<Int>) -> Int {
        rows.clamped(to: 0..<height).reduce(0) { n, y in n + pixels[(y * width)..<((y + 1) * width)].filter { $0 < 160 }.count }
    }
}
