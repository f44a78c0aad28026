import GRDB
import FleetCore
import FleetWarehouse

/// Builds the data-quality table every report ends with: what was left out or is uncertain,
/// and why, so a total is never trusted further than its inputs.
struct DataQuality {
    private(set) var rows: [[ReportValue]] = []

    mutating func add(_ check: String, _ count: Int, _ detail: String) {
        rows.append([.text(check), .integer(Int64(count)), .text(detail)])
    }

    var table: ReportTable {
        ReportTable(name: "data_quality", title: "Data quality",
                    columns: [ReportColumn("check", "Check", .text), ReportColumn("count", "Count", .integer), ReportColumn("detail", "Detail", .text)],
                    rows: rows, note: "What the figures above leave out or rest on: read this before trusting a total.")
    }

    /// The checks every report shares: rejected rows in the source files, auto-created assets,
    /// and meter anomalies in the period.
    mutating func addCommon(_ db: Database, _ request: ReportRequest, sources: [ReportSource]) throws {
        try addCommon(SQLiteReader(db), request, sources: sources)
    }

    mutating func addCommon(_ reader: any WarehouseReader, _ request: ReportRequest, sources: [ReportSource]) throws {
        let ids = sources.map { String($0.id) }.joined(separator: ",")
        let d = reader.dialect
        let rejected = ids.isEmpty ? 0 : try reader.value("SELECT COUNT(*) FROM reject WHERE source_file_id IN (\(ids))", as: Int.self) ?? 0
        let reasons = ids.isEmpty ? [] : try reader.all("SELECT reason, COUNT(*) FROM reject WHERE source_file_id IN (\(ids)) GROUP BY reason ORDER BY \(d.ascending("reason", text: true))") {
            "\(try $0[0] as String) \(try $0[1] as Int)"
        }
        add("Rows rejected in the source files", rejected, rejected == 0 ? "none" : reasons.joined(separator: ", ") + "; `fleetkit rejects` lists them")
        let label = "COALESCE(unit_number, vin, pin, name, 'asset #' || id)"
        let auto = try reader.column("SELECT \(label) FROM asset WHERE auto_created = 1 ORDER BY \(d.ascending(label, text: true))", as: String.self)
        add("Assets created from facts, not in master data", auto.count, auto.isEmpty ? "none" : auto.prefix(20).joined(separator: ", ") + (auto.count > 20 ? ", …" : ""))
        for (kind, label) in [("rollback", "Meter readings that went backwards (excluded)"), ("implausible_rate", "Meter jumps faster than possible (excluded)")] {
            let list = try reader.all("""
                SELECT COALESCE(a.unit_number, a.vin, a.pin, 'asset #' || a.id), m.meter, m.at FROM meter_anomaly m JOIN asset a ON a.id = m.asset_id
                WHERE m.kind = ? AND m.at >= ? AND m.at < ? ORDER BY m.at
                """, [.text(kind), .instant(request.start), .instant(request.end)]) { "\(try $0[0] as String) \(try $0[1] as String) at \(Timestamp.iso(try $0[2]))" }
            add(label, list.count, list.isEmpty ? "none" : list.prefix(10).joined(separator: "; ") + (list.count > 10 ? "; …" : ""))
        }
        try addMonthEnd(reader, request)
    }

    /// The months of the period that are closed, and every restatement of their figures
    /// (`MonthEnd`): shown only when the period has a closed month, so a signed figure that
    /// changed later is read beside its change.
    mutating func addMonthEnd(_ db: Database, _ request: ReportRequest) throws { try addMonthEnd(SQLiteReader(db), request) }

    mutating func addMonthEnd(_ reader: any WarehouseReader, _ request: ReportRequest) throws {
        guard try reader.tableExists("period_close") else { return }
        let months = MonthEnd.months(from: request.period.from, to: request.period.to)
        let closed = try MonthEnd.closed(reader).filter { months.contains($0.period) }
        guard !closed.isEmpty else { return }
        add("Closed months in the period", closed.count,
            closed.map { "\($0.period) closed \(Timestamp.iso($0.closedAt)) by \($0.closedBy)" }.joined(separator: "; "))
        let restated = try MonthEnd.restatements(reader, periods: closed.map(\.period))
        add("Restatements of closed months", restated.count, restated.isEmpty ? "none: the figures are as closed" : restated.prefix(10).map {
            "\($0.period) \($0.report) \($0.figure): \($0.old) → \($0.new) (\($0.filePath), \(Timestamp.iso($0.at)) by \($0.by))"
        }.joined(separator: "; ") + (restated.count > 10 ? "; … (`fleetkit status` lists all)" : ""))
    }
}

extension ReportSource {
    /// The files that contributed rows, from `SELECT DISTINCT source_file_id …` subqueries.
    static func fetch(_ db: Database, union subqueries: [String], arguments: [WarehouseArgument]) throws -> [ReportSource] {
        try fetch(SQLiteReader(db), union: subqueries, arguments: arguments)
    }

    static func fetch(_ reader: any WarehouseReader, union subqueries: [String], arguments: [WarehouseArgument]) throws -> [ReportSource] {
        guard !subqueries.isEmpty else { return [] }
        return try reader.all("""
            SELECT id, path, format, sha256 FROM source_file WHERE id IN (\(subqueries.joined(separator: " UNION "))) ORDER BY id
            """, arguments) { ReportSource(id: try $0[0], path: try $0[1], format: try $0[2], sha256: try $0[3]) }
    }
}
