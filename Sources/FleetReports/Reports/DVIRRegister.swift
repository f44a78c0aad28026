import GRDB
import FleetCore

/// The DVIR register an auditor asks for: every inspection in the window with its signatures,
/// each defect with its repair certification, and the next driver's review (49 CFR 396.11(a)(3),
/// 396.13(b)); plus the three-month retention check (396.11(a)(4)).
enum DVIRRegister {
    /// The register has a row per inspection and defect, so it grows with the data (a year of
    /// daily DVIRs for 1,000 vehicles is 365,000 rows): it is counted in one pass over a cursor
    /// and held only up to `ReportRequest.heldRowLimit`; past that it is a `ReportRowStream` that
    /// runs the same query again, in the same read transaction, for each format, and checks that
    /// a full walk still gives the count (the cost report's detail does the same).
    static func table(_ db: Database, _ request: ReportRequest) throws -> ReportTable {
        let sql = """
            SELECT COALESCE(a.unit_number, a.vin, 'asset #' || a.id), v.source_key, v.type, v.started_at, v.signed_at, v.safety_status, v.odometer_m, v.location,
                   COALESCE(v.inspector_name, dr.name), v.mechanic_name, v.mechanic_signed_at, v.mechanic_notes, v.reviewed_by, v.reviewed_at,
                   d.component, d.defect_type, d.comment, d.safety_critical, d.created_at, d.resolved_at, d.resolved_by, d.certification
            FROM dvir v JOIN asset a ON a.id = v.asset_id LEFT JOIN driver dr ON dr.id = v.driver_id LEFT JOIN dvir_defect d ON d.dvir_id = v.id
            WHERE v.signed_at >= ? AND v.signed_at < ? AND \(request.assetFilter().sql)
            ORDER BY v.signed_at, v.source_key, d.source_key
            """
        let values: [(any DatabaseValueConvertible)?] = [request.start, request.end] + request.assetFilter().arguments.map { $0 as (any DatabaseValueConvertible)? }
        let arguments = StatementArguments(values)
        func t(_ v: String?) -> ReportValue { .text(v ?? "") }
        func at(_ v: Int64?) -> ReportValue { v.map { .datetime($0) } ?? .null }
        func row(_ r: Row) -> [ReportValue] {
            [.text(r[0]), .text((r[1] as String).replacingOccurrences(of: "dvir:", with: "")), .text((r[2] as String).replacingOccurrences(of: "_", with: "-")),
             at(r[3]), at(r[4]), .text(r[5]), (r[6] as Double?).map { .number(request.distance($0)) } ?? .null, t(r[7]), t(r[8]), t(r[9]), at(r[10]),
             t(r[11]), t(r[12]), at(r[13]), t(r[14]), t(r[15]), t(r[16]), (r[17] as Bool?).map { .text($0 ? "yes" : "no") } ?? .text(""),
             at(r[18]), at(r[19]), t(r[20]), t(r[21])]
        }
        var held: [[ReportValue]]? = []
        var count = 0
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let r = try rows.next() {
            count += 1
            if held != nil { if count <= request.heldRowLimit { held!.append(row(r)) } else { held = nil } }
        }
        let stream = held != nil ? nil : ReportRowStream(table: "register", count: count) { limit, body in
            let again = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var walked = 0
            while limit.map({ walked < $0 }) ?? true, let r = try again.next() {
                walked += 1
                try body(row(r))
            }
            if limit == nil, walked != count {
                throw ReportRowStream.Error.changed(table: "register", detail: "\(walked) rows, expected \(count)")
            }
        }
        return ReportTable(
            name: "register", title: "DVIR register",
            columns: [ReportColumn("unit", "Unit", .text), ReportColumn("dvir", "DVIR", .text), ReportColumn("type", "Type", .text),
                      ReportColumn("started", "Started", .datetime), ReportColumn("signed", "Driver signed", .datetime), ReportColumn("status", "Status", .text),
                      ReportColumn("odometer", "Odometer", .distance, unit: request.distanceUnit), ReportColumn("location", "Location", .text),
                      ReportColumn("driver", "Driver", .text), ReportColumn("mechanic", "Mechanic", .text), ReportColumn("mechanic_signed", "Mechanic signed", .datetime),
                      ReportColumn("mechanic_notes", "Mechanic notes", .text), ReportColumn("reviewed_by", "Reviewed by", .text), ReportColumn("reviewed", "Reviewed", .datetime),
                      ReportColumn("component", "Defect component", .text), ReportColumn("defect_type", "Defect", .text), ReportColumn("comment", "Comment", .text),
                      ReportColumn("safety_critical", "Safety critical", .text), ReportColumn("defect_reported", "Defect reported", .datetime),
                      ReportColumn("resolved", "Resolved", .datetime), ReportColumn("resolved_by", "Resolved by", .text), ReportColumn("certification", "Certification", .text)],
            rows: held ?? [],
            note: "One row per defect (inspections without defects have one row). Times in \(request.zone.identifier).",
            stream: stream)
    }

    /// Whether the warehouse holds the three months of DVIRs before the end of the period that
    /// 49 CFR 396.11(a)(4) requires a carrier to keep, month by month.
    static func retention(_ db: Database, _ request: ReportRequest) throws -> ReportTable {
        let windowStart = request.period.to.adding(days: 1).adding(months: -3)
        let earliest = try Int64.fetchOne(db, sql: "SELECT MIN(signed_at) FROM dvir").map { request.zone.day(of: $0) }
        var rows: [[ReportValue]] = []
        var month = CivilDate(year: windowStart.year, month: windowStart.month, day: 1)!
        while month <= request.period.to {
            let from = max(month, windowStart), to = min(month.adding(months: 1).adding(days: -1), request.period.to)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dvir WHERE signed_at >= ? AND signed_at < ?",
                                         arguments: [request.zone.start(of: from), request.zone.start(of: to.adding(days: 1))]) ?? 0
            let covered = earliest.map { $0 <= from } ?? false
            rows.append([.date(from), .date(to), .integer(Int64(count)),
                         .text(covered ? "held" : count > 0 ? "partly held: the earliest DVIR is \(earliest!)" : "missing")])
            month = month.adding(months: 1)
        }
        return ReportTable(name: "retention", title: "Three-month retention (49 CFR 396.11(a)(4))",
                           columns: [ReportColumn("from", "From", .date), ReportColumn("to", "To", .date), ReportColumn("dvirs", "DVIRs held", .integer),
                                     ReportColumn("status", "Status", .text)],
                           rows: rows, note: "Carriers keep each DVIR and its certification of repairs for three months from the date of the report.")
    }
}
