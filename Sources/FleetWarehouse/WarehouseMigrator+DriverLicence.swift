import GRDB

extension WarehouseMigrator {
    /// `driver.license_class`: the class of the driver's licence, `A`, `B` or `C` for a
    /// commercial driver's licence (49 CFR 383.91), any other class as written (a licence that
    /// is no CDL). `asset.cdl_class`: the CDL class the vehicle needs (`A`, `B`, `C`, or `none`),
    /// as the fleet states it. The DVIR compliance report lists drivers who drove a vehicle their
    /// class does not cover (docs/METRICS.md, "Driver qualification").
    static let v14DriverLicence = """
    ALTER TABLE driver ADD COLUMN license_class TEXT;
    ALTER TABLE asset ADD COLUMN cdl_class TEXT CHECK (cdl_class IN ('A', 'B', 'C', 'none'));
    """
}
