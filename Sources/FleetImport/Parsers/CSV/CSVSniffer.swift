import Foundation
import FleetCore

/// Content sniffing for CSV formats: a format claims a file when its required columns are all
/// in the header (50); it is surer the larger the share of header columns it knows (up to +40),
/// and surer still when the file name says the format (`fuel-card-2026-10.csv`, +10). So of two
/// formats whose required columns a header has, the one that knows more of it wins.
enum CSVSniffer {
    static func confidence(_ head: Data, filename: String, format: String, columns: [String: [String]], required: [String]) -> Confidence {
        confidence(head, filename: filename, format: format, columns: columns, requiredAnyOf: [required])
    }

    /// The same, when any one of several column sets will do (a fuel-card export has a date or
    /// a time column, and one of several volume columns): the header is read and its names
    /// matched once, not once per set. The score does not depend on which set matched.
    static func confidence(_ head: Data, filename: String, format: String, columns: [String: [String]], requiredAnyOf sets: [[String]]) -> Confidence {
        guard let fields = CSVReader.firstRecord(head), !fields.isEmpty else { return .no }
        let header = CSVHeader(fields, aliases: columns)
        guard sets.contains(where: { $0.allSatisfy { header.index($0) != nil } }) else { return .no }
        let named = fields.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count
        let known = named - header.unknown.count
        var score = 50 + 40 * known / max(named, 1)
        if CSVHeader.normalise(filename).contains(CSVHeader.normalise(format)) { score += 10 }
        return Confidence(score)
    }
}
