import Foundation

/// The path rules of `fleetkit.yml` (docs/OPERATIONS.md, "Paths"): every path canonical, and
/// no two of inbox, archive, quarantine, reports and the warehouse (with its sidecars) overlapping.
///
/// Why: each overlap loses or doubles data. Reports inside the inbox were imported again the
/// next night (costs doubled); a warehouse inside the inbox was moved to quarantine and the next
/// run started an empty one; an archive equal to the inbox, or spelt with a trailing slash or
/// through a symbolic link, made the old prefix test miss and files nest forever.
enum NightlyPaths {
    /// The absolute path with `.`/`..`, repeated and trailing slashes and symbolic links resolved.
    /// Parts that do not exist yet (an archive the first run creates) are appended as written
    /// to their deepest existing folder's real path.
    static func canonical(_ path: String, depth: Int = 0) -> String {
        var components: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !components.isEmpty { components.removeLast() }; continue }
            components.append(String(part))
        }
        var rest: [String] = []
        while true {
            let candidate = "/" + components.joined(separator: "/")
            if let real = realpath(candidate, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            // A link to something that does not exist yet (a planted `fleet.sqlite-wal` into the
            // inbox) leads where its text says.
            var st = stat()
            if depth < 40, lstat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFLNK,
               let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) {
                let parent = "/" + components.dropLast().joined(separator: "/")
                let followed = (target.hasPrefix("/") ? target : parent + "/" + target) + (rest.isEmpty ? "" : "/" + rest.reversed().joined(separator: "/"))
                return canonical(followed, depth: depth + 1)
            }
            guard let last = components.popLast() else { return "/" + rest.reversed().joined(separator: "/") }
            rest.append(last)
        }
    }

    /// Whether `path` is `folder` or lies below it (both canonical).
    static func within(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// The first overlap found, as the key to fix, its value and what to do.
    static func overlap(inbox: String, archive: String, quarantine: String, reports: String, warehouse: String)
        -> (key: String, value: String, hint: String)? {
        let folders = [("inbox", inbox), ("archive", archive), ("quarantine", quarantine), ("reports", reports)]
        for (i, (key, folder)) in folders.enumerated() {
            for (otherKey, other) in folders[..<i] {
                if folder == other {
                    return (key, folder, "is the same folder as \(otherKey); give each of inbox, archive, quarantine and reports its own folder")
                }
                if within(folder, other) || within(other, folder) {
                    let (inner, outer) = within(folder, other) ? (key, otherKey) : (otherKey, key)
                    return (key, folder, "\(inner) must not be inside \(outer) (\(other)): files would be imported, moved or deleted twice; use separate folders")
                }
            }
        }
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] {
            let file = canonical(warehouse + suffix)
            for (key, folder) in folders where within(file, folder) {
                return ("warehouse", warehouse, "\(file) is inside the \(key) folder (\(folder)); keep the warehouse and its -wal, -shm and .lock files outside inbox, archive, quarantine and reports")
            }
        }
        return nil
    }
}
