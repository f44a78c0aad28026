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

        // History: each asset's services from the day it entered service, at the interval its
        // schedule uses (distance, hours or months, whichever comes first) on its real daily
        // use; the rows of the year before the period's end are written. Every service is a
        // function of the seed, the asset and its dates only, with a work order named by unit
        // and day: the October and November samples write the same rows for the days both
        // cover, so importing both changes nothing of October. One asset in seven services its
        // oil or 500-hour work late, so the maintenance-due report has something to say.
        var rows: [(at: String, row: [String])] = []
        let end = fleet.start.adding(days: fleet.days)
        let firstWritten = end.adding(days: -400)
        for (i, a) in fleet.assets.enumerated() {
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
            // (km, engine hours) at the start of each day from entering service to the period's end.
            var meters: [(km: Double, hours: Double)] = []
            var m = SampleFleet.Meters()
            var date = a.inService
            while date < end {
                meters.append((m.km, m.hours))
                m.add(fleet.use(of: i, on: date))
                date = date.adding(days: 1)
            }
            for (s, service) in services.enumerated() {
                let late = i % 7 == 3 && service.name != "annual_inspection" && service.name != "tire_rotation"
                var rng = SeededRandom(seed: fleet.seed).fork(UInt64(1000 + i)).fork(UInt64(s + 1))
                var last = 0
                var factor = late ? rng.double(1.15...1.6) : rng.double(0.85...1.02)
                for d in 1..<max(meters.count, 1) {
                    let km = meters[d].km - meters[last].km, hours = meters[d].hours - meters[last].hours
                    let due = (service.everyKm.map { km >= $0 * factor } ?? false)
                        || (service.everyHours.map { hours >= $0 * factor } ?? false)
                        || (service.everyMonths.map { Double(d - last) >= Double($0) * 30.4 * factor } ?? false)
                    guard due else { continue }
                    last = d
                    let day = a.inService.adding(days: d)
                    var event = rng.fork(UInt64(day.daysSinceEpoch))
                    let at = "\(day)T\(String(format: "%02d", 7 + event.int(0...9))):\(String(format: "%02d", event.int(0...59))):00"
                    let vendor = machine ? (a.model.make == "Komatsu" ? "Komatsu Midwest Service" : "Deere Dealer Service")
                        : event.pick(["Quick Lube #12", "Fleet Service Center", "Midway Truck Repair"])
                    let cost = SampleWriter.decimal(event.double(service.cost), 2)
                    // Services are mostly on time, now and then a little late.
                    factor = late ? event.double(1.15...1.6) : event.chance(0.15) ? event.double(1.12...1.3) : event.double(0.85...1.02)
                    guard day >= firstWritten else { continue }
                    let odometer = machine ? "" : String(Int(meters[d].km.rounded()))
                    let workOrder = "WO-\(a.unit)-\(day.description.replacingOccurrences(of: "-", with: ""))"
                    rows.append((at, [a.unit, service.name, at, odometer, meters[d].hours > 0 ? SampleWriter.decimal(meters[d].hours, 1) : "",
                                      cost, "USD", vendor, workOrder, ""]))
                }
            }
        }
        rows.sort { ($0.at, $0.row[0], $0.row[1]) < ($1.at, $1.row[0], $1.row[1]) }
        try write(SampleWriter.csv(["unit_number", "service_type", "performed_at", "odometer_km", "engine_hours", "cost", "currency",
                                    "vendor", "work_order", "notes"], rows.map(\.row)), to: "maintenance/maintenance-history.csv")
    }
}
