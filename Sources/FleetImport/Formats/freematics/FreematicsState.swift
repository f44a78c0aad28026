import Foundation
import FleetCore
import FleetWarehouse

/// What a Freematics import holds between lines: the readings of the current device instant
/// (the GPS date and time that time the instant may come after its other readings, so an instant
/// is judged whole), the instants of the current start read before its first GPS fix, the clock,
/// and the tallies the notes report.
struct FreematicsState {
    struct Entry {
        var line: Int
        var raw: String
        var reading: FreematicsLine
    }

    var clock = FreematicsClock()
    var recorder: OBDRecorder
    private let asset: Int64
    private var instant: (ms: Int64, entries: [Entry])?
    /// Instants of this start before its anchor, in file order: the device clock that runs after
    /// the first fix ran before it too, so the anchor places them exactly; rejected only when the
    /// start ends without one.
    private var early: [(ms: Int64, entries: [Entry])] = []
    private var earlyCount = 0
    private(set) var positions = 0
    private(set) var unplaced = 0
    private(set) var placedEarly = 0
    /// Telelogger event records among the readings (`FreematicsLine.isEvent`).
    var events = 0
    /// Readings of the device's own numbers or of PIDs outside FleetKit's table, by PID as written.
    private var notStored: [Int: Int] = [:]

    /// Readings held before a start's first fix at most (memory stays bounded on any input); the
    /// firmware waits for a fix before logging, so real logs hold a few hundred.
    static let earlyLimit = 20_000

    init(asset: Int64, file: Int64) {
        self.asset = asset
        recorder = OBDRecorder(asset: asset, file: file)
    }

    static let gpsNames: [Int: String] = [0x0F: "satellites", 0x12: "HDOP", 0x20: "accelerometer", 0x21: "gyroscope", 0x22: "compass",
                                          0x23: "motion sensor temperature", 0x24: "battery voltage", 0x30: "trip distance", 0x80: "data size",
                                          0x81: "signal quality", 0x82: "device temperature"]

    mutating func add(_ entry: Entry, at ms: Int64, into sink: inout some RecordSink) throws {
        if let i = instant, i.ms != ms || i.entries.count >= FreematicsImporter.instantLimit { try flush(into: &sink) }
        if instant == nil { instant = (ms, []) }
        instant!.entries.append(entry)
    }

    /// Judges and loads the held instant; before the start's anchor it is held in `early`.
    mutating func flush(into sink: inout some RecordSink) throws {
        guard let (ms, entries) = instant else { return }
        instant = nil
        var date: Int?, time: Int64?
        var rejected = Set<Int>()
        for e in entries where e.reading.id == 0x10 || e.reading.id == 0x11 {
            let v = e.reading.values[0]
            if e.reading.id == 0x11 {
                guard let d = FreematicsGPS.date(v) else { rejected.insert(e.line); try Self.reject(e, .badDate, "the GPS date '\(v)' is not a date written ddmmyy", into: &sink); continue }
                date = d
            } else {
                guard let t = FreematicsGPS.time(v) else { rejected.insert(e.line); try Self.reject(e, .badDate, "the GPS time '\(v)' is not a time written hhmmsscc", into: &sink); continue }
                time = t
            }
        }
        let kept = entries.filter { !rejected.contains($0.line) }
        clock.observe(date: date, time: time, at: ms)
        guard let at = clock.utc(ms) else {
            if earlyCount + kept.count <= Self.earlyLimit {
                early.append((ms, kept))
                earlyCount += kept.count
            } else {
                for e in kept {
                    unplaced += 1
                    try Self.reject(e, .badDate, "device time \(ms) ms comes before the first GPS date and time of its device start (boot \(clock.boots)) after more than \(Self.earlyLimit) such readings: FleetKit holds no more of them to place in time", into: &sink)
                }
            }
            return
        }
        if !early.isEmpty {
            let held = early
            early = []
            earlyCount = 0
            for (ems, eentries) in held {
                placedEarly += eentries.count
                try place(eentries, at: at - (ms - ems), into: &sink)
            }
        }
        try place(kept, at: at, into: &sink)
    }

    /// The current start ends (a restart, a header, the end of the file): readings held for an
    /// anchor it never got cannot be placed in time.
    mutating func endStart(into sink: inout some RecordSink) throws {
        try flush(into: &sink)
        for (ms, entries) in early {
            for e in entries {
                unplaced += 1
                try Self.reject(e, .badDate, "device time \(ms) ms has no GPS date and time in its device start (boot \(clock.boots)): the reading cannot be placed in time", into: &sink)
            }
        }
        early = []
        earlyCount = 0
    }

    private static func reject(_ e: Entry, _ reason: Issue.Reason, _ why: String, into sink: inout some RecordSink) throws {
        try sink.reject(Issue(reason, at: "line \(e.line)", why, raw: e.raw))
    }

    /// Loads the readings of one instant at `at` (UTC ms).
    private mutating func place(_ entries: [Entry], at: Int64, into sink: inout some RecordSink) throws {
        func reject(_ e: Entry, _ reason: Issue.Reason, _ why: String) throws { try Self.reject(e, reason, why, into: &sink) }
        guard Timestamp.plausible.contains(at) else {
            for e in entries { try reject(e, .outOfRange, "the GPS date and time put this reading at \(at) ms, outside the years 1971–2200") }
            return
        }
        var values: [(pid: Int, value: Double)] = []
        var lat: (Entry, Double)?, lon: (Entry, Double)?
        var alt: Double?, speed: Double?, heading: Double?
        for e in entries {
            let r = e.reading, v = r.values[0]
            switch r.id {
            case 0x10, 0x11: continue
            case 0x0A, 0x0B:
                guard r.values.count == 1, let c = FreematicsGPS.coordinate(v) else { try reject(e, .badNumber, "the GPS coordinate '\(v)' is not a number"); continue }
                if r.id == 0x0A { lat = (e, c) } else { lon = (e, c) }
            case 0x0C, 0x0D, 0x0E:
                guard r.values.count == 1, let d = Double(v), d.isFinite else { try reject(e, .badNumber, "the GPS value '\(v)' is not a number"); continue }
                if r.id == 0x0C { alt = d } else if r.id == 0x0D { speed = d / 3.6 } else { heading = d }
            case 0x100...0x1FF where OBDDecoder.pid(r.id & 0xFF) != nil:
                let pid = r.id & 0xFF
                guard r.values.count == 1, let d = Double(v), d.isFinite else { try reject(e, .badNumber, "the value '\(r.values.joined(separator: ","))' of PID \(OBDDecoder.hex(pid)) is not a number"); continue }
                if !values.contains(where: { $0.pid == pid }) { values.append((pid, d)) }
            default:
                notStored[r.id, default: 0] += 1
            }
        }
        if !values.isEmpty { try recorder.record(at: at, values: values, into: &sink) }
        if let (le, la) = lat, let (oe, lo) = lon {
            if !(-90...90).contains(la) || !(-180...180).contains(lo) {
                try reject(le, .outOfRange, "the position \(la), \(lo) is outside the globe")
                try reject(oe, .outOfRange, "the position \(la), \(lo) is outside the globe")
            } else if la != 0 || lo != 0 {
                try sink.load(Position(assetID: asset, at: at, lat: la, lon: lo, speedMps: speed, headingDeg: heading, altM: alt, sourceFileID: sink.sourceFileID))
                positions += 1
            }
        } else if let (e, _) = lat ?? lon {
            try reject(e, .missingField, "a GPS \(lat == nil ? "longitude" : "latitude") without its \(lat == nil ? "latitude" : "longitude") at the same device time")
        }
    }

    /// What the import leaves out, said once.
    func notes() -> [String] {
        var out: [String] = []
        if clock.boots > 1 { out.append("the device started \(clock.boots) times in this log; each start is timed by its own GPS date and time (\(clock.anchors) found)") }
        if placedEarly > 0 { out.append("\(placedEarly) readings came before the first GPS fix of their device start and are timed from it by the device clock") }
        if unplaced > 0 { out.append("\(unplaced) readings of device starts without a GPS date and time were rejected: they cannot be placed in time") }
        if events > 0 { out.append("\(events) device event records (the telelogger's login, logout and sync lines, EV=…) are not readings and were not stored") }
        if !notStored.isEmpty {
            let total = notStored.values.reduce(0, +)
            let names = notStored.keys.sorted().prefix(10).map { id in
                Self.gpsNames[id] ?? (id >= 0x100 && id < 0x200 ? "PID \(OBDDecoder.hex(id & 0xFF))" : "device PID \(String(id, radix: 16, uppercase: true))")
            }
            out.append("\(total) readings were not stored (the device's own sensors, or PIDs outside FleetKit's table): \(names.joined(separator: ", "))\(notStored.count > 10 ? ", …" : "")")
        }
        return out
    }
}
