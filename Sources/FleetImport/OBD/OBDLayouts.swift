import Foundation
import FleetCore

/// The OBD log layouts FleetKit reads, and the recognition of those it does not.
///
/// Loggers write many shapes (`ENGINE_RPM ()` headers with empty units, files with a sample
/// index and no time, `pid:value` dumps). A file that looks like an OBD log but is none of the
/// supported layouts is claimed with low confidence by the Torque importer only so that it fails
/// with this message, instead of as an unknown format.
enum OBDLayouts {
    static let supported = """
        FleetKit reads OBD-II logs in three layouts: Torque Pro CSV (wide: 'GPS Time', 'Device Time', \
        'Longitude', 'Latitude', then one 'Name(unit)' column per PID, e.g. 'Engine RPM(rpm)'), Car Scanner CSV \
        (long, ';'-separated: "SECONDS";"PID";"VALUE";"UNITS"), and ELM327 transcripts (AT commands and hex answers); \
        export in one of them, or pass --format torque|car-scanner|elm327 (docs/FORMATS.md)
        """

    /// True for a first line that names OBD quantities (`Engine RPM`, `ENGINE_RPM ()`, `rpm`,
    /// `PID`) or a `name:value` dump line, so the file is some OBD log.
    static func looksLikeOBD(_ head: Data) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        guard let first = text.split(whereSeparator: { $0.isNewline }).first else { return false }
        let line = String(first)
        let fields = CSVReader.firstRecord(head) ?? [line]
        for field in fields {
            let (name, _) = OBDChannels.splitUnit(field)
            if OBDChannels.pid(named: name) != nil { return true }
            let k = OBDChannels.key(name)
            if k == "pid" || k.hasSuffix("rpm") || k.hasPrefix("enginerpm") { return true }
        }
        // `010C:1AF8`, `rpm:1500`, `0x0D=42`
        let dump = line.split(whereSeparator: { $0 == ":" || $0 == "=" })
        if dump.count == 2, OBDChannels.pid(named: String(dump[0])) != nil || dump[0].trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("01")
            || dump[0].lowercased().hasPrefix("0x") {
            return Double(dump[1].trimmingCharacters(in: .whitespaces)) != nil || ELMLineParser.hexBytes(dump[1].trimmingCharacters(in: .whitespaces)) != nil
        }
        return false
    }
}
