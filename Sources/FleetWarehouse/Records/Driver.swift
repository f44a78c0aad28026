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
    public var status: String?
    public var phone: String?
    public var email: String?
    public var autoCreated: Bool
    public var sourceFileID: Int64?

    public init(id: Int64? = nil, employeeID: String? = nil, name: String? = nil, licenseNumber: String? = nil, licenseState: String? = nil, licenseExpiry: String? = nil, status: String? = nil, phone: String? = nil, email: String? = nil, autoCreated: Bool, sourceFileID: Int64? = nil) {
        self.id = id
        self.employeeID = employeeID
        self.name = name
        self.licenseNumber = licenseNumber
        self.licenseState = licenseState
        self.licenseExpiry = licenseExpiry
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
        case status
        case phone
        case email
        case autoCreated = "auto_created"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
