import Foundation
import FleetCore
import FleetWarehouse

/// When a file in the inbox counts as complete (docs/OPERATIONS.md, "When a file is imported").
/// A done-marker whose file is not beside it is never imported as data: it waits, named.
///
/// Why more than "modified over `settle_seconds` ago": an upload that stalls looks settled by its
/// clock alone (a stalled upload loaded 12.00 for 1234.56 and lost its last row), and a file
/// whose modification time is in the future (a camera or a laptop with a wrong clock) was never
/// old enough and was skipped every night. So, in order:
/// 1. `name.done` or `name.ok` beside it: complete (the uploader said so).
/// 2. `require_done_marker: true` and no marker: waits.
/// 3. The same size, modification time and inode as a run saw at least `settle_seconds` ago:
///    complete, judged on change, whatever its clock says (a future time is warned about).
/// 4. A modification time in the future: waits one run, with a warning.
/// 5. Modified less than `settle_seconds` ago: waits.
/// 6. Otherwise complete. The job then compares this look with the opened descriptor, and the
///    descriptor before and after the import (`OpenedFile`), so a file that still changes is
///    left in the inbox, not imported in part.
struct SettleRule {
    var settleSeconds: Double
    var requireMarker: Bool
    /// What the previous run saw of the files it let wait, by path below the inbox.
    var previous: [String: Observation]

    /// A look and when it was taken (seconds since 1970).
    struct Observation: Codable, Equatable {
        var look: InboxWalker.Look
        var seen: Double
    }

    enum Verdict: Equatable {
        case ready(warning: String?)
        case waiting(reason: String)
    }

    /// Seconds a modification time may lie ahead of this machine's clock before it is "in the
    /// future" (file systems round times; NFS servers drift a little).
    static let skew: Double = 2

    func judge(_ entry: InboxWalker.Entry, now: Date) -> Verdict {
        guard let look = entry.look else { return .ready(warning: nil) }
        if entry.orphanMarker {
            let file = entry.url.deletingPathExtension().lastPathComponent
            return .waiting(reason: "a done-marker without its file \(file) beside it (imported already, or not uploaded yet); delete the marker if \(file) was imported")
        }
        if entry.marker != nil { return .ready(warning: nil) }
        if requireMarker {
            return .waiting(reason: "no \(entry.url.lastPathComponent).done or .ok beside it yet (require_done_marker is on)")
        }
        let age = now.timeIntervalSince(look.modified)
        let future = age < -Self.skew
        if let before = previous[entry.relative], before.look == look, now.timeIntervalSince1970 - before.seen >= settleSeconds {
            return .ready(warning: future ? Self.futureWarning(look, now) + "; imported because it did not change since the previous run" : nil)
        }
        if future {
            return .waiting(reason: Self.futureWarning(look, now) + "; it will be imported when the next run finds it unchanged")
        }
        if age < settleSeconds {
            return .waiting(reason: "modified less than \(Checked.int64(settleSeconds).map(String.init) ?? String(settleSeconds)) s ago; still being written?")
        }
        return .ready(warning: nil)
    }

    static func futureWarning(_ look: InboxWalker.Look, _ now: Date) -> String {
        let f = ISO8601DateFormatter()
        return "warning: its modification time \(f.string(from: look.modified)) is in the future (now \(f.string(from: now))); check the clock of the machine that wrote it"
    }

    /// The warehouse setting that keeps the looks between runs.
    static let settingKey = WarehouseSettings.Key.nightlySettleLooks.rawValue

    /// The looks kept by the previous run, and a warning when the stored setting cannot be read.
    ///
    /// Why a warning and not a refusal: the looks only ever make a file ready *sooner* (rule 3,
    /// judged on change). Without them every file is judged as on a first run, by its clock and
    /// `settle_seconds` (rules 4–6), which never imports a file the looks would have held back;
    /// at worst a file with a future modification time waits one more run. The run rewrites the
    /// setting at its end, so the next run has sound looks again. Silently dropping it hid a
    /// damaged warehouse (or another program writing to it), so the run says so
    /// (docs/OPERATIONS.md, "When a file is imported").
    static func decode(_ json: String?) -> (looks: [String: Observation], warning: String?) {
        guard let json else { return ([:], nil) }
        do {
            return (try JSONDecoder().decode([String: Observation].self, from: Data(json.utf8)), nil)
        } catch {
            let shown = json.count > 80 ? String(json.prefix(80)) + "…" : json
            return ([:], "warning: the stored setting '\(settingKey)' (what the previous run saw of waiting files) cannot be read "
                + "(\(Self.why(error))): \(shown); every file is judged as on a first run (modified over "
                + "settle_seconds ago), and this run stores a fresh setting")
        }
    }

    /// The decoder's reason in one line.
    private static func why(_ error: Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(c): return "not JSON: " + c.debugDescription
        case let DecodingError.typeMismatch(_, c), let DecodingError.valueNotFound(_, c): return "wrong shape at \(c.codingPath.map(\.stringValue).joined(separator: ".")): " + c.debugDescription
        case let DecodingError.keyNotFound(key, c): return "missing '\(key.stringValue)' at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }

    static func encode(_ looks: [String: Observation]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(looks)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
