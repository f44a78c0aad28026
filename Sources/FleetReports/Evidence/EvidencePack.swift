import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// What an auditor asks a carrier for, one vehicle at a time (`fleetkit report evidence`): one PDF
/// per vehicle with a cover (carrier, USDOT number, vehicle, VIN, period, DVIR policy), a table of
/// contents, the DVIR register, the signature chain of every defect and its findings, the defects
/// with their work orders, the days driven with an uncertified safety defect, the drivers who
/// drove it with an expired licence or medical card, the retention
/// status and the data-quality notes. Every page carries the carrier, the vehicle and the period
/// in its header and "page n of N" in its footer.
///
/// The figures are the DVIR compliance report's, run for the one vehicle in the same read
/// transaction, so the pack never disagrees with the report. It is printed from its HTML by
/// `PDFPrinter`; PDF is this pack's output only, not a format of every report.
public enum EvidencePack {
    /// `evidence-<unit>-<label>.pdf`.
    public static func fileName(unit: String, period: ReportPeriod) -> String {
        "evidence-" + ReportFileName.safe(unit) + "-" + ReportFileName.safe(period.label) + ".pdf"
    }

    /// Writes one PDF per vehicle in `units` (nil: every vehicle and trailer with a DVIR or a day
    /// of use in the period) under `directory`; returns the files in unit order.
    public static func write(_ warehouse: Warehouse, request: ReportRequest, units: [String]?, to directory: URL, printer: PDFPrinter,
                             progress: (URL) -> Void = { _ in }) throws -> [URL] {
        try AtomicFile.prepare(directory)
        let pages: [(unit: String, html: String)] = try warehouse.pool.read { db in
            let chosen = try units ?? vehicles(db, request)
            return try chosen.map { unit in (unit, try html(db, request, unit: unit)) }
        }
        var out: [URL] = []
        for page in pages {
            let pdf = directory.appendingPathComponent(fileName(unit: page.unit, period: request.period))
            try printNumbered(page.html, to: pdf, printer: printer)
            out.append(pdf)
            progress(pdf)
        }
        return out
    }

    /// Prints the pack with the page each section starts on in its contents. Only the print
    /// engine knows where pages break: the pack is printed once, the page of each section's
    /// anchor read back from the PDF (`PDFDestinations`), and printed again with those numbers,
    /// until the printed numbers are the pages read (the contents sit on the cover, and every
    /// section starts a page, so the second print normally settles it). A PDF whose targets
    /// cannot be read gets contents that say so, never numbers guessed.
    static func printNumbered(_ html: String, to pdf: URL, printer: PDFPrinter) throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-evidence-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: source) }
        let ids = sectionIDs(html)
        var shown: [String: Int]? = nil
        for _ in 0..<4 {
            try Data(withPageNumbers(html, shown).utf8).write(to: source)
            try printer.print(source, to: pdf)
            guard let found = PDFDestinations.pages(try Data(contentsOf: pdf)), ids.allSatisfy({ found[$0] != nil }) else {
                try Data(withPageNumbers(html, nil, unreadable: true).utf8).write(to: source)
                try printer.print(source, to: pdf)
                return
            }
            let pages = found.filter { ids.contains($0.key) }
            if pages == shown { return }
            shown = pages
        }
        throw FleetError.io(path: pdf.path, reason: "the contents' page numbers did not settle after 4 prints (the engine moves sections as the numbers change)")
    }

    /// The sections the contents lists, by the marker each entry carries.
    static func sectionIDs(_ html: String) -> [String] {
        html.components(separatedBy: "<span class=\"toc-page\" data-section=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    /// The contents with each section's page, or blank (the first print), or a note that the
    /// printed PDF's pages could not be read.
    static func withPageNumbers(_ html: String, _ pages: [String: Int]?, unreadable: Bool = false) -> String {
        var out = html
        for id in sectionIDs(html) {
            let marker = "<span class=\"toc-page\" data-section=\"\(id)\"></span>"
            let text = unreadable ? "page not known" : pages?[id].map(String.init) ?? ""
            out = out.replacingOccurrences(of: marker, with: "<span class=\"toc-page\" data-section=\"\(id)\">\(text)</span>")
        }
        return out
    }

    /// The vehicles and trailers that have a DVIR, or a day of use, in the period.
    static func vehicles(_ db: Database, _ request: ReportRequest) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT a.unit_number FROM asset a WHERE a.kind != 'equipment' AND a.unit_number IS NOT NULL AND (
                EXISTS (SELECT 1 FROM dvir v WHERE v.asset_id = a.id AND v.signed_at >= ? AND v.signed_at < ?)
                OR EXISTS (SELECT 1 FROM asset_day d WHERE d.asset_id = a.id AND d.day >= ? AND d.day <= ?))
            ORDER BY a.unit_number
            """, arguments: [request.start, request.end, request.period.from.description, request.period.to.description])
    }

    /// The pack's HTML for one vehicle.
    static func html(_ db: Database, _ request: ReportRequest, unit: String) throws -> String {
        guard let asset = try Row.fetchOne(db, sql: "SELECT id, vin, license_plate, make, model, year, kind FROM asset WHERE unit_number = ?", arguments: [unit]) else {
            throw FleetError.invalidArgument(name: "--assets", value: unit, hint: "no asset has this unit number; `fleetkit status` lists the units")
        }
        var one = request
        one.assets = [unit]
        let output = try ReportWriter.checked(DVIRComplianceReport().run(db, one), db, one)
        let m = output.metadata
        let zone = m.zone
        func table(_ name: String) -> ReportTable? { output.tables.first { $0.name == name } }
        let carrier = request.carrier
        let vin: String? = asset[1], plate: String? = asset[2]
        let vehicle = [asset[3] as String?, asset[4] as String?, (asset[5] as Int?).map(String.init)].compactMap { $0 }.joined(separator: " ")
        let header = [carrier.name ?? "carrier not set", carrier.usdotNumber.map { "USDOT \($0)" }].compactMap { $0 }.joined(separator: " · ")
        let vehicleLine = "Unit \(unit)" + (vin.map { " · VIN \($0)" } ?? "")
        func css(_ s: String) -> String {
            // A CSS string: quotes, backslashes and line breaks escaped; no markup can leave it.
            "\"" + s.unicodeScalars.map { c -> String in
                switch c {
                case "\"", "\\": return "\\" + String(c)
                case "\n", "\r", "<", ">": return "\\" + String(c.value, radix: 16) + " "
                default: return String(c)
                }
            }.joined() + "\""
        }
        let sections: [(id: String, title: String)] = [("summary", "Summary"), ("register", "DVIR register"), ("chains", "Signature chains"),
                                                      ("defects", "Defects and work orders"), ("violations", "Driven with an uncertified safety defect"),
                                                      ("drivers", "Drivers with an expired licence or medical card"),
                                                      ("licence", "Drivers whose licence class does not cover the vehicle"),
                                                      ("due", "Licences and medical cards expired or due within 90 days"),
                                                      ("retention", "Retention"), ("quality", "Data quality and sources")]
        var out = HTMLFormat.page(title: "DVIR evidence pack · \(unit) · \(m.period.label)")
        out = out.replacingOccurrences(of: "</style>", with: """
            @page { size: A4 landscape; margin: 18mm 10mm 15mm;
              @top-left { content: \(css(header)); font: 9px sans-serif; color: #5b6775; }
              @top-right { content: \(css(vehicleLine + " · " + m.period.label)); font: 9px sans-serif; color: #5b6775; }
              @bottom-left { content: \(css("DVIR evidence pack · policy " + request.dvirPolicy.rawValue + " · generated " + HTMLFormat.generated(m))); font: 9px sans-serif; color: #5b6775; }
              @bottom-right { content: "page " counter(page) " of " counter(pages); font: 9px sans-serif; color: #5b6775; } }
            body { max-width: none; padding: 0; font-size: 10px; }
            section.pack { break-before: page; }
            section.cover dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 24px; font-size: 13px; }
            section.cover dt { color: #5b6775; }
            section.cover dd { margin: 0; font-weight: 600; }
            ol.chain { margin: 4px 0 10px; padding-left: 20px; }
            ol.toc { font-size: 12px; max-width: 140mm; }
            ol.toc li { display: flex; gap: 12px; }
            ol.toc li .toc-page { margin-left: auto; font-variant-numeric: tabular-nums; }
            table.pack { width: 100%; table-layout: auto; font-size: 8.5px; }
            table.pack th, table.pack td { padding: 2px 4px; overflow-wrap: break-word; hyphens: auto; }
            thead { display: table-header-group; }
            tr { break-inside: avoid; }
            </style>
            """)
        // Cover.
        out += "<section class=\"cover\" id=\"cover\">\n<h1>DVIR evidence pack: \(e(unit))</h1>\n<dl>\n"
        let cover: [(String, String)] = [
            ("Carrier", carrier.name ?? "not set (fleetkit init --carrier-name)"), ("USDOT number", carrier.usdotNumber ?? "not set (fleetkit init --usdot)"),
            ("Carrier address", carrier.address ?? "not set"), ("Vehicle", unit + (vehicle.isEmpty ? "" : " (\(vehicle))")), ("VIN", vin ?? "not known"),
            ("Plate", plate ?? "not known"), ("Period", "\(m.period.from) – \(m.period.to) (\(m.period.label))"), ("DVIR policy", request.dvirPolicy.statement),
            ("Time zone", m.timeZone), ("Status", m.statusLine), ("Data through", m.dataThroughText), ("Generated", HTMLFormat.generated(m)),
        ]
        for (k, v) in cover { out += "<dt>\(e(k))</dt><dd>\(e(v))</dd>\n" }
        out += "</dl>\n<h2>Contents</h2>\n<ol class=\"toc\">\n" + sections.map {
            "<li><a href=\"#\($0.id)\">\(e($0.title))</a><span class=\"toc-page\" data-section=\"\($0.id)\"></span></li>\n"
        }.joined() + "</ol>\n</section>\n"

        func section(_ id: String, _ title: String, _ body: String) {
            out += "<section class=\"pack\" id=\"\(id)\">\n<h2>\(e(title))</h2>\n\(body)</section>\n"
        }
        // One vehicle: its summary line is its total, so the totals row is left out.
        section("summary", "Summary", try table("by_vehicle").map { try render($0, zone: zone, drop: ["unit", "vin"], totals: false) } ?? "")
        // The vehicle is in every page's header; the status, location and the mechanic's notes
        // stay in the report's register, so the signatures fit a page across.
        section("register", "DVIR register", try table("register").map {
            try render($0, zone: zone, drop: ["unit", "vin", "plate", "status", "location", "mechanic_signed", "mechanic_notes"])
        } ?? "")
        // The signatures' times are in the chains listed above the findings: the table keeps the
        // finding, its decision and its evidence, so it fits a page across.
        section("chains", "Signature chains", try chains(db, one, asset: asset[0]) + (table("findings").map {
            try render($0, zone: zone, drop: ["unit", "reported", "certified", "certification", "reviewed", "reviewed_by"])
        } ?? ""))
        section("defects", "Defects and work orders", try defects(db, one, asset: asset[0]))
        section("violations", "Driven with an uncertified safety defect", try table("violations").map { try render($0, zone: zone, drop: ["unit"]) } ?? "")
        section("drivers", "Drivers with an expired licence or medical card", try table("driver_documents").map { try render($0, zone: zone, drop: ["unit"]) } ?? "")
        section("licence", "Drivers whose licence class does not cover the vehicle", try table("licence_class").map { try render($0, zone: zone, drop: ["unit"]) } ?? "")
        section("due", "Licences and medical cards expired or due within 90 days", try table("documents_due").map { try render($0, zone: zone, drop: []) } ?? "")
        section("retention", "Retention", try table("retention").map { try render($0, zone: zone, drop: []) } ?? "")
        section("quality", "Data quality and sources", try render(output.dataQuality, zone: zone, drop: [])
                + "<h3>Sources</h3>\n<ul>\n" + m.sources.map { "<li>\(e($0.path)) (\(e($0.format)), SHA-256 <code>\(e($0.sha256))</code>)</li>\n" }.joined() + "</ul>\n")
        return out + "</body>\n</html>\n"
    }

    /// A table in full (a pack is never cut at `HTMLFormat.maxRows`), without the `drop` columns.
    static func render(_ t: ReportTable, zone: TimeZone, drop: Set<String>, totals showTotals: Bool = true) throws -> String {
        let keep = t.columns.indices.filter { !drop.contains(t.columns[$0].name) }
        var out = t.note.map { "<p class=\"note\">\(e($0))</p>\n" } ?? ""
        guard t.rowCount > 0 else { return out + "<p class=\"empty\">None in this period.</p>\n" }
        out += "<table class=\"pack\">\n<thead><tr>" + keep.map { i in
            let c = t.columns[i]
            return "<th scope=\"col\">\(e(c.title + (c.unit.map { c.type == .percent ? "" : " (\($0))" } ?? "")))</th>"
        }.joined() + "</tr></thead>\n<tbody>\n"
        func row(_ values: [ReportValue]) -> String {
            "<tr>" + keep.map { i in
                let (cls, text) = HTMLFormat.cell(i < values.count ? values[i] : .null, type: t.columns[i].type, zone: zone)
                return cls.isEmpty ? "<td>\(e(text))</td>" : "<td class=\"\(cls)\">\(e(text))</td>"
            }.joined() + "</tr>\n"
        }
        try t.forEachRow { out += row($0) }
        out += "</tbody>\n"
        if showTotals, let totals = t.totals { out += "<tfoot>" + row(totals) + "</tfoot>\n" }
        return out + "</table>\n"
    }

    /// Each defect's chain as three signatures: reported → certified → reviewed.
    static func chains(_ db: Database, _ request: ReportRequest, asset: Int64) throws -> String {
        let rows = try Row.fetchAll(db, sql: """
            SELECT v.source_key, v.type, COALESCE(v.inspector_name, ''), d.component, COALESCE(d.defect_type, ''), COALESCE(d.created_at, v.signed_at),
                   d.resolved_at, d.certification, COALESCE(d.resolved_by, v.mechanic_name), v.reviewed_at, v.reviewed_by
            FROM dvir v JOIN dvir_defect d ON d.dvir_id = v.id WHERE v.asset_id = ? AND v.signed_at >= ? AND v.signed_at < ?
            ORDER BY v.signed_at, d.source_key
            """, arguments: [asset, request.start, request.end])
        guard !rows.isEmpty else { return "<p class=\"empty\">No defects reported in this period.</p>\n" }
        func t(_ ms: Int64?) -> String { ms.map { ZonedTime($0, in: request.zone.timeZone).display } ?? "—" }
        var out = "<ol class=\"chain\">\n"
        for r in rows {
            let component: String = r[3]
            out += "<li><strong>DVIR \(e(DVIRChain.dvirLabel(r[0])))</strong> (\(e((r[1] as String).replacingOccurrences(of: "_", with: "-")))), "
                + "\(e(component)) (\(e(DVIRItems.text(component)))): \(e(r[4] as String)). "
                + "Reported \(e(t(r[5]))) by \(e((r[2] as String).isEmpty ? "unnamed" : r[2] as String)) → "
                + ((r[6] as Int64?) == nil ? "<strong>not certified</strong>" : "certified \(e(r[7] as String? ?? "")) \(e(t(r[6]))) by \(e(r[8] as String? ?? "unnamed"))") + " → "
                + ((r[9] as Int64?) == nil ? "<strong>no review signature</strong>" : "reviewed \(e(t(r[9]))) by \(e(r[10] as String? ?? "unnamed"))") + "</li>\n"
        }
        return out + "</ol>\n"
    }

    /// Each defect with the maintenance records that repaired it: a work order naming the DVIR,
    /// or a record of the vehicle for the component between the report and a day after the
    /// certification.
    static func defects(_ db: Database, _ request: ReportRequest, asset: Int64) throws -> String {
        let defects = try Row.fetchAll(db, sql: """
            SELECT v.source_key, d.component, COALESCE(d.defect_type, ''), COALESCE(d.comment, ''), d.safety_critical, COALESCE(d.created_at, v.signed_at), d.resolved_at, d.certification
            FROM dvir v JOIN dvir_defect d ON d.dvir_id = v.id WHERE v.asset_id = ? AND v.signed_at >= ? AND v.signed_at < ?
            ORDER BY v.signed_at, d.source_key
            """, arguments: [asset, request.start, request.end])
        guard !defects.isEmpty else { return "<p class=\"empty\">No defects reported in this period.</p>\n" }
        let records = try Row.fetchAll(db, sql: """
            SELECT COALESCE(work_order, ''), service_type, performed_at, cost_minor, currency, COALESCE(vendor, '') FROM maintenance_record
            WHERE asset_id = ? AND performed_at >= ? AND performed_at < ? ORDER BY performed_at
            """, arguments: [asset, request.start - 31 * 86_400_000, request.end + 31 * 86_400_000])
        func t(_ ms: Int64?) -> String { ms.map { ZonedTime($0, in: request.zone.timeZone).display } ?? "" }
        var out = "<p class=\"note\">A work order matches a defect when it names the DVIR, or is the vehicle's record for the component between the report and a day after the certification.</p>\n"
        out += "<table class=\"pack\">\n<thead><tr><th>DVIR</th><th>Component</th><th>396.11(a)(1) item</th><th>Safety critical (source)</th><th>Defect</th><th>Reported</th><th>Certified</th><th>Certification</th><th>Work orders</th></tr></thead>\n<tbody>\n"
        for d in defects {
            let label = DVIRChain.dvirLabel(d[0]), component: String = d[1], created: Int64 = d[5], resolved: Int64? = d[6]
            let matched = records.filter { r in
                let order: String = r[0], type: String = r[1], at: Int64 = r[2]
                if !order.isEmpty, order == label || order.hasSuffix("-" + label) { return true }
                return type.contains(component) && at >= created && at <= (resolved ?? request.end) + 86_400_000
            }
            let orders = matched.map { r -> String in
                let cost = (r[3] as Int64?).map { ValueText.groupedMoney(minor: $0, currency: r[4] as String? ?? "USD") } ?? "no cost"
                return "\((r[0] as String).isEmpty ? "no work order number" : r[0] as String) \(r[1] as String) \(t(r[2])) \(cost) \(r[5] as String)"
            }
            let text = [d[2] as String, d[3] as String].filter { !$0.isEmpty }.joined(separator: ": ")
            out += "<tr><td>\(e(label))</td><td>\(e(component))</td><td>\(e(DVIRItems.text(component)))</td><td>\((d[4] as Bool) ? "yes" : "no")</td><td>\(e(text))</td>"
                + "<td class=\"date\">\(e(t(created)))</td><td class=\"date\">\(e(t(resolved)))</td><td>\(e(d[7] as String? ?? "not certified"))</td>"
                + "<td>\(e(orders.isEmpty ? "none found" : orders.joined(separator: "; ")))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func e(_ s: String) -> String { HTMLEscape.escape(s) }
}
