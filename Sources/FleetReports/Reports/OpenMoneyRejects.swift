import GRDB
import FleetCore
import FleetWarehouse

/// The money rows rejected in a period that no later file has loaded (`RejectResolution`): a
/// cost that is missing from every total. A reject belongs to the period when its time is in it,
/// or, when its time could not be read (a row rejected for its date), when its file contributed
/// costs to the period. Listed with file, line and amount; they make the cost report partial.
/// Rejects stored before rejects kept their row (`v12-reject-rows`) are not counted: they name
/// no table, so no later load could ever resolve them.
struct OpenMoneyRejects {
    var count = 0
    /// "fuel-card-2026-10.csv line 7: 58.38 USD (bad_date)", the first `shown`.
    var lines: [String] = []
    static let shown = 10

    init(_ db: Database, _ request: ReportRequest, sources: [ReportSource]) throws {
        let files = "[" + sources.map { String($0.id) }.joined(separator: ",") + "]"
        let rows = try Row.fetchAll(db, sql: """
            SELECT f.path, r.location, r.amount_minor, r.currency, r.reason FROM reject r JOIN source_file f ON f.id = r.source_file_id
            WHERE r.row_table IN (\(RejectResolution.tables.map { "'\($0)'" }.joined(separator: ",")))
              AND (r.at >= ?1 AND r.at < ?2 OR r.at IS NULL AND r.source_file_id IN (SELECT value FROM json_each(?3)))
              AND (\(RejectResolution.resolvedBy("r"))) IS NULL
            ORDER BY f.path, r.id
            """, arguments: [request.start, request.end, files])
        count = rows.count
        for r in rows.prefix(Self.shown) {
            let name = (r[0] as String).split(separator: "/").last.map(String.init) ?? "?"
            let amount: String = (r[2] as Int64?).map { Money(minor: $0, currency: r[3] as String? ?? request.currency).description } ?? "amount unreadable"
            lines.append("\(name) \(r[1] as String): \(amount) (\(r[4] as String))")
        }
    }

    var detail: String {
        count == 0 ? "none" : lines.joined(separator: "; ") + (count > lines.count ? "; …" : "") + "; correct them and import again (`fleetkit rejects`)"
    }
}
