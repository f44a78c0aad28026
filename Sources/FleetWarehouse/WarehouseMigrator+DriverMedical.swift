import GRDB

extension WarehouseMigrator {
    /// `driver.medical_expiry`: the medical examiner's certificate's expiration date, YYYY-MM-DD
    /// (49 CFR 391.41, 391.45; kept in the driver qualification file, 391.51), beside the
    /// licence's `license_expiry`: the DVIR compliance report lists drivers who drove on a day
    /// either had expired.
    static let v13DriverMedical = """
    ALTER TABLE driver ADD COLUMN medical_expiry TEXT;
    """
}
