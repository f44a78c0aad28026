import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// Runs reports over one consistent snapshot of the warehouse and writes them in every format
/// asked for, plus `index.html` when writing a set.
public struct ReportWriter {
    /// Where the reports read: an SQLite warehouse (every report), or a PostgreSQL one that
    /// `warehouse copy` wrote (the portable reports, `ReportRegistry.portable`).
    public enum Source {
        case sqlite(Warehouse)
        case postgres(PostgresConnection)
    }

    public let source: Source
    public let formats: [any ReportFormat]

    public init(warehouse: Warehouse, formats: [any ReportFormat] = ReportFormats.all) {
        self.source = .sqlite(warehouse)
        self.formats = formats
    }

    public init(postgres: PostgresConnection, formats: [any ReportFormat] = ReportFormats.all) {
        self.source = .postgres(postgres)
        self.formats = formats
    }

    public init(_ source: Source, formats: [any ReportFormat] = ReportFormats.all) {
        self.source = source
        self.formats = formats
    }

    /// Refuses reports that do not run on PostgreSQL yet, naming those that do (the CLI exits 2).
    public static func refuseUnported(_ reports: [any Report.Type], on url: PostgresURL) throws {
        let unported = reports.filter { !($0 is any PortableReport.Type) }.map { $0.name }
        guard !unported.isEmpty else { return }
        throw FleetError.warehouse(path: url.masked, reason: "the report\(unported.count == 1 ? "" : "s") \(unported.joined(separator: ", ")) do\(unported.count == 1 ? "es" : "") not run on PostgreSQL yet; on PostgreSQL these run: \(ReportRegistry.portable.map { $0.name }.joined(separator: ", "))",
                                   hint: "Run the others on the SQLite warehouse (--db fleet.sqlite), or name a report that runs on PostgreSQL.")
    }

    public struct Written {
        public var files: [URL] = []
        public var outputs: [ReportOutput] = []
        /// Per report, its headline totals formatted for people: ("cost", [("total", "12,345.67 USD")]).
        public var headlines: [(String, [(String, String)])] = []
        /// Reports, or single formats of a report, that could not be written; the rest were.
        public var failures: [ReportFailure] = []
        /// Every report and format in the order it finished, with its files or its failure.
        public var steps: [ReportStep] = []
    }

    /// Creates `directory` if needed and checks that reports can be written in it, with an
    /// error that says what is wrong and how to fix it. The CLI calls this before computing any
    /// report: a folder that cannot be used fails every format alike, so it is one error (exit
    /// 2), not one per file.
    public static func prepareOutputFolder(_ directory: URL) throws {
        try AtomicFile.prepare(directory)
    }

    /// Runs `reports` in one read transaction (so a concurrent import cannot make two reports
    /// disagree) and writes them under `directory`, rendering inside that transaction so that
    /// streamed tables (`ReportRowStream`) read the very snapshot their totals came from.
    ///
    /// Each report, and each format of it, is written or fails alone: one value libxlsxwriter
    /// refuses, one file that cannot be renamed, one report that throws, is recorded in
    /// `failures` and the others are still written (the CLI exits 1, the nightly run records
    /// it). Only an error reading the warehouse stops everything, since no report can be trusted
    /// then (`Warehouse.explain`, exit 2).
    ///
    /// HTML pages link back to `index.html` when it is written in this run (`index`, or
    /// `linkIndex` for a caller that writes it afterwards, as the nightly job does) or is
    /// already in the folder from an earlier run.
    ///
    /// `progress` is called after each report and format (and the index) is written or has
    /// failed, in the order of `Written.steps`, on the calling thread.
    public func write(_ reports: [any Report.Type], request: ReportRequest, to directory: URL, index: Bool,
                      linkIndex: Bool = false, progress: (ReportStep) -> Void = { _ in }) throws -> Written {
        var written = Written()
        let indexExists = FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path)
        let formats = index || linkIndex || indexExists ? self.formats.map { $0 is HTMLFormat ? HTMLFormat(indexHref: "index.html") : $0 } : self.formats
        switch source {
        case let .sqlite(warehouse):
            do {
                written = try warehouse.pool.read { db in try Self.runAndWrite(reports, db, request, formats: formats, to: directory, progress: progress) }
            } catch let e as DatabaseError {
                throw Warehouse.explain(e, path: warehouse.path, doing: "read for the report")
            }
        case let .postgres(connection):
            try Self.refuseUnported(reports, on: connection.url)
            written = try PostgresReader(connection).snapshot { reader in
                try Self.runAndWrite(reports, reader, db: nil, request, formats: formats, to: directory, progress: progress)
            }
        }
        if index {
            let step: ReportStep
            do {
                let url = try writeIndex(written.outputs, title: "FleetKit reports, \(request.period.label)", request: request, to: directory)
                written.files.append(url)
                step = ReportStep(report: ReportRegistry.indexName, format: ReportFormats.pageFormat, files: [url])
            } catch {
                let failure = ReportFailure(report: ReportRegistry.indexName, format: ReportFormats.pageFormat, reason: "\(error)")
                written.failures.append(failure)
                step = ReportStep(report: ReportRegistry.indexName, format: ReportFormats.pageFormat, files: [], failure: failure)
            }
            written.steps.append(step)
            progress(step)
        }
        return written
    }

    static func runAndWrite(_ reports: [any Report.Type], _ db: Database, _ request: ReportRequest,
                            formats: [any ReportFormat], to directory: URL,
                            progress: (ReportStep) -> Void = { _ in }) throws -> Written {
        try runAndWrite(reports, SQLiteReader(db), db: db, request, formats: formats, to: directory, progress: progress)
    }

    /// `db` is the SQLite transaction the unported reports read (nil on PostgreSQL, where only
    /// portable reports run). A failure to read the warehouse stops every report: on SQLite a
    /// `DatabaseError`, on PostgreSQL the connection's `FleetError.warehouse` (after one, the
    /// server refuses every later statement of the transaction).
    static func runAndWrite(_ reports: [any Report.Type], _ reader: any WarehouseReader, db: Database?, _ request: ReportRequest,
                            formats: [any ReportFormat], to directory: URL,
                            progress: (ReportStep) -> Void = { _ in }) throws -> Written {
        func stopsAll(_ e: Error) -> Bool {
            if e is DatabaseError { return true }
            if db == nil, let f = e as? FleetError, case .warehouse = f { return true }
            return false
        }
        func run(_ report: any Report.Type) throws -> ReportOutput {
            if let portable = report.init() as? any PortableReport { return try portable.run(reader, request) }
            guard let db else { throw FleetError.invalidArgument(name: "report", value: report.name, hint: "It does not run on PostgreSQL yet.") }
            return try report.init().run(db, request)
        }
        var written = Written()
        func record(_ step: ReportStep) {
            written.steps.append(step)
            written.files += step.files
            if let failure = step.failure { written.failures.append(failure) }
            progress(step)
        }
        var done: [String: ReportOutput] = [:]
        var failed: [String: String] = [:]
        for report in reports where report.name != SummaryReport.name {
            do { done[report.name] = try checked(run(report), reader, request) } catch {
                if stopsAll(error) { throw error }
                failed[report.name] = "\(error)"
            }
        }
        for report in reports {
            let output: ReportOutput
            if let o = done[report.name] {
                output = o
            } else if let reason = failed[report.name] {
                record(ReportStep(report: report.name, format: nil, files: [], failure: ReportFailure(report: report.name, format: nil, reason: reason)))
                continue
            } else {
                do {
                    output = try checked(SummaryReport().run(reader, request, reusing: done), reader, request)
                } catch {
                    if stopsAll(error) { throw error }
                    record(ReportStep(report: report.name, format: nil, files: [], failure: ReportFailure(report: report.name, format: nil, reason: "\(error)")))
                    continue
                }
            }
            for format in formats {
                do { record(ReportStep(report: report.name, format: format.name, files: try format.write(output, to: directory))) } catch {
                    if stopsAll(error) { throw error }
                    record(ReportStep(report: report.name, format: format.name, files: [],
                                      failure: ReportFailure(report: report.name, format: format.name, reason: "\(error)")))
                }
            }
            written.outputs.append(output)
            written.headlines.append((output.metadata.report, output.metadata.headlines.map { ($0.name, $0.text(output.metadata)) }))
        }
        // Streamed rows read through this transaction's connection: nothing may walk them after it.
        for output in done.values { for t in output.tables + [output.dataQuality] { t.stream?.close() } }
        return written
    }

    /// Runs `reports` in one read transaction; the summary reuses the outputs of the reports it
    /// repeats instead of computing them again (a third of `report all`'s time on a large fleet).
    static func run(_ reports: [any Report.Type], _ db: Database, _ request: ReportRequest) throws -> [ReportOutput] {
        var done: [String: ReportOutput] = [:]
        for report in reports where report.name != SummaryReport.name { done[report.name] = try checked(report.init().run(db, request), db, request) }
        return try reports.map { report in
            if let output = done[report.name] { return output }
            return try checked(SummaryReport().run(SQLiteReader(db), request, reusing: done), db, request)
        }
    }

    /// `output` stamped with its data cut-off and every reason it is partial (`ReportCompleteness`).
    static func checked(_ output: ReportOutput, _ db: Database, _ request: ReportRequest) throws -> ReportOutput {
        try checked(output, SQLiteReader(db), request)
    }

    static func checked(_ output: ReportOutput, _ reader: any WarehouseReader, _ request: ReportRequest) throws -> ReportOutput {
        var output = output
        try ReportCompleteness.apply(&output, reader, request)
        return output
    }

    /// `index.html` linking the given reports (HTML when written, else JSON) with their headlines.
    public func writeIndex(_ outputs: [ReportOutput], title: String, request: ReportRequest, to directory: URL) throws -> URL {
        let html = formats.contains { $0.name == ReportFormats.pageFormat }
        let entries = outputs.map { o in
            (title: "\(o.metadata.title), \(o.metadata.period.label)" + (o.metadata.isPartial ? " (partial)" : ""),
             href: ReportFileName.file(o.metadata, ext: html ? ReportFormats.pageFormat : JSONFormat.json().name),
             headline: o.metadata.headlines.prefix(4).map { ($0.name.replacingOccurrences(of: "_", with: " "), $0.text(o.metadata)) })
        }
        return try HTMLIndex.writeIndex(entries: entries, title: title, generatedAt: request.generatedAt, timeZone: request.zone.identifier, to: directory)
    }
}
