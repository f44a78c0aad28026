import Foundation
import FleetKit
import FleetNightly

/// Wraps the nightly job's file runner to show progress and to know, when the run is
/// interrupted, which files were committed and which one was in progress. WHY a wrapper: the
/// job decides which files to import (settled, not yet archived); the command line only watches
/// them pass, so the nightly job itself needs no progress code.
final class ProgressImportRunner: FileImportRunner {
    let inner: ChildProcessImportRunner
    let meter: ProgressMeter

    init(inner: ChildProcessImportRunner, meter: ProgressMeter) {
        self.inner = inner
        self.meter = meter
    }

    func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
        meter.started(url.path, total: nil)
        let outcome = try inner.importFile(url, request: request)
        meter.finished(outcome)
        return outcome
    }
}
