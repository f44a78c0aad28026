import Foundation
import FleetCore
import GRDB
import FleetWarehouse
import FleetImport
import FleetReports

/// The unattended batch job (docs/OPERATIONS.md, "The nightly job"): lock, import what is new in the inbox, archive or
/// quarantine each file, refresh the reports, record the run.
///
/// Crash safety comes from the order of steps: a file is moved only after its transaction
/// committed, so a kill between the two leaves it in the inbox, where the next run finds its
/// bytes already imported (`unchanged`) and archives it. Nothing is imported twice, and nothing
/// is ever deleted.
public struct NightlyJob {
    public let config: NightlyConfig
    /// The instant the run treats as now (tests and backfills set it).
    public var now: Date

    public init(config: NightlyConfig, now: Date = Date()) {
        self.config = config
        self.now = now
    }

    public struct FileResult: Codable, Sendable {
        public var path: String
        public var action: String              // archived | quarantined | skipped
        public var destination: String?
        public var outcome: FileOutcome?
        public var reason: String?
        /// Imported, but something about it needs a look (a modification time in the future).
        public var warning: String? = nil
    }

    public struct Summary: Codable, Sendable {
        public var run_id: Int64?
        public var as_of: String
        public var files: [FileResult]
        public var totals: ImportSummary.Totals
        public var quarantined: Int
        public var skipped: Int
        public var reports: [String]
        /// Reports (or formats of one) that could not be written; the others were (exit code 1).
        public var report_failures: [ReportFailure]
        /// Reports written with incomplete figures, `report (period): reasons`; they make the exit
        /// code 1 only with `report_mode: strict` (NightlyConfig.ReportMode).
        public var partial_reports: [String] = []
        public var exit_code: Int32
        /// The warehouse's audit of itself after the night's imports (`fleetkit verify`); a failed
        /// check makes the run exit 1, and the imports stay.
        public var verify: VerifyResult? = nil
        /// Why verify could not run, when it could not (also exit 1).
        public var verify_error: String? = nil
        /// The config's settings that differed from the warehouse's and were stored, and how
        /// many assets that re-derived; absent when none changed.
        public var settings_changed: SettingsChange? = nil
        /// Months the run closed before its imports (`close_after_days`); absent when none.
        public var closed_periods: [String]? = nil
        /// Something the run worked around but an operator must know (a corrupt stored setting);
        /// `fleetkit nightly` prints each on stderr.
        public var warnings: [String] = []
        /// `finished`: the summary of a run that ended (`running` and `stopped` are `RunState`'s).
        public var state = "finished"
    }

    /// - parameter makeRunner: imports each file; the `fleetkit` command passes one that runs
    ///   each file in a child process, so that a crash of one file's import quarantines that
    ///   file instead of ending the run (FileImportRunner says why).
    /// - parameter reports: writes the reports; the `fleetkit` command passes one that writes
    ///   them in a child process, so that a crash there is a recorded failure (ReportRefresher).
    public func run(command: String,
                    runner makeRunner: (ImportSession) -> any FileImportRunner = { InProcessImportRunner(session: $0) },
                    reports: any ReportRefresher = InProcessReportRefresher()) throws -> Summary {
        // The job's own writes (settings, the run ledger, archived paths) meet a full disk too;
        // the operator must read "the disk is full", not "SQLite error 13 … COMMIT TRANSACTION".
        do { return try runLocked(command: command, runner: makeRunner, reports: reports) } catch let error as DatabaseError {
            throw Warehouse.explain(error, path: config.warehouse, doing: "the nightly run")
        }
    }

    private func runLocked(command: String, runner makeRunner: (ImportSession) -> any FileImportRunner, reports: any ReportRefresher) throws -> Summary {
        let zone = FleetZone(identifier: config.timezone)!
        let lock = try NightlyLock(path: config.warehouse + ".lock")
        defer { withExtendedLifetime(lock) {} }
        for dir in [config.archive, config.quarantine, config.reports] {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) } catch {
                throw FleetError.io(path: dir, reason: "cannot create the folder: \(error.localizedDescription)")
            }
        }
        let warehouse = try Warehouse(path: config.warehouse)
        let settingsChange = try applySettings(warehouse)
        // Every import derives with what the warehouse stores, which now is the config's.
        let settings = try warehouse.settings()
        let session = ImportSession(warehouse: warehouse)
        // The profiles beside the warehouse are read before the run: one with a mistake stops
        // the job with its line (exit 2) instead of failing, and quarantining, every file.
        _ = try session.profiles(ImportOptions())
        let runID = try session.begin(command: command)
        let runner = makeRunner(session)
        let today = zone.day(of: Int64(now.timeIntervalSince1970 * 1000))
        // The reports folder says a run is under way, so a run that dies or stops leaves no
        // earlier night's `exit_code: 0` for an alert to read (docs/OPERATIONS.md, "Alerting").
        try writeLastRun(RunState(run_id: runID, as_of: today.description, state: "running", started_at: Timestamp.iso(Timestamp.now())))
        var finished = false
        defer {
            // The run's own error is what the caller gets; if this write fails too (the same full
            // disk), the file still says `running` without an exit code, which alerting reads as
            // a night that did not end cleanly.
            if !finished {
                try? writeLastRun(RunState(run_id: runID, as_of: today.description, state: "stopped", started_at: nil, exit_code: 2,
                                           reason: "the run stopped on an error before its summary; stderr and `fleetkit status` say which"))
            }
        }
        // Months due to close are closed before the night's files: one that would change them is
        // then a restatement, refused and quarantined with the figures it would change.
        var closedNow: [String] = []
        if let days = config.closeAfterDays {
            closedNow = try warehouse.pool.write { db in
                try MonthEnd.closeDue(db, asOf: today, afterDays: days, zone: settings.zone, by: "fleetkit nightly (\(UserName.current))")
            }
        }

        var results: [FileResult] = []
        var outcomes: [FileOutcome] = []
        // Settling is about the real clock, whatever day the run reports as (SettleRule).
        let entries = InboxWalker.entries(inbox: config.inbox)
        let clock = Date()
        let stored = SettleRule.decode(settings.nightlySettleLooks)
        let rule = SettleRule(settleSeconds: config.settleSeconds, requireMarker: config.requireDoneMarker, previous: stored.looks)
        var waiting: [String: SettleRule.Observation] = [:]
        var warnings: [URL: String] = [:]
        var ready: [InboxWalker.Entry] = []
        for e in entries {
            switch e.problem == nil ? rule.judge(e, now: clock) : .ready(warning: nil) {
            case let .waiting(reason):
                results.append(FileResult(path: e.url.path, action: "skipped", reason: reason))
                let before = rule.previous[e.relative]
                if let look = e.look { waiting[e.relative] = before?.look == look ? before : SettleRule.Observation(look: look, seen: clock.timeIntervalSince1970) }
            case let .ready(warning):
                warnings[e.url] = warning
                ready.append(e)
            }
        }
        func importRequest(_ entry: InboxWalker.Entry) -> FileImportRequest {
            var request = FileImportRequest(path: entry.url.path, warehouse: config.warehouse, runID: runID, timezone: settings.zone.identifier,
                                            currency: settings.currency, trips: settings.trips, attributeByFolder: config.attribution.byFolder)
            // The descriptor the child opens must still be the file the listing judged settled.
            request.expected = entry.look.map { FileImportRequest.Expected(size: $0.size, mtime: $0.mtime, device: $0.device, inode: $0.inode) }
            return request
        }
        // Master data first (the order of `session.importers`), then the rest in listing order.
        // The format is read through the runner, in the import child: reading a file's first
        // bytes is already input, and a crash there must cost that file, not the run.
        var rank: [URL: Int] = [:]
        var order: [InboxWalker.Entry] = []
        for e in ready {
            guard e.problem == nil, ready.count > 1 else { order.append(e); continue }
            var request = importRequest(e)
            request.detectOnly = true
            switch try runner.detectFormat(e.url, request: request) {
            case let .format(name):
                rank[e.url] = name.flatMap { n in session.importers.firstIndex { $0.format == n } }
                order.append(e)
            case let .failed(reason):
                let outcome = FileOutcome(path: e.url.path, status: .failed, error: reason)
                outcomes.append(outcome)
                results.append(try quarantine(e, reason: reason, outcome: outcome))
            }
        }
        let ordered = order.indices.sorted { (rank[order[$0].url] ?? session.importers.count, $0) < (rank[order[$1].url] ?? session.importers.count, $1) }
            .map { order[$0] }
        for entry in ordered {
            let url = entry.url
            if let problem = entry.problem {
                let outcome = FileOutcome(path: url.path, status: .failed, error: problem)
                outcomes.append(outcome)
                results.append(try quarantine(entry, reason: problem, outcome: outcome))
                continue
            }
            let request = importRequest(entry)
            let outcome: FileOutcome
            do { outcome = try runner.importFile(url, request: request) } catch {
                // The warehouse failed (full disk, I/O error): the file stays in the inbox, the
                // run is closed as failed if the warehouse still takes that much, and the command
                // exits 2 with the cause.
                session.abandon(runID, because: error)
                throw error
            }
            if outcome.changedWhileRead == true {
                results.append(FileResult(path: url.path, action: "skipped", reason: outcome.error))
                continue
            }
            outcomes.append(outcome)
            if outcome.status == .failed {
                results.append(try quarantine(entry, reason: outcome.error ?? "the import failed", outcome: outcome))
            } else {
                var result = try archive(entry, day: today, outcome: outcome)
                result.warning = warnings[url]
                results.append(result)
                // Provenance points at where the file now lives, so `fleetkit rejects` leads to it.
                if outcome.status == .imported, let id = outcome.sourceFileID, let destination = result.destination {
                    try warehouse.pool.write { db in try db.execute(sql: "UPDATE source_file SET path = ? WHERE id = ?", arguments: [destination, id]) }
                }
            }
        }
        let looks = try SettleRule.encode(waiting)
        try warehouse.apply(setting: [.nightlySettleLooks]) { $0.nightlySettleLooks = looks }
        var summary = try session.finish(runID, outcomes: outcomes)
        summary.files = outcomes
        // The run's exit code is known once its reports and verify are done: until then the
        // ledger holds none, so a run that dies or stops on an error here never shows its imports'.
        try session.recordExitCode(runID, nil)

        // The months the night's files changed: their reports are refreshed too, not only the
        // configured periods (a late October file on a November night).
        let touched = try warehouse.pool.read { db in
            try MonthEnd.touchedMonths(db, fileIDs: outcomes.filter { $0.status == .imported }.compactMap(\.sourceFileID), zone: settings.zone)
        }
        let refreshed = try reports.refresh(self, warehouse: warehouse, today: today, touched: touched)
        let (written, reportFailures) = (refreshed.files.map { URL(fileURLWithPath: $0) }, refreshed.failures)
        let quarantined = results.filter { $0.action == "quarantined" }.count
        let strictlyPartial = config.reportMode == .strict && !refreshed.partial.isEmpty
        let (verify, verifyError) = audit(warehouse)
        var result = Summary(run_id: runID, as_of: today.description, files: results, totals: summary.totals, quarantined: quarantined,
                             skipped: results.filter { $0.action == "skipped" }.count, reports: written.map(\.path),
                             report_failures: reportFailures, partial_reports: refreshed.partial,
                             exit_code: quarantined > 0 || summary.totals.failed > 0 || summary.totals.rejected > 0 || !reportFailures.isEmpty
                                 || strictlyPartial ? 1 : 0,
                             settings_changed: settingsChange.isEmpty ? nil : settingsChange,
                             warnings: stored.warning.map { [$0] } ?? [])
        (result.verify, result.verify_error) = (verify, verifyError)
        result.closed_periods = closedNow.isEmpty ? nil : closedNow
        if verify?.clean == false || verifyError != nil { result.exit_code = 1 }
        try session.recordExitCode(runID, result.exit_code)
        try writeLastRun(result)
        finished = true
        return result
    }

    /// What `nightly-last-run.json` holds while a run is under way (`running`) or after it
    /// stopped on an error (`stopped`, exit 2); a finished run replaces it with its `Summary`.
    struct RunState: Encodable {
        var run_id: Int64
        var as_of: String
        var state: String
        var started_at: String?
        var exit_code: Int32?
        var reason: String?
    }

    private func writeLastRun(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicWrite.write(try encoder.encode(value), to: URL(fileURLWithPath: config.reports).appendingPathComponent("nightly-last-run.json"))
    }

    /// `fleetkit verify` on the warehouse as the night left it. Its imports are committed by now:
    /// a failure (or an error running it) is recorded, never thrown.
    private func audit(_ warehouse: Warehouse) -> (VerifyResult?, String?) {
        do {
            let context = try VerifyChecks.context(warehouse)
            return (try Verifier(checks: VerifyChecks.all).run(warehouse, context: context), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    /// The config's settings become the warehouse's (WarehouseSettings.apply): a changed zone or
    /// trip rule re-derives every asset, the same way `fleetkit init` does, so `import` and
    /// `nightly` derive the same trips from the same facts.
    private func applySettings(_ w: Warehouse) throws -> SettingsChange {
        let zone = FleetZone(identifier: config.timezone)!
        let policy = DVIRPolicy(text: config.dvirPolicy) ?? .everyDay
        return try w.apply(setting: [.timezone, .currency, .units, .dvirPolicy, .tripRules]) { s in
            s.zone = zone
            s.currency = config.currency
            s.units = config.units
            s.dvirPolicy = policy
            s.trips = config.trips
        }
    }

    private func archive(_ entry: InboxWalker.Entry, day: CivilDate, outcome: FileOutcome) throws -> FileResult {
        let folder = URL(fileURLWithPath: config.archive)
            .appendingPathComponent(String(format: "%04d/%02d/%02d", day.year, day.month, day.day))
        let destination = try move(entry, to: folder.appendingPathComponent(entry.relative))
        return FileResult(path: entry.url.path, action: "archived", destination: destination.path, outcome: outcome)
    }

    private func quarantine(_ entry: InboxWalker.Entry, reason: String, outcome: FileOutcome) throws -> FileResult {
        let destination: URL
        do { destination = try move(entry, to: URL(fileURLWithPath: config.quarantine).appendingPathComponent(entry.relative)) } catch where entry.look == nil {
            // Refused unread (a pipe, a name that is not UTF-8…): it stays where it is, named, and the run goes on.
            return FileResult(path: entry.url.path, action: "skipped", outcome: outcome,
                              reason: "\(reason); and it cannot be moved to the quarantine (\(error)); move or remove it by hand")
        }
        let note = "\(reason)\n\nfile: \(entry.url.path)\nquarantined: \(ISO8601DateFormatter().string(from: now))\n"
            + "Fix the file (or pass the right --format to `fleetkit import`) and put it back in the inbox.\n"
        try AtomicWrite.write(Data(note.utf8), to: URL(fileURLWithPath: destination.path + ".reason.txt"))
        return FileResult(path: entry.url.path, action: "quarantined", destination: destination.path, outcome: outcome, reason: reason)
    }

    /// Moves an entry and its done-marker, if any. A name that is not UTF-8 moves by its raw
    /// bytes (`rename`) to its escaped name, so what the reason file says is what is there.
    private func move(_ entry: InboxWalker.Entry, to target: URL) throws -> URL {
        let destination: URL
        if let raw = entry.raw {
            try OwnerOnlyFolders.create(target.deletingLastPathComponent(), under: jobRoot(of: target))
            destination = freeName(target)
            let rc = DirectoryListing.withCString(raw) { rename($0, destination.path) }
            guard rc == 0 else { throw FleetError.io(path: entry.url.path, reason: "cannot move it to \(destination.path): \(String(cString: strerror(errno)))") }
        } else {
            destination = try move(entry.url, to: target)
        }
        if let marker = entry.marker {
            _ = try move(marker, to: URL(fileURLWithPath: destination.path + "." + marker.pathExtension))
        }
        return destination
    }

    /// The job folder (quarantine or archive) a move target lies in.
    private func jobRoot(of target: URL) -> String {
        [config.quarantine, config.archive].first { target.path.hasPrefix($0 + "/") } ?? config.archive
    }

    /// `target`, or `stem.1.ext`, `stem.2.ext`… for the first name not taken.
    private func freeName(_ target: URL) -> URL {
        let fm = FileManager.default
        var destination = target
        var n = 0
        while fm.fileExists(atPath: destination.path) || (try? fm.destinationOfSymbolicLink(atPath: destination.path)) != nil {
            n += 1
            let ext = target.pathExtension
            let stem = target.deletingPathExtension().lastPathComponent
            destination = target.deletingLastPathComponent().appendingPathComponent(ext.isEmpty ? "\(stem).\(n)" : "\(stem).\(n).\(ext)")
        }
        return destination
    }

    /// Moves a file, never overwriting: a name already taken gets `.1`, `.2`… before its extension.
    private func move(_ source: URL, to target: URL) throws -> URL {
        let fm = FileManager.default
        do {
            try OwnerOnlyFolders.create(target.deletingLastPathComponent(), under: jobRoot(of: target))
            let destination = freeName(target)
            // Anything but a regular file, folder or link is only ever renamed: across file
            // systems FileManager copies, and copying a FIFO reads it, which blocks forever.
            var st = stat()
            if lstat(source.path, &st) == 0, ![S_IFREG, S_IFDIR, S_IFLNK].contains(st.st_mode & S_IFMT) {
                guard rename(source.path, destination.path) == 0 else {
                    throw FleetError.io(path: source.path, reason: "\(DirectoryListing.kind(st.st_mode)) can only be renamed, and rename failed (\(String(cString: strerror(errno))))")
                }
                return destination
            }
            try fm.moveItem(at: source, to: destination)
            return destination
        } catch let error as FleetError {
            throw error
        } catch {
            throw FleetError.io(path: source.path, reason: "cannot move it to \(target.path): \(error.localizedDescription)")
        }
    }

    /// Every configured report for every configured period, and for every month in `touched`
    /// that no configured period already is. Each report (and format) is written
    /// or fails alone (`ReportWriter`): a failure is recorded and the run goes on, so one bad
    /// value can no longer cost the night's other reports after the files were already archived.
    /// Run by `InProcessReportRefresher`, and by `fleetkit nightly-reports` in the child.
    public func refreshReports(_ warehouse: Warehouse, today: CivilDate, touched: [String] = []) throws -> ReportRefresh {
        let zone = FleetZone(identifier: config.timezone)!
        let reports = config.reportsToRefresh.compactMap { ReportRegistry.named($0) }
        let formats = config.formats.compactMap { ReportFormats.named($0) }
        guard !reports.isEmpty, !formats.isEmpty else { return ReportRefresh(files: [], failures: []) }
        var failures: [ReportFailure] = []
        let writer = ReportWriter(warehouse: warehouse, formats: formats)
        let directory = URL(fileURLWithPath: config.reports, isDirectory: true)
        var files: [URL] = []
        var outputs: [ReportOutput] = []
        var lastRequest: ReportRequest? = nil
        // The carrier is set with `fleetkit init`, not the nightly config: read what is stored.
        let carrier = try warehouse.settings().carrier
        var periods = config.periods.map { NightlyPeriod.parse($0)!.period(today: today) }
        for month in touched {
            guard let (y, m) = PeriodFigures.month(month) else { continue }
            let p = ReportPeriod.month(y, m)
            // A month already refreshed, whole or to date, is not written twice.
            if !periods.contains(where: { $0.label == p.label || ($0.from == p.from && $0.to == p.to) }) { periods.append(p) }
        }
        for period in periods {
            let request = ReportRequest(period: period, zone: zone, units: config.units,
                                        currency: config.currency, dvirPolicy: ReportRequest.DVIRPolicy(text: config.dvirPolicy) ?? .everyDay,
                                        // The data's "as of" is the run's day (--as-of for backfills); the
                                        // generation stamp is the real clock, so a backfilled report never
                                        // claims to have been made on the day it describes.
                                        generatedAt: Timestamp.now(), asOf: today, carrier: carrier)
            let written = try writer.write(reports, request: request, to: directory, index: false, linkIndex: true)   // index written below
            files += written.files
            outputs += written.outputs
            failures += written.failures.map { f in
                var f = f
                f.reason = "\(request.period.label): " + f.reason
                return f
            }
            lastRequest = lastRequest ?? request
        }
        if let request = lastRequest {
            do {
                files.append(try writer.writeIndex(outputs, title: "FleetKit reports, as of \(today)", request: request, to: directory))
            } catch {
                failures.append(ReportFailure(report: ReportRegistry.indexName, format: ReportFormats.pageFormat, reason: "\(error)"))
            }
        }
        let partial = outputs.filter(\.metadata.isPartial).map { "\($0.metadata.report) (\($0.metadata.period.label)): " + $0.metadata.partial.joined(separator: "; ") }
        return ReportRefresh(files: files.map(\.path), failures: failures, partial: partial)
    }
}
