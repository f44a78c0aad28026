import Foundation

/// Finds a child process of a `fleetkit` run the tests started, to kill it at a chosen moment.
/// Reads /proc (Linux): the parent pid is the second field after the command name in `stat`.
enum ChildProcessFinder {
    /// The first child of `parent` whose command line contains `needle` (any child when nil),
    /// polled until `seconds` have passed.
    static func child(of parent: Int32, mentioning needle: String? = nil, within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 2, Int32(fields[1]) == parent else { continue }
                if let needle {
                    guard let cmdline = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                          String(decoding: cmdline, as: UTF8.self).contains(needle) else { continue }
                }
                return pid
            }
            usleep(500)
        }
        return nil
    }

    /// Waits until process `pid` holds a file whose path contains `needle` open, so a kill lands
    /// while it reads that file. False when the process ended or `seconds` passed first.
    static func wait(for pid: Int32, toOpen needle: String, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
            for fd in fds {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"), target.contains(needle) { return true }
            }
            usleep(200)
        }
        return false
    }
}
