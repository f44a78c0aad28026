import Foundation
import FleetKit
import FleetNightly

/// Runs the files of a nightly run in a child process, `fleetkit import-one`, so that any crash
/// of a file's import (SIGSEGV in libxml2, SIGABRT, a Swift trap, the kernel's out-of-memory
/// killer) or a hang past the time limit costs that file only: the child's transaction was never
/// committed, the file is quarantined with the signal named, a new child is started for the next
/// file, and the run goes on.
///
/// WHY a child process and not fork(): the job is multithreaded (GRDB, Dispatch, the hashing
/// thread), and fork() in a threaded process may deadlock on a lock another thread held.
/// Foundation's `Process` spawns with posix_spawn, and the child is this same binary
/// (`/proc/self/exe`), so parent and child always agree on the request format. One child serves
/// file after file (a request line in, a reply line out) until one dies: starting one per file
/// cost about 90 ms each (docs/OPERATIONS.md).
final class ChildProcessImportRunner: FileImportRunner, @unchecked Sendable {
    /// The longest one file may take before it is stopped with SIGKILL and quarantined.
    let timeLimit: TimeInterval
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    private var worker: ImportWorker?

    init(timeLimit: TimeInterval) {
        self.timeLimit = timeLimit
        // A worker that died leaves a closed pipe: writing to it must be an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { worker?.finish() }

    /// Stops the worker at once (the run is interrupted): its transaction rolls back. Called from
    /// the interruption handler's thread just before the process exits, which is why the class
    /// is `@unchecked Sendable`: at worst it reads `worker` while the job's thread replaces it.
    func stop() { worker?.kill() }

    func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
        switch exchange(request, doing: .importing) {
        case let .reply(decoded):
            if let stopped = decoded.stopped { throw FileImportStopped(file: url.path, message: stopped) }
            guard var outcome = decoded.outcome else {
                return FileOutcome(path: url.path, status: .failed, error: "the importer reported neither an outcome nor an error; nothing of this file was kept")
            }
            outcome.path = url.path
            return outcome
        case let .failed(reason):
            return FileOutcome(path: url.path, status: .failed, error: reason)
        }
    }

    /// The format is read in the worker too: a crash or hang there quarantines the file.
    func detectFormat(_ url: URL, request: FileImportRequest) throws -> FormatDetection {
        switch exchange(request, doing: .detecting) {
        case let .reply(decoded):
            guard let detected = decoded.detected else {
                return .failed("the importer answered a format question with something else; nothing of this file was read")
            }
            return .format(detected.format)
        case let .failed(reason):
            return .failed(reason)
        }
    }

    enum Doing { case importing, detecting }
    enum Exchange { case reply(FileImportReply), failed(String) }

    /// Sends one request to the worker (starting one if needed) and waits for its reply line; a
    /// worker that dies, hangs or answers nonsense is replaced, and the reason names what happened.
    private func exchange(_ request: FileImportRequest, doing: Doing) -> Exchange {
        let line: Data
        do { line = try JSONEncoder().encode(request) + Data("\n".utf8) } catch { return .failed("the request could not be encoded: \(error)") }
        var w: ImportWorker
        do { w = try worker ?? ImportWorker(executable: executable) } catch { return .failed("\(error)") }
        if !w.send(line) {
            // It died between two files (killed while idle): nothing of this file was started.
            w.kill()
            do { w = try ImportWorker(executable: executable) } catch { worker = nil; return .failed("\(error)") }
            guard w.send(line) else {
                w.kill()
                worker = nil
                return .failed("the importer process could not be given this file; nothing of it was kept")
            }
        }
        worker = w
        switch w.reply(within: timeLimit) {
        case let .line(data):
            guard let decoded = try? JSONDecoder().decode(FileImportReply.self, from: data) else {
                worker = nil
                w.kill()
                return .failed("the importer answered something that is not an outcome; nothing of this file was kept")
            }
            return .reply(decoded)
        case .ended:
            worker = nil
            var death = w.death()
            for _ in 0..<40 where death == nil {   // its output ended a moment before its process
                usleep(50_000)
                death = w.death()
            }
            let (signaled, status) = death ?? (false, -1)
            w.kill()
            if signaled { return .failed(Self.death(signal: status, timedOut: false, limit: timeLimit, doing: doing)) }
            return .failed("the importer exited with status \(status) without reporting an outcome; nothing of this file was kept. Run `fleetkit import --dry-run` on it to see the error")
        case .timedOut:
            worker = nil
            w.kill()
            return .failed(Self.death(signal: SIGKILL, timedOut: true, limit: timeLimit, doing: doing))
        }
    }

    /// The reason a quarantined file's note gives when its import died.
    static func death(signal: Int32, timedOut: Bool, limit: TimeInterval, doing: Doing = .importing) -> String {
        let rolledBack = doing == .detecting
            ? "nothing of this file was imported (the importer was reading its first bytes to find its format), and the run went on with the next file"
            : "its transaction was rolled back, so nothing of this file was kept, and the run went on with the next file"
        if timedOut {
            let seconds = limit == limit.rounded() ? String(Int(limit)) : String(limit)
            return "the import took longer than the time limit of \(seconds) s (nightly --file-time-limit) and was stopped (SIGKILL); \(rolledBack). If the file is simply big, raise the limit and put it back in the inbox"
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

/// One `fleetkit import-one` child: requests written to its stdin, reply lines read from its
/// stdout on a thread of their own (so a long reply never blocks it on a full pipe).
private final class ImportWorker: @unchecked Sendable {
    enum Reply { case line(Data), ended, timedOut }

    private let process = Process()
    private let input: FileHandle
    private let lock = NSLock()
    private var lines: [Data] = []
    private var ended = false
    private var exited = false
    private let available = DispatchSemaphore(value: 0)

    init(executable: URL) throws {
        let stdin = Pipe(), stdout = Pipe()
        input = stdin.fileHandleForWriting
        process.executableURL = executable
        process.arguments = ["import-one"]
        process.standardInput = stdin
        process.standardOutput = stdout
        // The end of the process, not only the end of its output: a process it started (Swift's
        // crash backtracer) can keep the pipe open after it died.
        process.terminationHandler = { [self] _ in
            lock.withLock { exited = true }
            available.signal()
        }
        // stderr is inherited: whatever a dying library prints reaches the job's log.
        do { try process.run() } catch {
            throw FleetError.io(path: executable.path, reason: "cannot start the importer process (\(error.localizedDescription)); check the process limit (ulimit -u) and memory")
        }
        let output = stdout.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                while let newline = buffer.firstIndex(of: 10) {
                    let line = Data(buffer[buffer.startIndex..<newline])
                    buffer = Data(buffer[(newline + 1)...])
                    lock.withLock { lines.append(line) }
                    available.signal()
                }
            }
            lock.withLock { ended = true }
            available.signal()
        }
    }

    /// - returns: false when the worker is gone (its stdin is closed).
    func send(_ line: Data) -> Bool {
        do { try input.write(contentsOf: line); return true } catch { return false }
    }

    func reply(within seconds: TimeInterval) -> Reply {
        let deadline = DispatchTime.now() + seconds
        var deathSeen: DispatchTime? = nil
        while true {
            let (next, eof): (Reply?, Bool) = lock.withLock { (!lines.isEmpty ? .line(lines.removeFirst()) : nil, ended) }
            if let next { return next }
            if eof || death() != nil {
                // Dead: a reply it wrote just before may still be in the pipe for a moment.
                let since = deathSeen ?? .now()
                deathSeen = since
                if DispatchTime.now() > since + 0.5 { return .ended }
            } else if DispatchTime.now() >= deadline {
                return .timedOut
            }
            _ = available.wait(timeout: min(deadline, .now() + 0.05))
        }
    }

    /// How the worker ended, once it has: (true, signal) when a signal ended it, else (false,
    /// exit status); nil while it runs. Read from Foundation when it has reaped the process,
    /// else from /proc while it is a zombie: Foundation does not always notice the end of a
    /// child whose crash handler (Swift's backtracer) ran, and the job must not wait on it.
    func death() -> (Bool, Int32)? {
        if lock.withLock({ exited }) { return (process.terminationReason == .uncaughtSignal, process.terminationStatus) }
        // Ended but not reaped: waitid with WNOWAIT reads how, and leaves the zombie to Foundation.
        var info = siginfo_t()
        if waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._kill.si_pid == process.processIdentifier {
            let status = info._sifields._sigchld.si_status
            return info.si_code == CLD_EXITED ? (false, status) : (true, status)
        }
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else {
            return lock.withLock({ exited }) ? (process.terminationReason == .uncaughtSignal, process.terminationStatus) : (false, -1)
        }
        // Fields after the name: state is field 3, exit_code (waitpid's status) field 52.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.first == "Z" || fields.first == "X" else { return nil }
        let status = fields.count > 49 ? Int32(fields[49]) ?? 0 : 0
        return status & 0x7f != 0 ? (true, status & 0x7f) : (false, (status >> 8) & 0xff)
    }

    /// Stops the worker if it still runs. Never signals a pid once the worker has ended: after
    /// Foundation reaps it, the number may belong to another process.
    func kill() {
        if death() == nil { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? input.close()
    }

    /// No more files: closing stdin ends the worker's loop; it is given a few seconds to exit.
    func finish() {
        try? input.close()
        for _ in 0..<100 where death() == nil { usleep(50_000) }
    }
}
