import FleetCore
import FleetWarehouse

/// Every trip in the period with its times, places, distance, moving and idle time, speeds,
/// driver and why it started and ended (docs/METRICS.md, "Trips").
///
/// Like the cost report's detail, the trips are read through a cursor: totals in one pass, rows
/// held up to `ReportRequest.heldRowLimit` and streamed per format past it (`ReportRowStream`),
/// so a fleet's month of GPS-derived trips does not have to fit in memory. Portable: it runs on
/// SQLite and PostgreSQL alike.
public struct TripsReport: PortableReport {
    public static let name = "trips"
    public static let title = "Trips"
    public static let summary = "Trips with start and end, distance, duration, moving and idle time, max and average speed, driver, start and end reasons"
    public static let needs = [ReportDataNeed(.telematics)]
    public init() {}

    /// One trip as the query reads it (SI units, UTC epoch milliseconds).
    struct Line {
        var unit: String, driver: String?
        var start: Int64, end: Int64
        var from: (lat: Double?, lon: Double?), to: (lat: Double?, lon: Double?)
        var distanceM: Double?, durationS: Double?, movingS: Double?, idleS: Double?, maxSpeedMPS: Double?
        var startReason: String?, endReason: String?, source: String, distanceMethod: String?

        init(_ r: WarehouseRow) throws {
            unit = try r[0]; start = try r[1]; end = try r[2]; from = (try r[3], try r[4]); to = (try r[5], try r[6])
            distanceM = try r[7]; durationS = try r[8]; movingS = try r[9]; idleS = try r[10]; maxSpeedMPS = try r[11]
            startReason = try r[12]; endReason = try r[13]; source = try r[14]; driver = try r[15]; distanceMethod = try r[16]
        }
    }

    /// The columns, declared once. Distance and duration are summed for the headlines; the
    /// list has no totals row.
    static func columns(_ request: ReportRequest) -> [TableColumn<Line>] {
        let speedUnit = request.units == .metric ? "km/h" : "mph"
        func speed(_ mps: Double) -> Double { request.units == .metric ? mps * 3.6 : mps * 3600 / Units.metresPerMile }
        func place(_ p: (lat: Double?, lon: Double?)) -> String? {
            guard let lat = p.lat, let lon = p.lon else { return nil }
            return String(format: "%.5f, %.5f", lat, lon)
        }
        return [.text("unit", "Unit") { $0.unit }, .text("driver", "Driver") { $0.driver ?? "" },
                .datetime("start", "Start") { $0.start }, .datetime("end", "End") { $0.end },
                .text("start_position", "From") { place($0.from) }, .text("end_position", "To") { place($0.to) },
                .distance("distance", "Distance", request) { $0.distanceM }, .hours("duration", "Duration") { $0.durationS },
                .hours("moving", "Moving", total: .none) { $0.movingS }, .hours("idle", "Idle", total: .none) { $0.idleS },
                .decimal("max_speed", "Max speed", unit: speedUnit) { $0.maxSpeedMPS.map(speed) },
                .decimal("average_speed", "Average speed", unit: speedUnit) { l in
                    l.distanceM.flatMap { d in l.movingS.flatMap { $0 > 0 ? speed(d / $0) : nil } }
                },
                .text("start_reason", "Started by", role: .note) { $0.startReason ?? "" }, .text("end_reason", "Ended by", role: .note) { $0.endReason ?? "" },
                .text("distance_method", "Distance by", role: .note) { $0.distanceMethod ?? "" }, .text("source", "Source", role: .note) { $0.source }]
    }

    public func run(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        let filter = request.assetFilter()
        let label = "COALESCE(a.unit_number, a.vin, a.pin, 'asset #' || a.id)"
        let sql = """
            SELECT \(label), t.start_at, t.end_at, t.start_lat, t.start_lon, t.end_lat, t.end_lon,
                   t.distance_m, t.duration_s, t.moving_s, t.idle_s, t.max_speed_mps, t.start_reason, t.end_reason, t.source,
                   COALESCE(d.name, (SELECT dr.name FROM assignment s JOIN driver dr ON dr.id = s.driver_id
                                     WHERE s.asset_id = t.asset_id AND s.start_at <= t.start_at AND (s.end_at IS NULL OR s.end_at > t.start_at)
                                     ORDER BY s.start_at DESC LIMIT 1)), t.distance_method
            FROM trip t JOIN asset a ON a.id = t.asset_id LEFT JOIN driver d ON d.id = t.driver_id
            WHERE t.start_at >= ? AND t.start_at < ? AND \(filter.sql)
            ORDER BY t.start_at, \(reader.dialect.ascending(label, text: true))
            """
        let arguments: [WarehouseArgument] = [.instant(request.start), .instant(request.end)] + filter.arguments.map(WarehouseArgument.text)
        // One pass for the totals; the rows are held only up to the limit.
        var trips = TableBuilder(name: "trips", title: "Trips", columns: Self.columns(request))
        var distance = 0.0, count = 0, open = 0
        try reader.forEach(sql, arguments) { r in
            let line = try Line(r)
            count += 1
            distance += line.distanceM ?? 0
            if line.endReason == "end_of_data" { open += 1 }
            try trips.add(line, hold: count <= request.heldRowLimit)
            if count == request.heldRowLimit + 1 { trips.dropHeldRows() }
        }
        let stream = count <= request.heldRowLimit ? nil : ReportRowStream(table: "trips", count: count) { [trips, distance] limit, body in
            var rows = 0, sum = 0.0
            // A walk of the first `limit` rows stops the query by a private error (on PostgreSQL
            // the rest of the result is read and dropped).
            struct Enough: Error {}
            do {
                try reader.forEach(sql, arguments) { r in
                    if let limit, rows >= limit { throw Enough() }
                    rows += 1
                    sum += (try r[7] as Double?) ?? 0
                    try body(trips.cells(try Line(r)))
                }
            } catch is Enough {}
            if limit == nil, rows != count || sum != distance {
                throw ReportRowStream.Error.changed(table: "trips", detail: "\(rows) trips over \(sum) m, expected \(count) over \(distance) m")
            }
        }
        let table = trips.table(
            note: "Average speed = distance ÷ moving time. The driver is the trip's own, else the asset's assignment when the trip started. Distance by: gps (the path), odometer, mixed (the path and the odometer across GPS gaps), gps_partial (a GPS gap no odometer measured: a lower bound); empty for vendor trips.",
            stream: stream, totalsRow: false)
        let sources = try ReportSource.fetch(reader, union: [
            "SELECT DISTINCT source_file_id FROM trip WHERE start_at >= ?1 AND start_at < ?2 AND source_file_id IS NOT NULL",
            "SELECT DISTINCT source_file_id FROM position WHERE at >= ?1 AND at < ?2",
        ], arguments: [.instant(request.start), .instant(request.end)])
        var quality = DataQuality()
        quality.add("Trips cut off by the end of the data (may continue in a later file)", open, open == 0 ? "none" : "their distance and duration are partial")
        try TripCoverage.fetch(reader, request).add(to: &quality, request)
        // Trips whose figures contradicted themselves and were repaired (TripCheck, trip.repair).
        let repairs = try reader.all("""
            SELECT t.repair, COUNT(*) FROM trip t JOIN asset a ON a.id = t.asset_id
            WHERE t.start_at >= ? AND t.start_at < ? AND t.repair IS NOT NULL AND \(filter.sql) GROUP BY t.repair ORDER BY \(reader.dialect.ascending("t.repair", text: true))
            """, arguments) { (try $0[0] as String, try $0[1] as Int) }
        let repaired = repairs.reduce(0) { $0 + $1.1 }
        quality.add("Trips repaired to meet their invariants (trip.repair)", repaired,
                    repaired == 0 ? "none" : repairs.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + " (docs/METRICS.md, \"Trip invariants\")")
        try quality.addCommon(reader, request, sources: sources)
        let metadata = ReportMetadata(
            report: Self.name, title: Self.title, period: request.period, timeZone: request.zone.identifier, units: request.units, currency: request.currency,
            parameters: [("assets", request.assets?.joined(separator: ",") ?? "all")],
            methods: ["Trips from vendors are listed as they came; trips derived from positions follow the trip rules in docs/METRICS.md.",
                      "A GPS gap longer than the gap rule ends a derived trip only when no engine state or meter says the asset kept operating; across a bridged gap the distance is the odometer's rise.",
                      "Data quality sets the trips' distance and time against the daily totals (odometer or GPS distance, engine hours) and says per asset why trips fall short.",
                      "A trip belongs to the period of the local day it started on."],
            headlines: [.count("trips", Double(count))] + [trips.headline("distance", rounded: 1),
                        trips.headline("duration", rounded: 2).map { ReportHeadline("hours", $0.value, $0.unit) }].compactMap { $0 },
            generatedAt: request.generatedAt, sources: sources)
        return ReportOutput(metadata: metadata, tables: [table], dataQuality: quality.table)
    }
}

import Foundation
