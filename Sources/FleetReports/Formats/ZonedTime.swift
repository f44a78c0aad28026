import Foundation
import FleetCore

/// An instant as a wall-clock time in the report's time zone, with the offset that applied
/// then. Every renderer shows datetimes in the report zone; CSV and JSON also carry the offset so
/// the instant stays unambiguous across DST changes.
struct ZonedTime: Equatable {
    var date: CivilDate
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int
    /// Seconds east of UTC.
    var offset: Int

    init(_ ms: Int64, in zone: TimeZone) {
        offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))
        let local = ms + Int64(offset) * 1000
        let day = Int64((Double(local) / 86_400_000).rounded(.down))
        date = CivilDate(daysSinceEpoch: Int(day))
        let rest = Int(local - day * 86_400_000)
        hour = rest / 3_600_000
        minute = rest % 3_600_000 / 60_000
        second = rest % 60_000 / 1000
        millisecond = rest % 1000
    }

    /// The report's zone; an unknown identifier falls back to UTC (the report header still shows
    /// the identifier, so the fallback is visible).
    static func zone(_ identifier: String) -> TimeZone {
        FleetZone(identifier: identifier)?.timeZone ?? TimeZone(secondsFromGMT: 0)!
    }

    /// `2026-10-01T08:30:00-05:00` (milliseconds only when non-zero).
    var iso: String {
        var s = date.description + "T" + pad(hour) + ":" + pad(minute) + ":" + pad(second)
        if millisecond != 0 { s += "." + pad(millisecond, 3) }
        return s + offsetText
    }

    /// `2026-10-01 08:30`, for people.
    var display: String {
        date.description + " " + pad(hour) + ":" + pad(minute)
    }

    /// `+02:00`, `-05:00`, `+00:00`.
    var offsetText: String {
        let a = abs(offset)
        return (offset < 0 ? "-" : "+") + pad(a / 3600) + ":" + pad(a % 3600 / 60)
    }

    private func pad(_ v: Int, _ width: Int = 2) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
