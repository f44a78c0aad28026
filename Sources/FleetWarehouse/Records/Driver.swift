import GRDB

/// A driver or operator.
public struct Driver: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "driver"

    public var id: Int64?
    public var employeeID: String?
    public var name: String?
    public var licenseNumber: String?
    public var licenseState: String?
    public var licenseExpiry: String?
    /// The licence's class: `A`, `B` or `C` for a commercial driver's licence (49 CFR 383.91),
    /// another class as written for a licence that is no CDL.
    public var licenseClass: String?
    /// The medical examiner's certificate's expiration date (49 CFR 391.41, 391.45), YYYY-MM-DD.
    public var medicalExpiry: String?
    public var status: String?
    public var phone: String?
    public var email: String?
    public var autoCreated: Bool
    public var sourceFileID: Int64?

    public init(id: Int64? = nil, employeeID: String? = nil, name: String? = nil, licenseNumber: String? = nil, licenseState: String? = nil, licenseExpiry: String? = nil, licenseClass: String? = nil, medicalExpiry: String? = nil, status: String? = nil, phone: String? = nil, email: String? = nil, autoCreated: Bool, sourceFileID: Int64? = nil) {
        self.id = id
        self.employeeID = employeeID
        self.name = name
        self.licenseNumber = licenseNumber
        self.licenseState = licenseState
        self.licenseExpiry = licenseExpiry
        self.licenseClass = licenseClass
        self.medicalExpiry = medicalExpiry
        self.status = status
        self.phone = phone
        self.email = email
        self.autoCreated = autoCreated
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case employeeID = "employee_id"
        case name
        case licenseNumber = "license_number"
        case licenseState = "license_state"
        case licenseExpiry = "license_expiry"
        case licenseClass = "license_class"
        case medicalExpiry = "medical_expiry"
        case status
        case phone
        case email
        case autoCreated = "auto_created"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Driver {
    /// Every `driver` column the sink writes, spelled once: its INSERT (an auto-created driver)
    /// and its UPDATE (master data) are generated from it, and `RecordSchemaTests` checks it
    /// against the live schema. Every column is a plain value: the merge rules (master data
    /// over placeholders, absent keeps the stored value) live in `WarehouseSink.defineDriver`.
    public static let columnTable = ColumnTable<Driver>("driver", [
        .value("employee_id") { $0.employeeID },
        .value("name") { $0.name },
        .value("license_number") { $0.licenseNumber },
        .value("license_state") { $0.licenseState },
        .value("license_expiry") { $0.licenseExpiry },
        .value("license_class") { $0.licenseClass },
        .value("medical_expiry") { $0.medicalExpiry },
        .value("status") { $0.status },
        .value("phone") { $0.phone },
        .value("email") { $0.email },
        .value("auto_created") { $0.autoCreated },
        .value("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid: the INSERT's new id, the UPDATE's WHERE"])
}
