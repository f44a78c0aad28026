import Foundation
import FleetCore
import FleetWarehouse

/// The stat types of `/fleet/vehicles/stats` (snapshot, singular keys), `/stats/history` and
/// `/stats/feed` (plural arrays), and `/fleet/vehicles/locations[/history]`.
enum SamsaraStat: Equatable {
    /// A cumulative counter or a level, stored as `meter_reading` in SI after `scale`.
    case meter(String, scale: Double, unit: String, range: ClosedRange<Double>)
    case engineState, gps, location, faultCodes
    /// Known to Samsara, no warehouse table (temperatures, RPM, EV energy, aux inputs…).
    case unstored

    static let table: [String: SamsaraStat] = {
        var t: [String: SamsaraStat] = [
            "obdOdometerMeters": .meter("odometer", scale: 1, unit: "m", range: 0...2e10),
            "gpsOdometerMeters": .meter("odometer", scale: 1, unit: "m", range: 0...2e10),
            "obdEngineSeconds": .meter("engine_hours", scale: 1, unit: "s", range: 0...1e10),
            "syntheticEngineSeconds": .meter("engine_hours", scale: 1, unit: "s", range: 0...1e10),
            // Equipment (`/fleet/equipment/stats`): gateway power time plus a manual offset, and
            // the deprecated `engineSeconds`, each a fallback below the ECU's own count.
            "gatewayJ1939EngineSeconds": .meter("engine_hours", scale: 1, unit: "s", range: 0...1e10),
            "gatewayEngineSeconds": .meter("engine_hours", scale: 1, unit: "s", range: 0...1e10),
            "engineSeconds": .meter("engine_hours", scale: 1, unit: "s", range: 0...1e10),
            "engineTotalIdleTimeMinutes": .meter("idle_hours", scale: 60, unit: "min", range: 0...1e9),
            "idlingDurationMilliseconds": .meter("idle_hours", scale: 0.001, unit: "ms", range: 0...1e13),
            "fuelConsumedMilliliters": .meter("fuel_used", scale: 1, unit: "mL", range: 0...1e12),
            "fuelPercents": .meter("fuel_level", scale: 1, unit: "%", range: 0...100),
            "defLevelMilliPercent": .meter("def_level", scale: 0.001, unit: "milli-%", range: 0...100_000),
            "engineStates": .engineState, "obdEngineStates": .engineState, "gatewayEngineStates": .engineState, "gps": .gps, "locations": .location, "faultCodes": .faultCodes,
        ]
        for name in ["gpsDistanceMeters", "engineCoolantTemperatureMilliC", "ambientAirTemperatureMilliC", "batteryMilliVolts", "engineRpm",
                     "engineLoadPercent", "engineOilPressureKPa", "ecuSpeedMph", "barometricPressurePa", "intakeManifoldTemperatureMilliC",
                     "evStateOfChargeMilliPercent", "evConsumedEnergyMicroWh", "evRegeneratedEnergyMicroWh", "evDistanceDrivenMeters",
                     "evChargingStatus", "evChargingEnergyMicroWh", "evChargingVoltageMilliVolt", "evChargingCurrentMilliAmp",
                     "evBatteryVoltageMilliVolt", "evBatteryCurrentMilliAmp", "evBatteryStateOfHealthMilliPercent",
                     "evAverageBatteryTemperatureMilliCelsius", "engineImmobilizer", "nfcCardScans", "seatbeltDriver", "gpsDistanceMeters",
                     "vehicleDtcs", "tirePressures", "syntheticEngineSecondsOverride", "spreaderActive",
                     "obdEngineSecondsOverride", "carrierReeferState", "reeferObdEngineSeconds", "reeferAlarms", "reeferRunMode",
                     "reeferAmbientAirTemperatureMilliC", "reeferFuelPercent"]
            + (1...13).map({ "auxInput\($0)" })
            + (1...3).flatMap({ z in ["reeferDoorStateZone\(z)", "reeferReturnAirTemperatureMilliCZone\(z)", "reeferSetPointTemperatureMilliCZone\(z)",
                                       "reeferStateZone\(z)", "reeferSupplyAirTemperatureMilliCZone\(z)"] }) {
            t[name] = .unstored
        }
        return t
    }()

    /// The snapshot endpoint's singular keys, by their plural (history) name.
    static let singular: [String: String] = [
        "engineState": "engineStates", "fuelPercent": "fuelPercents", "nfcCardScan": "nfcCardScans", "location": "locations",
        "evChargingStatu": "evChargingStatus", "tirePressure": "tirePressures", "vehicleDtc": "vehicleDtcs",
    ]

    /// A fallback counter is used only when the vehicle has no reading of a counter it defers to
    /// in the same record: Samsara's GPS odometer is a manual offset plus GPS distance, its
    /// synthetic and gateway engine seconds count powered time from a manual baseline, while
    /// the OBD values come from the ECU. Mixing two sources on one meter would turn their offset
    /// into a rollback or a jump. Equipment's chain: OBD, then J1939 gateway, then gateway, then
    /// the deprecated `engineSeconds`; its gateway engine state only without an OBD one.
    static let preferred: [String: [String]] = [
        "gpsOdometerMeters": ["obdOdometerMeters"],
        "syntheticEngineSeconds": ["obdEngineSeconds"],
        "gatewayJ1939EngineSeconds": ["obdEngineSeconds"],
        "gatewayEngineSeconds": ["obdEngineSeconds", "gatewayJ1939EngineSeconds"],
        "engineSeconds": ["obdEngineSeconds", "gatewayJ1939EngineSeconds", "gatewayEngineSeconds"],
        "engineTotalIdleTimeMinutes": ["idlingDurationMilliseconds"],
        "gatewayEngineStates": ["obdEngineStates", "engineStates"],
    ]
    /// The stats some fallback defers to (`preferred`'s values), as a list: compared with `==`
    /// per reading, cheaper than hashing.
    static let preferredStats = Array(Set(preferred.values.joined())).sorted()

    /// Keys only a trailer's stats have (reefer units): the record is a trailer.
    static func isTrailerKey(_ key: String) -> Bool { key.hasPrefix("reefer") || key == "carrierReeferState" }
    /// Keys only equipment stats have (`/fleet/equipment/stats`): the record is a machine.
    static let equipmentKeys: Set<String> = ["gatewayJ1939EngineSeconds", "gatewayEngineSeconds", "engineSeconds", "gatewayEngineStates", "obdEngineStates"]

    /// What a stats record names, from its keys, else from the file's name or folder
    /// (`trailers/stats-….json`): a dry-van trailer's stats (GPS and odometer only) look like
    /// a vehicle's, and only the saved file says which endpoint it came from.
    static func kind(keys: Set<String>, path: String) -> AssetRef.Kind {
        if keys.contains(where: isTrailerKey) { return .trailer }
        if !keys.isDisjoint(with: equipmentKeys) { return .equipment }
        // The file's name and its folder only: a fleet's own directory names say nothing.
        let url = URL(fileURLWithPath: path)
        let p = (url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent).lowercased()
        if p.contains("trailer") { return .trailer }
        if p.contains("equipment") { return .equipment }
        return .vehicle
    }

    static func named(_ key: String) -> (name: String, stat: SamsaraStat)? {
        if let s = table[key] { return (key, s) }
        if let plural = singular[key], let s = table[plural] { return (plural, s) }
        return nil
    }

    /// Keys whose arrays are streamed point by point.
    static func isSeries(_ key: String) -> Bool { table[key] != nil }

    static var allNames: Set<String> { Set(table.keys).union(singular.keys) }

    /// `JSONFields.unknownPointKeys` compares against these three directly; keep the two in step.
    static let pointKeys: Set<String> = ["time", "value", "decorations"]
    static let positionKeys: Set<String> = ["time", "latitude", "longitude", "heading", "speed", "headingDegrees", "speedMilesPerHour", "isEcuSpeed",
                                            "reverseGeo", "address", "decorations", "accuracyMeters"]
}

/// One vehicle's stat arrays while they stream: its asset (resolved when the first array
/// starts), points held back until the end of the record, and what was seen.
struct SeriesState {
    let path: String
    var header: [JSONNode.Member]
    var asset: Int64?
    /// The vehicle when it is not yet in the warehouse: created when its first point is stored
    /// (`assetID`), so a vehicle whose every point is rejected leaves no empty asset.
    var ref: AssetRef?
    var failure: (reason: Issue.Reason, message: String)?
    var skipped = 0
    /// Points read before the vehicle's `id` (JSON members have no order): held until the end.
    var pending: [(name: String, stat: SamsaraStat, point: JSONFields)] = []
    /// Stats with at least one reading loaded, for the OBD-over-GPS odometer rule.
    var loaded: Set<String> = []
    var deferred: [String: [Deferred]] = [:]
    /// Every member name seen so far: what the record is (vehicle, trailer, equipment).
    var keys: Set<String> = []

    /// A fallback's fact, held until the record ends.
    enum Deferred { case reading(MeterReading), event(EngineEvent) }
    /// Readings and positions waiting to be written together (`RecordSink.load(contentsOf:)`
    /// writes full batches with one multi-row INSERT): flushed at the end of every stat array
    /// and of the record, so nothing is pending across a savepoint or another record.
    var readings: [MeterReading] = []
    var positions: [Position] = []
    static let batch = 256

    init(path: String, header: [JSONNode.Member]) {
        self.path = path
        self.header = header
    }
}

extension SamsaraReader {
    func streamSeries(_ key: String, _ s: inout SeriesState, into sink: inout S) throws {
        guard let (name, stat) = SamsaraStat.named(key) else { return try parser.skipValue() }
        s.keys.insert(key)
        if s.asset == nil, s.ref == nil, s.failure == nil, JSONFields(.object(s.header), at: s.path).has("id") { try resolve(&s, fields: s.header, into: &sink) }
        _ = try parser.next()
        let base = s.path + "." + key
        var index = -1
        while try parser.peek() != .arrayEnd {
            index += 1
            let node: JSONNode
            do { node = try parser.readNode(limit: 64 * 1024) } catch let e as JSONNodeTooLarge {
                try sink.reject(Issue(.oversizedRecord, at: e.path, "the point is larger than 64 KiB and was not read"))
                continue
            }
            if s.failure != nil { s.skipped += 1; continue }
            let f = JSONFields(node, at: base, index: index)
            if s.asset == nil, s.ref == nil { s.pending.append((name, stat, f)); continue }
            try point(name, stat, f, &s, into: &sink)
        }
        _ = try parser.next()
        try flushBuffered(&s, into: &sink)
    }

    func flushBuffered(_ s: inout SeriesState, into sink: inout S) throws {
        if !s.readings.isEmpty { try sink.load(contentsOf: s.readings); s.readings.removeAll(keepingCapacity: true) }
        if !s.positions.isEmpty { try sink.load(contentsOf: s.positions); s.positions.removeAll(keepingCapacity: true) }
    }

    func finishSeries(_ s: inout SeriesState, fields: [JSONNode.Member], into sink: inout S) throws {
        tally.saw("vehicle stat series")
        let f = JSONFields(.object(fields), at: s.path)
        tally.unknown("stats", f.unknownKeys(SamsaraShape.vehicleStats.known))
        s.keys.formUnion(fields.map(\.key))
        if s.asset == nil, s.ref == nil, s.failure == nil { try resolve(&s, fields: fields, into: &sink) }
        if s.failure == nil {
            let pending = s.pending
            s.pending = []
            for p in pending { try point(p.name, p.stat, p.point, &s, into: &sink) }
            // Snapshot-style singular members next to the arrays.
            for m in fields {
                guard let (name, stat) = SamsaraStat.named(m.key), case .object = m.value else { continue }
                try point(name, stat, JSONFields(m.value, at: f.at(m.key)), &s, into: &sink)
            }
            try flushBuffered(&s, into: &sink)
            try flushDeferred(&s, into: &sink)
        } else {
            s.skipped += s.pending.count
        }
        if let failure = s.failure {
            try sink.reject(Issue(failure.reason, at: s.path, failure.message + " (\(s.skipped) stat points of this vehicle were not loaded)",
                                  raw: JSONNode.object(fields).render()))
        }
    }

    /// `/fleet/vehicles/stats` and `/fleet/vehicles/locations`: one object per stat.
    func snapshot(_ f: JSONFields, _ sink: inout S) throws {
        var s = SeriesState(path: f.path, header: f.node.members)
        s.keys = Set(f.node.members.map(\.key))
        let ref = try vehicleRef(f, kind: SamsaraStat.kind(keys: s.keys, path: input.path))
        if let known = try knownAsset(ref, &sink) { s.asset = known } else { s.ref = ref }
        for m in f.node.members {
            guard let (name, stat) = SamsaraStat.named(m.key) else { continue }
            switch m.value {
            case .object: try point(name, stat, JSONFields(m.value, at: f.at(m.key)), &s, into: &sink)
            case let .array(items):
                for (i, item) in items.enumerated() { try point(name, stat, JSONFields(item, at: f.at(m.key), index: i), &s, into: &sink) }
            case .null: continue
            default: throw JSONRowError(.wrongType, "'\(m.key)' should be an object or an array of points but is \(m.value.kind)", at: f.at(m.key))
            }
        }
        try flushBuffered(&s, into: &sink)
        try flushDeferred(&s, into: &sink)
    }

    private func resolve(_ s: inout SeriesState, fields: [JSONNode.Member], into sink: inout S) throws {
        let f = JSONFields(.object(fields), at: s.path)
        do {
            s.keys.formUnion(fields.map(\.key))
            let ref = try vehicleRef(f, kind: SamsaraStat.kind(keys: s.keys, path: input.path))
            if let known = try knownAsset(ref, &sink) {
                // Found by its own identifiers: still offered through `asset(_:)`, so the page's
                // name counts in the order-independent naming rule (`AssetNaming`).
                s.asset = try sink.findAsset(ref) == known ? try sink.asset(ref) : known
            } else {
                // A trial creation, undone: a vehicle FleetKit cannot create fails here, once,
                // as before; the real one waits for the first point that is stored.
                do { try sink.atomically { sink in _ = try sink.asset(ref); throw TrialOnly() } } catch is TrialOnly {}
                s.ref = ref
            }
        } catch let e as JSONRowError {
            s.failure = (e.reason, e.message)
        } catch let e as RowError {
            s.failure = (e.reason, e.message)
        }
    }

    /// Thrown to undo a trial creation of a vehicle.
    private struct TrialOnly: Error {}

    /// The vehicle's asset id, created at the first stored point (see `SeriesState.ref`).
    private func assetID(_ s: inout SeriesState, _ sink: inout S) throws -> Int64 {
        if let a = s.asset { return a }
        // The kind as the keys seen by now tell it (a reefer stat may follow the `id`).
        let kind = SamsaraStat.kind(keys: s.keys, path: input.path)
        let ref = s.ref!.kind == kind ? s.ref! : Self.retyped(s.ref!, as: kind)
        let a = try sink.asset(ref)
        s.asset = a
        s.ref = nil
        return a
    }

    private func flushDeferred(_ s: inout SeriesState, into sink: inout S) throws {
        // Fewest counters to defer to first: a J1939 gateway count that is used then outranks
        // the plain gateway count.
        let ranked = s.deferred.sorted { (SamsaraStat.preferred[$0.key]!.count, $0.key) < (SamsaraStat.preferred[$1.key]!.count, $1.key) }
        for (name, facts) in ranked {
            let preferred = SamsaraStat.preferred[name]!
            if let used = preferred.first(where: s.loaded.contains) {
                tally.count("\(name) readings not used because the asset has \(used), which is preferred", facts.count)
            } else {
                for fact in facts {
                    switch fact {
                    case let .reading(r): try sink.load(r)
                    case let .event(e): try sink.load(e)
                    }
                }
                s.loaded.insert(name)
            }
        }
        s.deferred = [:]
    }

    /// One point of one stat; an unusable point is rejected alone.
    private func point(_ name: String, _ stat: SamsaraStat, _ f: JSONFields, _ s: inout SeriesState, into sink: inout S) throws {
        guard s.asset != nil || s.ref != nil else { return }
        let node = f.node
        let file = sink.sourceFileID
        do {
            guard case .object = node else { throw JSONRowError(.wrongType, "a \(name) point should be an object but is \(node.kind)", at: f.path) }
            switch stat {
            case .unstored:
                tally.unstored(name)
            case let .meter(meter, scale, unit, range):
                tally.unknown(name, f.unknownPointKeys())
                let at = try f.requiredTime("time")
                guard let v = try f.number("value", in: range, unit: unit) else { throw JSONRowError(.missingField, "'value' is missing", at: f.at("value")) }
                let reading = MeterReading(assetID: try assetID(&s, &sink), meter: meter, at: at, value: v.value * scale, rawValue: v.raw, rawUnit: unit, sourceFileID: file)
                if let preferred = SamsaraStat.preferred[name] {
                    if let used = preferred.first(where: s.loaded.contains) {
                        tally.count("\(name) readings not used because the asset has \(used), which is preferred")
                    } else {
                        s.deferred[name, default: []].append(.reading(reading))
                    }
                } else {
                    s.readings.append(reading)
                    if s.readings.count >= SeriesState.batch { try flushBuffered(&s, into: &sink) }
                    // Only the preferred stats are ever looked up; inserting every stat's name
                    // hashed a string per reading.
                    if SamsaraStat.preferredStats.contains(name), !s.loaded.contains(name) { s.loaded.insert(name) }
                }
            case .engineState:
                tally.unknown(name, f.unknownPointKeys())
                let at = try f.requiredTime("time")
                let raw = try f.requiredString("value")
                guard let state = ["on": "on", "off": "off", "idle": "idle"][raw.lowercased()] else {
                    throw JSONRowError(.badValue, "engine state '\(raw)' is not On, Off or Idle", at: f.at("value"))
                }
                if let preferred = SamsaraStat.preferred[name] {
                    if let used = preferred.first(where: s.loaded.contains) {
                        tally.count("\(name) readings not used because the asset has \(used), which is preferred")
                    } else {
                        s.deferred[name, default: []].append(.event(EngineEvent(assetID: try assetID(&s, &sink), at: at, state: state, sourceFileID: file)))
                    }
                } else {
                    let event = EngineEvent(assetID: try assetID(&s, &sink), at: at, state: state, sourceFileID: file)
                    try sink.load(event)
                    if SamsaraStat.preferredStats.contains(name), !s.loaded.contains(name) { s.loaded.insert(name) }
                }
            case .gps, .location:
                var p = try position(f, asset: 0, locations: stat == .location, file: file)
                p.assetID = try assetID(&s, &sink)
                s.positions.append(p)
                if s.positions.count >= SeriesState.batch { try flushBuffered(&s, into: &sink) }
            case .faultCodes:
                let dtcs = try faultCodes(f, asset: 0, file: file)
                if !dtcs.isEmpty {
                    let asset = try assetID(&s, &sink)
                    for var dtc in dtcs { dtc.assetID = asset; try sink.load(dtc) }
                }
            }
        } catch let e as JSONRowError {
            try sink.reject(Issue(e.reason, at: e.path, e.message, raw: node.render()))
        }
    }

    /// A `gps` point (`speedMilesPerHour`, `headingDegrees`) or a `locations` point (`speed` in
    /// mph, `heading`). Speed becomes m/s; reverse geocoding is not kept.
    func position(_ f: JSONFields, asset: Int64, locations: Bool, file: Int64) throws(JSONRowError) -> Position {
        tally.unknown(locations ? "locations" : "gps", f.unknownKeys(SamsaraStat.positionKeys))
        let at = try f.requiredTime("time")
        guard let lat = try f.number("latitude", in: -90...90, unit: "°") else { throw JSONRowError(.missingField, "'latitude' is missing", at: f.at("latitude")) }
        guard let lon = try f.number("longitude", in: -180...180, unit: "°") else { throw JSONRowError(.missingField, "'longitude' is missing", at: f.at("longitude")) }
        let speed = try f.number(f.has("speedMilesPerHour") ? "speedMilesPerHour" : "speed", in: 0...500, unit: "mph")
        let heading = try f.number(f.has("headingDegrees") ? "headingDegrees" : "heading", in: 0...360, unit: "°")
        return Position(assetID: asset, at: at, lat: lat.value, lon: lon.value, speedMps: speed.map { $0.value * SamsaraUnits.metresPerSecondPerMph },
                        headingDeg: heading?.value, sourceFileID: file)
    }
}
