import Foundation
import FleetCore

/// Pre-trip inspections (49 CFR 396.13) and end-of-day (post-trip) reports (396.11) on the days
/// each vehicle operates, with defects, repairs certified by a mechanic and reviewed by the next
/// driver, and the repairs as maintenance records. A few inspections and end-of-day reports are
/// missing, a few safety defects stay open while the vehicle keeps operating, and a few reviews
/// are signed before the repair is certified: the compliance report must find exactly those.
///
/// The end-of-day reports draw on their own random stream and number from 80,001, so the
/// pre-trip inspections are the same whether or not they are written.
extension SampleWriter {
    static let defectKinds: [(component: String, type: String, comment: String, critical: Bool, cost: ClosedRange<Double>)] = [
        ("lighting", "Lamp out", "Left rear marker lamp out", true, 18...65),
        ("tires", "Low tread", "Right front tire tread at 3/32", true, 220...480),
        ("wipers", "Worn blade", "Driver side wiper streaking", false, 25...45),
        ("mirrors", "Cracked", "Passenger mirror glass cracked", false, 60...180),
        ("service_brakes", "Air leak", "Audible air leak at rear brake chamber", true, 240...720),
        ("horn", "Inoperative", "Horn does not sound", true, 45...120),
        ("emergency_equipment", "Missing", "Fire extinguisher missing its pin", false, 15...40),
    ]

    func localISO(_ day: CivilDate, _ hour: Int, _ minute: Int) -> (text: String, ms: Int64) {
        let local = Int64(day.daysSinceEpoch) * 86_400_000 + Int64(hour * 3600 + minute * 60) * 1000
        let ms = Timestamp.utc(fromLocal: local, in: fleet.zone.timeZone)
        let offset = Int((local - ms) / 60_000)
        let sign = offset < 0 ? "-" : "+"
        let text = "\(day)T\(String(format: "%02d:%02d", hour, minute)):00\(sign)\(String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60))"
        return (text, ms)
    }

    mutating func writeDVIRs() throws {
        var rows: [[String]] = []
        var repairs: [[String]] = []
        var dvirNumber = 70_000
        var endOfDayNumber = 80_000
        for (i, a) in fleet.assets.enumerated() where a.model.kind == "vehicle" {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(4000 + i))
            var endRng = SeededRandom(seed: fleet.seed).fork(UInt64(4500 + i))
            let days = fleet.usage(of: i).filter(\.operated)
            guard let d = a.driver else { continue }
            let driver = fleet.drivers[d]
            var index = 0
            // Each day's end-of-day report follows its pre-trip in the file: it is written when
            // the next day starts (or after the last day).
            var endOfDay: (row: [String], repair: [String]?)? = nil
            defer { if let endOfDay { rows.append(endOfDay.row) } }
            while index < days.count {
                let day = days[index]
                index += 1
                if let last = endOfDay { rows.append(last.row) }
                endOfDay = endOfDayReport(day: day, next: index < days.count ? days[index] : nil, unit: a.unit, driver: driver,
                                          number: &endOfDayNumber, rng: &endRng)
                if let repair = endOfDay?.repair { repairs.append(repair) }
                if rng.chance(0.02) { continue }   // a missed inspection: a compliance gap
                dvirNumber += 1
                let dvirID = idPrefix + String(format: "%05d", dvirNumber)
                let start = localISO(day.date, 6, rng.int(10...50))
                let signed = localISO(day.date, 7, rng.int(0...9))
                let odometerMi = String(Int((day.odometerKmAtStart * 1000 / Units.metresPerMile).rounded()))
                var dvir = [dvirID, a.unit, driver.employeeID, driver.name, "pre_trip", start.text, signed.text]
                guard rng.chance(0.05) else {
                    rows.append(dvir + ["safe", odometerMi, "Yard, 1200 W Industrial Dr, Joliet IL", "", "", "", "", "", signed.text,
                                        "", "", "", "", "", "", "", "", ""])
                    continue
                }
                let k = rng.pick(Self.defectKinds)
                // Usually fixed the same day; one in five waits for a later day while the truck keeps running.
                let late = rng.chance(0.2) && index + 2 < days.count
                let fixDay = late ? days[index + 1].date : day.date
                let fixed = localISO(fixDay, late ? 17 : 9, rng.int(0...59))
                let review = index < days.count ? localISO(days[index].date, 6, 5) : nil
                let mechanic = rng.pick(["R. Okafor", "J. Brandt", "S. Lindqvist"])
                let updated = review?.text ?? fixed.text
                dvir += ["resolved", odometerMi, "Yard, 1200 W Industrial Dr, Joliet IL", mechanic, fixed.text,
                         "Repaired: \(k.comment.lowercased())", review?.text ?? "", review == nil ? "" : driver.name, updated]
                rows.append(dvir + ["D\(dvirID)-1", k.component, k.type, k.comment, k.critical ? "yes" : "no", signed.text,
                                    fixed.text, mechanic, "repaired"])
                repairs.append([a.unit, "repair_" + k.component, fixed.text, "", "", SampleWriter.decimal(rng.double(k.cost), 2), "USD",
                                "In-house shop", "DVIR-\(dvirID)", k.comment])
            }
        }
        try write(SampleWriter.csv(["dvir_id", "unit_number", "driver_id", "driver_name", "type", "started_at", "signed_at", "safety_status",
                                    "odometer_mi", "location", "mechanic_name", "mechanic_signed_at", "mechanic_notes", "reviewed_at",
                                    "reviewed_by", "updated_at", "defect_id", "component", "defect_type", "comment", "safety_critical",
                                    "defect_created_at", "resolved_at", "resolved_by", "certification"], rows),
                  to: "dvir/dvir-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")
        repairs.sort { ($0[2], $0[0]) < ($1[2], $1[0]) }
        try write(SampleWriter.csv(["unit_number", "service_type", "performed_at", "odometer_km", "engine_hours", "cost", "currency",
                                    "vendor", "work_order", "notes"], repairs),
                  to: "maintenance/repairs-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")
    }

    /// A vehicle's end-of-day report after the day's drive (the drive starts by about 07:20 and
    /// runs the day's engine hours): filed on most days, as a carrier whose policy is a report
    /// every day; about one in thirty finds a defect, certified that evening in the shop and
    /// reviewed by the driver at the next day's pre-trip. Nil: not filed that day.
    func endOfDayReport(day: SampleFleet.Day, next: SampleFleet.Day?, unit: String, driver: SampleFleet.Driver, number: inout Int,
                        rng: inout SeededRandom) -> (row: [String], repair: [String]?)? {
        guard rng.chance(0.93) else { return nil }
        number += 1
        // Minutes after midnight when the drive is over, and a few minutes of walk-round after it.
        let endMinute = min(Int((7 * 60 + 20 + day.engineHours * 60).rounded()) + rng.int(5...20), 23 * 60 + 40)
        let start = localISO(day.date, endMinute / 60, endMinute % 60)
        let signedMinute = min(endMinute + rng.int(6...14), 23 * 60 + 55)
        let signed = localISO(day.date, signedMinute / 60, signedMinute % 60)
        let odometerMi = String(Int(((day.odometerKmAtStart + day.km) * 1000 / Units.metresPerMile).rounded()))
        let id = idPrefix + String(format: "%05d", number)
        let dvir = [id, unit, driver.employeeID, driver.name, "post_trip", start.text, signed.text]
        let yard = "Yard, 1200 W Industrial Dr, Joliet IL"
        guard rng.chance(0.035), let next else {
            return (dvir + ["safe", odometerMi, yard, "", "", "", "", "", signed.text, "", "", "", "", "", "", "", "", ""], nil)
        }
        let k = rng.pick(Self.defectKinds)
        // The shop certifies before midnight; the next driver reviews at the next pre-trip.
        let fixedMinute = min(signedMinute + rng.int(40...150), 23 * 60 + 59)
        let fixed = localISO(day.date, fixedMinute / 60, fixedMinute % 60)
        let review = localISO(next.date, 6, 5)
        let mechanic = rng.pick(["R. Okafor", "J. Brandt", "S. Lindqvist"])
        let row = dvir + ["resolved", odometerMi, yard, mechanic, fixed.text, "Repaired: \(k.comment.lowercased())", review.text, driver.name, review.text,
                          "D\(id)-1", k.component, k.type, k.comment, k.critical ? "yes" : "no", signed.text, fixed.text, mechanic, "repaired"]
        let repair = [unit, "repair_" + k.component, fixed.text, "", "", SampleWriter.decimal(rng.double(k.cost), 2), "USD", "In-house shop", "DVIR-\(id)", k.comment]
        return (row, repair)
    }
}
