import FleetCore

/// `WarehouseReader` on a PostgreSQL warehouse written by `warehouse copy`
/// (docs/ARCHITECTURE.md "Engine boundary").
///
/// Cells are decoded by the column's type: `timestamptz` to epoch milliseconds (as SQLite
/// stores times), `boolean` to 1/0 (as SQLite gives a comparison), integers and `numeric`
/// with an integral value to integers, floating point to reals, the rest to text. Parameters
/// travel as text and take the type of what they are compared with, so an `.instant` is sent
/// as an ISO 8601 UTC time.
public struct PostgresReader: WarehouseReader {
    public let connection: PostgresConnection
    public var dialect: any SQLDialect { PostgresDialect() }

    public init(_ connection: PostgresConnection) { self.connection = connection }

    /// Runs `body` in one read-only REPEATABLE READ transaction: every query sees the same
    /// snapshot, as a report's queries do inside SQLite's read transaction.
    public func snapshot<T>(_ body: (PostgresReader) throws -> T) throws -> T {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        do {
            let value = try body(self)
            try connection.execute("COMMIT")
            return value
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    public func forEach(_ sql: String, _ arguments: [WarehouseArgument], _ body: (WarehouseRow) throws -> Void) throws {
        let parameters: [String?] = arguments.map { a in
            switch a {
            case let .integer(i): return String(i)
            case let .real(d): return d.isNaN ? "NaN" : d.isInfinite ? (d > 0 ? "Infinity" : "-Infinity") : "\(d)"
            case let .text(s): return s
            case let .instant(ms): return Timestamp.iso(ms)
            case .null: return nil
            }
        }
        try connection.forEachRow(dialect.statement(sql), parameters) { fields, types in
            var cells: [WarehouseCell] = []
            cells.reserveCapacity(fields.count)
            for (j, field) in fields.enumerated() {
                guard let field else { cells.append(.null); continue }
                guard let cell = Self.cell(field, type: types[j]) else {
                    throw FleetError.warehouse(path: connection.url.masked, reason: "result column \(j) came back as '\(field.prefix(40))', which is not a value of its type (oid \(types[j]))",
                                               hint: "The PostgreSQL warehouse should be one `fleetkit warehouse copy` wrote.")
                }
                cells.append(cell)
            }
            try body(WarehouseRow(cells))
        }
    }

    public func tableExists(_ name: String) throws -> Bool {
        try value("SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?1", [.text(name)], as: Int.self) != nil
    }

    public func columnExists(_ column: String, in table: String) throws -> Bool {
        try value("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?1 AND column_name = ?2",
                  [.text(table), .text(column)], as: Int.self) != nil
    }

    /// One field's text as a cell, by its column type OID (pg_type.h); nil when unreadable.
    static func cell(_ text: String, type: UInt32) -> WarehouseCell? {
        switch type {
        case 16: return text == "t" ? .integer(1) : text == "f" ? .integer(0) : nil
        case 20, 21, 23, 26: return Int64(text).map(WarehouseCell.integer)
        case 700, 701:
            switch text {
            case "NaN": return .real(.nan)
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            default: return Double(text).map(WarehouseCell.real)
            }
        case 1700: return Int64(text).map(WarehouseCell.integer) ?? Double(text).map(WarehouseCell.real)
        case 1184: return epochMilliseconds(text).map(WarehouseCell.integer)
        default: return .text(text)
        }
    }

    /// `2026-10-01 12:34:56.789+00`, as PostgreSQL writes a timestamptz in the session's UTC
    /// (`PostgresConnection` sets it), to epoch milliseconds; a fraction past milliseconds is
    /// cut (the warehouse stores milliseconds).
    static func epochMilliseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for k in from..<(from + count) {
                guard b[k] >= 48, b[k] <= 57 else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            return v
        }
        guard b.count >= 22, b[4] == 45, b[7] == 45, b[10] == 32, b[13] == 58, b[16] == 58,
              let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
              let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2),
              let date = CivilDate(year: y, month: mo, day: d) else { return nil }
        var i = 19
        var ms = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 3 { ms = ms * 10 + Int(b[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 3)..<3 { ms *= 10 }
        }
        // The session is UTC: the offset must be +00 (with :00 minutes when PostgreSQL adds them).
        let rest = String(decoding: b[i...], as: UTF8.self)
        guard rest == "+00" || rest == "+00:00" else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return seconds * 1000 + Int64(ms)
    }
}
