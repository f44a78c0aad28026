import Foundation

/// The throwaway PostgreSQL 15 cluster of this test process: started on loopback by
/// scripts/pg-test-cluster.sh the first time a test asks, stopped and removed when the process
/// exits. Every test makes its own database in it (`newDatabase`), so tests never share rows.
public enum PostgresTestCluster {
    public struct Cluster: Sendable {
        public let folder: String
        /// `postgresql://postgres@127.0.0.1:PORT/postgres` (trust authentication, no password).
        public let url: String
        public var port: String { String(url.split(separator: ":").last!.split(separator: "/").first!) }

        /// The URL of `database` on this cluster.
        public func url(of database: String) -> String {
            url.replacingOccurrences(of: "/postgres", with: "/" + database, options: .backwards)
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case start(String)
        case psql(String)
        public var description: String {
            switch self {
            case let .start(s): return "the test PostgreSQL cluster did not start (make deps installs postgresql): \(s)"
            case let .psql(s): return "psql failed: \(s)"
            }
        }
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Started once per test process.
    public static let shared: Result<Cluster, Failure> = {
        let result = run("/bin/bash", [repository.appendingPathComponent("scripts/pg-test-cluster.sh").path, "start"])
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

    /// The cluster, or the error that says why it is not running.
    public static func cluster() throws -> Cluster { try shared.get() }

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

    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return (-1, "", "\(error)") }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
