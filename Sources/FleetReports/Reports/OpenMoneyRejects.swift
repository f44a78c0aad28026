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

    init(_ reader: any WarehouseReader, _ request: ReportRequest, sources: [ReportSource]) throws {
        // The period's files as a list of their ids (integers the warehouse gave): no
        // engine-specific way to pass a list is needed.
        let files = sources.isEmpty ? "" : " OR r.at IS NULL AND r.source_file_id IN (" + sources.map { String($0.id) }.joined(separator: ",") + ")"
        let rows = try reader.all("""
            SELECT f.path, r.location, r.amount_minor, r.currency, r.reason FROM reject r JOIN source_file f ON f.id = r.source_file_id
            WHERE r.row_table IN (\(RejectResolution.tables.map { "'\($0)'" }.joined(separator: ",")))
              AND (r.at >= ?1 AND r.at < ?2\(files))
              AND (\(RejectResolution.resolvedBy("r"))) IS NULL
            ORDER BY \(reader.dialect.ascending("f.path", text: true)), r.id
            """, [.instant(request.start), .instant(request.end)]) {
            (path: try $0[0] as String, location: try $0[1] as String, minor: try $0[2] as Int64?, currency: try $0[3] as String?, reason: try $0[4] as String)
        }
        count = rows.count
        for r in rows.prefix(Self.shown) {
            let name = r.path.split(separator: "/").last.map(String.init) ?? "?"
            let amount: String = r.minor.map { Money(minor: $0, currency: r.currency ?? request.currency).description } ?? "amount unreadable"
            lines.append("\(name) \(r.location): \(amount) (\(r.reason))")
        }
    }

    var detail: String {
        count == 0 ? "none" : lines.joined(separator: "; ") + (count > lines.count ? "; …" : "") + "; correct them and import again (`fleetkit rejects`)"
    }
}
