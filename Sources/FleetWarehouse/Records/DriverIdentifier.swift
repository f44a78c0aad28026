import GRDB

/// A vendor's name for a driver (Samsara driver id).
public struct DriverIdentifier: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "driver_identifier"

    public var driverID: Int64
    public var source: String
    public var idType: String
    public var idValue: String

    public init(driverID: Int64, source: String, idType: String, idValue: String) {
        self.driverID = driverID
        self.source = source
        self.idType = idType
        self.idValue = idValue
    }

    enum CodingKeys: String, CodingKey {
        case driverID = "driver_id"
        case source
        case idType = "id_type"
        case idValue = "id_value"
    }
}

extension DriverIdentifier {
    /// The `driver_identifier` columns, spelled once: the sink's INSERT (which leaves an
    /// identifier already attached where it is) and the lookup of the driver an identifier
    /// names are generated from it.
    public static let columnTable = ColumnTable<DriverIdentifier>("driver_identifier", [
        .key("source") { $0.source },
        .key("id_type") { $0.idType },
        .key("id_value") { $0.idValue },
        .value("driver_id") { $0.driverID },
    ])
    static let insertSQL = columnTable.insertSQL(ignoringConflicts: true)
    static let driverSQL = columnTable.lookupSQL("driver_id")
}
