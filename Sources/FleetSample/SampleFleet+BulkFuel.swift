import Foundation
import FleetCore

/// The site's bulk diesel tank: its deliveries and dips (`fuel-delivery`) and the fuel pumped
/// from it into the machines (`fuel-dispense`), so the machines carry their fuel cost.
extension SampleWriter {
    /// The yard's tank id as the site writes it.
    static let bulkTank = "YARD-D1"
    /// What the tank holds at the start and the end of every sample month, in US gallons: the
    /// deliveries of a month add up to what it dispensed, so the months join without a gap.
    static let bulkTankLevelGallons = 4_000.0

    /// Each machine is topped up at the end of every day it worked with exactly the fuel its
    /// meter says it burned that day (in litres, as the pump and the meters count it), so bought
    /// against burned agrees for every machine. A tanker delivers every seven days from the first
    /// at 05:30, before the day's first dispense, enough for the week's dispenses rounded up to a
    /// whole gallon; the month's last delivery brings the tank back to its starting level.
    mutating func writeBulkFuel() throws {
        let litresPerGallon = Units.millilitresPerUSGallon / 1000
        var dispenses: [(key: String, row: [String], day: Int, litres: Double)] = []
        for (i, a) in fleet.assets.enumerated() where a.model.kind == "equipment" {
            var rng = SeededRandom(seed: fleet.seed).fork(UInt64(6000 + i))
            for (d, day) in fleet.usage(of: i).enumerated() where day.operated && day.fuelLitres > 0 {
                let time = String(format: "18:%02d:00", rng.int(0...50))
                let hours = day.engineHoursAtStart + day.engineHours
                dispenses.append((day.date.description + time + a.unit,
                                  [day.date.description, time, Self.bulkTank, a.unit, SampleWriter.decimal(day.fuelLitres, 1), "L",
                                   SampleWriter.decimal(hours, 2), "Diesel #2"], d, day.fuelLitres))
            }
        }
        // A fleet without machines has no yard tank.
        guard !dispenses.isEmpty else { return }
        dispenses.sort { $0.key < $1.key }
        let ym = "\(fleet.start.year)\(String(format: "%02d", fleet.start.month))"
        let dispenseRows = dispenses.enumerated().map { n, d in ["D\(ym)-\(String(format: "%04d", n + 1))"] + d.row }
        try write(SampleWriter.csv(["transaction_id", "date", "time", "tank", "unit_number", "quantity", "unit_of_measure", "engine_hours", "product"],
                                   dispenseRows),
                  to: "bulk-fuel/fuel-dispense-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")

        var rng = SeededRandom(seed: fleet.seed).fork(6500)
        var rows: [[String]] = []
        let weeks = stride(from: 0, to: fleet.days, by: 7).map { $0 }
        let totalGallons = dispenses.reduce(0) { $0 + $1.litres } / litresPerGallon
        var delivered = 0.0
        rows.append(["dip", fleet.start.description, "00:00:00", Self.bulkTank, SampleWriter.decimal(Self.bulkTankLevelGallons, 1), "", "", "", ""])
        for (w, first) in weeks.enumerated() {
            let next = w + 1 < weeks.count ? weeks[w + 1] : fleet.days
            let week = dispenses.filter { $0.day >= first && $0.day < next }.reduce(0) { $0 + $1.litres } / litresPerGallon
            let gallons = w + 1 < weeks.count ? week.rounded(.up) : totalGallons - delivered
            guard gallons > 0 else { continue }
            let gallonsText = SampleWriter.decimal(gallons, 3)
            delivered += Double(gallonsText) ?? gallons
            let price = rng.double(3.289...3.589)
            let cost = ((Double(gallonsText) ?? gallons) * price * 100).rounded() / 100
            rows.append(["delivery", fleet.start.adding(days: first).description, "05:30:00", Self.bulkTank, gallonsText,
                         SampleWriter.decimal(cost, 2), "USD", "Heartland Fuel Supply", "HFS-\(ym)-\(String(format: "%02d", w + 1))"])
        }
        let level = Self.bulkTankLevelGallons + delivered - totalGallons
        rows.append(["dip", fleet.start.adding(days: fleet.days - 1).description, "23:30:00", Self.bulkTank, SampleWriter.decimal(level, 1), "", "", "", ""])
        try write(SampleWriter.csv(["kind", "date", "time", "tank", "gallons", "cost", "currency", "supplier", "invoice"], rows),
                  to: "bulk-fuel/fuel-delivery-\(fleet.start.year)-\(String(format: "%02d", fleet.start.month)).csv")
    }
}
