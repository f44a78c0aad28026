import Foundation
import XCTest

/// The throwaway PostgreSQL 15 cluster of this test process: started on loopback by
/// scripts/pg-test-cluster.sh the first time a test asks, stopped and removed when the process
/// exits. Every test makes its own database in it (`newDatabase`), so tests never share rows.
///
/// Without PostgreSQL's server programs a test that needs the cluster is skipped on a
/// developer's machine and fails under CI (`CI` set, as `.ci/run` sets it): a CI that lost its
/// PostgreSQL install would otherwise pass without running one PostgreSQL test.
public enum PostgresTestCluster {
    public struct Cluster: Sendable {
        public let folder: String
        /// `postgresql://postgres@127.0.0.1:PORT/postgres` (trust authentication, no password).
        public let url: String
        public var port: String { String(url.split(separator: ":").last!.split(separator: "/").first!) }

        /// The URL of `database` on this cluster.
        public func url(of database: String) -> String {
            String(url[..<url.lastIndex(of: "/")!]) + "/" + database
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case start(String)
        case psql(String)
        case notInstalledUnderCI
        public var description: String {
            switch self {
            case .notInstalledUnderCI:
                return "PostgreSQL is not installed and CI is set: the PostgreSQL tests must run under CI (make deps installs postgresql; initdb under /usr/lib/postgresql/*/bin and /usr/bin/psql were not found)"
            case let .start(s): return "the test PostgreSQL cluster did not start (make deps installs postgresql): \(s)"
            case let .psql(s): return "psql failed: \(s)"
            }
        }
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Started once per test process.
    public static let shared: Result<Cluster, Failure> = {
        let result = run("/bin/bash", [repository.appendingPathComponent("scripts/pg-test-cluster.sh").path, "start", String(getpid())])
        let lines = result.out.split(separator: "\n").map(String.init)
        guard result.status == 0, lines.count == 2 else { return .failure(.start(result.err + result.out)) }
        let cluster = Cluster(folder: lines[0], url: lines[1])
        startedFolder = cluster.folder
        atexit {
            if let folder = PostgresTestCluster.startedFolder {
                _ = PostgresTestCluster.run("/bin/bash", [PostgresTestCluster.repository.appendingPathComponent("scripts/pg-test-cluster.sh").path, "stop", folder])
            }
        }
        return .success(cluster)
    }()

    nonisolated(unsafe) private static var startedFolder: String?

    /// The cluster, or the error that says why it is not running: an `XCTSkip` when the server
    /// programs are not installed outside CI (`requireServer`).
    public static func cluster() throws -> Cluster {
        try requireServer()
        return try shared.get()
    }

    /// Whether `environment` is a CI run's: `CI` set to anything but empty, `0` or `false`
    /// (what CI services set, and `.ci/run`).
    public static func underCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let v = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false"].contains(v)
    }

    /// Whether the server programs are there: `initdb` in `PG_BIN`, else in one of the
    /// `/usr/lib/postgresql/*/bin` (where scripts/pg-test-cluster.sh looks), and psql.
    public static func serverInstalled(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: "/usr/bin/psql") else { return false }
        if let bin = environment["PG_BIN"], !bin.isEmpty { return fm.isExecutableFile(atPath: bin + "/initdb") }
        return ((try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).contains { fm.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
    }

    /// Returns when PostgreSQL is installed; otherwise throws `Failure.notInstalledUnderCI`
    /// under CI (the test fails) and elsewhere an `XCTSkip` saying how to install it.
    public static func requireServer(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if serverInstalled(environment) { return }
        if underCI(environment) { throw Failure.notInstalledUnderCI }
        throw XCTSkip("PostgreSQL is not installed (initdb under /usr/lib/postgresql/*/bin or PG_BIN, and /usr/bin/psql; `make deps` installs it): this PostgreSQL test is not run. Under CI (CI set) it fails instead.")
    }

    /// A new, empty database on the cluster; returns its URL.
    public static func newDatabase() throws -> String {
        let c = try cluster()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try psql(c.url, "CREATE DATABASE \(name)")
        return c.url(of: name)
    }

    /// Runs SQL through psql (PostgreSQL's own client, an independent reader) and returns its
    /// unaligned, tuples-only output: one line per row, fields separated by `|`.
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let r = run("/usr/bin/psql", ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
        guard r.status == 0 else { throw Failure.psql(r.err) }
        return r.out
    }

    /// Runs a program with posix_spawn and waits for it by its own pid, its output through
    /// files: the cluster script leaves a server running behind it, and Foundation's Process
    /// was seen never to reap the script then, waiting forever.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let tmp = FileManager.default.temporaryDirectory.path + "/fleetkit-pgrun-" + UUID().uuidString
        let outPath = tmp + ".out", errPath = tmp + ".err"
        defer { unlink(outPath); unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard rc == 0 else { return (-1, "", "posix_spawn \(executable): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return (-1, "", "waitpid: \(String(cString: strerror(errno)))") }
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (exit, out, err)
    }
}
