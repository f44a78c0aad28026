import FleetCore

/// One cell of a result row, as both engines can give it.
public enum WarehouseCell: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One row of a `WarehouseReader` query: cells decoded by type, with an error naming the
/// column when a value is not of that type (never a trap).
public struct WarehouseRow: Sendable {
    public let cells: [WarehouseCell]

    public init(_ cells: [WarehouseCell]) { self.cells = cells }

    public var count: Int { cells.count }

    public subscript<T: WarehouseValue>(_ i: Int) -> T {
        get throws {
            guard i >= 0, i < cells.count else { throw WarehouseDecodingError(column: i, cell: .null, wanted: "\(T.self)") }
            guard let v = T.decode(cells[i]) else { throw WarehouseDecodingError(column: i, cell: cells[i], wanted: "\(T.self)") }
            return v
        }
    }
}

/// A cell that is not of the type the query's reader asked for: a report's SQL and its
/// decoding disagree, which a test shows on either engine.
public struct WarehouseDecodingError: Error, CustomStringConvertible {
    public let column: Int
    public let cell: WarehouseCell
    public let wanted: String
    public var description: String { "result column \(column) holds \(cell), not a \(wanted)" }
}

/// A Swift type a cell decodes to.
public protocol WarehouseValue {
    /// Nil when the cell is not of this type (NULL decodes only to an Optional).
    static func decode(_ cell: WarehouseCell) -> Self?
}

extension Int64: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> Int64? {
        switch cell {
        case let .integer(i): return i
        // SQLite's SUM of integers that overflow comes back REAL; an integral one is still a count.
        case let .real(d): return d.rounded() == d ? Checked.int64(d) : nil
        default: return nil
        }
    }
}

extension Int: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> Int? { Int64.decode(cell).map { Int($0) } }
}

extension Double: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> Double? {
        switch cell {
        case let .real(d): return d
        case let .integer(i): return Double(i)
        default: return nil
        }
    }
}

extension String: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> String? {
        if case let .text(s) = cell { return s }
        return nil
    }
}

extension Bool: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> Bool? {
        switch cell {
        case let .integer(i): return i != 0
        case let .real(d): return d != 0
        default: return nil
        }
    }
}

extension Optional: WarehouseValue where Wrapped: WarehouseValue {
    public static func decode(_ cell: WarehouseCell) -> Wrapped?? {
        if cell == .null { return .some(nil) }
        return Wrapped.decode(cell).map { .some($0) }
    }
}
