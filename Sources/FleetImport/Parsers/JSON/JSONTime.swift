import Foundation
import FleetCore

/// RFC 3339 times as the JSON telematics APIs write them (Samsara, Geotab, John Deere), and the
/// epoch-millisecond times of Samsara's v1 API.
enum JSONTime {
    enum Parsed: Equatable { case at(Int64), placeholder, invalid }

    /// `2026-10-01T14:05:00Z`, `…00.455Z`, `…00-05:00`. Stricter than ISO 8601: the `T`, the
    /// seconds and a zone are required, as RFC 3339 says. Years before 1971 or after 2200
    /// (`0001-01-01T00:00:00Z`, the epoch) are placeholders for "no time". Hand-written on the
    /// UTF-8 bytes: a stats file has a time per point, millions of them.
    static func parse(_ s: String) -> Parsed {
        let parsed = s.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) }
        return parsed ?? Array(s.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    private static func parse(bytes u: UnsafeBufferPointer<UInt8>) -> Parsed {
        let n = u.count
        func digits(_ at: Int, _ count: Int) -> Int? { Byte.digits(u.baseAddress!, at, count, end: n) }
        guard n >= 20, u[4] == 0x2D, u[7] == 0x2D, u[10] | 0x20 == 0x74, u[13] == 0x3A, u[16] == 0x3A,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              hour <= 23, minute <= 59, second <= 60,
              let date = CivilDate(year: year, month: month, day: day) else { return .invalid }
        var i = 19, millis = 0
        if u[i] == 0x2E {
            i += 1
            var count = 0
            while i < n, u[i] >= 48, u[i] <= 57 {
                if count < 3 { millis = millis * 10 + Int(u[i] - 48) }
                count += 1
                i += 1
            }
            guard count > 0 else { return .invalid }
            for _ in min(count, 3)..<3 { millis *= 10 }
        }
        var offset = 0
        if i == n - 1, u[i] | 0x20 == 0x7A {
            offset = 0
        } else if n - i == 6, u[i] == 0x2B || u[i] == 0x2D, u[i + 3] == 0x3A, let oh = digits(i + 1, 2), let om = digits(i + 4, 2), oh <= 23, om <= 59 {
            offset = (u[i] == 0x2B ? 1 : -1) * (oh * 60 + om) * 60_000
        } else {
            return .invalid
        }
        let local = (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))) * 1000 + Int64(millis)
        let ms = local - Int64(offset)
        return Timestamp.plausible.contains(ms) ? .at(ms) : .placeholder
    }

    /// The v1 API's "ongoing" end time: Int64.max milliseconds.
    static let ongoing = "9223372036854775807"

    /// Epoch milliseconds (an integer JSON number) within the plausible range.
    static func epochMillis(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Int64? {
        guard let v = f.node[key], !v.isNull else { return nil }
        guard case let .number(text) = v else { throw JSONRowError(.wrongType, "'\(key)' should be epoch milliseconds (a number) but is \(v.kind)", at: f.at(key)) }
        guard let ms = Int64(text) else { throw JSONRowError(.badDate, "'\(key)' is \(text), not whole epoch milliseconds", at: f.at(key)) }
        guard Timestamp.plausible.contains(ms) else {
            throw JSONRowError(.badDate, "'\(key)' is \(text) ms, outside 1971–2200; epoch milliseconds expected", at: f.at(key))
        }
        return ms
    }
}
