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
    /// The fuel tank's capacity in millilitres: what a fill's volume is judged against.
    public var tankCapacityMl: Double?
    /// The commercial driver's licence class the vehicle needs (49 CFR 383.91): `A`, `B`, `C`,
    /// or `none`; nil when the fleet has not said.
    public var cdlClass: String?
    public var autoCreated: Bool
    public var sourceFileID: Int64?

    public init(id: Int64? = nil, unitNumber: String? = nil, kind: String, name: String? = nil, vin: String? = nil, pin: String? = nil, make: String? = nil, model: String? = nil, year: Int? = nil, fuelType: String? = nil, licensePlate: String? = nil, costCenter: String? = nil, department: String? = nil, assetGroup: String? = nil, inServiceDate: String? = nil, retiredDate: String? = nil, acquisitionCostMinor: Int64? = nil, currency: String? = nil, targetHoursPerWeek: Double? = nil, tankCapacityMl: Double? = nil, cdlClass: String? = nil, autoCreated: Bool, sourceFileID: Int64? = nil) {
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
        self.tankCapacityMl = tankCapacityMl
        self.cdlClass = cdlClass
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
        case tankCapacityMl = "tank_capacity_ml"
        case cdlClass = "cdl_class"
        case autoCreated = "auto_created"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Asset {
    /// Every `asset` column the sink's UPDATE and the resolver's INSERT write, spelled once.
    ///
    /// Why: those statements are cached SQL bound through `Binder` (GRDB's Codable
    /// `update`/`insert` build and authorise their SQL on every call, about half of an assets
    /// import's time), and each listed the columns by hand, so a column added to `asset` had to
    /// be added in several places with nothing catching a miss. `RecordSchemaTests` checks this
    /// table against the live schema. Every column is a plain value: the asset's merge rules
    /// (master data over feeds, absent keeps the stored value) live in `WarehouseSink.defineAsset`
    /// and `IdentityResolver`, not in an upsert.
    static let writtenColumns = ColumnTable<Asset>("asset", [
        .value("unit_number") { $0.unitNumber },
        .value("kind") { $0.kind },
        .value("name") { $0.name },
        .value("vin") { $0.vin },
        .value("pin") { $0.pin },
        .value("make") { $0.make },
        .value("model") { $0.model },
        .value("year") { $0.year },
        .value("fuel_type") { $0.fuelType },
        .value("license_plate") { $0.licensePlate },
        .value("cost_center") { $0.costCenter },
        .value("department") { $0.department },
        .value("asset_group") { $0.assetGroup },
        .value("in_service_date") { $0.inServiceDate },
        .value("retired_date") { $0.retiredDate },
        .value("acquisition_cost_minor") { $0.acquisitionCostMinor },
        .value("currency") { $0.currency },
        .value("target_hours_per_week") { $0.targetHoursPerWeek },
        .value("tank_capacity_ml") { $0.tankCapacityMl },
        .value("cdl_class") { $0.cdlClass },
        .value("auto_created") { $0.autoCreated },
        .value("source_file_id") { $0.sourceFileID },
    ], notWritten: [
        "id": "the rowid: the INSERT's new id, the UPDATE's WHERE",
        "name_from_master": "set only by named SQL (the sink when master data names the asset, the asset merger)",
    ])

    /// `INSERT INTO asset (every written column) VALUES (?, …)`; the new id is the rowid.
    static let insertSQL = writtenColumns.insertSQL()

    /// `UPDATE asset SET every written column = ? WHERE id = ?`: what GRDB's `update(db)` wrote.
    static let updateSQL = writtenColumns.updateByIDSQL
}
