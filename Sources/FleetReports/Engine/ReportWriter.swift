import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// Runs reports over one consistent snapshot of the warehouse and writes them in every format
/// asked for, plus `index.html` when writing a set.
public struct ReportWriter {
    public let warehouse: Warehouse
    public let formats: [any ReportFormat]

    public init(warehouse: Warehouse, formats: [any ReportFormat] = ReportFormats.all) {
        self.warehouse = warehouse
        self.formats = formats
    }

    public struct Written {
        public var files: [URL] = []
        public var outputs: [ReportOutput] = []
        /// Per report, its headline totals formatted for people: ("cost", [("total", "12,345.67 USD")]).
        public var headlines: [(String, [(String, String)])] = []
    }

    /// Runs `reports` in one read transaction (so a concurrent import cannot make two reports
    /// disagree) and writes them under `directory`.
    public func write(_ reports: [any Report.Type], request: ReportRequest, to directory: URL, index: Bool) throws -> Written {
        let outputs: [ReportOutput]
        do {
            outputs = try warehouse.pool.read { db in try Self.run(reports, db, request) }
        } catch let e as DatabaseError {
            throw Warehouse.explain(e, path: warehouse.path, doing: "read for the report")
        }
        var written = Written(outputs: outputs)
        for output in outputs {
            for format in formats { written.files += try format.write(output, to: directory) }
            written.headlines.append((output.metadata.report, output.metadata.totals.map { ($0.0, Self.headline($0.0, $0.1, output.metadata)) }))
        }
        if index {
            written.files.append(try writeIndex(outputs, title: "FleetKit reports, \(request.period.label)", request: request, to: directory))
        }
        return written
    }

    /// Runs `reports` in one read transaction; the summary reuses the outputs of the reports it
    /// repeats instead of computing them again (a third of `report all`'s time on a large fleet).
    static func run(_ reports: [any Report.Type], _ db: Database, _ request: ReportRequest) throws -> [ReportOutput] {
        var done: [String: ReportOutput] = [:]
        for report in reports where report.name != SummaryReport.name { done[report.name] = try report.init().run(db, request) }
        return try reports.map { report in
            if let output = done[report.name] { return output }
            return try SummaryReport().run(db, request, reusing: done)
        }
    }

    /// `index.html` linking the given reports (HTML when written, else JSON) with their headlines.
    public func writeIndex(_ outputs: [ReportOutput], title: String, request: ReportRequest, to directory: URL) throws -> URL {
        let html = formats.contains { $0.name == "html" }
        let entries = outputs.map { o in
            (title: "\(o.metadata.title), \(o.metadata.period.label)",
             href: html ? ReportFileName.file(o.metadata, ext: "html") : ReportFileName.file(o.metadata, ext: "json"),
             headline: o.metadata.totals.prefix(4).map { ($0.0.replacingOccurrences(of: "_", with: " "), Self.headline($0.0, $0.1, o.metadata)) })
        }
        return try HTMLIndex.writeIndex(entries: entries, title: title, generatedAt: request.generatedAt, timeZone: request.zone.identifier, to: directory)
    }

    static func headline(_ key: String, _ value: Double, _ m: ReportMetadata) -> String { HeadlineUnit.text(key, value, m) }
}
