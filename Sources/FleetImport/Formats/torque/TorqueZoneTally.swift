import Foundation
import FleetCore

/// The zone of a Torque row whose `Device Time` names none, from its `GPS Time`, and a count of
/// which source placed the rows, for the note that says so.
///
/// Why GPS Time: Torque writes it as Java's `Date.toString()`, `Sun Nov 02 01:09:03 MST 2025`,
/// with the phone's zone abbreviation. On the night the clocks go back, the fleet zone cannot tell
/// `01:30` of the first pass from `01:30` of the second (file order only helps when the log spans
/// the change), and `--tz` may not be the phone's zone at all; the abbreviation fixes the offset.
/// It is used only when GPS Time's wall clock agrees with Device Time within 2 minutes: GPS Time
/// is the last fix, which lags when the phone loses the sky, and `-` before the first one.
struct TorqueZoneTally {
    /// Rows placed by a GPS Time zone, by its label (`MST (UTC-07:00)`), but for the current run.
    private var byGPS: [String: Int] = [:]
    private var runLabel = "", runCount = 0
    /// Rows placed in the fleet zone.
    private(set) var byFleetZone = 0
    private var lastZoneText = "", lastZone: (offset: Int, label: String)?
    /// The bytes of `lastZoneText` as `quick` last saw them (`slow` leaves them alone).
    private var lastZoneBytes: [UInt8] = []
    /// `jan`…`dec` as three lower-case bytes in one integer.
    private static let monthKeys: [UInt32] = CarScannerFileDate.monthNames.map { n in n.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    static let agreementMs: Int64 = 120_000

    /// The offset (seconds east of UTC) GPS Time names, when it agrees with the device's local
    /// time; nil (the fleet zone) otherwise.
    mutating func offset(gpsTime: String?, deviceLocal: Int64) -> Int? {
        guard let text = gpsTime, let (gpsLocal, zone) = quick(text) ?? slow(text),
              abs(gpsLocal - deviceLocal) <= Self.agreementMs else {
            byFleetZone += 1
            return nil
        }
        // Counted per run of one label, not hashed per row: a log keeps its zone for hours.
        if zone.label == runLabel { runCount += 1 } else { closeRun(); runLabel = zone.label; runCount = 1 }
        return zone.offset
    }

    /// The general reading: `OBDLocalClock.parse` and the fifth token as the zone.
    private mutating func slow(_ text: String) -> (Int64, (offset: Int, label: String))? {
        guard let zone = zone(text), let (local, _) = try? OBDLocalClock.parse(text) else { return nil }
        return (local, zone)
    }

    /// `Sun Nov 02 01:09:03 MST 2025` read on its ASCII bytes at Java's fixed positions (a
    /// Foundation split and parse per row made a Torque import 45 % slower); nil for any other
    /// shape, which `slow` then reads. Same results: both read month, day, clock and year and
    /// look the zone token up with `OBDLocalClock.offset`.
    private mutating func quick(_ text: String) -> (Int64, (offset: Int, label: String))? {
        var text = text
        return text.withUTF8 { u -> (Int64, (offset: Int, label: String))? in
            var s = 0, e = u.count
            while s < e, u[s] == 0x20 { s += 1 }
            while e > s, u[e - 1] == 0x20 { e -= 1 }
            guard e - s >= 26, u[s + 3] == 0x20, u[s + 7] == 0x20, u[s + 10] == 0x20, u[s + 13] == 0x3A, u[s + 16] == 0x3A, u[s + 19] == 0x20,
                  u[e - 5] == 0x20 else { return nil }
            func digits(_ from: Int, _ n: Int) -> Int? {
                var v = 0
                for i in from..<(from + n) {
                    guard (0x30...0x39).contains(u[i]) else { return nil }
                    v = v * 10 + Int(u[i] - 0x30)
                }
                return v
            }
            let key = (UInt32(u[s + 4] | 0x20) << 16) | (UInt32(u[s + 5] | 0x20) << 8) | UInt32(u[s + 6] | 0x20)
            guard let m = Self.monthKeys.firstIndex(of: key), let day = digits(s + 8, 2), let h = digits(s + 11, 2),
                  let mi = digits(s + 14, 2), let sec = digits(s + 17, 2), let year = digits(e - 4, 4), h < 24, mi < 60, sec < 61,
                  let date = CivilDate(year: year, month: m + 1, day: day) else { return nil }
            let zoneBytes = UnsafeBufferPointer(rebasing: u[(s + 20)..<(e - 5)])
            guard !zoneBytes.isEmpty, !zoneBytes.contains(0x20) else { return nil }
            if !lastZoneBytes.elementsEqual(zoneBytes) {
                lastZoneBytes = Array(zoneBytes)
                let z = String(decoding: zoneBytes, as: UTF8.self)
                lastZoneText = z
                lastZone = (try? OBDLocalClock.offset(z)).map { ($0, "\(z) (UTC\(Self.offsetText($0)))") }
            }
            guard let zone = lastZone else { return nil }
            return (Int64(date.daysSinceEpoch) * 86_400_000 + Int64(h * 3600 + mi * 60 + min(sec, 59)) * 1000, zone)
        }
    }

    /// The zone token of `Sun Nov 02 01:09:03 MST 2025` and its offset, cached: every row repeats it.
    private mutating func zone(_ text: String) -> (offset: Int, label: String)? {
        let tokens = text.split(separator: " ")
        guard tokens.count == 6 else { return nil }
        let z = String(tokens[4])
        if z == lastZoneText { return lastZone }
        lastZoneText = z
        lastZoneBytes = []
        lastZone = (try? OBDLocalClock.offset(z)).map { ($0, "\(z) (UTC\(Self.offsetText($0)))") }
        return lastZone
    }

    private mutating func closeRun() {
        if runCount > 0 { byGPS[runLabel, default: 0] += runCount }
        runCount = 0
    }

    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        let m = a % 3600 / 60
        return (seconds < 0 ? "−" : "+") + (a / 3600 < 10 ? "0" : "") + "\(a / 3600):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// What the import notes say; nothing when every row named its own zone or none named any.
    func notes(fleetZone: String) -> [String] {
        var byGPS = byGPS
        if runCount > 0 { byGPS[runLabel, default: 0] += runCount }
        guard !byGPS.isEmpty else { return [] }
        var out = byGPS.sorted { $0.key < $1.key }.map { "Device Time of \($0.value) rows placed by the zone GPS Time names, \($0.key), not the fleet zone \(fleetZone)" }
        if byFleetZone > 0 { out.append("Device Time of \(byFleetZone) rows without a GPS Time that agrees with it placed in the fleet zone \(fleetZone)") }
        return out
    }
}
