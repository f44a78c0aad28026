/// PostgreSQL's side of `SQLDialect`.
public struct PostgresDialect: SQLDialect {
    public init() {}
    public var engine: String { "postgresql" }

    /// `?N` becomes `$N`, and a bare `?` the next number after the largest so far, as SQLite
    /// numbers them; text in quotes and comments is left alone.
    public func statement(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var largest = 0
        let chars = Array(sql.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" || c == "\"" {
                // A quoted literal or identifier, with its doubled quotes, copied whole.
                var j = i + 1
                while j < chars.count {
                    if chars[j] == c {
                        if j + 1 < chars.count, chars[j + 1] == c { j += 2; continue }
                        break
                    }
                    j += 1
                }
                out.unicodeScalars.append(contentsOf: chars[i...min(j, chars.count - 1)])
                i = j + 1
            } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                var j = i
                while j < chars.count, chars[j] != "\n" { j += 1 }
                out.unicodeScalars.append(contentsOf: chars[i..<j])
                i = j
            } else if c == "?" {
                var j = i + 1
                var digits = ""
                while j < chars.count, chars[j].properties.numericType != nil, chars[j].isASCII { digits.unicodeScalars.append(chars[j]); j += 1 }
                let n = Int(digits) ?? (largest + 1)
                largest = max(largest, n)
                out += "$\(n)"
                i = j
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        return out
    }

    /// Exact: EXTRACT gives a numeric (PostgreSQL 14 and later), so milliseconds stay whole.
    public func epochMilliseconds(_ expression: String) -> String { "(EXTRACT(EPOCH FROM \(expression)) * 1000)" }

    public func binary(_ expression: String) -> String { "(\(expression)) COLLATE \"C\"" }

    public func joinedText(_ expression: String, separator: String, order: String) -> String {
        "string_agg(\(expression), \(separator) ORDER BY (\(order)) COLLATE \"C\")"
    }

    /// NULLs first and text by bytes, as SQLite sorts (`COLLATE "C"` compares UTF-8 bytes).
    public func ascending(_ expression: String, text: Bool) -> String {
        text ? "(\(expression)) COLLATE \"C\" NULLS FIRST" : "\(expression) NULLS FIRST"
    }
}
