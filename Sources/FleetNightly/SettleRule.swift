import Foundation
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
            return .waiting(reason: "modified less than \(Int(settleSeconds)) s ago; still being written?")
        }
        return .ready(warning: nil)
    }

    static func futureWarning(_ look: InboxWalker.Look, _ now: Date) -> String {
        let f = ISO8601DateFormatter()
        return "warning: its modification time \(f.string(from: look.modified)) is in the future (now \(f.string(from: now))); check the clock of the machine that wrote it"
    }

    /// The looks kept between runs (`WarehouseSettings.nightlySettleLooks`). A stored object of
    /// another shape is an error naming the setting, never an empty memory: that would let a
    /// file still being written be judged on its clock alone.
    static func decode(_ json: String?) throws -> [String: Observation] {
        guard let json else { return [:] }
        do { return try JSONDecoder().decode([String: Observation].self, from: Data(json.utf8)) } catch {
            let key = WarehouseSettings.Key.nightlySettleLooks
            throw WarehouseSettingsError(key: key.rawValue, value: json, reason: "is not the nightly job's record of unsettled files (\(error))",
                                         hint: key.hint)
        }
    }

    /// nil for no looks, so the setting is removed rather than kept empty.
    static func encode(_ looks: [String: Observation]) throws -> String? {
        guard !looks.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(looks), as: UTF8.self)
    }
}
