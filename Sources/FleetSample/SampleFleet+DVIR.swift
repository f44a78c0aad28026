import Foundation
import FleetCore

/// Pre-trip inspections on the days each vehicle operates, with defects, repairs certified by a
/// mechanic and reviewed by the next driver (49 CFR 396.11/396.13), and the repairs as
/// maintenance records. A few inspections are missing and a few safety defects stay open while
/// the vehicle keeps operating: the compliance report must find exactly those.
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
        var dvirNumber = 0
        for (i, a) in fleet.assets.enumerated() where a.model.kind == "vehicle" {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(4000 + i))
            let days = fleet.usage(of: i).filter(\.operated)
            guard let d = a.driver else { continue }
            let driver = fleet.drivers[d]
            var index = 0
            while index < days.count {
                let day = days[index]
                index += 1
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
}
