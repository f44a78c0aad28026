import Foundation

/// The inbox and configuration that the `fleetkit nightly` command tests start from, written
/// once here so that each test states only what it adds.
public enum NightlySetup {
    /// The repository's SampleData folder.
    public static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")

    /// Writes `root/fleetkit.yml`: warehouse and folders beside it, no settling wait, `reports`
    /// in `formats` for the previous month, the time zone when one is given, then `extra` lines.
    /// Returns its URL.
    @discardableResult
    public static func writeConfig(in root: URL, timezone: String? = nil, reports: [String] = ["summary"], formats: [String] = ["json"],
                                   extra: String = "") throws -> URL {
        let url = root.appendingPathComponent("fleetkit.yml")
        var lines = ["warehouse: fleet.sqlite", "inbox: inbox", "archive: archive", "quarantine: quarantine", "reports: reports", "settle_seconds: 0"]
        if let timezone { lines.append("timezone: \(timezone)") }
        lines += ["reports_to_refresh: [\(reports.joined(separator: ", "))]", "periods: [previous_month]", "formats: [\(formats.joined(separator: ", "))]"]
        if !extra.isEmpty { lines.append(extra) }
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Copies SampleData's `folders` (master, expenses, …) into `root/inbox/`, as exports arrive.
    public static func addSampleFolders(_ folders: [String], in root: URL) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        for folder in folders {
            try FileManager.default.copyItem(at: sampleData.appendingPathComponent(folder), to: root.appendingPathComponent("inbox/\(folder)"))
        }
    }

    /// Copies `file` into `root/inbox/<path>`, making the folders on the way.
    public static func addToInbox(_ file: URL, as path: String, in root: URL) throws {
        let target = root.appendingPathComponent("inbox").appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: target)
    }
}
