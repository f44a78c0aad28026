import Foundation
import FleetCore

/// The clock of a Freematics log. The device counts milliseconds since it started; the only
/// wall-clock time in the log is the GPS's, in the date (`11`) and time (`10`) PIDs, which the
/// firmware writes together at the first fix and the date again when the day changes. The first
/// instant of a boot with a GPS time and a known date anchors that boot: every reading of the boot
/// is then anchor + (device ms − anchor's device ms). A device time lower than the one before is a
/// restart (the counter began again), and so is a second `#FREEMATICS` header: the next boot needs
/// its own anchor. Readings of a boot before its anchor are timed from it by the same counter
/// (`FreematicsState` holds them until it comes); a boot that never gets one has no time, and its
/// readings are rejected, never placed by a guess.
struct FreematicsClock {
    /// Boots seen: 1 at the first reading, one more at each restart.
    private(set) var boots = 0
    private(set) var anchors = 0
    private var last: Int64?
    private var date: Int?
    private var anchor: (ms: Int64, utc: Int64)?

    /// The device time of a line, from its absolute or relative stamp; a restart is noticed here.
    /// nil for a relative stamp with no time before it in this boot.
    mutating func deviceTime(_ time: FreematicsLine.Time) -> Int64? {
        switch time {
        case let .absolute(ms):
            if boots == 0 || (last.map { ms < $0 } ?? false) { restart() }
            last = ms
            return ms
        case let .delta(d):
            guard let l = last else { return nil }
            last = l + d
            return l + d
        }
    }

    /// Whether a line with this stamp starts a new boot: the readings held from the boot before
    /// must be judged by that boot's clock first.
    func restarts(_ time: FreematicsLine.Time) -> Bool {
        guard case let .absolute(ms) = time, let l = last else { return false }
        return ms < l
    }

    /// A new log begins (a header line): the next readings need a new anchor.
    mutating func restart() {
        boots += 1
        last = nil
        date = nil
        anchor = nil
    }

    /// The GPS date and time read at one device instant (either may be absent).
    mutating func observe(date days: Int?, time msOfDay: Int64?, at ms: Int64) {
        if let days { date = days }
        guard anchor == nil, let msOfDay, let d = date else { return }
        anchor = (ms, Int64(d) * 86_400_000 + msOfDay)
        anchors += 1
    }

    /// UTC milliseconds of a device time of the current boot, nil before its anchor.
    func utc(_ ms: Int64) -> Int64? {
        anchor.map { $0.utc + (ms - $0.ms) }
    }
}
