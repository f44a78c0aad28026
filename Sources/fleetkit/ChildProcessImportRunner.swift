import Foundation
import FleetKit
import FleetNightly

/// Runs each file of a nightly run in its own `fleetkit import-one` child process, so that
/// any crash of a file's import (SIGSEGV in libxml2, SIGABRT, a Swift trap, the kernel's
/// out-of-memory killer) or a hang past the time limit costs that file only: the child's
/// transaction was never committed, the file is quarantined with the signal named, and the run
/// goes on with the next file.
///
/// WHY a child process and not fork(): the job is multithreaded (GRDB, Dispatch, the hashing
/// thread), and fork() in a threaded process may deadlock on a lock another thread held.
/// Foundation's `Process` spawns with posix_spawn, and the child is this same binary
/// (`/proc/self/exe`), so parent and child always agree on the request format.
struct ChildProcessImportRunner: FileImportRunner {
    /// The longest one file may take before it is stopped with SIGKILL and quarantined.
    var timeLimit: TimeInterval
    var executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
        let child = Process()
        child.executableURL = executable
        child.arguments = ["import-one", "--request", String(decoding: try JSONEncoder().encode(request), as: UTF8.self)]
        let out = Pipe()
        child.standardOutput = out
        // stderr is inherited: whatever a dying library prints reaches the job's log.
        let exited = DispatchSemaphore(value: 0)
        child.terminationHandler = { _ in exited.signal() }
        do { try child.run() } catch {
            throw FleetError.io(path: executable.path, reason: "cannot start the importer process (\(error.localizedDescription)); check the process limit (ulimit -u) and memory")
        }
        // Read the reply while the child runs, so a long reply never blocks it on a full pipe.
        let reply = ReplyReader(out.fileHandleForReading)
        var timedOut = false
        if exited.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            kill(child.processIdentifier, SIGKILL)
            exited.wait()
        }
        let data = reply.wait()
        if child.terminationReason == .uncaughtSignal || timedOut {
            return FileOutcome(path: url.path, status: .failed, error: Self.death(signal: child.terminationStatus, timedOut: timedOut, limit: timeLimit))
        }
        guard let decoded = try? JSONDecoder().decode(FileImportReply.self, from: data) else {
            return FileOutcome(path: url.path, status: .failed, error:
                "the importer exited with status \(child.terminationStatus) without reporting an outcome; nothing of this file was kept. Run `fleetkit import --dry-run` on it to see the error")
        }
        if let stopped = decoded.stopped { throw FileImportStopped(file: url.path, message: stopped) }
        guard var outcome = decoded.outcome else {
            return FileOutcome(path: url.path, status: .failed, error: "the importer reported neither an outcome nor an error; nothing of this file was kept")
        }
        outcome.path = url.path
        return outcome
    }

    /// The reason a quarantined file's note gives when its import died.
    static func death(signal: Int32, timedOut: Bool, limit: TimeInterval) -> String {
        let rolledBack = "its transaction was rolled back, so nothing of this file was kept, and the run went on with the next file"
        if timedOut {
            return "the import took longer than the time limit of \(limit == limit.rounded() ? String(Int(limit)) : String(limit)) s (nightly --file-time-limit) and was stopped (SIGKILL); \(rolledBack). If the file is simply big, raise the limit and put it back in the inbox"
        }
        let name = signalName(signal)
        if signal == SIGKILL {
            return "the importer was killed (\(name)) while reading this file, most likely by the kernel's out-of-memory killer (see `dmesg`) or an operator; \(rolledBack). Check the machine's memory and put the file back in the inbox"
        }
        return "the importer crashed (\(name)) reading this file; \(rolledBack). This is a bug in FleetKit or a library it uses: report it with this file, and do not put the file back until it is fixed"
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                                      SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU"]
        return names[signal] ?? "signal \(signal)"
    }
}

/// Drains a pipe on its own thread until the writer closes it.
private final class ReplyReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
