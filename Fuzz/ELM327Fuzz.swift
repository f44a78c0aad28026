// libFuzzer harness: the OBD-II decoding layer (FleetImport/Formats/{obd-shared,elm327,car-scanner,torque} without the warehouse parts)
// must never crash, hang or loop on any bytes. Each input is read as an ELM327 transcript
// (line reader → line parser, String and byte paths compared, in America/Chicago → ISO-TP/ELM
// multi-frame assembler → J1979 decoders), and each
// line also as a Torque/Car Scanner time, header field and number. Not covered here: the
// importers themselves and OBDRecorder, which need FleetWarehouse (GRDB); their tests cover them.
// Built by Fuzz/run.sh with FleetCore's sources and the staged OBD files into one module.
import Foundation

private let chicago = TimeZone(identifier: "America/Chicago")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzELM327(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    var reader = TextLineReader(data: bytes)
    var assembler = ELMAssembler()
    var time = ELMLineTime()
    // The byte path beside the String path, in a zone with DST changes: both must agree on
    // every piece and on the time a line leaves (issue 35: local stamps in a skipped hour).
    var bytePath = ELMByteParser(zone: chicago)
    var lastLine = 0
    var clock = OBDLocalClock(zone: chicago)
    var scanner = CarScannerClock(fileName: "2025-11-20 16-05-09.csv", zone: FleetZone(identifier: "America/Chicago")!)
    var zones = TorqueZoneTally()
    func check(_ events: [ELMEvent]) {
        for event in events {
            guard case let .message(m) = event else { continue }
            guard let service = m.payload.first else { continue }
            switch service {
            case 0x41:
                if let values = try? OBDDecoder.mode01(m.payload.dropFirst()) {
                    for case let .sample(pid, v) in values { precondition(OBDDecoder.pid(pid) != nil && v.isFinite) }
                }
            case 0x43, 0x47, 0x4A:
                if let codes = try? OBDDecoder.dtcs(m.payload.dropFirst()) {
                    for code in codes { precondition(code.count == 5 && "PCBU".contains(code.first!)) }
                }
            case 0x49:
                if m.payload.count > 2, let vin = try? OBDDecoder.vin(Array(m.payload[2...])) { precondition(vin.count == 17) }
            default: break
            }
        }
    }
    while let line = try? reader.next() {
        precondition(line.number > lastLine, "line numbers must increase")
        precondition(line.text.utf8.count <= TextLineReader.maxLine * 3, "a line is capped")
        lastLine = line.number
        let pieces = ELMLineParser.pieces(of: line.text, line: line.number, lastTime: &time, zone: chicago)
        var fast: [ELMPiece] = []
        Array(line.text.utf8).withUnsafeBufferPointer { bytePath.pieces($0, line: line.number, into: &fast) }
        precondition(fast == pieces && bytePath.lastTime == time, "byte and String paths disagree")
        for piece in pieces {
            precondition(piece.line == line.number)
            precondition(piece.time == nil || piece.skipped == nil, "a time is an instant or skipped, never both")
            check(assembler.feed(piece))
        }
        _ = try? clock.utc(line.text)
        let (name, _) = OBDChannels.splitUnit(line.text)
        _ = OBDChannels.pid(named: name)
        _ = OBDChannels.number(line.text)
        // Issue 16: file-name dates, SECONDS from midnight, GPS Time zones, debug-log wrappers.
        let date = CarScannerFileDate(name: line.text)
        if let d = date.date { precondition((1971...2200).contains(d.year)) }
        if let s = date.startSecond { precondition((0..<86_400).contains(s)) }
        // Any SECONDS the importer passes on (finite, ≥ 0; issue 35: 9.3e15 once trapped).
        if let secs = OBDChannels.number(line.text) ?? nil, secs.isFinite, secs >= 0, let at = try? scanner.utc(secs) {
            precondition(at <= Timestamp.plausible.upperBound + 2 * 86_400_000, "SECONDS \(secs) gave \(at)")
        }
        if let (local, _) = try? OBDLocalClock.parse(line.text) { _ = zones.offset(gpsTime: line.text, deviceLocal: local) }
        _ = ELMWrapper.payload(Substring(line.text))
        _ = ELMWrapper.isLogText(Substring(line.text))
    }
    check(assembler.finish())
    _ = OBDLayouts.looksLikeOBD(bytes)
    _ = OBDLayouts.refusal(bytes)
    _ = CarScannerFileDate(name: String(decoding: bytes.prefix(300), as: UTF8.self))
    return 0
}
