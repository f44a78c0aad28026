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

/// One column the hand-written asset statements write, with the field it stores.
struct AssetColumn: Sendable {
    let name: String
    let value: @Sendable (Asset) -> (any DatabaseValueConvertible)?
}

extension Asset {
    /// Every `asset` column the sink's UPDATE and the resolver's INSERT write, spelled once.
    ///
    /// Why: those statements are cached SQL (GRDB's Codable `update`/`insert` build and
    /// authorise their SQL on every call, about half of an assets import's time), and each
    /// listed the columns by hand, so a column added to `asset` had to be added in several
    /// places with nothing catching a miss. `RecordSchemaTests` checks this list against the
    /// live schema: every column but `id` (the rowid) and `name_from_master` (named SQL only).
    static let writtenColumns: [AssetColumn] = [
        AssetColumn(name: "unit_number") { $0.unitNumber },
        AssetColumn(name: "kind") { $0.kind },
        AssetColumn(name: "name") { $0.name },
        AssetColumn(name: "vin") { $0.vin },
        AssetColumn(name: "pin") { $0.pin },
        AssetColumn(name: "make") { $0.make },
        AssetColumn(name: "model") { $0.model },
        AssetColumn(name: "year") { $0.year },
        AssetColumn(name: "fuel_type") { $0.fuelType },
        AssetColumn(name: "license_plate") { $0.licensePlate },
        AssetColumn(name: "cost_center") { $0.costCenter },
        AssetColumn(name: "department") { $0.department },
        AssetColumn(name: "asset_group") { $0.assetGroup },
        AssetColumn(name: "in_service_date") { $0.inServiceDate },
        AssetColumn(name: "retired_date") { $0.retiredDate },
        AssetColumn(name: "acquisition_cost_minor") { $0.acquisitionCostMinor },
        AssetColumn(name: "currency") { $0.currency },
        AssetColumn(name: "target_hours_per_week") { $0.targetHoursPerWeek },
        AssetColumn(name: "auto_created") { $0.autoCreated },
        AssetColumn(name: "source_file_id") { $0.sourceFileID },
    ]

    /// `INSERT INTO asset (every written column) VALUES (?, …)`; the new id is the rowid.
    static let insertSQL: String = {
        let names = writtenColumns.map(\.name)
        return "INSERT INTO asset (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
    }()

    /// `UPDATE asset SET every written column = ? WHERE id = ?`: what GRDB's `update(db)` wrote.
    static let updateSQL: String =
        "UPDATE asset SET \(writtenColumns.map { "\($0.name) = ?" }.joined(separator: ", ")) WHERE id = ?"

    /// The written columns' values, in `writtenColumns` order.
    var writtenValues: [(any DatabaseValueConvertible)?] { Self.writtenColumns.map { $0.value(self) } }
}
