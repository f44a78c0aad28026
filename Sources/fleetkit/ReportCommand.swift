import ArgumentParser
import Foundation
import FleetKit

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a report (or all of them) for a period as \(ReportCommand.formatList).",
        discussion: ReportCommand.discussion)

    static let discussion = "Reports: " + ReportRegistry.all.map { $0.name + " (" + $0.summary + ")" }.joined(separator: "; ")
        + "; `all` writes every report and index.html; `evidence` writes the auditor's DVIR evidence pack, one PDF per vehicle (`--assets` or every vehicle), printed by headless Chromium."
        + " With --db postgresql://… (a warehouse `fleetkit warehouse copy` wrote) these reports run: " + ReportRegistry.portable.map { $0.name }.joined(separator: ", ") + "; the others exit 2."

    /// The formats as prose ("CSV, XLSX, HTML and JSON"), from the format registry.
    static var formatList: String {
        let names = ReportFormats.names.map { $0.uppercased() }
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
    }

    @OptionGroup var warehouse: WarehouseOptions

    @Argument(help: "The report name (see the list above), all, or evidence.", completion: .list(ReportRegistry.all.map { $0.name } + ["all", ReportCommand.evidenceName]))
    var name: String
    @Option(help: "A calendar month, YYYY-MM.")
    var month: String?
    @Option(help: "A calendar quarter, YYYY-Qn.")
    var quarter: String?
    @Option(help: "The first day, YYYY-MM-DD (with --to).")
    var from: String?
    @Option(help: "The last day, YYYY-MM-DD, inclusive (with --from).")
    var to: String?
    @Option(help: ArgumentHelp("Comma-separated formats: \(ReportFormats.names.joined(separator: ", ")). Default: all of them."), completion: .list(ReportFormats.names))
    var format: String?
    @Option(help: "The output folder (created if needed), or - to write one report in one single-file format (json, html, xlsx) to stdout.")
    var out: String = "Reports"

    /// `--out -`: the one file written goes to stdout, nothing else does.
    var toStdout: Bool { out == "-" }
    @Option(help: "Grouping for subtotals: asset, group, cost-center or department.")
    var groupBy: String = "asset"
    @Option(help: "Only these units, comma-separated.")
    var assets: String?
    @Option(help: "The time zone for daily buckets (default: the warehouse's fleet time zone).")
    var tz: String?
    @Option(help: "metric or us (default: the warehouse setting).")
    var units: Units.System?
    @Option(help: "The report currency, ISO 4217 (default: the warehouse's base currency).")
    var currency: String?
    @Flag(help: "Exit 0 even when figures are incomplete (rows without an exchange rate, a period past the data); the files still say \"partial\" in their header.")
    var allowPartial = false
    @Flag(help: "Print the result as one JSON object on stdout: files written with their report and format, headlines, partial reports with reasons, failures.")
    var json = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard name == "all" || name == Self.evidenceName || ReportRegistry.named(name) != nil else {
            throw ValidationError("unknown report '\(name)'; reports: \((ReportRegistry.all.map { $0.name } + ["all", Self.evidenceName]).joined(separator: ", ")).")
        }
        _ = try period()
        for f in formats where !ReportFormats.names.contains(f) {
            throw ValidationError("unknown format '\(f)'; formats: \(ReportFormats.names.joined(separator: ", ")).")
        }
        if toStdout {
            // Only one file can be a stream: one report, one format that writes one file.
            guard name != "all", name != Self.evidenceName else {
                throw ValidationError("--out - writes one report to stdout; name one report, not '\(name)', or write to a folder.")
            }
            guard formats.count == 1, formats[0] != "csv" else {
                throw ValidationError("--out - writes one file to stdout; give one --format of json, html or xlsx (csv writes one file per table: write it to a folder).")
            }
            guard !json else { throw ValidationError("--out - and --json both write to stdout; use one of them.") }
        }
        guard ReportRequest.GroupBy(rawValue: groupBy) != nil else {
            throw ValidationError("--group-by must be one of: \(ReportRequest.GroupBy.allCases.map { $0.rawValue }.joined(separator: ", ")).")
        }
        if let tz, FleetZone(identifier: tz) == nil { throw ValidationError("'\(tz)' is not an IANA time zone name, such as America/Chicago.") }
        if let currency, !CurrencyCode.isISO4217(currency) {
            let near = CloseMatches.of(currency, in: CurrencyCode.iso4217.sorted(), limit: 5)
            throw ValidationError("--currency '\(currency)' is not an ISO 4217 currency code (such as USD, EUR, GBP, CAD)"
                + (near.isEmpty ? "." : "; close codes: \(near.joined(separator: ", ")).") + " The warehouse converts with the rates of an fx-rates file.")
        }
    }

    var formats: [String] { format?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ReportFormats.names }

    func period() throws -> ReportPeriod {
        let given = [month != nil, quarter != nil, from != nil || to != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one period: --month YYYY-MM, --quarter YYYY-Qn, or --from DATE --to DATE.") }
        if let month {
            let p = month.split(separator: "-")
            guard p.count == 2, let y = Int(p[0]), let m = Int(p[1]), (1...12).contains(m), (1971...2200).contains(y), p[1].count == 2 else {
                throw ValidationError("--month '\(month)' is not YYYY-MM of the years 1971–2200.")
            }
            return .month(y, m)
        }
        if let quarter {
            let p = quarter.uppercased().split(separator: "-")
            guard p.count == 2, let y = Int(p[0]), p[1].hasPrefix("Q"), let q = Int(p[1].dropFirst()), (1...4).contains(q), (1971...2200).contains(y) else {
                throw ValidationError("--quarter '\(quarter)' is not YYYY-Qn of the years 1971–2200.")
            }
            return .quarter(y, q)
        }
        guard let from, let to, let a = CivilDate(from), let b = CivilDate(to) else {
            throw ValidationError("--from and --to must both be dates, YYYY-MM-DD.")
        }
        guard a <= b else { throw ValidationError("--from \(from) is after --to \(to).") }
        // The years the warehouse holds (Timestamp.plausible), as --month and --quarter: a
        // period in year 9999 once overflowed the next month's start.
        guard a.year >= 1971, b.year <= 2200 else { throw ValidationError("--from and --to must be days of the years 1971–2200.") }
        return .range(a, b)
    }

    func run() throws {
        // SIGTERM or Ctrl-C while writing: the temporary files go, the finished reports stay.
        Interruption.install(describe: { "interrupted by \($0): reports already written are complete; the one in progress was not written. Run the command again" })
        if name == Self.evidenceName { return try runEvidence() }
        var failures: [ReportFailure] = []
        var partial: [(reason: String, reports: [String])] = []
        var result: ReportResult?
        do {
            let reports = name == "all" ? ReportRegistry.all : [ReportRegistry.named(name)!]
            // A postgresql:// URL reads the warehouse `warehouse copy` wrote there, for the
            // reports that run on PostgreSQL (`ReportRegistry.portable`); the others are refused
            // before connecting, naming those that run there.
            let source: ReportWriter.Source
            let settings: WarehouseSettings
            let unitNumbers: () throws -> [String]
            if let url = PostgresURL(warehouse.path) {
                try ReportWriter.refuseUnported(reports, on: url)
                let connection = try PostgresConnection(url)
                do { settings = try WarehouseSettings.load(PostgresReader(connection)) } catch let error as WarehouseSettingsError {
                    throw FleetError.warehouse(path: url.masked, reason: error.statement, hint: error.hint)
                }
                source = .postgres(connection)
                unitNumbers = { try AssetLookup.unitNumbers(PostgresReader(connection)) }
            } else {
                let w = try warehouse.open(readOnly: true)
                settings = try w.settings()
                source = .sqlite(w)
                unitNumbers = { try w.pool.read { db in try AssetLookup(db).unitNumbers() } }
            }
            if let problem = try AssetFilterCheck.problem(assets, units: unitNumbers) {
                Console.err("error: " + problem)
                throw ExitCode.validationFailure
            }
            let period = try period()
            let request = ReportRequest(period: period, zone: (tz.flatMap { FleetZone(identifier: $0) } ?? settings.zone),
                                        units: units ?? settings.units, currency: currency ?? settings.currency,
                                        groupBy: ReportRequest.GroupBy(rawValue: groupBy)!,
                                        assets: assets?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                                        dvirPolicy: settings.dvirPolicy, carrier: settings.carrier)
            // --out -: written in a private folder first (the formats write files, an XLSX needs
            // a seekable one), then copied to stdout and the folder removed.
            let directory = toStdout ? try StdoutReport.folder() : URL(fileURLWithPath: out, isDirectory: true)
            defer { if toStdout { StdoutReport.remove(directory) } }
            try ReportWriter.prepareOutputFolder(directory)
            let writers = formats.compactMap { ReportFormats.named($0) }
            // Progress per report and format as each is written (the same meter and rules as
            // `import`), and each file's line as it is written, not all at the end.
            let meter = ProgressMeter(mode: output.progress, label: "report", noun: "outputs", countsRows: false, linePerItem: true)
            defer { meter.stop() }
            meter.expect(total: reports.count * writers.count + (name == "all" ? 1 : 0))
            let perFile = !json && !output.quiet && !toStdout
            let written = try ReportWriter(source, formats: writers)
                .write(reports, request: request, to: directory, index: name == "all") { step in
                    meter.finished(failed: step.failure != nil)
                    if perFile, !step.files.isEmpty { meter.above { for file in step.files { Console.out("wrote \(file.path)") } } }
                }
            meter.stop()
            let partialReports = Set(written.outputs.filter(\.metadata.isPartial).map(\.metadata.report))
            if perFile {
                for entry in written.headlines {
                    Console.out(entry.0 + (partialReports.contains(entry.0) ? " (partial)" : "") + ": " + entry.1.map { $0.0 + " " + $0.1 }.joined(separator: ", "))
                }
            }
            failures = written.failures
            if toStdout, failures.isEmpty { try StdoutReport.copy(written.files) }
            for output in written.outputs {
                for reason in output.metadata.partial {
                    if let i = partial.firstIndex(where: { $0.reason == reason }) { partial[i].reports.append(output.metadata.report) } else {
                        partial.append((reason, [output.metadata.report]))
                    }
                }
            }
            let failed = !failures.isEmpty || (!partial.isEmpty && !allowPartial)
            if json { result = ReportResult(period: period, out: directory, written: written, partial: partial, allowPartial: allowPartial, exitCode: failed ? 1 : 0) }
        } catch let e as ExitCode { throw e } catch { throw fail(error) }
        if let result { try writeJSON(result) }
        // A partial report is written (its header says so) but is not a success unless accepted.
        if !partial.isEmpty, !(allowPartial && output.quiet) {
            fflush(nil)
            for p in partial {
                Console.err("\(allowPartial ? "warning" : "error"): partial (\(p.reports.joined(separator: ", "))): \(p.reason)")
            }
            if !allowPartial {
                Console.err("the reports were written and say \"partial\" in their header; pass --allow-partial to accept incomplete figures")
            }
        }
        // Each report is written or fails alone: the others above were written (exit 1, like a failed file).
        guard !failures.isEmpty || (!partial.isEmpty && !allowPartial) else { return }
        fflush(nil)
        for f in failures { Console.err("error: \(f)") }
        throw Exit.rowsRejected
    }
}
