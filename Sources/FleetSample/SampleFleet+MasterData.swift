import Foundation
import FleetCore

extension SampleWriter {
    /// The day a few vehicles pass to a relief driver (mid-October 2026, inside the default sample).
    static let reliefHandover = CivilDate(year: 2026, month: 10, day: 15)!

    /// Master data: assets, drivers, assignments, service schedules.
    mutating func writeMasterData() throws {
        let assetRows = fleet.assets.map { a -> [String] in
            [a.unit, a.model.kind, a.vin ?? "", a.pin ?? "",
             a.model.make, a.model.model, String(a.model.year), a.model.fuel, a.model.group, a.model.costCenter, a.model.department,
             a.inService.description, SampleWriter.decimal(Double(a.model.costMinor) / 100, 2), "USD",
             SampleWriter.decimal(a.model.targetHoursPerWeek, 0), a.samsaraID ?? "",
             Self.tankCapacityGallons[a.model.group].map { SampleWriter.decimal($0, 1) } ?? ""]
        }
        try write(SampleWriter.csv(["unit_number", "kind", "vin", "pin", "make", "model", "year", "fuel_type", "asset_group", "cost_center",
                                    "department", "in_service_date", "acquisition_cost", "currency", "target_hours_per_week", "samsara_id",
                                    "tank_capacity_gal"],
                                   assetRows), to: "master/assets.csv")

        let driverRows = fleet.drivers.map { d in
            [d.employeeID, d.name, d.license, d.state, d.expiry.description, d.medicalExpiry.description, "active", d.samsaraID]
        }
        try write(SampleWriter.csv(["employee_id", "name", "license_number", "license_state", "license_expiry", "medical_expiry", "status", "samsara_id"],
                                   driverRows), to: "master/drivers.csv")

        // Each vehicle has its regular driver from its in-service date; a few changed hands on
        // one fixed day. Like every master row, a function of the fleet and never of the sample's
        // start: the October and November samples list the same assignments.
        var assignmentRows: [[String]] = []
        let handover = SampleWriter.reliefHandover
        for a in fleet.assets where a.model.kind == "vehicle" {
            guard let d = a.driver else { continue }
            let since = a.inService
            if d % 6 == 5, handover > since, fleet.drivers.count > fleet.assets.filter({ $0.model.kind == "vehicle" }).count + 2 {
                let relief = fleet.drivers[fleet.drivers.count - 1 - d % 3]
                assignmentRows.append([fleet.drivers[d].employeeID, a.unit, since.description, handover.adding(days: -1).description])
                assignmentRows.append([relief.employeeID, a.unit, handover.description, ""])
            } else {
                assignmentRows.append([fleet.drivers[d].employeeID, a.unit, since.description, ""])
            }
        }
        try write(SampleWriter.csv(["employee_id", "unit_number", "start_at", "end_at"], assignmentRows), to: "master/assignments.csv")
    }
}
