import Foundation
import FleetKit

/// Ctrl-C (SIGINT) and SIGTERM during `import` and `nightly`: one clear line on stderr (what was
/// committed, what was not, how to resume), then exit 130 or 143 like every shell tool.
///
/// WHY exiting at once is safe: each file is one SQLite transaction, so the file in progress is
/// rolled back by SQLite itself (its uncommitted WAL frames are ignored), files already committed
/// stay, and the run's `RunLock` is released with the process, so `fleetkit status` shows the run
/// as `interrupted` at once and the next `import` or `nightly` records it so. Waiting for the
/// file in progress to end instead would make Ctrl-C wait minutes on a big file.
///
/// The handler runs on a Dispatch queue, not in signal context, so it may format and write.
/// `describe` is asked for the line at that moment; `cleanup` stops child processes first.
enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(describe: @escaping @Sendable (_ signal: String) -> String, cleanup: @escaping @Sendable () -> Void = {}) {
        for (number, name, code) in [(SIGINT, "SIGINT", Int32(130)), (SIGTERM, "SIGTERM", Int32(143))] {
            signal(number, SIG_IGN)   // delivered to the source below instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                cleanup()
                // No half-written report or run record is left beside the real ones.
                AtomicWrite.removeTemporaries()
                Console.err(describe(name))
                _exit(code)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// What was committed, what failed, the file in progress and the files not started, in words.
    static func line(signal: String, what: String, snapshot now: (committed: Int, failed: Int, total: Int?, rows: Int, current: String?),
                     current: String? = nil, resume: String) -> String {
        var text = "interrupted by \(signal): \(now.committed) \(now.committed == 1 ? "file" : "files") \(what) (\(ProgressMeter.grouped(now.rows)) rows)"
        if now.failed > 0 { text += ", \(now.failed) failed" }
        if let inProgress = current ?? now.current { text += "; \(inProgress) was in progress and was rolled back, nothing of it kept" }
        if let total = now.total {
            let notStarted = total - now.committed - now.failed - (now.current == nil ? 0 : 1)
            if notStarted > 0 { text += "; \(notStarted) not started" }
        }
        return text + ". " + resume
    }
}
