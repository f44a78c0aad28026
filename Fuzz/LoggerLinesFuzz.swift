// libFuzzer harness: the line readers of the Freematics and python-OBD logs
// (FleetImport/Formats/{freematics,python-obd} without the importers) must never crash, hang or
// loop on any bytes. Each input is read line by line (TextLineReader); every line goes through
// the Freematics line parser, the device clock with its GPS anchors and the GPS field decoders,
// and through the python-OBD line parser, its unit table and the local clock it uses. Not covered
// here: the importers, OBDRecorder and FreematicsState, which need FleetWarehouse (GRDB); their
// tests cover them. Built by Fuzz/run.sh with FleetCore's sources and the staged files into one module.
import Foundation

private let utc = TimeZone(identifier: "UTC")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoggerLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = TextLineReader(data: Data(bytes: data, count: size))
    var clock = FreematicsClock()
    var local = OBDLocalClock(zone: utc)
    while let line = try? reader.next() {
        let text = Substring(line.text)
        // An event record is never also a reading (the importer skips it before parsing).
        if FreematicsLine.isEvent(text) { precondition(FreematicsLine.parse(text) == nil, "an EV= line parsed as a reading") }
        if let r = FreematicsLine.parse(text) {
            precondition((1...3).contains(r.values.count) && r.id >= 0 && r.id <= 0xFFFF)
            if clock.restarts(r.time) { precondition(clock.boots >= 1) }
            if let ms = clock.deviceTime(r.time) {
                let date = r.id == 0x11 ? FreematicsGPS.date(r.values[0]) : nil
                let time = r.id == 0x10 ? FreematicsGPS.time(r.values[0]) : nil
                if let t = time { precondition((0..<86_400_000).contains(t)) }
                clock.observe(date: date, time: time, at: ms)
                _ = clock.utc(ms)
            }
            if let c = FreematicsGPS.coordinate(r.values[0]) { precondition(c.isFinite) }
        }
        if let p = PythonOBDLine.parse(text) {
            precondition(!p.command.isEmpty)
            if let v = p.value { precondition(v.isFinite) }
            _ = PythonOBDLine.unit(p.unit)
            _ = try? local.utc(String(p.time))
        }
    }
    return 0
}
