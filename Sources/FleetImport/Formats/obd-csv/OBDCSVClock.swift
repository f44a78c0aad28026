import Foundation
import FleetCore

/// The time column of a logger CSV, read value by value: an epoch number or a full date-time.
///
/// An epoch's unit is decided by its magnitude, because loggers write all four and rarely say
/// which: below 10^11 it is seconds (10^11 s is the year 5138), below 10^14 milliseconds, below
/// 10^17 microseconds, else nanoseconds. For instants from 1973 to 5138 the four ranges do not
/// overlap, so the reading is exact there; the plausible years (1971–2200) are checked after.
/// A fraction is allowed (`1711293780.825` s). A date-time is ISO 8601 (`T` or a space, any
/// fraction, `Z` or an offset); without a zone it is read in the fleet zone and counted, so the
/// import can say how many times were assumed local. A logger writes rows in time order, so in
/// the repeated hour of a fall-back night the file order decides, as for every OBD log
/// (`OBDLocalClock.resolve`); taking the first occurrence every time put the second pass onto
/// the instants of the first. Rows must be read in file order.
struct OBDCSVClock {
    enum Reading: String, CaseIterable {
        case seconds = "epoch seconds", milliseconds = "epoch milliseconds", microseconds = "epoch microseconds", nanoseconds = "epoch nanoseconds"
        case zoned = "date-times with a zone", local = "date-times without a zone, read in the fleet zone"
    }

    let zone: TimeZone
    /// How many values were read each way, for the import's note.
    private(set) var tally: [Reading: Int] = [:]
    /// The instant of the previous row, for the file-order rule.
    private var local: OBDLocalClock
    private static let utc = TimeZone(identifier: "UTC")!

    init(zone: TimeZone) {
        self.zone = zone
        local = OBDLocalClock(zone: zone)
    }

    /// UTC epoch ms of a time cell, nil when it is neither an epoch nor a date-time.
    mutating func read(_ text: String) -> Int64? {
        let t = OBDText.trimmed(text)
        if let (ms, how) = Self.epoch(t) { tally[how, default: 0] += 1; local.last = ms; return ms }
        if let at = Timestamp.parse(t, zone: nil) { tally[.zoned, default: 0] += 1; local.last = at; return at }
        // A skipped local time is nil here; the importer has rejected it with the reason before.
        if let wall = Timestamp.parse(t, zone: Self.utc), let at = local.resolve(local: wall) {
            tally[.local, default: 0] += 1
            return at
        }
        return nil
    }

    /// An unsigned decimal number as epoch ms, its unit decided by magnitude (above).
    static func epoch(_ t: String) -> (Int64, Reading)? {
        let parts = t.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 19, whole.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let n = Int64(whole) else { return nil }
        var fraction = 0.0
        if parts.count == 2 {
            let f = parts[1]
            guard !f.isEmpty, f.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let v = Double("0." + f) else { return nil }
            fraction = v
        }
        switch n {
        case ..<100_000_000_000: return (n * 1000 + Int64((fraction * 1000).rounded()), .seconds)
        case ..<100_000_000_000_000: return (n + Int64(fraction.rounded()), .milliseconds)
        case ..<100_000_000_000_000_000: return (n / 1000, .microseconds)
        default: return (n / 1_000_000, .nanoseconds)
        }
    }

    /// "timeStamp read as epoch milliseconds (UTC) on 4,831 rows", one clause per way seen.
    func note(column: String) -> String? {
        let seen = Reading.allCases.compactMap { how in tally[how].map { "\(how.rawValue)\(how == .local ? " (\(zone.identifier))" : how == .zoned ? "" : " (UTC)") on \($0) row\($0 == 1 ? "" : "s")" } }
        return seen.isEmpty ? nil : "'\(column)' read as " + seen.joined(separator: "; ")
    }
}
