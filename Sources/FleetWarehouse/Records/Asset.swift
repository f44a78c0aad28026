import GRDB

/// A vehicle, machine or trailer. Master data defines it; telematics may create it (`auto_created`).
public struct Asset: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "asset"

    public var id: Int64?
    public var unitNumber: String?
    public var kind: String
    public var name: String?
    public var vin: String?
    public var pin: String?
    public var make: String?
    public var model: String?
    public var year: Int?
    public var fuelType: String?
    public var licensePlate: String?
    public var costCenter: String?
    public var department: String?
    public var assetGroup: String?
    public var inServiceDate: String?
    public var retiredDate: String?
    public var acquisitionCostMinor: Int64?
    public var currency: String?
    public var targetHoursPerWeek: Double?
    public var autoCreated: Bool
    public var sourceFileID: Int64?

    public init(id: Int64? = nil, unitNumber: String? = nil, kind: String, name: String? = nil, vin: String? = nil, pin: String? = nil, make: String? = nil, model: String? = nil, year: Int? = nil, fuelType: String? = nil, licensePlate: String? = nil, costCenter: String? = nil, department: String? = nil, assetGroup: String? = nil, inServiceDate: String? = nil, retiredDate: String? = nil, acquisitionCostMinor: Int64? = nil, currency: String? = nil, targetHoursPerWeek: Double? = nil, autoCreated: Bool, sourceFileID: Int64? = nil) {
        self.id = id
        self.unitNumber = unitNumber
        self.kind = kind
        self.name = name
        self.vin = vin
        self.pin = pin
        self.make = make
        self.model = model
        self.year = year
        self.fuelType = fuelType
        self.licensePlate = licensePlate
        self.costCenter = costCenter
        self.department = department
        self.assetGroup = assetGroup
        self.inServiceDate = inServiceDate
        self.retiredDate = retiredDate
        self.acquisitionCostMinor = acquisitionCostMinor
        self.currency = currency
        self.targetHoursPerWeek = targetHoursPerWeek
        self.autoCreated = autoCreated
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case unitNumber = "unit_number"
        case kind
        case name
        case vin
        case pin
        case make
        case model
        case year
        case fuelType = "fuel_type"
        case licensePlate = "license_plate"
        case costCenter = "cost_center"
        case department
        case assetGroup = "asset_group"
        case inServiceDate = "in_service_date"
        case retiredDate = "retired_date"
        case acquisitionCostMinor = "acquisition_cost_minor"
        case currency
        case targetHoursPerWeek = "target_hours_per_week"
        case autoCreated = "auto_created"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
