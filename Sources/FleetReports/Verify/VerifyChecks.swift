import FleetCore
import FleetWarehouse

/// Every check `fleetkit verify` and the nightly job run: the warehouse layer's and the
/// report-level ones, which need the report engine.
public enum VerifyChecks {
    public static let all: [any WarehouseCheck] = Verifier.warehouseChecks + [ReportTotalsCheck()]

    /// The context of `warehouse` as its stored settings describe it (WarehouseSettings): the
    /// fleet zone and trip rules its rows were derived with, the currency and units its reports
    /// use. A setting that cannot be read stops verify with the setting's own fix (exit 2).
    public static func context(_ warehouse: Warehouse, sampleDays: Int = 200, listLimit: Int = 50) throws -> VerifyContext {
        let s = try warehouse.settings()
        return VerifyContext(settings: s.derive, sampleDays: sampleDays, listLimit: listLimit, currency: s.currency, units: s.units)
    }
}
