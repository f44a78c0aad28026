import Foundation
import FleetCore
import FleetWarehouse

/// The counters and ignition a Traccar position carries in `attributes`, judged per device
/// against the reading before it in the file.
///
/// - `odometer` is metres (`Position.KEY_ODOMETER = "odometer"; // meters`); `hours` is engine
///   time in milliseconds: EngineHoursHandler adds fixTime differences while the ignition is on,
///   the protocol decoders convert a tracker's own hour meter with `UnitsConverter.msFromHours`,
///   and the summary report's `startHours`/`endHours` are commented `// milliseconds`. Stored as
///   `odometer` in metres and `engine_hours` in seconds, with the raw text and unit.
/// - 0 is no reading: Traccar's reports treat an odometer of 0 as absent, and EngineHoursHandler
///   never sets hours to 0. Such values are counted, not stored.
/// - A reading lower than the device's previous reading in time (a counter going down: a tracker
///   swapped or reset, a unit changed) is a reject with both readings; the position itself is
///   stored. A reading that comes earlier in time than the one before it is stored and counted
///   (Traccar sorts by fixTime, so this is a file joined from several saves); `fleetkit verify`
///   judges those across the whole history.
/// - `ignition` becomes an `engine_event` (`on`/`off`) when it differs from the device's previous
///   row in the file, and on the first row of each device.
///
/// State is one entry per device, so memory does not grow with the number of rows.
struct TraccarMeters {
    struct Reading {
        var meter: String
        var value: Double
        var raw: String
        var unit: String
        var scale: Double
        var path: String
    }

    struct Last { var at: Int64; var value: Double; var raw: String }

    private var last: [String: Last] = [:]
    private var ignition: [String: Bool] = [:]
    private var earlier = 0
    private var zeros = 0
    private var unstored: [String: Int] = [:]

    static let counted = ["totalDistance": "totalDistance (Traccar's own GPS distance, resettable)", "fuel": "fuel (litres or percent depending on the tracker)",
                          "fuelUsed": "fuelUsed", "obdOdometer": "obdOdometer"]

    /// The readings of a row's attributes, checked: a counter that is not a number, or is
    /// negative or beyond any vehicle's, rejects the row.
    static func readings(_ f: JSONFields) throws(JSONRowError) -> (counters: [Reading], ignition: Bool?, counted: [String]) {
        guard let a = try f.object("attributes") else { return ([], nil, []) }
        var out: [Reading] = []
        if let v = try a.number("odometer", in: 0...2e10, unit: "m") {
            out.append(Reading(meter: "odometer", value: v.value, raw: v.raw, unit: "m", scale: 1, path: a.at("odometer")))
        }
        if let v = try a.number("hours", in: 0...3.6e13, unit: "ms") {
            out.append(Reading(meter: "engine_hours", value: v.value / 1000, raw: v.raw, unit: "ms", scale: 0.001, path: a.at("hours")))
        }
        let on = try a.bool("ignition")
        return (out, on, counted.keys.filter { a.has($0) }.sorted())
    }

    mutating func load<S: RecordSink>(_ r: (counters: [Reading], ignition: Bool?, counted: [String]), device: String, asset: Int64, at: Int64,
                                      row: JSONFields, into sink: inout S) throws {
        for k in r.counted { unstored[k, default: 0] += 1 }
        if let on = r.ignition, ignition[device] != on {
            ignition[device] = on
            try sink.load(EngineEvent(assetID: asset, at: at, state: on ? "on" : "off", sourceFileID: sink.sourceFileID))
        }
        for c in r.counters {
            guard c.value > 0 else { zeros += 1; continue }
            let key = device + "\u{1F}" + c.meter
            if let p = last[key] {
                if at < p.at {
                    earlier += 1
                } else if c.value < p.value {
                    let what = c.meter == "odometer" ? "the odometer" : "the engine hours"
                    try sink.reject(Issue(.meterRollback, at: c.path,
                                          "\(what) went down: \(c.raw) \(c.unit) at \(Timestamp.iso(at)) after \(p.raw) \(c.unit) at \(Timestamp.iso(p.at)); the reading is not stored (the position is), check whether the tracker was reset or moved to another vehicle",
                                          raw: row.node.render()))
                    continue
                } else if c.meter == "engine_hours", c.value - p.value > Double(at - p.at) / 1000 + Self.hoursResolution {
                    // Engine time cannot run faster than the clock: a device that counts in
                    // the wrong unit, or one moved from another vehicle, shows here.
                    try sink.reject(Issue(.meterTooFast, at: c.path,
                                          "the engine hours rose \(Self.hours(c.value - p.value)) h in \(Self.hours(Double(at - p.at) / 1000)) h of clock time (\(p.raw) \(c.unit) at \(Timestamp.iso(p.at)), then \(c.raw) \(c.unit) at \(Timestamp.iso(at))); engine hours cannot run faster than the clock, so the reading is not stored (the position is)",
                                          raw: row.node.render()))
                    continue
                } else {
                    last[key] = Last(at: at, value: c.value, raw: c.raw)
                }
            } else {
                last[key] = Last(at: at, value: c.value, raw: c.raw)
            }
            try sink.load(MeterReading(assetID: asset, meter: c.meter, at: at, value: c.value, rawValue: c.raw, rawUnit: c.unit, sourceFileID: sink.sourceFileID))
        }
    }

    /// The slack a rise of engine hours may exceed the clock by: 0.1 h, the resolution devices
    /// report hours in (as for Motive).
    static let hoursResolution: Double = 360

    private static func hours(_ seconds: Double) -> String { String(format: "%.2f", seconds / 3600) }

    func notes() -> [String] {
        var out: [String] = []
        if zeros > 0 { out.append("odometer or hours readings of 0 not stored (Traccar's reports treat 0 as no reading): \(zeros)") }
        if earlier > 0 { out.append("odometer or hours readings earlier than the device's reading before them, each stored at its own time (fleetkit verify judges their order): \(earlier)") }
        if !unstored.isEmpty {
            out.append("attributes read but not stored: " + unstored.sorted { $0.key < $1.key }.map { "\(Self.counted[$0.key] ?? $0.key) \($0.value)" }.joined(separator: ", "))
        }
        return out
    }
}

extension Issue.Reason {
    /// A cumulative counter (odometer, engine hours) lower than the reading before it in time.
    static let meterRollback: Issue.Reason = "meter_rollback"
    /// Engine hours that rose more than the clock time between two readings.
    static let meterTooFast: Issue.Reason = "meter_too_fast"
}
