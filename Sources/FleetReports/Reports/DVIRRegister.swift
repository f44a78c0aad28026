import FleetCore
import FleetWarehouse

/// The DVIR register an auditor asks for: every inspection in the window with its vehicle (VIN,
/// plate, trailer) and signatures, each defect with its 396.11(a)(1) item, its repair
/// certification and the next driver's review beside it (49 CFR 396.11(a)(3), 396.13(b)).
enum DVIRRegister {
    /// The register has a row per inspection and defect, so it grows with the data (a year of
    /// daily DVIRs for 1,000 vehicles is 365,000 rows): it is counted in one pass over a cursor
    /// and held only up to `ReportRequest.heldRowLimit`; past that it is a `ReportRowStream` that
    /// runs the same query again, in the same read transaction, for each format, and checks that
    /// a full walk still gives the count (the cost report's detail does the same).
    static func table(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportTable {
        let d = reader.dialect
        // Column order is reading order: who and what, then the defect with its certification
        // and review beside it (what an auditor reads across), then the inspection's details.
        // The mechanic who certified is "Certified by" (the defect's, else the DVIR's mechanic);
        // the inspection's start time is left out so that the 23 columns fit a landscape page.
        let sql = """
            SELECT COALESCE(a.unit_number, a.vin, 'asset #' || a.id), a.vin, a.license_plate, v.trailer, v.source_key, v.type, v.signed_at,
                   COALESCE(v.inspector_name, dr.name), d.component, d.safety_critical, d.defect_type, d.comment, d.created_at,
                   d.resolved_at, d.certification, COALESCE(d.resolved_by, v.mechanic_name), v.reviewed_at, v.reviewed_by,
                   v.safety_status, v.odometer_m, v.location, v.mechanic_signed_at, v.mechanic_notes
            FROM dvir v JOIN asset a ON a.id = v.asset_id LEFT JOIN driver dr ON dr.id = v.driver_id LEFT JOIN dvir_defect d ON d.dvir_id = v.id
            WHERE v.signed_at >= ? AND v.signed_at < ? AND \(request.assetFilter().sql)
            ORDER BY v.signed_at, \(d.ascending("v.source_key", text: true)), \(d.ascending("d.source_key", text: true))
            """
        let arguments: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + request.assetFilter().arguments.map(WarehouseArgument.text)
        func t(_ v: String?) -> ReportValue { .text(v ?? "") }
        func at(_ v: Int64?) -> ReportValue { v.map { .datetime($0) } ?? .null }
        func row(_ r: WarehouseRow) throws -> [ReportValue] {
            let component: String? = try r[8]
            return [.text(try r[0]), t(try r[1]), t(try r[2]), t(try r[3]), .text(DVIRChain.dvirLabel(try r[4])), .text((try r[5] as String).replacingOccurrences(of: "_", with: "-")),
                    at(try r[6]), t(try r[7]), t(component.map(DVIRItems.text)), (try r[9] as Bool?).map { .text($0 ? "yes" : "no") } ?? .text(""),
                    t(try r[10]), t(try r[11]), at(try r[12]), at(try r[13]), t(try r[14]), t(try r[15]), at(try r[16]), t(try r[17]),
                    .text(try r[18]), (try r[19] as Double?).map { .number(request.distance($0)) } ?? .null, t(try r[20]), at(try r[21]), t(try r[22])]
        }
        var held: [[ReportValue]]? = []
        var count = 0
        try reader.forEach(sql, arguments) { r in
            count += 1
            if held != nil { if count <= request.heldRowLimit { held!.append(try row(r)) } else { held = nil } }
        }
        let stream = held != nil ? nil : ReportRowStream(table: "register", count: count) { limit, body in
            // A walk of the first `limit` rows stops the query by a private error (on PostgreSQL
            // the rest of the result is read and dropped).
            struct Enough: Error {}
            var walked = 0
            do {
                try reader.forEach(sql, arguments) { r in
                    if let limit, walked >= limit { throw Enough() }
                    walked += 1
                    try body(try row(r))
                }
            } catch is Enough {}
            if limit == nil, walked != count {
                throw ReportRowStream.Error.changed(table: "register", detail: "\(walked) rows, expected \(count)")
            }
        }
        return ReportTable(
            name: "register", title: "DVIR register",
            columns: [ReportColumn("unit", "Unit", .text), ReportColumn("vin", "VIN", .text), ReportColumn("plate", "Plate", .text),
                      ReportColumn("trailer", "Trailer", .text), ReportColumn("dvir", "DVIR", .text), ReportColumn("type", "Type", .text),
                      ReportColumn("signed", "Driver signed", .datetime), ReportColumn("driver", "Driver", .text),
                      ReportColumn("item", "Defect item", .text),
                      ReportColumn("safety_critical", "Safety critical (source)", .text),
                      ReportColumn("defect_type", "Defect", .text), ReportColumn("comment", "Comment", .text),
                      ReportColumn("defect_reported", "Defect reported", .datetime), ReportColumn("resolved", "Certified", .datetime),
                      ReportColumn("certification", "Certification", .text), ReportColumn("resolved_by", "Certified by", .text),
                      ReportColumn("reviewed", "Next driver reviewed", .datetime), ReportColumn("reviewed_by", "Reviewed by", .text),
                      ReportColumn("status", "Status", .text),
                      ReportColumn("odometer", "Odometer", .distance, unit: request.distanceUnit), ReportColumn("location", "Location", .text),
                      ReportColumn("mechanic_signed", "Mechanic signed", .datetime),
                      ReportColumn("mechanic_notes", "Mechanic notes", .text)],
            rows: held ?? [],
            note: "One row per defect (inspections without defects have one row). The defect item is the rule's list (396.11(a)(1)), or the source's component when it is none of them; the safety flag is the source's judgement (396.11(a)(3)). Times in \(request.zone.identifier).",
            stream: stream)
    }
}
