import Foundation
import FleetCore

/// A complete answer from one ECU: the service byte (`41`, `43`, `49`, …) and its data.
struct ELMMessage: Equatable {
    /// The line of its first frame.
    var line: Int
    var time: Int64?
    /// The line's time when it names no instant (`ELMSkippedTime`); `time` is then nil.
    var skipped: ELMSkippedTime? = nil
    /// The answering ECU (`7E8`, `18DAF110`, KWP source `10`), nil when headers were off.
    var ecu: String?
    var payload: [UInt8]
    var raw: String
}

/// What the assembler hands on, in transcript order.
enum ELMEvent: Equatable {
    case message(ELMMessage)
    /// A piece that could not be used, as a reject.
    case problem(line: Int, reason: Issue.Reason, message: String, raw: String)
    /// A request or AT command: the answers that follow belong to a new exchange.
    case boundary
    case status(ELMStatus)
}

extension Issue.Reason {
    static let unrecognisedLine: Issue.Reason = "unrecognised_line"
    static let dataError: Issue.Reason = "data_error"
    static let incompleteMessage: Issue.Reason = "incomplete_message"
    static let missingTime: Issue.Reason = "missing_time"
}

/// Reassembles multi-frame answers: ISO-TP (ISO 15765-2) frames when headers are on (first
/// frame `10 LL`, consecutive frames `21`, `22`, … per ECU, so two ECUs may interleave) and the
/// ELM's own format when they are off (a byte-count line `014`, then `0:`, `1:`, …). A message
/// left incomplete by a new request, a status or the end of the file becomes a reject at the line
/// of its first frame.
struct ELMAssembler {
    private struct Pending {
        var line: Int
        var time: Int64?
        var skipped: ELMSkippedTime?
        var ecu: String?
        var expected: Int?
        var data: [UInt8]
        var nextIndex: Int
        var raw: [String]
    }

    private var isoTP: [String: Pending] = [:]
    private var numbered: Pending?

    mutating func feed(_ piece: ELMPiece) -> [ELMEvent] {
        switch piece.kind {
        case .at, .request:
            return flush() + [.boundary]
        case let .status(status):
            let keeps: Set<ELMStatus> = [.searching, .busInit, .banner, .protocolName, .voltage, .ok, .logText]
            return (keeps.contains(status) ? [] : flush()) + [.status(status)]
        case .damaged:
            return [.problem(line: piece.line, reason: .dataError, message: "the adapter marked this answer as damaged (a checksum or framing error on the bus); it was not decoded", raw: piece.text)]
        case .unknown:
            return [.problem(line: piece.line, reason: .unrecognisedLine, message: "not an AT command, OBD request, adapter status or hex frame", raw: piece.text)]
        case let .byteCount(n):
            let out = flushNumbered()
            numbered = Pending(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: nil, expected: n, data: [], nextIndex: 0, raw: [piece.text])
            return out
        case let .indexed(index, bytes):
            return indexed(index, bytes, piece)
        case let .frame(header, bytes):
            switch header {
            case let .can(ecu)?: return canFrame(ecu, bytes, piece)
            case let .kwp(ecu)?: return [.message(ELMMessage(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: ecu, payload: bytes, raw: piece.text))]
            case nil: return [.message(ELMMessage(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: nil, payload: bytes, raw: piece.text))]
            }
        }
    }

    /// `feed(_:)` appending to a buffer the caller reuses: the common pieces (a request with
    /// nothing pending, a single-line answer) then cost no array per piece.
    mutating func feed(_ piece: ELMPiece, into out: inout [ELMEvent]) {
        switch piece.kind {
        case .at, .request:
            if numbered == nil, isoTP.isEmpty { out.append(.boundary); return }
        case let .frame(header, bytes):
            switch header {
            case nil: out.append(.message(ELMMessage(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: nil, payload: bytes, raw: piece.text))); return
            case let .kwp(ecu)?: out.append(.message(ELMMessage(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: ecu, payload: bytes, raw: piece.text))); return
            case .can?: break
            }
        default: break
        }
        out += feed(piece)
    }

    /// At the end of the file: whatever is still waiting is incomplete.
    mutating func finish() -> [ELMEvent] { flush() }

    private mutating func indexed(_ index: Int, _ bytes: [UInt8], _ piece: ELMPiece) -> [ELMEvent] {
        if numbered == nil, index == 0 {
            numbered = Pending(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: nil, expected: nil, data: [], nextIndex: 0, raw: [])
        }
        guard var p = numbered, index == p.nextIndex else {
            let what = numbered == nil ? "without the byte-count line and frame 0 before it" : "out of order (frame \(numbered!.nextIndex) was expected)"
            var out = flushNumbered()
            out.append(.problem(line: piece.line, reason: .incompleteMessage, message: "multi-frame line \(index): \(what)", raw: piece.text))
            return out
        }
        p.data += bytes
        p.raw.append(piece.text)
        p.nextIndex = (index + 1) & 0xF
        if let n = p.expected, p.data.count >= n {
            numbered = nil
            return [.message(ELMMessage(line: p.line, time: p.time, skipped: p.skipped, ecu: nil, payload: Array(p.data.prefix(n)), raw: p.raw.joined(separator: "\n")))]
        }
        numbered = p
        return []
    }

    private mutating func canFrame(_ ecu: String, _ bytes: [UInt8], _ piece: ELMPiece) -> [ELMEvent] {
        guard let pci = bytes.first else {
            return [.problem(line: piece.line, reason: .incompleteMessage, message: "a CAN header (\(ecu)) without data", raw: piece.text)]
        }
        switch pci >> 4 {
        case 0:
            let n = Int(pci & 0x0F)
            guard n > 0, bytes.count - 1 >= n else {
                return [.problem(line: piece.line, reason: .incompleteMessage, message: "an ISO-TP single frame announcing \(n) byte(s) but carrying \(bytes.count - 1)", raw: piece.text)]
            }
            return [.message(ELMMessage(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: ecu, payload: Array(bytes[1...n]), raw: piece.text))]
        case 1:
            guard bytes.count >= 2 else {
                return [.problem(line: piece.line, reason: .incompleteMessage, message: "an ISO-TP first frame without its length", raw: piece.text)]
            }
            var out: [ELMEvent] = []
            if let old = isoTP.removeValue(forKey: ecu) { out.append(incomplete(old)) }
            let total = Int(pci & 0x0F) << 8 | Int(bytes[1])
            isoTP[ecu] = Pending(line: piece.line, time: piece.time, skipped: piece.skipped, ecu: ecu, expected: total, data: Array(bytes[2...]), nextIndex: 1, raw: [piece.text])
            return out
        case 2:
            let seq = Int(pci & 0x0F)
            guard var p = isoTP[ecu], seq == p.nextIndex else {
                let what = isoTP[ecu] == nil ? "without a first frame from \(ecu) before it" : "out of sequence (\(isoTP[ecu]!.nextIndex) was expected)"
                var out: [ELMEvent] = []
                if let old = isoTP.removeValue(forKey: ecu) { out.append(incomplete(old)) }
                out.append(.problem(line: piece.line, reason: .incompleteMessage, message: "an ISO-TP consecutive frame \(what)", raw: piece.text))
                return out
            }
            p.data += bytes.dropFirst()
            p.raw.append(piece.text)
            p.nextIndex = (seq + 1) & 0xF
            if let n = p.expected, p.data.count >= n {
                isoTP[ecu] = nil
                return [.message(ELMMessage(line: p.line, time: p.time, skipped: p.skipped, ecu: ecu, payload: Array(p.data.prefix(n)), raw: p.raw.joined(separator: "\n")))]
            }
            isoTP[ecu] = p
            return []
        case 3:
            return []  // flow control, sent by the adapter itself when monitoring
        default:
            return [.problem(line: piece.line, reason: .incompleteMessage, message: "the byte after the CAN header (\(OBDDecoder.hex(Int(pci)))) is no ISO-TP frame type", raw: piece.text)]
        }
    }

    private mutating func flush() -> [ELMEvent] {
        var out = flushNumbered()
        for ecu in isoTP.keys.sorted() { out.append(incomplete(isoTP[ecu]!)) }
        isoTP.removeAll()
        return out
    }

    /// A numbered message without a byte-count line has no known end: what arrived is taken
    /// as the message when the next request starts.
    private mutating func flushNumbered() -> [ELMEvent] {
        guard let p = numbered else { return [] }
        numbered = nil
        if p.expected == nil, !p.data.isEmpty {
            return [.message(ELMMessage(line: p.line, time: p.time, skipped: p.skipped, ecu: nil, payload: p.data, raw: p.raw.joined(separator: "\n")))]
        }
        return [incomplete(p)]
    }

    private func incomplete(_ p: Pending) -> ELMEvent {
        let expected = p.expected.map { "\($0)" } ?? "an unknown number of"
        return .problem(line: p.line, reason: .incompleteMessage,
                        message: "a multi-frame answer\(p.ecu.map { " from \($0)" } ?? "") ended after \(p.data.count) of \(expected) bytes; it was not decoded",
                        raw: p.raw.joined(separator: "\n"))
    }
}
