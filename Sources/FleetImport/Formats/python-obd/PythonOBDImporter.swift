import Foundation
import FleetCore
import FleetWarehouse

/// python-OBD value output (docs/FORMATS.md, "python-OBD"): the lines a script writes with
/// `print(f"{datetime.now()} - {cmd.name}: {response}")` or through Python `logging` with the
/// time first, one reading a line (`PythonOBDLine`). python-OBD's own debug transcripts
/// (`[obd.elm327] write: b'010C\r'`) are the `elm327` format.
///
/// Times are local, read in the fleet zone (`OBDLocalClock`: the repeated hour of a fall-back
/// night by file order; a time in the skipped hour is a reject). Values are converted from the
/// pint unit printed (mph, °F, psi) to the PID's J1979 unit; `None` (no answer) is counted, and
/// commands outside FleetKit's table are counted in a note. Lines of other output (no leading
/// date and `COMMAND:` field, such as a logged message) are counted in a note; a reading whose
/// time, value or unit cannot be read is a reject, and so is a last line the file stops inside.
public struct PythonOBDImporter: Importer {
    public static let format = "python-obd"
    public static let summary = "python-OBD value output ('<local date time> - COMMAND: value unit', printed or logged); needs --asset UNIT or a unit folder"
    public static let example = "obd/T-12/obd-values.log"

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        if ELM327Importer.looksBinary(head) { return .no }
        let text = String(decoding: head.prefix(16 * 1024), as: UTF8.self)
        var readings = 0, dated = 0
        for line in text.split(whereSeparator: \.isNewline).prefix(200) {
            guard PythonOBDLine.startsWithDate(line) else { continue }
            dated += 1
            if PythonOBDLine.parse(line) != nil { readings += 1 }
        }
        return readings >= 1 && readings * 4 >= dated ? Confidence(90) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        let asset = try OBDAttribution.asset(input, vin: nil, format: Self.format, into: &sink)
        var recorder = OBDRecorder(asset: asset, file: sink.sourceFileID)
        var clock = OBDLocalClock(zone: input.zone.timeZone)
        var reader = try TextLineReader(url: input.url)
        var instant: (at: Int64, values: [(pid: Int, value: Double)])?
        var readings = 0, none = 0, other = 0
        var unknown: [String: Int] = [:], otherUnknown = 0
        while let line = try reader.next() {
            let location = "line \(line.number)"
            let text = Substring(line.text)
            do {
                if line.truncated { throw RowError(.oversizedRecord, "the line is longer than \(TextLineReader.maxLine) bytes: no reading is") }
                if text.contains("\u{FFFD}") { throw RowError(.invalidText, "the line is not UTF-8 text") }
                if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                if !reader.lastLineEnded, PythonOBDLine.startsWithDate(text) {
                    throw RowError(.shortRecord, "the file ends inside this line (print and logging end every line): the file was cut short")
                }
                guard let r = PythonOBDLine.parse(text) else { other += 1; continue }
                readings += 1
                let at: Int64
                do { at = try clock.utc(String(r.time)) } catch let p as OBDLocalClock.Problem {
                    if case let .skipped(local) = p { throw RowError(.badDate, clock.skippedReason(String(r.time), local: local)) }
                    throw RowError(.badDate, "'\(r.time)' is not a date and time")
                }
                guard Timestamp.plausible.contains(at) else { throw RowError(.outOfRange, "'\(r.time)' is outside the years 1971–2200") }
                guard let pid = PythonOBDLine.commands[String(r.command)] else {
                    let name = String(r.command)
                    if unknown[name] != nil || unknown.count < 100 { unknown[name, default: 0] += 1 } else { otherUnknown += 1 }
                    continue
                }
                guard r.isNumber else { throw RowError(.badNumber, "\(r.command) is '\(r.unit)', not a number") }
                guard let raw = r.value else { none += 1; continue }
                guard let unit = PythonOBDLine.unit(r.unit), let value = OBDChannels.convert(raw, unit: unit, pid: pid) else {
                    throw RowError(.badValue, "\(r.command) is in '\(r.unit)', not a unit FleetKit converts to \(OBDDecoder.pid(pid)!.unit)")
                }
                if let i = instant, i.at != at {
                    try recorder.record(at: i.at, values: i.values, into: &sink)
                    instant = nil
                }
                var current = instant ?? (at, [])
                if !current.values.contains(where: { $0.pid == pid }) { current.values.append((pid, value)) }
                instant = current
            } catch let e as RowError {
                try sink.reject(e.issue(at: location, raw: line.text))
            }
        }
        if let i = instant { try recorder.record(at: i.at, values: i.values, into: &sink) }
        try recorder.finish(into: &sink)
        let names = unknown.keys.sorted()
        let unknownCount = unknown.values.reduce(0, +) + otherUnknown
        if recorder.samples == 0 {
            let why: String
            if readings == 0 {
                why = "it holds no reading ('<date time> - COMMAND: value unit')\(other > 0 ? ", only \(other) lines of other output" : "")"
            } else if none > 0, unknownCount == 0 {
                why = "its \(none) readings are all None: the car answered none of the commands"
            } else {
                why = "none of its \(readings) readings could be stored (\(none) None, \(unknownCount) of commands FleetKit does not store\(names.isEmpty ? "" : ": " + names.prefix(5).joined(separator: ", ")), the rest rejected)"
            }
            throw FleetError.unreadable(file: input.path, location: nil, reason: "\(why): nothing of the log could be stored",
                                        hint: "Log the commands docs/FORMATS.md lists (RPM, SPEED, COOLANT_TEMP, …) with the car's ignition on, one '<date time> - COMMAND: value' line each. Nothing of this file was imported.")
        }
        if unknownCount > 0 {
            sink.note("\(unknownCount) readings of \(otherUnknown > 0 ? "more than \(names.count)" : "\(names.count)") commands were not stored (outside FleetKit's table): \(names.prefix(8).joined(separator: ", "))\(names.count > 8 ? ", …" : "")")
        }
        if none > 0 { sink.note("\(none) readings were None (the car did not answer) and were skipped") }
        if other > 0 { sink.note("\(other) lines of other output (not '<date time> - COMMAND: value') were skipped") }
    }
}
