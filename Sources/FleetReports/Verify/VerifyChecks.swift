import FleetCore
import FleetWarehouse

/// Every check `fleetkit verify` and the nightly job run: the warehouse layer's and the
/// report-level ones, which need the report engine.
public enum VerifyChecks {
    public static let all: [any WarehouseCheck] = Verifier.warehouseChecks + [ReportTotalsCheck()]

    /// The context of `warehouse` as its settings describe it: the fleet zone, currency and units
    /// its rows and reports use; `trips` are the trip rules it was derived with.
    public static func context(_ warehouse: Warehouse, trips: TripRules = TripRules(), sampleDays: Int = 200,
                               listLimit: Int = 50) throws -> VerifyContext {
        let tz = try warehouse.setting("timezone") ?? "UTC"
        guard let zone = FleetZone(identifier: tz) else {
            throw FleetError.invalidArgument(name: "timezone setting", value: tz, hint: "set a valid IANA zone with `fleetkit init --tz America/Chicago`")
        }
        return VerifyContext(settings: DeriveSettings(zone: zone, trips: trips), sampleDays: sampleDays, listLimit: listLimit,
                             currency: try warehouse.setting("currency") ?? "USD",
                             units: Units.System(rawValue: try warehouse.setting("units") ?? "metric") ?? .metric)
    }
}
