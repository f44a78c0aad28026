import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What fleetkit needs in its own environment before any library initialises.
///
/// Debian's libtesseract is built with OpenMP. libgomp reads `OMP_THREAD_LIMIT` once, when the
/// library is loaded, before `main` runs, and without a limit each Tesseract call spreads over
/// every core and fights the other workers: receipt OCR measured 3x slower (docs/OPERATIONS.md, "Performance notes"). Setting
/// the variable from inside the process is too late, so fleetkit re-executes itself with it set.
enum ProcessEnvironment {
    static let ompThreadLimit = "OMP_THREAD_LIMIT"

    /// Re-executes the running binary (`/proc/self/exe`, same argv) with `OMP_THREAD_LIMIT=1` added
    /// when the variable is absent. Returns only when nothing needs doing or the exec failed;
    /// a failed exec is not fatal: fleetkit still works, OCR is just slower.
    static func ensureOMPThreadLimit() {
        #if os(Linux)
        guard getenv(ompThreadLimit) == nil else { return }
        setenv(ompThreadLimit, "1", 1)
        execve("/proc/self/exe", CommandLine.unsafeArgv, environ)
        #endif
    }
}
