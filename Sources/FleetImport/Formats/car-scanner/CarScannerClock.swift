import Foundation
import FleetCore

/// Turns Car Scanner's `SECONDS` into UTC instants.
///
/// Three shapes: a Unix time (≥ 10⁹, some app versions and exports); seconds since local
/// midnight of the recording day (every real log examined: the first value is the clock time of
/// the recording, see `CarScannerFileDate`), the day from the file name; and, for older logs
/// whose first value is far below the start time in the name (`0.512` in `… 08-00-00.csv`),
/// seconds since that start. Which one is decided once, on the first row, and said in a note.
/// A recording that runs past midnight wraps `SECONDS` back to 0: a drop of more than 12 h is
/// the next day. `SECONDS` carries no offset, so in the repeated hour of a fall-back night the
/// file order decides, as for every OBD log (`OBDLocalClock.resolve`): a time of day that would
/// fall before the previous row is the second occurrence. Taking the first every time put the
/// second pass onto the instants of the first, merged with its readings.
struct CarScannerClock {
    enum Mode: Equatable { case unix, sinceMidnight(CivilDate), sinceStart(Int64) }

    /// Why the file cannot be placed in time: the message and the fix, for `FleetError.unreadable`.
    struct Undated: Error {
        let reason: String
        let hint: String
    }

    let zone: TimeZone
    let fileName: String
    let nameDate: CarScannerFileDate
    private(set) var mode: Mode?
    private var dayShift = 0
    private var last: Double?
    /// The instants of earlier rows, for the file-order rule.
    private var local: OBDLocalClock

    /// The fleet zone's name as the user gave it (Foundation on Linux calls UTC "GMT").
    let zoneName: String

    init(fileName: String, zone: FleetZone) {
        self.fileName = fileName
        self.zone = zone.timeZone
        local = OBDLocalClock(zone: zone.timeZone)
        zoneName = zone.identifier
        nameDate = CarScannerFileDate(name: fileName)
    }

    /// The instant of one row's `SECONDS` (finite, ≥ 0); rows in file order.
    ///
    /// A value no instant of the years 1971–2200 can come from (any shape) is a row error, decided
    /// before any integer conversion: `SECONDS` of 1e16 once trapped converting to milliseconds.
    mutating func utc(_ secs: Double) throws -> Int64 {
        guard let ms = Checked.int64(secs * 1000), ms <= Timestamp.plausible.upperBound else {
            throw RowError(.outOfRange, "SECONDS \(Self.trimmed(secs)) is beyond any time of the years 1971–2200")
        }
        if secs >= 1e9 { return ms }
        if mode == nil { mode = try decide(secs) }
        switch mode! {
        case .unix:
            return ms
        case let .sinceStart(start):
            return start + ms
        case let .sinceMidnight(day):
            if let last, secs < last - 43_200 { dayShift += 1 }
            last = secs
            let local = Int64(day.daysSinceEpoch + dayShift) * 86_400_000 + ms
            // A time of day the zone skipped (the spring-forward hour) names no instant: the
            // row is rejected, as every format does (`LocalTime`), never folded onto the next hour.
            guard Timestamp.exists(local: local, in: zone) else {
                let text = "\(CivilDate(daysSinceEpoch: day.daysSinceEpoch + dayShift)) \(Self.clockText(secs))"
                throw RowError(.badDate, "SECONDS \(Self.trimmed(secs)), the local time " + LocalTime.skippedReason(text, local: local, zone: zone))
            }
            return try self.local.resolve(local: local, offset: nil)
        }
    }

    /// What a note says about the mode, nil for Unix times (nothing to explain).
    var description: String? {
        switch mode {
        case let .sinceMidnight(day)?:
            return "SECONDS read as seconds since local midnight of \(day) (the date in the file name), in \(zoneName)"
        case .sinceStart?:
            return "SECONDS read as seconds since the start time in the file name (its first value is far below that time of day), in \(zoneName)"
        default:
            return nil
        }
    }

    private func decide(_ first: Double) throws -> Mode {
        if let date = nameDate.date {
            if let start = nameDate.startSecond, first + 600 < Double(start) {
                let local = Int64(date.daysSinceEpoch) * 86_400_000 + Int64(start) * 1000
                // A start the clocks skipped names no instant (`LocalTime`), so no row can be
                // placed: the file fails, never shifted onto the next hour. In the repeated hour
                // the first occurrence is taken: one start time has no file order to follow.
                guard Timestamp.exists(local: local, in: zone) else {
                    throw Undated(
                        reason: "SECONDS (\(Self.trimmed(first))) counts from the start time in the file name '\(fileName)', and "
                            + LocalTime.skippedReason("\(date) \(Self.clockText(Double(start)))", local: local, zone: zone),
                        hint: "Rename the file with the recording's real local start time in \(zoneName) (Car Scanner's name, 'YYYY-MM-DD HH-MM-SS.csv'), and import it again; nothing of this file was imported.")
                }
                return .sinceStart(Timestamp.utc(fromLocal: local, in: zone))
            }
            return .sinceMidnight(date)
        }
        let clock = Self.clockText(first)
        if let md = nameDate.monthDayOnly {
            let month = CarScannerFileDate.monthNames[md.month - 1].capitalized
            throw Undated(
                reason: "SECONDS (\(Self.trimmed(first))) is the time of day \(clock) (Car Scanner counts from local midnight), and the file name '\(fileName)' gives the day (\(month) \(md.day)) but no year",
                hint: "Rename the file with the recording's date as Car Scanner names its logs, 'YYYY-\(Self.pad(md.month, 2))-\(Self.pad(md.day, 2)) \(clock.replacingOccurrences(of: ":", with: "-")).csv' with the year filled in, and import it again. FleetKit does not guess the year (a file's modification time changes when it is copied); nothing of this file was imported.")
        }
        throw Undated(
            reason: "SECONDS (\(Self.trimmed(first))) is no Unix time: Car Scanner counts it from local midnight of the recording day (here \(clock)), or in older logs from the start of the recording, and the file name '\(fileName)' holds no date",
            hint: "Keep Car Scanner's file name (e.g. '2026-10-01 08-00-00.csv', the recording's local date and start), or rename the file to it, and import it again; nothing of this file was imported.")
    }

    static func clockText(_ secs: Double) -> String {
        let s = Int(secs.rounded(.down)) % 86_400
        return "\(pad(s / 3600, 2)):\(pad(s % 3600 / 60, 2)):\(pad(s % 60, 2))"
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let t = String(v)
        return String(repeating: "0", count: max(0, width - t.count)) + t
    }

    static func trimmed(_ v: Double) -> String { Checked.int64(v).flatMap { Double($0) == v ? String($0) : nil } ?? String(v) }
}
