import Foundation
import FleetCore
import FleetWarehouse

/// Freematics ONE and ONE+ data logs (docs/FORMATS.md, "Freematics"): a `#FREEMATICS` header,
/// then one reading a line (`FreematicsLine`), timed by the device's GPS date and time
/// (`FreematicsClock`).
///
/// Mode 01 PIDs (`10C`, `10D`, … : `0x100 | pid`) are already in J1979 units and become
/// `obd_sample` rows; the GPS latitude and longitude (`A`, `B`) of one instant become a position,
/// with the altitude (`C`, m), speed (`D`, km/h → m/s) and heading (`E`) of that instant. The
/// device's other numbers (satellites, motion sensors, battery, signal, its own temperature) are
/// counted in a note, not stored. The VIN is read from the header lines when one holds a valid VIN;
/// otherwise `--asset` or the unit folder names the vehicle.
public struct FreematicsImporter: Importer {
    public static let format = "freematics"
    public static let summary = "Freematics ONE/ONE+ data logs (#FREEMATICS header, device-ms PID=value lines) timed by the GPS date and time PIDs; VIN from the header, or --asset UNIT"
    public static let example = "obd/T-12/DAT00012.CSV"

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        var text = Substring(String(decoding: head.prefix(256), as: UTF8.self))
        if text.first == "\u{FEFF}" { text = text.dropFirst() }
        let first = text.drop { $0.isWhitespace }
        return first.hasPrefix("#FREEMATICS") ? Confidence(95) : .no
    }

    /// Instants longer than this many lines are split (memory stays bounded on any input).
    static let instantLimit = 512

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        let asset = try OBDAttribution.asset(input, vin: Self.headerVIN(input.head), format: Self.format, into: &sink)
        var state = FreematicsState(asset: asset, file: sink.sourceFileID)
        var reader = try TextLineReader(url: input.url)
        var readings = 0
        while let line = try reader.next() {
            let location = "line \(line.number)"
            let text = Substring(line.text)
            if line.truncated {
                readings += 1
                try sink.reject(Issue(.oversizedRecord, at: location, "the line is longer than \(TextLineReader.maxLine) bytes: no Freematics line is", raw: line.text))
                continue
            }
            if text.contains("\u{FFFD}") {
                readings += 1
                try sink.reject(Issue(.invalidText, at: location, "the line is not UTF-8 text", raw: line.text))
                continue
            }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#FREEMATICS") {
                try state.endStart(into: &sink)
                state.clock.restart()
                continue
            }
            if FreematicsLine.isEvent(text) {
                state.events += 1
                continue
            }
            readings += 1
            if !reader.lastLineEnded {
                try sink.reject(Issue(.shortRecord, at: location, "the file ends inside this line (the device ends every line): the file was cut short", raw: line.text))
                continue
            }
            guard let parsed = FreematicsLine.parse(text) else {
                try sink.reject(Issue(.badValue, at: location, "not a Freematics reading (device time, hexadecimal PID and value: '12345,10D=50', '12345:10D=50' or '12345,10D,50')", raw: line.text))
                continue
            }
            if state.clock.restarts(parsed.time) { try state.endStart(into: &sink) }
            guard let ms = state.clock.deviceTime(parsed.time) else {
                try sink.reject(Issue(.badDate, at: location, "a time relative to the line before, with no device time before it", raw: line.text))
                continue
            }
            try state.add(FreematicsState.Entry(line: line.number, raw: line.text, reading: parsed), at: ms, into: &sink)
        }
        try state.endStart(into: &sink)
        try state.recorder.finish(into: &sink)
        if state.recorder.samples == 0, state.positions == 0, readings > 0 {
            let why = state.unplaced > 0
                ? "none of its \(readings) readings could be stored: \(state.unplaced) are in device starts without any GPS date and time (PIDs 11 and 10), so they cannot be placed in time"
                : "none of its \(readings) readings could be stored (see the reasons of each)"
            throw FleetError.unreadable(file: input.path, location: nil, reason: why,
                                        hint: "A Freematics log is timed by its GPS date and time, written once the GPS has a fix; a log recorded without a GPS fix cannot be placed in time. Nothing of this file was imported.")
        }
        for note in state.notes() { sink.note(note) }
    }

    /// A VIN in the header lines (`#FREEMATICS VIN=…`, or a `#VIN:…` line): the first token of
    /// 17 letters and digits that is a valid VIN, in the lines starting with `#` before the first
    /// reading.
    static func headerVIN(_ head: Data) -> String? {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) {
            let l = line.trimmingCharacters(in: .whitespaces)
            if l.isEmpty { continue }
            guard l.hasPrefix("#"), !(l.dropFirst().first?.isNumber ?? false) else { break }
            for token in l.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
                let t = token.uppercased()
                if t.count == 17, VIN.isValid(t), t.contains(where: \.isNumber) { return t }
            }
        }
        return nil
    }
}
