import Foundation
import FleetCore

/// The SHA-256 of a file being imported, computed on a second thread while the importer reads it.
///
/// Why: the hash used to come first, so every byte was read twice in a row before the first
/// row loaded: 0.3 s of a 2.2 s import of a 250 MB GPX file. Importers use one core (GPX's
/// scanner leaves part of the second one idle), so the hash runs beside the import and the
/// session waits for it only before it writes the digest and commits. The session asks for it
/// up front when the file may be a re-import (a stored file has the same size): then the hash is
/// all the work there is.
///
/// `value()` waits for the digest; `finish()` stops the hash at its next 1 MiB read (when the
/// import failed and the digest is no longer needed) and waits for the thread, so no thread
/// outlives the import of its file.
final class FileDigest: @unchecked Sendable {
    /// Guards `result` and `cancelled`.
    private let lock = NSCondition()
    private var result: Result<String, any Error>?
    private var cancelled = false

    init(_ url: URL) {
        let thread = Thread { [self] in
            Self.yieldToTheImport()
            let digest = Result { try SHA256.hex(ofFile: url, proceed: { [self] in !isCancelled }) }
            lock.lock()
            result = digest
            lock.broadcast()
            lock.unlock()
        }
        thread.name = "fleetkit-sha256"
        thread.start()
    }

    /// Nice 10 for this thread only (Linux keeps a nice value per thread; `who` 0 is the caller):
    /// the hash has until the commit, while the import's own threads (GPX's loader and scanner
    /// fill both cores while they run) are the import's speed. Started at the same priority it
    /// took 40 % of a core from the loader for the first 0.3 s of a 1 M-point GPX import; niced,
    /// it runs on what they leave, and during trips and the rollup, which use one core.
    private static func yieldToTheImport() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    private var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    /// The lowercase hex digest; rethrows the hash's read error.
    func value() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        while result == nil { lock.wait() }
        return try result!.get()
    }

    /// Stops the hash if it is still running and waits until its thread is done.
    func finish() {
        lock.lock()
        cancelled = true
        while result == nil { lock.wait() }
        lock.unlock()
    }
}
