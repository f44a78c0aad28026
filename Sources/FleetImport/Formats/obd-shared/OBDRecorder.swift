import Foundation
import FleetCore
import FleetWarehouse

/// Engine state from OBD values, as docs/METRICS.md defines it: RPM above 0 means the engine
/// runs (an RPM sample stands for 60 s, because dongles fall silent when the ignition goes off);
/// running with the vehicle below 1 km/h is idle (a speed sample stands for 10 s; a running
/// engine with no recent speed is `on`). Only changes become `engine_event` rows, and an engine
/// whose RPM samples stop is `off` 60 s after the last one, so the daily rollup can count engine
/// time between the events.
struct EngineStateTracker {
    static let rpmValidMs: Int64 = 60_000
    static let speedValidMs: Int64 = 10_000
    static let idleBelowKmh = 1.0

    private(set) var state: String?
    private var lastRPM: (at: Int64, running: Bool)?
    private var lastSpeed: (at: Int64, kmh: Double)?
    /// The latest decided change, held back until time moves on so that RPM and speed read at
    /// the same instant make one event, not two.
    private var pending: (at: Int64, state: String)?
    private var lastAt: Int64?

    /// Feeds the values read at one instant (either may be absent); returns settled events.
    mutating func observe(at: Int64, rpm: Double?, speedKmh: Double?) -> [(Int64, String)] {
        // A log out of time order (a clock set back) cannot tell a state change: skip it.
        if let last = lastAt, at < last { return [] }
        lastAt = at
        var out: [(Int64, String)] = []
        if let p = pending, at > p.at { out.append(p); pending = nil }
        if let r = lastRPM, r.running, at - r.at > Self.rpmValidMs, let s = state, s != "off" {
            out += settle(at: r.at + Self.rpmValidMs, "off")
        }
        if let kmh = speedKmh { lastSpeed = (at, kmh) }
        if let rpm { lastRPM = (at, rpm > 0) }
        guard let r = lastRPM, at - r.at <= Self.rpmValidMs else { return out }
        var next = "off"
        if r.running {
            let standing = lastSpeed.map { at - $0.at <= Self.speedValidMs && $0.kmh < Self.idleBelowKmh } ?? false
            next = standing ? "idle" : "on"
        }
        if next != state {
            if let p = pending, p.at == at { pending = (at, next) } else { out += settle(at: at, next) }
            state = next
        }
        return out
    }

    /// The end of the data: a running engine went off 60 s after its last RPM sample.
    mutating func finish() -> [(Int64, String)] {
        var out: [(Int64, String)] = []
        if let p = pending { out.append(p); pending = nil }
        if let r = lastRPM, r.running, let s = state, s != "off" {
            out.append((r.at + Self.rpmValidMs, "off"))
            state = "off"
        }
        return out
    }

    private mutating func settle(at: Int64, _ next: String) -> [(Int64, String)] {
        var out: [(Int64, String)] = []
        if let p = pending { out.append(p) }
        pending = (at, next)
        state = next
        return out
    }
}

/// Loads what the three OBD importers read: `obd_sample` rows, the odometer (PID A6) and fuel
/// level (PID 2F) as meters in SI, engine state changes, and trouble codes.
struct OBDRecorder {
    let asset: Int64
    let file: Int64
    private var engine = EngineStateTracker()
    private(set) var samples = 0
    private(set) var codes = 0
    /// Samples not yet handed to the sink: they go in batches (`RecordSink.load(contentsOf:)`,
    /// multi-row INSERTs), the bulk of an OBD log's rows. Safe to hold because the OBD importers
    /// write no savepoints and read nothing back before `finish`, which flushes.
    private var pending: [ObdSample] = []
    static let batch = 1024

    init(asset: Int64, file: Int64) {
        self.asset = asset
        self.file = file
    }

    /// Values read at one instant, by PID (J1979 units).
    mutating func record<S: RecordSink>(at: Int64, values: [(pid: Int, value: Double)], rawUnits: [Int: String] = [:], into sink: inout S) throws {
        var rpm: Double?, speed: Double?
        for (pid, value) in values {
            pending.append(ObdSample(assetID: asset, at: at, pid: pid, value: value, sourceFileID: file))
            if pending.count >= Self.batch { try flush(into: &sink) }
            samples += 1
            switch pid {
            case 0x0C: rpm = value
            case 0x0D: speed = value
            case 0xA6:
                try sink.load(MeterReading(assetID: asset, meter: "odometer", at: at, value: value * Units.metresPerKilometre,
                                           rawValue: Self.text(value), rawUnit: "km", sourceFileID: file))
            case 0x2F:
                try sink.load(MeterReading(assetID: asset, meter: "fuel_level", at: at, value: value, rawValue: Self.text(value), rawUnit: "%", sourceFileID: file))
            default: break
            }
        }
        if rpm != nil || speed != nil {
            for (t, state) in engine.observe(at: at, rpm: rpm, speedKmh: speed) { try loadEvent(t, state, &sink) }
        }
    }

    mutating func code<S: RecordSink>(_ code: String, at: Int64, status: String, into sink: inout S) throws {
        try sink.load(DtcEvent(assetID: asset, at: at, code: code, system: "obd2", status: status, sourceFileID: file))
        codes += 1
    }

    /// The end of the log: every held sample is loaded, and a running engine goes off.
    mutating func finish<S: RecordSink>(into sink: inout S) throws {
        try flush(into: &sink)
        for (t, state) in engine.finish() { try loadEvent(t, state, &sink) }
    }

    private mutating func flush<S: RecordSink>(into sink: inout S) throws {
        guard !pending.isEmpty else { return }
        try sink.load(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    private func loadEvent<S: RecordSink>(_ at: Int64, _ state: String, _ sink: inout S) throws {
        try sink.load(EngineEvent(assetID: asset, at: at, state: state, sourceFileID: file))
    }

    static func text(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// The trouble-code status a mode stands for.
    static func dtcStatus(mode: UInt8) -> String {
        switch mode {
        case 0x47: return "pending"
        case 0x4A: return "permanent"
        default: return "confirmed"
        }
    }
}
