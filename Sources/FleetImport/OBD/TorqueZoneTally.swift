import Foundation

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
    /// Rows placed by a GPS Time zone, by its label (`MST (UTC-07:00)`).
    private(set) var byGPS: [String: Int] = [:]
    /// Rows placed in the fleet zone.
    private(set) var byFleetZone = 0
    private var lastZoneText = "", lastZone: (offset: Int, label: String)?

    static let agreementMs: Int64 = 120_000

    /// The offset (seconds east of UTC) GPS Time names, when it agrees with the device's local
    /// time; nil (the fleet zone) otherwise.
    mutating func offset(gpsTime: String?, deviceLocal: Int64) -> Int? {
        guard let text = gpsTime, let zone = zone(text), let (gpsLocal, _) = try? OBDLocalClock.parse(text),
              abs(gpsLocal - deviceLocal) <= Self.agreementMs else {
            byFleetZone += 1
            return nil
        }
        byGPS[zone.label, default: 0] += 1
        return zone.offset
    }

    /// The zone token of `Sun Nov 02 01:09:03 MST 2025` and its offset, cached: every row repeats it.
    private mutating func zone(_ text: String) -> (offset: Int, label: String)? {
        let tokens = text.split(separator: " ")
        guard tokens.count == 6 else { return nil }
        let z = String(tokens[4])
        if z == lastZoneText { return lastZone }
        lastZoneText = z
        lastZone = (try? OBDLocalClock.offset(z)).map { ($0, "\(z) (UTC\(Self.offsetText($0)))") }
        return lastZone
    }

    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        let m = a % 3600 / 60
        return (seconds < 0 ? "−" : "+") + (a / 3600 < 10 ? "0" : "") + "\(a / 3600):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// What the import notes say; nothing when every row named its own zone or none named any.
    func notes(fleetZone: String) -> [String] {
        guard !byGPS.isEmpty else { return [] }
        var out = byGPS.sorted { $0.key < $1.key }.map { "Device Time of \($0.value) rows placed by the zone GPS Time names, \($0.key), not the fleet zone \(fleetZone)" }
        if byFleetZone > 0 { out.append("Device Time of \(byFleetZone) rows without a GPS Time that agrees with it placed in the fleet zone \(fleetZone)") }
        return out
    }
}
