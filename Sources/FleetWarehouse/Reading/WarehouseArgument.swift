import FleetCore

/// A parameter of a `WarehouseReader` query.
///
/// `.instant` is a UTC time in epoch milliseconds (`Timestamp`): SQLite stores those as
/// INTEGER, PostgreSQL as `timestamptz`, so each reader binds it as its engine stores it.
public enum WarehouseArgument: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case instant(Int64)
    case null

    public static func int(_ v: Int) -> WarehouseArgument { .integer(Int64(v)) }
}

extension WarehouseArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}
