import Foundation
import FleetCore

extension SampleWriter {
    /// Master data: assets, drivers, assignments, service schedules.
    mutating func writeMasterData() throws {
        let assetRows = fleet.assets.map { a -> [String] in
            [a.unit, a.model.kind, a.vin ?? "", a.pin ?? "",
             a.model.make, a.model.model, String(a.model.year), a.model.fuel, a.model.group, a.model.costCenter, a.model.department,
             a.inService.description, SampleWriter.decimal(Double(a.model.costMinor) / 100, 2), "USD",
             SampleWriter.decimal(a.model.targetHoursPerWeek, 0), a.samsaraID ?? ""]
        }
        try write(SampleWriter.csv(["unit_number", "kind", "vin", "pin", "make", "model", "year", "fuel_type", "asset_group", "cost_center",
                                    "department", "in_service_date", "acquisition_cost", "currency", "target_hours_per_week", "samsara_id"],
                                   assetRows), to: "master/assets.csv")
    }
}
