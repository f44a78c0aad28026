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
