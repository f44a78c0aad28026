import GRDB
import FleetCore

/// Every trip in the period with its times, places, distance, moving and idle time, speeds,
/// driver and why it started and ended (docs/METRICS.md, "Trips").
///
/// Like the cost report's detail, the trips are read through a cursor: totals in one pass, rows
/// held up to `ReportRequest.heldRowLimit` and streamed per format past it (`ReportRowStream`),
/// so a fleet's month of GPS-derived trips does not have to fit in memory.
public struct TripsReport: Report {
    public static let name = "trips"
    public static let title = "Trips"
    public static let summary = "Trips with start and end, distance, duration, moving and idle time, max and average speed, driver, start and end reasons"
    public init() {}

    public func run(_ db: Database, _ request: ReportRequest) throws -> ReportOutput {
        let filter = request.assetFilter()
        let sql = """
            SELECT COALESCE(a.unit_number, a.vin, a.pin, 'asset #' || a.id), t.start_at, t.end_at, t.start_lat, t.start_lon, t.end_lat, t.end_lon,
                   t.distance_m, t.duration_s, t.moving_s, t.idle_s, t.max_speed_mps, t.start_reason, t.end_reason, t.source,
                   COALESCE(d.name, (SELECT dr.name FROM assignment s JOIN driver dr ON dr.id = s.driver_id
                                     WHERE s.asset_id = t.asset_id AND s.start_at <= t.start_at AND (s.end_at IS NULL OR s.end_at > t.start_at)
                                     ORDER BY s.start_at DESC LIMIT 1)), t.distance_method
            FROM trip t JOIN asset a ON a.id = t.asset_id LEFT JOIN driver d ON d.id = t.driver_id
            WHERE t.start_at >= ? AND t.start_at < ? AND \(filter.sql)
            ORDER BY t.start_at, 1
            """
        let values: [(any DatabaseValueConvertible)?] = [request.start, request.end] + filter.arguments.map { $0 as (any DatabaseValueConvertible)? }
        let arguments = StatementArguments(values)
        let speedUnit = request.units == .metric ? "km/h" : "mph"
        func speed(_ mps: Double) -> Double { request.units == .metric ? mps * 3.6 : mps * 3600 / Units.metresPerMile }
        func place(_ lat: Double?, _ lon: Double?) -> ReportValue {
            guard let lat, let lon else { return .null }
            return .text(String(format: "%.5f, %.5f", lat, lon))
        }
        func tableRow(_ r: Row) -> [ReportValue] {
            let d: Double? = r[7], moving: Double? = r[9]
            return [.text(r[0]), .text(r[15] as String? ?? ""), .datetime(r[1]), .datetime(r[2]), place(r[3], r[4]), place(r[5], r[6]),
                    d.map { .number(request.distance($0)) } ?? .null, (r[8] as Double?).map { .number($0 / 3600) } ?? .null,
                    moving.map { .number($0 / 3600) } ?? .null, (r[10] as Double?).map { .number($0 / 3600) } ?? .null,
                    (r[11] as Double?).map { .number(speed($0)) } ?? .null,
                    d.flatMap { d in moving.flatMap { $0 > 0 ? .number(speed(d / $0)) : nil } } ?? .null,
                    .text(r[12] as String? ?? ""), .text(r[13] as String? ?? ""), .text(r[16] as String? ?? ""), .text(r[14])]
        }
        // One pass for the totals; the rows are held only up to the limit.
        var distance = 0.0, duration = 0.0, count = 0, open = 0
        var held: [[ReportValue]]? = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let r = try cursor.next() {
            count += 1
            distance += (r[7] as Double?) ?? 0
            duration += (r[8] as Double?) ?? 0
            if (r[13] as String?) == "end_of_data" { open += 1 }
            if held != nil { if count <= request.heldRowLimit { held!.append(tableRow(r)) } else { held = nil } }
        }
        let stream = held != nil ? nil : ReportRowStream(table: "trips", count: count) { limit, body in
            let again = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var rows = 0, sum = 0.0
            while limit.map({ rows < $0 }) ?? true, let r = try again.next() {
                rows += 1
                sum += (r[7] as Double?) ?? 0
                try body(tableRow(r))
            }
            if limit == nil, rows != count || sum != distance {
                throw ReportRowStream.Error.changed(table: "trips", detail: "\(rows) trips over \(sum) m, expected \(count) over \(distance) m")
            }
        }
        let table = ReportTable(
            name: "trips", title: "Trips",
            columns: [ReportColumn("unit", "Unit", .text), ReportColumn("driver", "Driver", .text), ReportColumn("start", "Start", .datetime),
                      ReportColumn("end", "End", .datetime), ReportColumn("start_position", "From", .text), ReportColumn("end_position", "To", .text),
                      ReportColumn("distance", "Distance", .distance, unit: request.distanceUnit), ReportColumn("duration", "Duration", .duration, unit: "h"),
                      ReportColumn("moving", "Moving", .duration, unit: "h"), ReportColumn("idle", "Idle", .duration, unit: "h"),
                      ReportColumn("max_speed", "Max speed", .decimal, unit: speedUnit), ReportColumn("average_speed", "Average speed", .decimal, unit: speedUnit),
                      ReportColumn("start_reason", "Started by", .text), ReportColumn("end_reason", "Ended by", .text),
                      ReportColumn("distance_method", "Distance by", .text), ReportColumn("source", "Source", .text)],
            rows: held ?? [],
            note: "Average speed = distance ÷ moving time. The driver is the trip's own, else the asset's assignment when the trip started. Distance by: gps (the path), odometer, mixed (the path and the odometer across GPS gaps), gps_partial (a GPS gap no odometer measured: a lower bound); empty for vendor trips.",
            stream: stream)
        let sources = try ReportSource.fetch(db, union: [
            "SELECT DISTINCT source_file_id FROM trip WHERE start_at >= ?1 AND start_at < ?2 AND source_file_id IS NOT NULL",
            "SELECT DISTINCT source_file_id FROM position WHERE at >= ?1 AND at < ?2",
        ], arguments: [request.start, request.end])
        var quality = DataQuality()
        quality.add("Trips cut off by the end of the data (may continue in a later file)", open, open == 0 ? "none" : "their distance and duration are partial")
        try TripCoverage.fetch(db, request).add(to: &quality, request)
        // Trips whose figures contradicted themselves and were repaired (TripCheck, trip.repair).
        let repairs = try Row.fetchAll(db, sql: """
            SELECT t.repair, COUNT(*) FROM trip t JOIN asset a ON a.id = t.asset_id
            WHERE t.start_at >= ? AND t.start_at < ? AND t.repair IS NOT NULL AND \(filter.sql) GROUP BY t.repair ORDER BY t.repair
            """, arguments: arguments)
        let repaired = repairs.reduce(0) { $0 + ($1[1] as Int) }
        quality.add("Trips repaired to meet their invariants (trip.repair)", repaired,
                    repaired == 0 ? "none" : repairs.map { "\($0[0] as String) \($0[1] as Int)" }.joined(separator: ", ") + " (docs/METRICS.md, \"Trip invariants\")")
        try quality.addCommon(db, request, sources: sources)
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("assets", request.assets?.joined(separator: ",") ?? "all")],
            methods: ["Trips from vendors are listed as they came; trips derived from positions follow the trip rules in docs/METRICS.md.",
                      "A GPS gap longer than the gap rule ends a derived trip only when no engine state or meter says the asset kept operating; across a bridged gap the distance is the odometer's rise.",
                      "Data quality sets the trips' distance and time against the daily totals (odometer or GPS distance, engine hours) and says per asset why trips fall short.",
                      "A trip belongs to the period of the local day it started on."],
            headlines: [.count("trips", Double(count)), ReportHeadline("distance", (request.distance(distance) * 10).rounded() / 10, .distance),
                        ReportHeadline("hours", (duration / 36).rounded() / 100, .hours)],
            generatedAt: request.generatedAt, sources: sources)
        return ReportOutput(metadata: metadata, tables: [table], dataQuality: quality.table)
    }
}

import Foundation
