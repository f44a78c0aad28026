import Foundation
import FleetCore

/// Writes the sample fleet's files under one folder. Each kind of file has its own writer
/// (`SampleFleet+Assets.swift`, …); this type only knows where files go and writes them
/// deterministically: sorted rows, fixed line ends, no timestamps of the run.
public struct SampleWriter {
    public let fleet: SampleFleet
    public let root: URL
    public internal(set) var written: [URL] = []
    /// Points of the long benchmark GPS track (`--scale-points`); 0 writes none.
    public var scalePoints = 0

    public init(fleet: SampleFleet, root: URL) {
        self.fleet = fleet
        self.root = root
    }

    /// Writes every file and returns their paths, relative to `root`, in the order written.
    public mutating func writeAll() throws -> [String] {
        try writeMasterData()
        try writeService()
        try writeCosts()
        try writeBulkFuel()
        try writeDVIRs()
        try writeISO()
        try writeAEMP12()
        try writeDeere()
        try writeSamsara()
        try writeGPX()
        try writeOBD()
        try writeScaleGPX(points: scalePoints)
        return written.map { String($0.path.dropFirst(root.path.count + 1)) }
    }

    mutating func write(_ text: String, to relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } catch {
            throw FleetError.io(path: url.path, reason: "cannot write the sample file: \(error.localizedDescription)")
        }
        written.append(url)
    }

    /// A CSV document from a header and rows of already-formatted fields.
    static func csv(_ header: [String], _ rows: [[String]]) -> String {
        ([header] + rows).map { CSVWriter.line($0.map(CSVWriter.cell)) }.joined()
    }

    /// The first day as YYYYMMDD: the prefix of the ids a sample makes up (fuel transactions,
    /// DVIRs, their defects and repairs), so the samples of two months never share an id and
    /// the natural-key upsert never mistakes November's rows for October's.
    var idPrefix: String { fleet.start.description.replacingOccurrences(of: "-", with: "") }

    static func decimal(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }
}
