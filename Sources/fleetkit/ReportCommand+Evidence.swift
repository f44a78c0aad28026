import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit report evidence`: the auditor's evidence pack, one PDF per vehicle
/// (`EvidencePack`), for the units of `--assets` or every vehicle with a DVIR or a day of use in
/// the period. Printed by headless Chromium; without it, an error naming the package.
extension ReportCommand {
    static let evidenceName = "evidence"

    /// What `report evidence --json` prints.
    struct EvidenceResult: Codable {
        var period: String
        var files: [String]
    }

    func runEvidence() throws {
        do {
            if format != nil { throw FleetError.invalidArgument(name: "--format", value: format ?? "", hint: "the evidence pack is PDF only; leave --format out") }
            let w = try warehouse.open(readOnly: true)
            let settings = try w.settings()
            if let problem = try AssetFilterCheck.problem(assets, in: w) {
                Console.err("error: " + problem)
                throw ExitCode.validationFailure
            }
            // The engine is found before any work, so a missing one costs nothing but the error.
            let printer = try PDFPrinter.find()
            let period = try period()
            let vehicles = assets?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let request = ReportRequest(period: period, zone: (tz.flatMap { FleetZone(identifier: $0) } ?? settings.zone),
                                        units: units ?? settings.units, currency: currency ?? settings.currency,
                                        dvirPolicy: settings.dvirPolicy, carrier: settings.carrier)
            let directory = URL(fileURLWithPath: out, isDirectory: true)
            try ReportWriter.prepareOutputFolder(directory)
            let quiet = json || output.quiet
            let files = try EvidencePack.write(w, request: request, units: vehicles, to: directory, printer: printer) { file in
                if !quiet { Console.out("wrote \(file.path)") }
            }
            if json { try writeJSON(EvidenceResult(period: period.label, files: files.map(\.path))) }
            if files.isEmpty, !quiet { Console.out("no vehicle has a DVIR or a day of use in \(period.label): no evidence pack written") }
        } catch let e as ExitCode { throw e } catch { throw fail(error) }
    }
}
