import Foundation

/// Finds a child process of a `fleetkit` run the tests started, to kill it at a chosen moment.
/// Reads /proc (Linux): the parent pid is the second field after the command name in `stat`.
enum ChildProcessFinder {
    /// The first child of `parent` whose command line contains `needle` (any child when nil),
    /// polled until `seconds` have passed.
    static func child(of parent: Int32, mentioning needle: String? = nil, within seconds: Double) -> Int32? {
        poll(within: seconds, every: 500) {
            children(of: parent).first { pid in
                guard let needle else { return true }
                guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                return String(decoding: cmdline, as: UTF8.self).contains(needle)
            }
        }
    }

    /// The first child of `parent` that holds a file whose path contains `needle` open (the
    /// import worker at work on it), polled until `seconds` have passed; with no time, looked
    /// for once.
    static func child(of parent: Int32, holdingOpen needle: String, within seconds: Double = 0) -> Int32? {
        poll(within: seconds, every: 2_000) { children(of: parent).first { hasOpen($0, needle) } }
    }

    /// The pids whose parent is `parent`, now.
    static func children(of parent: Int32) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    /// Whether process `pid` holds a file whose path contains `needle` open now.
    static func hasOpen(_ pid: Int32, _ needle: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { fd in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "").contains(needle)
        }
    }

    /// `find` until it gives a value or `seconds` pass (at least once), sleeping `micros` between.
    private static func poll(within seconds: Double, every micros: UInt32, _ find: () -> Int32?) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let found = find() { return found }
            if Date() >= deadline { break }
            usleep(micros)
        } while true
        return nil
    }

    /// Waits until process `pid` holds a file whose path contains `needle` open, so a kill lands
    /// while it reads that file. False when the process ended or `seconds` passed first.
    static func wait(for pid: Int32, toOpen needle: String, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) != nil else { return false }
            if hasOpen(pid, needle) { return true }
            usleep(200)
        }
        return false
    }
}
