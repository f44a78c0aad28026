import Foundation
import FleetCore

/// Preventive maintenance: the schedules, and a year of service history that follows each
/// asset's odometer and engine hours (a few assets deliberately overdue, so the
/// maintenance-due report has something to say).
extension SampleWriter {
    mutating func writeService() throws {
        let units = Set(fleet.assets.map(\.unit))
        let schedules: [[String]] = [
            // unit, group, service, every_days, every_months, every_km, every_engine_hours, soon_days, soon_km, soon_engine_hours
            ["", "", "annual_inspection", "", "12", "", "", "30", "", ""],
            ["", "Pickups", "oil_change", "", "12", "12000", "", "30", "1000", ""],
            ["", "Vans", "oil_change", "", "12", "12000", "", "30", "1000", ""],
            ["", "Sedans", "oil_change", "", "12", "16000", "", "30", "1000", ""],
            ["", "Box trucks", "oil_change", "", "6", "20000", "", "21", "1500", ""],
            ["", "Tractors", "oil_change", "", "6", "40000", "", "21", "3000", ""],
            ["", "Pickups", "tire_rotation", "", "", "10000", "", "", "800", ""],
            ["", "Vans", "tire_rotation", "", "", "10000", "", "", "800", ""],
            ["", "Loaders", "pm_500h", "", "", "", "500", "", "", "50"],
            ["", "Excavators", "pm_500h", "", "", "", "500", "", "", "50"],
            ["", "Dozers", "pm_500h", "", "", "", "500", "", "", "50"],
            ["", "Graders", "pm_500h", "", "", "", "500", "", "", "50"],
            ["", "Haulers", "pm_500h", "", "", "", "500", "", "", "50"],
            ["M-08", "", "hydraulic_service", "", "", "", "2000", "", "", "100"],
        ].filter { $0[0].isEmpty || units.contains($0[0]) }   // a smaller sample has no M-08
        try write(SampleWriter.csv(["unit_number", "asset_group", "service_type", "every_days", "every_months", "every_km",
                                    "every_engine_hours", "soon_days", "soon_km", "soon_engine_hours"], schedules),
                  to: "master/service-schedules.csv")

        // History: for each asset and each service that applies to it, walk back a year from
        // the end of the period at the service's interval (distance, hours or months, whichever
        // the schedule uses). One asset in seven skipped its last oil change or 500-hour service.
        var rows: [(at: String, row: [String])] = []
        var wo = 4100
        let end = fleet.start.adding(days: fleet.days)
        for (i, a) in fleet.assets.enumerated() {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(1000 + i))
            let days = fleet.usage(of: i)
            let kmEnd = a.odometerKm + days.map(\.km).reduce(0, +)
            let hoursEnd = a.engineHours + days.map(\.engineHours).reduce(0, +)
            let kmPerDay = max(days.map(\.km).reduce(0, +) / Double(days.count), 0)
            let hoursPerDay = max(days.map(\.engineHours).reduce(0, +) / Double(days.count), 0.01)
            let machine = a.model.kind == "equipment"
            var services: [(name: String, everyKm: Double?, everyHours: Double?, everyMonths: Int?, cost: ClosedRange<Double>)] = [
                ("annual_inspection", nil, nil, 12, machine ? 450...650 : 95...180)]
            if machine {
                services.append(("pm_500h", nil, 500, nil, 950...1_450))
                if a.unit == "M-08" { services.append(("hydraulic_service", nil, 2000, nil, 2_400...3_100)) }
            } else {
                let (km, months) = a.model.group == "Tractors" ? (40_000.0, 6) : a.model.group == "Box trucks" ? (20_000.0, 6)
                    : a.model.group == "Sedans" ? (16_000.0, 12) : (12_000.0, 12)
                services.append(("oil_change", km, nil, months, a.model.group == "Tractors" ? 380...520 : 79...149))
                if a.model.group == "Pickups" || a.model.group == "Vans" { services.append(("tire_rotation", 10_000, nil, nil, 35...60)) }
            }
            for service in services {
                let overdue = i % 7 == 3 && service.name != "annual_inspection" && service.name != "tire_rotation"
                // Days between services: the interval reached first at this asset's use.
                var gaps: [Double] = []
                if let km = service.everyKm, kmPerDay > 0 { gaps.append(km / kmPerDay) }
                if let h = service.everyHours { gaps.append(h / hoursPerDay) }
                if let m = service.everyMonths { gaps.append(Double(m) * 30.4) }
                guard let gap = gaps.min(), gap >= 7 else { continue }
                var back = overdue ? gap * rng.double(1.08...1.25) : gap * rng.double(0.1...0.92)
                while back < 400 {
                    let day = end.adding(days: -Int(back.rounded(.up)))
                    guard day >= a.inService else { break }
                    let d = Double(end.daysSinceEpoch - day.daysSinceEpoch)
                    wo += 1
                    let at = "\(day)T\(String(format: "%02d", 7 + rng.int(0...9))):\(String(format: "%02d", rng.int(0...59))):00"
                    guard machine || kmEnd - d * kmPerDay > 0 else { break }
                    let odometer = machine ? "" : String(Int((kmEnd - d * kmPerDay).rounded()))
                    let hoursThen = hoursEnd - d * hoursPerDay
                    let vendor = machine ? (a.model.make == "Komatsu" ? "Komatsu Midwest Service" : "Deere Dealer Service")
                        : rng.pick(["Quick Lube #12", "Fleet Service Center", "Midway Truck Repair"])
                    rows.append((at, [a.unit, service.name, at, odometer, hoursThen > 0 ? SampleWriter.decimal(hoursThen, 1) : "",
                                      SampleWriter.decimal(rng.double(service.cost), 2), "USD", vendor, "WO-\(wo)", ""]))
                    // Services are mostly on time, now and then a little late.
                    back += gap * (rng.chance(0.15) ? rng.double(1.12...1.3) : rng.double(0.85...1.02))
                }
            }
        }
        rows.sort { ($0.at, $0.row[0], $0.row[1]) < ($1.at, $1.row[0], $1.row[1]) }
        try write(SampleWriter.csv(["unit_number", "service_type", "performed_at", "odometer_km", "engine_hours", "cost", "currency",
                                    "vendor", "work_order", "notes"], rows.map(\.row)), to: "maintenance/maintenance-history.csv")
    }
}
