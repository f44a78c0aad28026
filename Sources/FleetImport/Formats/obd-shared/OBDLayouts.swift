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
        FleetKit reads OBD-II logs in six layouts: Torque Pro CSV (wide: 'GPS Time', 'Device Time', \
        'Longitude', 'Latitude', then one 'Name(unit)' column per PID, e.g. 'Engine RPM(rpm)'), Car Scanner CSV \
        (long, ';'-separated: "SECONDS";"PID";"VALUE";"UNITS"), logger CSVs with a clock (a 'timestamp', 'ts' or 'time' \
        column holding epoch seconds or milliseconds or a date-time, and columns named 'rpm', 'speed', 'COOLANT_TEMP', \
        'lat', 'lon'…), ELM327 transcripts (AT commands and hex answers), Freematics data logs ('#FREEMATICS', \
        then '12345:10D=50' lines) and python-OBD value output ('2026-10-01 08:00:00 - RPM: 850.0 revolutions_per_minute'); \
        export in one of them, or pass --format torque|car-scanner|obd-csv|elm327|freematics|python-obd (docs/FORMATS.md)
        """

    /// What an OBD-looking file that no importer reads is, and why it cannot be imported: said
    /// before any question of which vehicle, because `--asset` would not help (a user asked for
    /// it, passed it, and got the next refusal). Reason and fix, for `FleetError.unreadable`.
    static func refusal(_ head: Data) -> (reason: String, hint: String) {
        if isSecondsHexDump(head) {
            return ("a dump of 'seconds:hex' OBD answers (e.g. '0.5:410D32'): the seconds count from when the logger started, and nothing in the file says when that was, so no answer can be placed in time",
                    "FleetKit cannot place these answers: log with a program that writes the clock time (an ELM327 transcript with a time on each line, Torque Pro, Car Scanner). --asset would not help; the time is what is missing.")
        }
        if let fields = CSVReader.firstRecord(head), fields.contains(where: { OBDChannels.splitUnit($0).unit == "" || OBDChannels.pid(named: OBDChannels.splitUnit($0).name) != nil }),
           !fields.contains(where: isClockColumn) {
            let named = fields.filter { OBDChannels.splitUnit($0).unit == "" }.prefix(2).map { "'\($0.trimmingCharacters(in: .whitespaces))'" }
            let what = named.isEmpty ? "columns of OBD readings" : "columns such as \(named.joined(separator: ", "))"
            return ("a CSV from a logger that samples once a second (Carloop-style \(what)) with no clock column: its rows are numbered samples, and nothing in the file says when the first was taken, so they cannot be placed in time",
                    "FleetKit cannot import it as it is: log with a program that writes a time column (Torque Pro, Car Scanner) or an ELM327 transcript with times. --asset would not help; the time is what is missing.")
        }
        return ("the header has no 'Device Time' column: this is not a Torque Pro log, nor another OBD layout FleetKit reads", supported)
    }

    /// A header that holds a clock: time, date, timestamp, seconds.
    private static func isClockColumn(_ field: String) -> Bool {
        let k = OBDChannels.key(OBDChannels.splitUnit(field).name)
        return k.contains("time") && !k.contains("run") || k.contains("date") || k.contains("timestamp") || k == "seconds" || k == "utc"
            || OBDCSVLayout.isTimeName(field)
    }

    /// Lines of `seconds:hex` (`0.5:410D32`, `12:410C1AF8`): at least two, and all of the first ones.
    static func isSecondsHexDump(_ head: Data) -> Bool {
        let lines = String(decoding: head.prefix(4096), as: UTF8.self).split(whereSeparator: { $0.isNewline }).prefix(20)
        guard lines.count >= 2 else { return false }
        return lines.allSatisfy { line in
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let secs = Double(parts[0]), secs >= 0, parts[0].allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
            let hex = parts[1].filter { $0 != " " }
            return hex.count >= 4 && hex.count % 2 == 0 && hex.allSatisfy(\.isHexDigit) && (hex.hasPrefix("41") || hex.hasPrefix("43") || hex.hasPrefix("49"))
        }
    }

    /// True for a first line that names OBD quantities (`Engine RPM`, `ENGINE_RPM ()`, `rpm`,
    /// `PID`) or a `name:value` dump line, so the file is some OBD log.
    static func looksLikeOBD(_ head: Data) -> Bool {
        if isSecondsHexDump(head) { return true }
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
