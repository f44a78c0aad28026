import FleetCore
import FleetWarehouse

/// Whether the warehouse holds what the rules say a carrier keeps, as of the period's end
/// (docs/METRICS.md, "DVIR retention"):
/// - DVIRs, their repair certifications and the next driver's review: three months from the
///   date of the report (49 CFR 396.11(a)(4)), judged month by month;
/// - the periodic (annual) inspection report: fourteen months from the inspection (396.21(b));
/// - the vehicle maintenance file: one year where the vehicle is housed, and six months after it
///   leaves the carrier's control (396.3(c)).
///
/// A window before the warehouse's first record of its kind is "not in FleetKit": FleetKit
/// cannot tell whether the carrier kept it elsewhere, so it is never called "missing".
enum DVIRRetention {
    static let columns = [ReportColumn("record", "Record", .text), ReportColumn("regulation", "Regulation", .text), ReportColumn("unit", "Unit", .text),
                          ReportColumn("from", "From", .date), ReportColumn("to", "To", .date), ReportColumn("held", "Held", .integer),
                          ReportColumn("status", "Status", .text)]

    static func table(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportTable {
        let filter = request.assetFilter()
        let filterArgs = filter.arguments.map(WarehouseArgument.text)
        func count(_ sql: String, _ args: [Int64]) throws -> Int {
            try reader.value(sql, args.map(WarehouseArgument.instant) + filterArgs, as: Int.self) ?? 0
        }
        let end = request.period.to
        var rows: [[ReportValue]] = []
        // The month rows count the report's units: all of them, or those `--assets` names.
        let scope = request.assets.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") }

        // DVIRs, certifications, reviews: the three months to the period's end, month by month.
        let windowStart = end.adding(days: 1).adding(months: -3)
        let firstDVIR = try reader.value("SELECT MIN(signed_at) FROM dvir", as: Int64.self).map { request.zone.day(of: $0) }
        var month = CivilDate(year: windowStart.year, month: windowStart.month, day: 1)!
        while month <= end {
            let from = max(month, windowStart), to = min(month.adding(months: 1).adding(days: -1), end)
            let a = request.zone.start(of: from), b = request.zone.start(of: to.adding(days: 1))
            let dvirs = try count("SELECT COUNT(*) FROM dvir v JOIN asset a ON a.id = v.asset_id WHERE v.signed_at >= ? AND v.signed_at < ? AND \(filter.sql)", [a, b])
            let defects = try count("""
                SELECT COUNT(*) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id JOIN asset a ON a.id = v.asset_id
                WHERE v.signed_at >= ? AND v.signed_at < ? AND \(filter.sql)
                """, [a, b])
            let certified = try count("""
                SELECT COUNT(*) FROM dvir_defect d JOIN dvir v ON v.id = d.dvir_id JOIN asset a ON a.id = v.asset_id
                WHERE v.signed_at >= ? AND v.signed_at < ? AND d.resolved_at IS NOT NULL AND \(filter.sql)
                """, [a, b])
            let withDefects = try count("""
                SELECT COUNT(*) FROM dvir v JOIN asset a ON a.id = v.asset_id
                WHERE v.signed_at >= ? AND v.signed_at < ? AND EXISTS (SELECT 1 FROM dvir_defect d WHERE d.dvir_id = v.id) AND \(filter.sql)
                """, [a, b])
            let reviewed = try count("""
                SELECT COUNT(*) FROM dvir v JOIN asset a ON a.id = v.asset_id
                WHERE v.signed_at >= ? AND v.signed_at < ? AND v.reviewed_at IS NOT NULL AND EXISTS (SELECT 1 FROM dvir_defect d WHERE d.dvir_id = v.id) AND \(filter.sql)
                """, [a, b])
            let coverage = Self.coverage(first: firstDVIR, from: from, to: to, what: "DVIR")
            rows.append(row("DVIRs", "49 CFR 396.11(a)(4): 3 months", scope, from, to, dvirs,
                            coverage ?? (dvirs > 0 ? "held" : "missing: no DVIR held")))
            rows.append(row("Repair certifications", "49 CFR 396.11(a)(4): 3 months", scope, from, to, certified,
                            coverage ?? (defects == 0 ? "no defects reported" : certified == defects ? "held for all \(defects) defects" : "\(defects - certified) of \(defects) defects not certified")))
            rows.append(row("Next-driver reviews", "49 CFR 396.11(a)(4): 3 months", scope, from, to, reviewed,
                            coverage ?? (withDefects == 0 ? "no DVIRs with defects" : reviewed == withDefects ? "held for all \(withDefects) DVIRs with defects"
                                         : "\(withDefects - reviewed) of \(withDefects) DVIRs with defects not reviewed")))
            month = month.adding(months: 1)
        }

        // Per vehicle: the annual inspection (14 months) and the maintenance file (1 year; 6 months after it leaves).
        let firstMaintenance = try reader.value("SELECT MIN(performed_at) FROM maintenance_record", as: Int64.self).map { request.zone.day(of: $0) }
        let label = "COALESCE(a.unit_number, a.vin, 'asset #' || a.id)"
        let vehicles = try reader.all("""
            SELECT a.id, \(label), a.retired_date FROM asset a
            WHERE a.kind != 'equipment' AND \(filter.sql) ORDER BY \(reader.dialect.ascending(label, text: true))
            """, filterArgs) { (id: try $0[0] as Int64, unit: try $0[1] as String, retired: try $0[2] as String?) }
        let endMs = request.zone.start(of: end.adding(days: 1))
        for v in vehicles {
            let id = v.id, unit = v.unit
            let annualFrom = end.adding(days: 1).adding(months: -14)
            // LOWER: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
            let last = try reader.value("""
                SELECT MAX(performed_at) FROM maintenance_record WHERE asset_id = ? AND LOWER(service_type) LIKE '%annual%' AND performed_at >= ? AND performed_at < ?
                """, [.integer(id), .instant(request.zone.start(of: annualFrom)), .instant(endMs)], as: Int64.self)
            let annualCoverage = Self.coverage(first: firstMaintenance, from: annualFrom, to: end, what: "maintenance record")
            rows.append(row("Annual inspection", "49 CFR 396.21(b): 14 months", unit, annualFrom, end, last == nil ? 0 : 1,
                            last.map { "held: inspected \(request.zone.day(of: $0))" } ?? annualCoverage ?? "missing: no annual inspection in 14 months"))
            let fileFrom = end.adding(days: 1).adding(months: -12)
            let held = try reader.value("SELECT COUNT(*) FROM maintenance_record WHERE asset_id = ? AND performed_at >= ? AND performed_at < ?",
                                        [.integer(id), .instant(request.zone.start(of: fileFrom)), .instant(endMs)], as: Int.self) ?? 0
            let status: String
            if let retired = v.retired.flatMap(CivilDate.init), retired.adding(months: 6) < end {
                status = "no longer required: left the fleet \(retired), kept 6 months after"
            } else if let c = Self.coverage(first: firstMaintenance, from: fileFrom, to: end, what: "maintenance record") {
                status = c
            } else {
                status = held > 0 ? "held" : "none held: no maintenance record in the year"
            }
            rows.append(row("Maintenance file", "49 CFR 396.3(c): 1 year; 6 months after the vehicle leaves", unit, fileFrom, end, held, status))
        }
        return ReportTable(name: "retention", title: "Retention (49 CFR 396.11(a)(4), 396.21(b), 396.3(c))", columns: columns, rows: rows,
                           note: "DVIRs, repair certifications and reviews are kept 3 months from the report's date; annual inspections 14 months; the maintenance file 1 year, and 6 months after the vehicle leaves. Before the warehouse's first record of a kind, the status is \"not in FleetKit\": it may be kept elsewhere.")
    }

    /// "not in FleetKit …" when [from, to] starts before the warehouse's first record of the
    /// kind (or there is none); nil when the warehouse covers the whole window.
    static func coverage(first: CivilDate?, from: CivilDate, to: CivilDate, what: String) -> String? {
        guard let first else { return "not in FleetKit: no \(what) imported" }
        if first > to { return "not in FleetKit: the warehouse's first \(what) is \(first)" }
        if first > from { return "partly in FleetKit: nothing before the warehouse's first \(what), \(first)" }
        return nil
    }

    static func row(_ record: String, _ regulation: String, _ unit: String?, _ from: CivilDate, _ to: CivilDate, _ held: Int, _ status: String) -> [ReportValue] {
        [.text(record), .text(regulation), unit.map { .text($0) } ?? .text("all"), .date(from), .date(to), .integer(Int64(held)), .text(status)]
    }
}
