import GRDB
import FleetCore

/// PM compliance: of the scheduled services done in the period, the share done on time.
///
/// Each service is measured against the due point its previous occurrence set: the previous
/// date plus the interval, the previous odometer plus the distance interval, the previous hours
/// plus the hours interval. It is late when it was done more than 10 % of an interval past that
/// point on any meter. A service with no previous occurrence cannot be judged and is left out.
enum PMCompliance {
    static let lateShare = 0.10

    static func compute(_ db: Database, _ request: ReportRequest) throws -> (rows: [[ReportValue]], percent: Double?) {
        var rows: [[ReportValue]] = []
        var onTime = 0, judged = 0
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
                    rows.append([.text(asset.unit), .text(service), .date(day), .text("no earlier record"), .null, .text("not judged")])
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
                    rows.append([.text(asset.unit), .text(service), .date(day), .text("meters not recorded"), .null, .text("not judged")])
                    continue
                }
                judged += 1
                let ok = late <= lateShare
                if ok { onTime += 1 }
                rows.append([.text(asset.unit), .text(service), .date(day), .text(due.joined(separator: " or ")), .percent(max(late, 0) * 100), .text(ok ? "yes" : "late")])
            }
        }
        return (rows, judged == 0 ? nil : Double(onTime) / Double(judged) * 100)
    }
}
