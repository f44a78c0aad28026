import ArgumentParser
import Foundation
import FleetKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import files or folders (recursively) into the warehouse.",
        discussion: "Each file is one transaction. Re-importing the same bytes is a reported no-op; rows that cannot be used are kept as rejects (see `fleetkit rejects`).")

    @OptionGroup var warehouse: WarehouseOptions
    @Option(help: "The format of every file, instead of detecting it from the content (see `fleetkit formats`).",
            completion: .list(ImporterRegistry.all.map { $0.format }))
    var format: String?
    @Option(help: "The unit number for files without built-in identity (GPX, OBD logs, receipts).")
    var asset: String?
    @Option(help: "The sheet to read of each .xlsx workbook (its name as Excel shows it); without it, the first sheet.")
    var sheet: String?
    @Option(help: ArgumentHelp("Read every file with this mapping profile (a name from `fleetkit profile list`, or a path to a .yml file) instead of matching headers to profiles and detecting formats.", valueName: "name|path"))
    var profile: String?
    @Option(name: .customLong("profiles"), help: ArgumentHelp("A folder of mapping profiles (*.yml) besides the shipped ones and the profiles folder beside the warehouse; repeatable.", valueName: "dir"))
    var profileFolders: [String] = []
    @Flag(help: "Read and check everything, report what would happen, and change nothing.")
    var dryRun = false
    @Flag(help: "Create the warehouse if it does not exist yet, with the default settings (`fleetkit init` sets them).")
    var create = false
    @Flag(help: "Print the summary as JSON on stdout.")
    var json = false
    @Flag(help: "Apply a file that changes a figure of a closed month (`fleetkit close`), recording each change in the restatement ledger; without it such a file is refused.")
    var allowRestatement = false
    @Option(help: "The imported file (id, path or file name) that this one replaces: it is forgotten in the same transaction (`fleetkit forget`). Only with one file to import.")
    var replaces: String?
    @OptionGroup var output: OutputOptions
    @Argument(help: "Files or folders to import.", completion: .file())
    var paths: [String]

    func validate() throws {
        if replaces != nil, paths.count != 1 || FileManager.default.fileExists(atPath: paths[0] + "/.") {
            throw ValidationError("--replaces takes one file to import (the corrected export), not \(paths.count == 1 ? "a folder" : "\(paths.count) paths").")
        }
        if format != nil, profile != nil {
            throw ValidationError("--format and --profile both choose how files are read; pass one of them.")
        }
        if let format, ImporterRegistry.named(format) == nil {
            throw ValidationError("unknown format '\(format)'; known formats: \(ImporterRegistry.all.map { $0.format }.joined(separator: ", ")).")
        }
    }

    func run() throws {
        let summary: ImportSummary
        do {
            // A dry run changes nothing on disk, so it never creates a warehouse, even with --create.
            if dryRun, !FileManager.default.fileExists(atPath: warehouse.path) {
                throw FleetError.warehouse(path: warehouse.path, reason: "there is no warehouse here, and a dry run creates nothing",
                                           hint: "Create it with `fleetkit init --db \(warehouse.path)` first, or pass --db with the right path.")
            }
            let w = try warehouse.open(create: create, orPass: "--create")
            // The stored settings, trip rules included: `nightly` derives with the same ones.
            let settings = try w.settings()
            var options = ImportOptions(format: format, asset: asset, dryRun: dryRun, zone: settings.zone, currency: settings.currency)
            options.trips = settings.trips
            options.allowRestatement = allowRestatement
            options.replaces = replaces
            options.sheet = sheet
            options.profile = profile
            options.profileFolders = profileFolders
            options.actor = UserName.current
            options.settingsFromWarehouse = true
            let dryRun = self.dryRun
            let meter = ProgressMeter(mode: output.progress, label: dryRun ? "dry run" : "import")
            defer { meter.stop() }
            Interruption.install { signal in
                Interruption.line(signal: signal, what: dryRun ? "checked, nothing written" : "committed", snapshot: meter.snapshot,
                                  resume: dryRun ? "Nothing was written." : "Run the same command again to resume: committed files are skipped as unchanged.")
            }
            let perFile = !json && !output.quiet
            summary = try ImportSession(warehouse: w).run(paths, options: options, command: (["fleetkit"] + CommandLine.arguments.dropFirst()).joined(separator: " ")) { event in
                switch event {
                case let .started(url, _, count, _):
                    meter.started(url.path, total: count)
                case let .finished(outcome, _, _):
                    meter.finished(outcome)
                    // Each file's line as it ends, not all at the end; failures always (stderr).
                    if perFile || (outcome.status == .failed && !json) { meter.above { ImportReport.show(outcome) } }
                }
            }
        } catch { throw fail(error) }
        if json { try writeJSON(summary) } else if !output.quiet { ImportReport.showTotals(summary) }
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }
}

/// The human summary of an import.
enum ImportReport {
    /// One file's line: results on stdout, a failure on stderr.
    static func show(_ f: FileOutcome) {
        switch f.status {
        case .imported:
            Console.out("imported  \(f.path) [\(f.format ?? "?")]: \(f.loaded) loaded, \(f.updatedText), \(f.unchanged) unchanged, \(f.rejected) rejected")
        case .unchanged:
            Console.out("unchanged \(f.path): already imported (same bytes)")
        case .failed:
            var error = f.error ?? "unknown error"
            if error.hasPrefix(f.path + ": ") { error.removeFirst(f.path.count + 2) }
            Console.err("failed    \(f.path): \(error)")
        }
        for n in f.notes ?? [] { Console.out("          note: \(n)") }
        if let r = f.replaced {
            Console.out("          replaced #\(r.fileID) \(r.path): \(r.totalRemoved) rows removed, \(r.totalRestored) restored to an earlier file's version")
        }
        if f.status != .failed {
            for c in f.restatements ?? [] { Console.out("          restated \(c.text)") }
        }
    }

    /// The totals line after the per-file lines.
    static func showTotals(_ s: ImportSummary) {
        let t = s.totals
        Console.out("\(s.dry_run ? "dry run, nothing written: " : "")\(t.files) files: \(t.imported) imported, \(t.unchanged_files) unchanged, \(t.failed) failed; rows: \(t.loaded) loaded, \(t.updated) updated, \(t.unchanged) unchanged, \(t.rejected) rejected")
        if t.rejected > 0 { Console.out("see the rejected rows with: fleetkit rejects") }
    }
}
