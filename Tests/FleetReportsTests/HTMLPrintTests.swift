import XCTest
import GRDB
@testable import FleetReports
import FleetTestSupport

/// Every report page, printed and on screen, in headless Chromium (Debian `chromium`, and
/// `pdftotext` from `poppler-utils`; `make test-tools` installs both), on the sample fleet of
/// `SampleReportGoldenTests`.
///
/// Print: each page goes to PDF at Letter landscape (the page's `@page { size: landscape }` on
/// Chromium's default paper, the narrower of the two) and the two widest at A4 landscape too;
/// `pdftotext -bbox` then gives every word with its position, and `printCheck` asserts that
/// every column header of every table is on the page where the table's title is (Chromium
/// drops what overflows the paper, which is how the cost table lost cost per mi, cost per
/// hour, fuel and MPG and the DVIR register its last four columns), that every page wholly
/// inside a table repeats its header row, that no two words on a line overlap (a number wider
/// than its cell), that no page ends with a heading, and that every page is landscape.
/// Screen: a copy of each page with a measuring script, laid out at 1280 × 900 px, reports
/// whether the page scrolls sideways and whether any cell's text is wider than its cell.
final class HTMLPrintTests: XCTestCase {
    static let reports: [any Report.Type] = [SummaryReport.self, CostReport.self, UtilizationReport.self,
                                             MaintenanceDueReport.self, DVIRComplianceReport.self, TripsReport.self]

    func testEveryReportPrintsEveryColumnOnLetterLandscape() throws {
        let dir = try ReportFixture.temporaryDirectory()
        for report in Self.reports {
            let html = try writeHTML(report, to: dir)
            let pdf = try printPDF(html, paper: nil)
            let result = try check(pdf: pdf, html: html)
            XCTAssertTrue(result.hasPrefix("OK "), "\(report.name): \(result)")
            // Sane page counts: a landscape page holds well over 15 one-line rows; before the
            // column widths, the sample's DVIR report took 12 pages for its 92 rows.
            let rows = try tableRows(html)
            XCTAssertLessThanOrEqual(try pageCount(pdf), 2 + rows / 15, "\(report.name): \(rows) rows")
        }
    }

    func testTheWidestReportsPrintEveryColumnOnA4Landscape() throws {
        let dir = try ReportFixture.temporaryDirectory()
        for report in [CostReport.self, DVIRComplianceReport.self] as [any Report.Type] {
            let html = try writeHTML(report, to: dir)
            let pdf = try printPDF(html, paper: "A4 landscape")
            let result = try check(pdf: pdf, html: html)
            XCTAssertTrue(result.hasPrefix("OK "), "\(report.name): \(result)")
            let info = try ToolRunner.run("/usr/bin/pdfinfo", [pdf.path])
            XCTAssertTrue(info.stdout.contains("(A4)"), info.stdout)
        }
    }

    /// At 1280 px nothing is cut: the page never scrolls sideways, no number is wider than its
    /// cell, and every table up to 220 digit widths (the 22-column cost table) fits the window
    /// whole; a wider one (the DVIR register) scrolls inside its own frame.
    func testEveryReportFitsA1280PixelWindow() throws {
        let dir = try ReportFixture.temporaryDirectory()
        for report in Self.reports {
            let html = try writeHTML(report, to: dir)
            let lines = try measure(html, width: 1280)
            XCTAssertTrue(lines.first?.hasPrefix("page ") ?? false, "\(report.name): \(lines)")
            guard let page = lines.first?.split(separator: " ").compactMap({ Int($0) }), page.count == 2 else { continue }
            XCTAssertLessThanOrEqual(page[0], page[1], "\(report.name) scrolls sideways at 1280 px")
            for line in lines.dropFirst() {
                // table <i> <chars> <wrap clientWidth> <wrap scrollWidth> <overflowing cells>
                let f = line.split(separator: " ").map(String.init)
                guard f.count == 6, let chars = Int(f[2]), let client = Int(f[3]), let scroll = Int(f[4]) else { continue }
                XCTAssertEqual(f[5], "0", "\(report.name) \(line): a cell's text is wider than the cell")
                if chars > 0, chars <= 220 { XCTAssertLessThanOrEqual(scroll, client, "\(report.name) \(line): the table is cut at 1280 px") }
            }
            if report.name == CostReport.name {
                XCTAssertTrue(lines.contains { $0.hasPrefix("table 0 ") && $0.split(separator: " ")[3] == $0.split(separator: " ")[4] },
                              "the cost table fits at 1280 px: \(lines)")
            }
        }
    }

    // MARK: helpers

    private func writeHTML(_ report: any Report.Type, to dir: URL) throws -> URL {
        let sample = try SampleReportGoldenTests.sharedSample(), request = SampleReportGoldenTests.request
        let output = try sample.warehouse.warehouse.pool.read { db in try ReportWriter.checked(report.init().run(db, request), db, request) }
        return try HTMLFormat().write(output, to: dir)[0]
    }

    private func tableRows(_ html: URL) throws -> Int {
        try String(contentsOf: html, encoding: .utf8).components(separatedBy: "<tr>").count - 1
    }

    static let chromium = "/usr/bin/chromium"

    private func chromium(_ arguments: [String]) throws -> ToolRunner.Result {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium), FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else {
            XCTFail("headless Chromium and pdftotext are needed: run `make test-tools` (Debian packages chromium and poppler-utils)")
            throw CocoaError(.fileNoSuchFile)
        }
        let profile = try ReportFixture.temporaryDirectory("chromium-profile")
        defer { try? FileManager.default.removeItem(at: profile) }   // a profile is megabytes
        return try ToolRunner.run("/usr/bin/timeout", ["120", Self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                       "--user-data-dir=\(profile.path)"] + arguments)
    }

    /// Prints `html` to PDF; `paper` is an `@page` size added in a copy (as a user's print dialog would choose it).
    private func printPDF(_ html: URL, paper: String?) throws -> URL {
        var source = html
        if let paper {
            source = html.deletingPathExtension().appendingPathExtension("paper.html")
            let text = try String(contentsOf: html, encoding: .utf8)
                .replacingOccurrences(of: "</head>", with: "<style>@page { size: \(paper); }</style></head>")
            try text.write(to: source, atomically: true, encoding: .utf8)
        }
        let pdf = html.deletingPathExtension().appendingPathExtension(paper == nil ? "pdf" : "paper.pdf")
        let r = try chromium(["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", source.absoluteString])
        XCTAssertTrue(FileManager.default.fileExists(atPath: pdf.path), "chromium printed nothing: \(r.status) \(r.stderr)")
        return pdf
    }

    private func pageCount(_ pdf: URL) throws -> Int {
        let info = try ToolRunner.run("/usr/bin/pdfinfo", [pdf.path]).stdout
        return info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    private func check(pdf: URL, html: URL) throws -> String {
        let r = try ToolRunner.run("/usr/bin/env", ["python3", "-c", Self.printCheck, pdf.path, html.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Lays out a copy of `html` with `measureScript` at `width` px and returns its lines.
    private func measure(_ html: URL, width: Int) throws -> [String] {
        let copy = html.deletingPathExtension().appendingPathExtension("measure.html")
        try String(contentsOf: html, encoding: .utf8).replacingOccurrences(of: "</body>", with: Self.measureScript + "</body>")
            .write(to: copy, atomically: true, encoding: .utf8)
        let r = try chromium(["--window-size=\(width),900", "--dump-dom", copy.absoluteString])
        guard let start = r.stdout.range(of: "<pre id=\"measure\">"), let end = r.stdout.range(of: "</pre>", range: start.upperBound..<r.stdout.endIndex) else {
            XCTFail("no measurement from chromium: \(r.status) \(r.stderr.suffix(500))")
            return []
        }
        return r.stdout[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    /// `page <document scrollWidth> <innerWidth>`, then per table
    /// `table <i> <--chars> <frame clientWidth> <frame scrollWidth> <cells whose text is wider than the cell>`.
    static let measureScript = """
    <script>
    addEventListener('load', () => {
      const out = ['page ' + document.documentElement.scrollWidth + ' ' + innerWidth];
      document.querySelectorAll('table').forEach((t, i) => {
        let over = 0;
        t.querySelectorAll('th, td').forEach(c => { if (c.scrollWidth > c.clientWidth + 1) over++; });
        const chars = parseInt(getComputedStyle(t).getPropertyValue('--chars')) || 0;
        out.push(['table', i, chars, t.parentElement.clientWidth, t.parentElement.scrollWidth, over].join(' '));
      });
      const pre = document.createElement('pre');
      pre.id = 'measure';
      pre.textContent = out.join(String.fromCharCode(10));
      document.body.appendChild(pre);
    });
    </script>
    """

    /// Arguments: the PDF and the HTML it was printed from. Prints `OK <n> pages` or one line per problem.
    static let printCheck = #"""
    import sys, subprocess, re, html
    from html.parser import HTMLParser

    pdf, page = sys.argv[1], sys.argv[2]

    class Tables(HTMLParser):
        """Each table's title (the h2/h3 before it) and header cell texts."""
        def __init__(self):
            super().__init__(); self.tables = []; self.heading = None; self.grab = None; self.text = ""; self.titles = []
        def handle_starttag(self, tag, attrs):
            if tag in ("h2", "h3", "th"): self.grab = tag; self.text = ""
            if tag == "table": self.tables.append((self.heading, []))
        def handle_endtag(self, tag):
            if tag == self.grab:
                t = " ".join(self.text.split())
                if tag == "th": self.tables[-1][1].append(t)
                else: self.heading = t; self.titles.append(t)
                self.grab = None
        def handle_data(self, data):
            if self.grab: self.text += data

    p = Tables(); p.feed(open(page, encoding="utf-8").read())
    xml = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for m in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', xml, re.S):
        words = [(float(a), float(b), float(c), float(d), html.unescape(t)) for a, b, c, d, t in
                 re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', m.group(3))]
        pages.append((float(m.group(1)), float(m.group(2)), words))
    errors = []
    for i, (w, h, words) in enumerate(pages):
        if w <= h: errors.append(f"page {i+1} is portrait ({w:.0f} x {h:.0f} pt)")
        lines = {}
        for x0, y0, x1, y1, t in words: lines.setdefault(round(y0 * 2), []).append((x0, x1, t))
        for y, ws in lines.items():
            ws.sort()
            for a, b in zip(ws, ws[1:]):
                if b[0] < a[1] - 0.5: errors.append(f"page {i+1}: '{a[2]}' and '{b[2]}' overlap")
        if i + 1 < len(pages) and lines:
            last = " ".join(t for _, _, t in sorted(lines[max(lines)]))
            if last in p.titles: errors.append(f"page {i+1} ends with the heading '{last}'")
    texts = [" ".join(t for *_, t in words) for _, _, words in pages]
    starts = []
    for title, headers in p.tables:
        where = [i for i, t in enumerate(texts) if title and title in t and (not starts or i >= starts[-1])]
        if not where: errors.append(f"table '{title}': its title is on no page"); starts.append(starts[-1] if starts else 0); continue
        starts.append(where[0])
        near = " ".join(texts[where[0]:where[0] + 2]).split()
        for header in headers:
            for word in header.split():
                if word not in near: errors.append(f"table '{title}': column '{header}' ('{word}') is not on its page")
    # A page wholly inside a table (after its title's page, before the next title's) repeats its header row.
    for k, (title, headers) in enumerate(p.tables):
        end = starts[k + 1] if k + 1 < len(starts) else len(pages)
        for i in range(starts[k] + 1, end):
            words = texts[i].split()
            missing = [h for h in headers if not all(w in words for w in h.split())]
            if missing: errors.append(f"table '{title}': page {i+1} lacks the header row ({missing[0]})")
    print("\n".join(errors) if errors else f"OK {len(pages)} pages")
    """#
}
