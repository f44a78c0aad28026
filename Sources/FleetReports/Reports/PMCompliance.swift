import GRDB
import FleetCore

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

    static func compute(_ db: Database, _ request: ReportRequest) throws -> TableBuilder<Service> {
        var table = TableBuilder(name: "pm_compliance", title: "PM compliance: services done in the period", columns: columns)
        for asset in try AssetInfo.fetchAll(db, request) {
            let schedules = Dictionary(try MaintenanceDue.schedules(db, for: asset, assetGroup: asset.group).map { ($0.serviceType, $0) }) { a, _ in a }
            guard !schedules.isEmpty else { continue }
            let records = try Row.fetchAll(db, sql: """
                SELECT service_type, performed_at, odometer_m, engine_s FROM maintenance_record WHERE asset_id = ? AND performed_at < ? ORDER BY service_type, performed_at
                """, arguments: [asset.id, request.end])
            var previous: [String: Row] = [:]
            for r in records {
                let service: String = r[0], at: Int64 = r[1]
                defer { previous[service] = r }
                guard at >= request.start, let s = schedules[service] else { continue }
                let day = request.zone.day(of: at)
                guard let p = previous[service] else {
                    try table.add(Service(unit: asset.unit, service: service, performed: day, wasDue: "no earlier record", lateBy: nil, onTime: "not judged"))
                    continue
                }
                var late = -Double.infinity
                var due: [String] = []
                let pDay = request.zone.day(of: p[1] as Int64)
                if let days = s.everyDays ?? s.everyMonths.map({ pDay.adding(months: $0).daysSinceEpoch - pDay.daysSinceEpoch }) {
                    let dueDay = pDay.adding(days: days)
                    late = max(late, Double(day.daysSinceEpoch - dueDay.daysSinceEpoch) / Double(days))
                    due.append(dueDay.description)
                }
                if let every = s.everyM, let po: Double = p[2], let o: Double = r[2] {
                    late = max(late, (o - (po + every)) / every)
                    due.append("\(Int(request.distance(po + every))) \(request.distanceUnit)")
                }
                if let every = s.everyEngineS, let ph: Double = p[3], let h: Double = r[3] {
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
