import Foundation
import FleetCore

/// Traccar's dates as its JSON writes them. Traccar serialises `java.util.Date` with Jackson's
/// ISO 8601 format: `2026-10-01T14:05:00.000+00:00` in current servers, `…000+0000` (no colon in
/// the offset) in servers of the 3.x and 4.x lines; both are read, as is a `Z` zone. A time
/// without a zone is refused: its UTC instant cannot be known.
enum TraccarTime {
    /// The time of member `key` as UTC milliseconds; nil when absent.
    static func time(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Int64? {
        guard let s = try f.string(key) else { return nil }
        switch JSONTime.parse(colonOffset(s)) {
        case let .at(ms): return ms
        case .placeholder:
            throw JSONRowError(.badDate, "'\(key)' is '\(s)', outside 1971–2200; not a time a position was recorded", at: f.at(key))
        case .invalid:
            throw JSONRowError(.badDate, "'\(key)' is '\(s)', not an ISO 8601 date-time with a zone (2026-10-01T14:05:00.000+00:00)", at: f.at(key))
        }
    }

    static func required(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Int64 {
        guard let t = try time(f, key) else { throw JSONRowError(.missingField, "'\(key)' is missing", at: f.at(key)) }
        return t
    }

    /// `…+0000` as `…+00:00`; any other text unchanged.
    static func colonOffset(_ s: String) -> String {
        let u = Array(s.utf8)
        guard u.count >= 25, u[u.count - 5] == UInt8(ascii: "+") || u[u.count - 5] == UInt8(ascii: "-"),
              u.suffix(4).allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return s }
        return String(decoding: u.dropLast(2), as: UTF8.self) + ":" + String(decoding: u.suffix(2), as: UTF8.self)
    }
}
