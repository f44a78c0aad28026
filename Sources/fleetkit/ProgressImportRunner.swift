import Foundation
import FleetKit
import FleetNightly

/// Wraps the nightly job's file runner to show progress, to print each imported file's line as
/// soon as its transaction committed (not all at the end of the run), and to know, when the run
/// is interrupted, which files were committed and which one was in progress. WHY a wrapper: the
/// job decides which files to import (settled, not yet archived); the command line only watches
/// them pass, so the nightly job itself needs no progress code. A failed file's line comes at
/// the end, with its quarantine note, once the job has moved it.
final class ProgressImportRunner: FileImportRunner {
    let inner: ChildProcessImportRunner
    let meter: ProgressMeter
    /// Print each committed file's line as it ends (text output without --quiet).
    let perFile: Bool

    init(inner: ChildProcessImportRunner, meter: ProgressMeter, perFile: Bool) {
        self.inner = inner
        self.meter = meter
        self.perFile = perFile
    }

    /// The line of a file whose import committed (imported or found unchanged).
    static func line(_ o: FileOutcome, path: String) -> String {
        o.status == .unchanged ? "unchanged   \(path): already imported"
            : "imported    \(path) [\(o.format ?? "?")]: \(o.loaded) loaded, \(o.updatedText), \(o.unchanged) unchanged, \(o.rejected) rejected"
    }

    func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
        meter.started(url.path, total: nil)
        let outcome = try inner.importFile(url, request: request)
        meter.finished(outcome)
        if perFile, outcome.status != .failed { meter.above { Console.out(Self.line(outcome, path: url.path)) } }
        return outcome
    }
}
