import Foundation
import FleetCore
import FleetWarehouse

/// ELM327 transcripts: what a terminal, an app's debug log or a logging script saw on the
/// adapter's serial line.
///
/// Lines are split and classified by `ELMLineParser` (AT commands, echo, prompts present or
/// missing, status words, headers on or off, spaces on or off, literal `\r`, a time at the start
/// of a line) and multi-frame answers reassembled by `ELMAssembler` (ISO-TP and the ELM's `0:`/`1:`
/// format). Mode 01 answers become `obd_sample` rows by the J1979 formulas (`OBDDecoder`), modes
/// 03/07/0A `dtc_event` rows, and the mode 09 VIN names the vehicle. A line takes the time written
/// on it or the latest one before it; an answer with no time at all cannot be placed and is
/// rejected. When several ECUs answer the same request, the value of the lowest address (the
/// engine ECU, `7E8`) is kept, because `obd_sample` holds one value per PID and instant.
///
/// The file is read twice: once for the VIN, which decides the asset before any row is written,
/// then for the data. Both passes stream, on the bytes of each line (`ELMByteParser`); the VIN
/// pass leaves out the single-line answers that cannot be a VIN, which are nearly all of a log.
public struct ELM327Importer: Importer {
    public static let format = "elm327"
    public static let summary = "ELM327 OBD-II transcripts (terminal or app logs): mode 01 PIDs by SAE J1979, trouble codes (modes 03/07/0A), VIN (mode 09); needs the VIN, --asset UNIT or a unit folder"
    public static let example = "obd/T-12/elm-2026-10-01.log"

    public init() {}

    /// More than 5 % of the first 4 KiB are control bytes other than tab, CR and LF: a binary
    /// file (compressed image data has about 11 %). A real capture's few stray NULs from an
    /// adapter's reset stay well under that.
    static func looksBinary(_ head: Data) -> Bool {
        let sample = head.prefix(4096)
        guard !sample.isEmpty else { return false }
        let control = sample.reduce(0) { n, b in n + ((b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F ? 1 : 0) }
        return control * 20 > sample.count
    }

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        // `1:410C1AF8` reads like the ELM's numbered multi-frame lines, but it is a timeless
        // dump: left to the Torque importer's refusal, which says so (OBDLayouts).
        if OBDLayouts.isSecondsHexDump(head) { return .no }
        // A photo or other binary file is no transcript. Parsing its bytes as 200 lines of
        // text took about 40 ms of CPU per receipt image in `fleetkit import` (every file is
        // sniffed by every importer): a tenth of a receipt folder's CPU.
        if Self.looksBinary(head) { return .no }
        let text = String(decoding: head.prefix(16 * 1024), as: UTF8.self)
        var adapter = 0, answers = 0, unknown = 0, requests = 0
        var time = ELMLineTime()
        for (n, line) in text.split(whereSeparator: { $0.isNewline }).prefix(200).enumerated() {
            for piece in ELMLineParser.pieces(of: String(line), line: n + 1, lastTime: &time, zone: TimeZone(identifier: "UTC")!) {
                switch piece.kind {
                case .at, .status(.searching), .status(.noData), .status(.banner), .status(.unableToConnect), .byteCount, .indexed: adapter += 1
                case .frame(_, let bytes) where bytes.count >= 2: answers += 1
                case .unknown: unknown += 1
                case .request: requests += 1
                default: break
                }
            }
        }
        if adapter >= 2 && adapter + answers > unknown { return Confidence(95) }
        if adapter >= 1 && answers >= 1 { return .high }
        // Nothing but the adapter's side (`ATZ` alone, requests met by silence): still a
        // transcript, imported as one with nothing to store, not "format not recognised".
        if unknown == 0, answers == 0, adapter >= 1 || requests >= 2 { return .medium }
        let named = filename.lowercased().contains("elm")
        return named && answers > 0 ? .medium : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        let found = try findVIN(input)
        let vin = found.vins
        // AT commands, banners, SEARCHING…, UNABLE TO CONNECT, requests met by silence: a real
        // transcript of a car that did not answer. Nothing to store and nobody to attribute it to,
        // which is no failure: the note says what the adapter said.
        if found.answers == 0 {
            let said = found.statuses.isEmpty ? "no answer at all (ignition off?)"
                : found.statuses.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            sink.note("an ELM327 transcript with nothing to store: \(found.commands) AT commands and requests, and no answer from the vehicle; the adapter said: \(said)")
            return
        }
        let asset = try OBDAttribution.asset(input, vin: vin.first, vinProblem: found.problem, format: Self.format, into: &sink)
        if vin.count > 1 {
            for v in vin { sink.note("different VINs in the transcript (the file was attributed by the first)", example: v) }
        }
        var pass = Pass(recorder: OBDRecorder(asset: asset, file: sink.sourceFileID), zone: input.zone.timeZone)
        _ = try scan(input) { event in try pass.handle(event, into: &sink) }
        try pass.flush(into: &sink)
        try pass.recorder.finish(into: &sink)
        pass.notes(into: &sink)
    }

    /// Runs every line through the parser and assembler; returns how many answers the VIN-only
    /// parser left out.
    private func scan(_ input: InputFile, vinOnly: Bool = false, _ body: (ELMEvent) throws -> Void) throws -> Int {
        var reader = try TextLineReader(url: input.source)
        var assembler = ELMAssembler()
        var parser = ELMByteParser(zone: input.zone.timeZone)
        parser.vinOnly = vinOnly
        // Reused from line to line: a transcript has millions of lines.
        var pieces: [ELMPiece] = [], events: [ELMEvent] = []
        while try reader.withNextLine({ number, truncated, line in
            if truncated {
                try body(.problem(line: number, reason: .oversizedRecord, message: "the line is longer than \(TextLineReader.maxLine) bytes; it is not a transcript line", raw: String(decoding: line, as: UTF8.self)))
                return
            }
            pieces.removeAll(keepingCapacity: true)
            parser.pieces(line, line: number, into: &pieces)
            for piece in pieces {
                events.removeAll(keepingCapacity: true)
                assembler.feed(piece, into: &events)
                for event in events { try body(event) }
            }
        }) {}
        for event in assembler.finish() { try body(event) }
        return parser.skippedAnswers
    }

    /// What the first pass learns: the VINs, why a VIN answer could not be read, whether the
    /// vehicle answered at all.
    struct VINScan {
        /// The distinct VINs the transcript's mode 09 PID 02 answers hold, in order.
        var vins: [String] = []
        /// The first VIN answer that could not be read, with its line, for the attribution error.
        var problem: String?
        /// Answers and damaged or incomplete frames: anything from the vehicle's side.
        var answers = 0
        /// AT commands and requests.
        var commands = 0
        var statuses: [ELMStatus: Int] = [:]
    }

    private func findVIN(_ input: InputFile) throws -> VINScan {
        var found = VINScan()
        var seen = Set<String>()   // a transcript of a million VINs must not cost a million² comparisons
        var parts = VINParts()
        let skipped = try scan(input, vinOnly: true) { event in
            switch event {
            case .boundary: found.commands += 1
            case let .status(s): if s != .logText { found.statuses[s, default: 0] += 1 }
            case let .problem(line, _, message, raw):
                found.answers += 1
                if found.problem == nil, raw.contains("49 02") || raw.contains("4902") { found.problem = "line \(line): \(message)" }
            case let .message(m):
                found.answers += 1
                // An answer that is not a VIN attributes nothing here; the data pass rejects it
                // (`bad_vin`) with its line.
                let vin: String?
                do { vin = try parts.add(m.payload) } catch let e as OBDDecoder.DecodeError {
                    if found.problem == nil { found.problem = "line \(m.line): \(e.message)" }
                    return
                }
                guard let vin else { return }
                guard VIN.isValid(vin) else {
                    if found.problem == nil { found.problem = "line \(m.line): '\(vin)' is not a valid VIN" }
                    return
                }
                guard seen.insert(vin).inserted else { return }
                found.vins.append(vin)
            }
        }
        found.answers += skipped
        return found
    }
}

/// Collects mode 09 PID 02 answers: one CAN message (`49 02 01` + 17 characters), or five older
/// protocol messages `49 02 0n` + 4 bytes.
struct VINParts {
    private var parts: [Int: [UInt8]] = [:]

    /// The VIN once an answer is complete, nil while parts are missing; throws when a complete
    /// answer is not a VIN.
    mutating func add(_ payload: [UInt8]) throws -> String? {
        guard payload.count >= 3, payload[0] == 0x49, payload[1] == 0x02 else { return nil }
        if payload.count == 7, (1...5).contains(payload[2]) {
            parts[Int(payload[2])] = Array(payload[3...])
            guard parts.count == 5 else { return nil }
            let joined = (1...5).flatMap { parts[$0] ?? [] }
            parts.removeAll()
            return try OBDDecoder.vin(joined)
        }
        return try OBDDecoder.vin(Array(payload[2...]))
    }
}

/// The data pass of one transcript.
private struct Pass {
    var recorder: OBDRecorder
    /// The current exchange's values, one per PID, with the ECU that sent each. A short list
    /// searched linearly, not a dictionary: an exchange holds a handful of PIDs, and hashing
    /// and sorting the keys cost more than the search.
    private var exchange: [(pid: Int, value: Double, ecu: String?)] = []
    private var values: [(pid: Int, value: Double)] = []
    private var exchangeAt: Int64?
    private var failures: [ELMStatus: Int] = [:]
    private var otherECUs = 0, repeated = 0, negative = 0, otherModes = 0, logLines = 0
    private var unsupported: Set<Int> = []
    private var codesSeen: Set<String> = []
    private var vinParts = VINParts()

    /// The zone local times were read in, named when one names no instant.
    let zone: TimeZone

    init(recorder: OBDRecorder, zone: TimeZone) {
        self.recorder = recorder
        self.zone = zone
    }

    mutating func handle<S: RecordSink>(_ event: ELMEvent, into sink: inout S) throws {
        switch event {
        case .boundary:
            try flush(into: &sink)
        case let .status(status):
            if status.isFailure { failures[status, default: 0] += 1 }
            if status == .logText { logLines += 1 }
        case let .problem(line, reason, message, raw):
            try sink.reject(Issue(reason, at: "line \(line)", message, raw: raw))
        case let .message(m):
            try message(m, into: &sink)
        }
    }

    private mutating func message<S: RecordSink>(_ m: ELMMessage, into sink: inout S) throws {
        let location = "line \(m.line)"
        guard let service = m.payload.first else { return }
        switch service {
        case 0x41, 0x43, 0x47, 0x4A:
            guard let at = m.time else {
                // A support bitmap (`41 00 BE 3F A8 13`, what every tool asks first) holds no
                // value to place: nothing is lost by skipping it, where a reject would fail a
                // timeless debug log that only served to read the VIN.
                if service == 0x41, let values = try? OBDDecoder.mode01(m.payload.dropFirst()), !values.isEmpty,
                   values.allSatisfy({ if case .bitmap = $0 { return true } else { return false } }) { return }
                // A local time the clocks skipped names no instant (LocalTime): rejected with
                // the reason, never folded onto the next hour with the real answers there.
                if let skipped = m.skipped {
                    try sink.reject(Issue(.badDate, at: location, "the answer's time " + LocalTime.skippedReason(skipped.text, local: skipped.local, zone: zone), raw: m.raw))
                    return
                }
                try sink.reject(Issue(.missingTime, at: location, "the answer has no time: neither its line nor any line before it starts with one, so it cannot be placed on the timeline", raw: m.raw))
                return
            }
            if service == 0x41, let (pid, v) = OBDDecoder.singleSample(m.payload.dropFirst()) {
                try add(pid, v, ecu: m.ecu, at: at, into: &sink)
            } else if service == 0x41 {
                let values: [OBDDecoder.Value]
                do { values = try OBDDecoder.mode01(m.payload.dropFirst()) } catch let e as OBDDecoder.DecodeError {
                    try sink.reject(Issue(.badValue, at: location, e.message, raw: m.raw))
                    return
                }
                for value in values {
                    switch value {
                    case let .sample(pid, v): try add(pid, v, ecu: m.ecu, at: at, into: &sink)
                    case let .unsupported(pid): unsupported.insert(pid)
                    case .bitmap: break
                    }
                }
            } else {
                let codes: [String]
                do { codes = try OBDDecoder.dtcs(m.payload.dropFirst()) } catch let e as OBDDecoder.DecodeError {
                    try sink.reject(Issue(.badValue, at: location, e.message, raw: m.raw))
                    return
                }
                // Two ECUs, or modes 03 and 07 in the same second, may report the same code: one row per code and instant.
                for code in codes where codesSeen.insert("\(code)@\(at)").inserted {
                    try recorder.code(code, at: at, status: OBDRecorder.dtcStatus(mode: service), into: &sink)
                }
            }
        case 0x49:
            guard m.payload.count >= 3, m.payload[1] == 0x02 else { otherModes += 1; return }
            do {
                // nil: one of five older-protocol parts, the VIN comes with the fifth.
                guard let vin = try vinParts.add(m.payload) else { return }
                if let problem = VIN.problem(vin) { throw OBDDecoder.DecodeError(message: "'\(vin)' is not a VIN: \(problem)") }
            } catch let e as OBDDecoder.DecodeError {
                try sink.reject(Issue(.badVIN, at: location, "\(e.message); the log was not attributed by it", raw: m.raw))
            }
        case 0x7F:
            negative += 1
        default:
            otherModes += 1
        }
    }

    private mutating func add<S: RecordSink>(_ pid: Int, _ value: Double, ecu: String?, at: Int64, into sink: inout S) throws {
        if let t = exchangeAt, t != at { try flush(into: &sink) }
        exchangeAt = at
        if let i = exchange.firstIndex(where: { $0.pid == pid }) {
            let old = exchange[i]
            if old.ecu == ecu {
                repeated += 1
                return
            }
            otherECUs += 1
            // nil (headers off) sorts first: it cannot be compared, and it came first.
            guard let e = ecu, let o = old.ecu, e < o else { return }
            exchange[i] = (pid, value, ecu)
        } else {
            exchange.append((pid, value, ecu))
        }
    }

    mutating func flush<S: RecordSink>(into sink: inout S) throws {
        guard let at = exchangeAt, !exchange.isEmpty else { exchangeAt = nil; return }
        exchange.sort { $0.pid < $1.pid }
        values.removeAll(keepingCapacity: true)
        for e in exchange { values.append((e.pid, e.value)) }
        try recorder.record(at: at, values: values, into: &sink)
        exchange.removeAll(keepingCapacity: true)
        exchangeAt = nil
    }

    func notes<S: RecordSink>(into sink: inout S) {
        if !failures.isEmpty {
            let list = failures.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            sink.note("requests without a usable answer (the adapter said so): \(list)")
        }
        if otherECUs > 0 { sink.note("\(otherECUs) answers from a second ECU to the same request were not stored; the lowest ECU address (the engine ECU) was kept") }
        if repeated > 0 { sink.note("\(repeated) repeated answers for the same PID at the same time were not stored; the first was kept") }
        if !unsupported.isEmpty {
            sink.note("mode 01 PIDs outside FleetKit's table were not stored: \(unsupported.sorted().map { OBDDecoder.hex($0) }.joined(separator: ", "))")
        }
        if negative > 0 { sink.note("\(negative) negative answers (7F: the ECU does not support the request)") }
        if logLines > 0 { sink.note("\(logLines) lines of the logging program's own messages (not adapter traffic) were skipped") }
        if otherModes > 0 { sink.note("\(otherModes) answers to other modes (freeze frame, tests, other mode 09 PIDs) were not stored") }
    }
}
