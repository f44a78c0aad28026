import Foundation
import FleetCore

/// Preventive maintenance: the schedules, and a year of service history that follows each
/// asset's odometer and engine hours (a few assets deliberately overdue, so the
/// maintenance-due report has something to say).
extension SampleWriter {
    mutating func writeService() throws {
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
        ]
        try write(SampleWriter.csv(["unit_number", "asset_group", "service_type", "every_days", "every_months", "every_km",
                                    "every_engine_hours", "soon_days", "soon_km", "soon_engine_hours"], schedules),
                  to: "master/service-schedules.csv")

        var rows: [(at: String, row: [String])] = []
        var wo = 4100
        for (i, a) in fleet.assets.enumerated() {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(1000 + i))
            let days = fleet.usage(of: i)
            let perDayKm = days.map(\.km).reduce(0, +) / Double(days.count)
            let perDayHours = days.map(\.engineHours).reduce(0, +) / Double(days.count)
            // Services at fixed meter intervals, walking back from the start of the period; some
            // assets skipped their last one (overdue now).
            let overdue = i % 7 == 3
            let (service, every, unitCost): (String, Double, ClosedRange<Double>) = a.model.kind == "equipment"
                ? ("pm_500h", 500, 950...1_450)
                : ("oil_change", a.model.group == "Tractors" ? 40_000 : a.model.group == "Box trucks" ? 20_000 : 12_000,
                   a.model.group == "Tractors" ? 380...520 : 79...149)
            let meterNow = a.model.kind == "equipment" ? a.engineHours : a.odometerKm
            let perDay = a.model.kind == "equipment" ? perDayHours : perDayKm
            guard perDay > 0 else { continue }
            var meter = (meterNow / every).rounded(.down) * every - (overdue ? every : 0) - rng.double(0...(every * 0.08))
            while meter > meterNow - 365 * perDay, meter > 0 {
                let daysAgo = Int(((meterNow - meter) / perDay).rounded())
                let date = fleet.start.adding(days: -max(daysAgo, 1))
                wo += 1
                let hour = 7 + rng.int(0...9)
                let at = "\(date)T\(String(format: "%02d", hour)):\(String(format: "%02d", rng.int(0...59))):00"
                let odometer = a.model.kind == "equipment" ? "" : String(Int(meter.rounded()))
                let hoursThen = a.model.kind == "equipment" ? meter : a.engineHours - Double(daysAgo) * perDayHours
                let hours = hoursThen > 0 ? SampleWriter.decimal(hoursThen, 1) : ""
                let vendor = a.model.kind == "equipment" ? (a.model.make == "Komatsu" ? "Komatsu Midwest Service" : "Deere Dealer Service")
                    : rng.pick(["Quick Lube #12", "Fleet Service Center", "Midway Truck Repair"])
                rows.append((at, [a.unit, service, at, odometer, hours, SampleWriter.decimal(rng.double(unitCost), 2), "USD", vendor, "WO-\(wo)", ""]))
                if a.model.group == "Pickups" || a.model.group == "Vans" {
                    rows.append((at, [a.unit, "tire_rotation", at, odometer, hours, SampleWriter.decimal(rng.double(35...60), 2), "USD", vendor, "WO-\(wo)", "with oil change"]))
                }
                meter -= every
            }
        }
        rows.sort { ($0.at, $0.row[0], $0.row[1]) < ($1.at, $1.row[0], $1.row[1]) }
        try write(SampleWriter.csv(["unit_number", "service_type", "performed_at", "odometer_km", "engine_hours", "cost", "currency",
                                    "vendor", "work_order", "notes"], rows.map(\.row)), to: "maintenance/maintenance-history.csv")
    }
}
