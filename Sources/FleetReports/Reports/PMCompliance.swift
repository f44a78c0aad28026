import FleetCore
import FleetWarehouse

/// PM compliance: of the scheduled services done in the period, the share done on time.
///
/// Each service is measured against the due point its previous occurrence set: the previous
/// date plus the interval, the previous odometer plus the distance interval, the previous hours
/// plus the hours interval. It is late when it was done more than 10 % of an interval past that
/// point on any meter. A service with no previous occurrence cannot be judged and is left out.
///
/// The table's "Compliance" total is declared on the On time column (`ColumnTotal.share`): the
/// rows marked "yes" among those marked "yes" or "late", so it is counted from the rows shown.
enum PMCompliance {
    static let lateShare = 0.10

    /// One service done in the period and its verdict.
    struct Service {
        var unit: String
        var service: String
        var performed: CivilDate
        /// The due point(s) it was measured against, or why it could not be judged.
        var wasDue: String
        /// How far past the due point, as a share of the interval (0 when early); nil when not judged.
        var lateBy: Double?
        /// "yes", "late" or "not judged".
        var onTime: String
    }

    static var columns: [TableColumn<Service>] { [
        .text("unit", "Unit", total: .label("Compliance")) { $0.unit },
        .text("service", "Service") { $0.service },
        .date("performed", "Performed") { $0.performed },
        .text("was_due", "Was due", role: .note) { $0.wasDue },
        .percent("late_by", "Late by (share of interval)") { $0.lateBy },
        .text("on_time", "On time", role: .measure, total: .share(of: ["yes"], among: ["yes", "late"])) { $0.onTime },
    ] }

    /// One maintenance record as the verdict needs it.
    private struct Record {
        var service: String, at: Int64, odometerM: Double?, engineS: Double?
    }

    static func compute(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> TableBuilder<Service> {
        var table = TableBuilder(name: "pm_compliance", title: "PM compliance: services done in the period", columns: columns)
        for asset in try AssetInfo.fetchAll(reader, request) {
            let schedules = Dictionary(try MaintenanceDue.schedules(reader, for: asset, assetGroup: asset.group).map { ($0.serviceType, $0) }) { a, _ in a }
            guard !schedules.isEmpty else { continue }
            // Service types in byte order on both engines; the loop needs only each type's
            // records in time order (two at one instant in record order), so the order of types
            // is for a stable row order.
            let records = try reader.all("""
                SELECT service_type, performed_at, odometer_m, engine_s FROM maintenance_record WHERE asset_id = ? AND performed_at < ?
                ORDER BY \(reader.dialect.ascending("service_type", text: true)), performed_at, id
                """, [.integer(asset.id), .instant(request.end)]) {
                Record(service: try $0[0], at: try $0[1], odometerM: try $0[2], engineS: try $0[3])
            }
            var previous: [String: Record] = [:]
            for r in records {
                let service = r.service, at = r.at
                defer { previous[service] = r }
                guard at >= request.start, let s = schedules[service] else { continue }
                let day = request.zone.day(of: at)
                guard let p = previous[service] else {
                    try table.add(Service(unit: asset.unit, service: service, performed: day, wasDue: "no earlier record", lateBy: nil, onTime: "not judged"))
                    continue
                }
                var late = -Double.infinity
                var due: [String] = []
                let pDay = request.zone.day(of: p.at)
                if let days = s.everyDays ?? s.everyMonths.map({ pDay.adding(months: $0).daysSinceEpoch - pDay.daysSinceEpoch }) {
                    let dueDay = pDay.adding(days: days)
                    late = max(late, Double(day.daysSinceEpoch - dueDay.daysSinceEpoch) / Double(days))
                    due.append(dueDay.description)
                }
                if let every = s.everyM, let po = p.odometerM, let o = r.odometerM {
                    late = max(late, (o - (po + every)) / every)
                    due.append("\(Int(request.distance(po + every))) \(request.distanceUnit)")
                }
                if let every = s.everyEngineS, let ph = p.engineS, let h = r.engineS {
                    late = max(late, (h - (ph + every)) / every)
                    due.append("\(Int((ph + every) / 3600)) h")
                }
                guard late > -Double.infinity else {
                    try table.add(Service(unit: asset.unit, service: service, performed: day, wasDue: "meters not recorded", lateBy: nil, onTime: "not judged"))
                    continue
                }
                try table.add(Service(unit: asset.unit, service: service, performed: day, wasDue: due.joined(separator: " or "),
                                  lateBy: max(late, 0) * 100, onTime: late <= lateShare ? "yes" : "late"))
            }
        }
        return table
    }
}
