import FleetCore
import Foundation
import GRDB

/// PostgreSQL's COPY text format, both ways: a tab between fields, a newline after each row,
/// `\N` for NULL, and a backslash escape for backslash, tab, newline and carriage return
/// (https://www.postgresql.org/docs/15/sql-copy.html, "Text Format").
enum PostgresCopyText {
    /// Appends one SQLite value in the text form of `type`. A value whose storage class does
    /// not fit the column (possible only in a table that is not STRICT) is refused, with where it is.
    static func append(_ value: DatabaseValue, as type: PostgresSchema.ColumnType, to out: inout [UInt8], table: String, column: String) throws {
        switch (value.storage, type) {
        case (.null, _):
            out.append(0x5C); out.append(0x4E)
        case let (.int64(ms), .timestamptz):
            out.append(contentsOf: Timestamp.iso(ms).utf8)
        case let (.int64(i), .bigint), let (.int64(i), .double):
            out.append(contentsOf: String(i).utf8)
        case let (.double(d), .double):
            if d.isNaN { out.append(contentsOf: "NaN".utf8) } else if d.isInfinite { out.append(contentsOf: (d < 0 ? "-Infinity" : "Infinity").utf8) } else { out.append(contentsOf: "\(d)".utf8) }
        case let (.string(s), .text):
            escape(s, into: &out)
        case let (.blob(data), .bytea):
            out.append(contentsOf: "\\\\x".utf8)
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            for b in data { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)]) }
        default:
            throw FleetError.warehouse(path: table, reason: "column \(table).\(column) holds \(value) where PostgreSQL's \(type.rawValue) goes",
                                       hint: "Run `fleetkit verify` on the SQLite warehouse; nothing was copied.")
        }
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        for b in s.utf8 {
            switch b {
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            default: out.append(b)
            }
        }
    }

    /// Splits one row (without or with its newline) into fields; nil is NULL.
    static func fields(_ row: UnsafeBufferPointer<UInt8>) -> [[UInt8]?] {
        var end = row.count
        if end > 0, row[end - 1] == 0x0A { end -= 1 }
        var out: [[UInt8]?] = []
        var field: [UInt8] = []
        var i = 0
        var isNull = false
        func close() { out.append(isNull ? nil : field); field = []; isNull = false }
        while i < end {
            let b = row[i]
            if b == 0x09 { close(); i += 1; continue }
            if b == 0x5C, i + 1 < end {
                let e = row[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "N") where field.isEmpty && (i >= end || row[i] == 0x09): isNull = true
                case UInt8(ascii: "t"): field.append(0x09)
                case UInt8(ascii: "n"): field.append(0x0A)
                case UInt8(ascii: "r"): field.append(0x0D)
                case UInt8(ascii: "b"): field.append(0x08)
                case UInt8(ascii: "f"): field.append(0x0C)
                case UInt8(ascii: "v"): field.append(0x0B)
                case UInt8(ascii: "x"):
                    var v = 0, n = 0
                    while n < 2, i < end, let h = hexValue(row[i]) { v = v * 16 + h; i += 1; n += 1 }
                    field.append(UInt8(v))
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var v = Int(e - 48), n = 1
                    while n < 3, i < end, row[i] >= 48, row[i] <= 55 { v = v * 8 + Int(row[i] - 48); i += 1; n += 1 }
                    field.append(UInt8(v & 0xFF))
                default: field.append(e)
                }
                continue
            }
            field.append(b)
            i += 1
        }
        close()
        return out
    }

    /// One field back as the SQLite value of a column of `sqliteType` (INTEGER, REAL, TEXT, BLOB).
    static func value(_ field: [UInt8]?, sqliteType: PostgresSchema.ColumnType, table: String, column: String) throws -> DatabaseValue {
        guard let field else { return .null }
        let text = String(decoding: field, as: UTF8.self)
        switch sqliteType {
        case .bigint, .timestamptz:
            if let i = Int64(text) { return i.databaseValue }
        case .double:
            switch text {
            case "NaN": return Double.nan.databaseValue
            case "Infinity": return Double.infinity.databaseValue
            case "-Infinity": return (-Double.infinity).databaseValue
            default: if let d = Double(text) { return d.databaseValue }
            }
        case .text:
            return text.databaseValue
        case .bytea:
            if field.count >= 2, field[0] == 0x5C, field[1] == UInt8(ascii: "x"), field.count % 2 == 0 {
                var bytes = [UInt8]()
                bytes.reserveCapacity(field.count / 2 - 1)
                var i = 2
                while i < field.count {
                    guard let hi = hexValue(field[i]), let lo = hexValue(field[i + 1]) else { break }
                    bytes.append(UInt8(hi * 16 + lo)); i += 2
                }
                if i == field.count { return Data(bytes).databaseValue }
            }
        }
        throw FleetError.warehouse(path: table, reason: "column \(table).\(column) came back as '\(text.prefix(40))', not a \(sqliteType.rawValue)",
                                   hint: "Nothing was written; check the PostgreSQL table's column types.")
    }

    private static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 48...57: return Int(b - 48)
        case 97...102: return Int(b - 87)
        case 65...70: return Int(b - 55)
        default: return nil
        }
    }
}
