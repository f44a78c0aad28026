import Foundation
import FleetCore

/// Content sniffing for CSV formats: a format claims a file when its required columns are all
/// in the header; it is surer the more of the header it knows, and surer still when the file
/// name says the format (`fuel-card-2026-10.csv`).
enum CSVSniffer {
    static func confidence(_ head: Data, filename: String, format: String, columns: [String: [String]], required: [String]) -> Confidence {
        guard let fields = CSVReader.firstRecord(head), !fields.isEmpty else { return .no }
        let header = CSVHeader(fields, aliases: columns)
        guard required.allSatisfy({ header.index($0) != nil }) else { return .no }
        let known = fields.count - header.unknown.count
        var c: Confidence = known * 2 >= fields.count ? .high : .medium
        let stem = CSVHeader.normalise(filename)
        if stem.contains(CSVHeader.normalise(format)) { c = c == .high ? .certain : .high }
        return c
    }
}
