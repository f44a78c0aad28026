import Foundation
import FleetCore

/// The road vehicles' telematics as a nightly job saves Samsara API responses: the vehicle list
/// (`samsara/vehicles.json`, two pages) and a stats history page per week
/// (`samsara/stats/<first day>.json`).
///
/// Every counter follows the usage model exactly: on an operated day the OBD odometer, engine
/// seconds, idle milliseconds and fuel millilitres are read when the engine goes on and off (and
/// twice in between), and each rises by that day's km, engine hours, idle hours and litres
/// (the model's rounding: 0.1 km, 0.01 h, 0.1 L). The readings of a day fall inside the local
/// day, so the daily rollup in the fleet time zone gives the model's figures back, except a
/// day with more engine time than fits (a long-haul tractor's 24 h and more), which runs past
/// midnight; the next drive then starts only after it (`restBetweenDrives`). Positions are a
/// few fixes a day (leaving the yard, coming back), not tracks.
extension SampleWriter {
    static let yard = (lat: 41.525031, lon: -88.081725)
    /// The least time between one drive's engine-off and the next drive's engine-on, ms.
    static let restBetweenDrives: Int64 = 30 * 60_000
    /// Tank sizes in litres, by model: the scale of the DEF model and of the draws kept in the
    /// sequence (the fuel level follows `tankCapacityGallons`).
    static let tanks = ["F-150": 98.0, "Transit 250": 95.0, "Cascadia 126": 1136.0, "NPR-HD": 151.0, "Prius": 43.0]
    static let j1939Faults = [(3031, 9, "Aftertreatment 1 SCR Intake Temperature", "Abnormal update rate"),
                              (110, 0, "Engine Coolant Temperature", "Data valid but above normal operational range"),
                              (3226, 2, "Aftertreatment 1 Outlet NOx", "Data erratic, intermittent or incorrect")]
    static let obdFaults = [("P0420", "Catalyst System Efficiency Below Threshold (Bank 1)"), ("P0171", "System Too Lean (Bank 1)"),
                            ("P0455", "Evaporative Emission System Leak Detected (large leak)")]

    mutating func writeSamsara() throws {
        let vehicles = fleet.assets.indices.filter { fleet.assets[$0].model.telematics == "samsara" && fleet.assets[$0].samsaraID != nil }
        guard !vehicles.isEmpty else { return }
        let pages = stride(from: 0, to: vehicles.count, by: 20).map { Array(vehicles[$0..<min($0 + 20, vehicles.count)]) }
        let text = pages.enumerated().map { p, page in
            let cursor = p == pages.count - 1 ? "" : "cGFnZS\(p + 2)"
            return "  {\n    \"data\": [\n" + page.map(vehicleJSON).joined(separator: ",\n")
                + "\n    ],\n    \"pagination\": {\"endCursor\": \"\(cursor)\", \"hasNextPage\": \(p < pages.count - 1)}\n  }"
        }.joined(separator: ",\n")
        try write("[\n" + text + "\n]\n", to: "samsara/vehicles.json")

        let series = vehicles.map { samsaraSeries(of: $0) }
        var weekStart = 0
        while weekStart < fleet.days {
            let days = weekStart..<min(weekStart + 7, fleet.days)
            let objects = vehicles.indices.map { v in statsJSON(fleet.assets[vehicles[v]], series[v], days: days) }
            try write("{\n  \"data\": [\n" + objects.joined(separator: ",\n") + "\n  ],\n  \"pagination\": {\"endCursor\": \"\", \"hasNextPage\": false}\n}\n",
                      to: "samsara/stats/\(fleet.start.adding(days: weekStart)).json")
            weekStart += 7
        }
    }

    private func vehicleJSON(_ index: Int) -> String {
        let a = fleet.assets[index]
        var rng = SeededRandom(seed: fleet.seed).fork(UInt64(6000 + index))
        let letters = Array("ABCDEFGHJKLMNPRSTUVWXYZ23456789")
        let serial = "G" + String((0..<2).map { _ in rng.pick(letters) }) + "-" + String((0..<3).map { _ in rng.pick(letters) }) + "-"
            + String((0..<3).map { _ in rng.pick(letters) })
        let created = Timestamp.iso(Timestamp.utc(fromLocal: Int64(a.inService.daysSinceEpoch) * 86_400_000 + 9 * 3_600_000, in: fleet.zone.timeZone))
        let type = a.model.group == "Sedans" ? "passenger" : "truck"
        return """
                  {"id": "\(a.samsaraID!)", "name": "\(a.unit) \(a.model.model)", "vin": "\(a.vin ?? "")", "serial": "\(serial)", \
            "licensePlate": "\(rng.int(1...9))\(rng.pick(letters))\(rng.int(10_000...99_999))", "make": "\(a.model.make)", "model": "\(a.model.model)", \
            "year": "\(a.model.year)", "vehicleType": "\(type)", "externalIds": {"samsara.serial": "\(serial)", "samsara.vin": "\(a.vin ?? "")"}, \
            "createdAtTime": "\(created)", "updatedAtTime": "2026-09-30T14:00:00Z"}
            """
    }

    /// One vehicle's points per stat over the whole period, as JSON lines with their day index.
    struct Series {
        var points: [String: [(day: Int, json: String)]] = [:]
        /// Where the vehicle went each operated day, for the GPX tracks that follow the same
        /// drives (`SampleGPX.swift`).
        var routes: [Route] = []
        mutating func add(_ stat: String, _ day: Int, _ json: String) { points[stat, default: []].append((day, json)) }
    }

    /// One operated day's drive: engine on at `start`, off at `end` (seconds into the local
    /// day), out to `out` and back by `back`; the GPS fixes lie on this route.
    struct Route {
        var day: Int
        var localDay: Int64
        var start: Int64
        var end: Int64
        var out: (lat: Double, lon: Double)
        var back: (lat: Double, lon: Double)
        /// The day's distance (odometer delta), metres.
        var metres: Double
    }

    func samsaraSeries(of index: Int) -> Series {
        let a = fleet.assets[index]
        var rng = SeededRandom(seed: fleet.seed).fork(UInt64(7000 + index))
        var s = Series()
        var odometer = Int64((a.odometerKm * 1000).rounded())
        var engine = Int64((a.engineHours * 3600).rounded())
        // Every counter starts at the asset's total since it entered service, on the grid its
        // daily steps use, so the next month's sample continues exactly where this one ends.
        var idle = Int64((a.idleHours * 100).rounded()) * 36_000
        var fuelUsed = Int64((a.fuelLitres * 10).rounded()) * 100
        let tank = Self.tanks[a.model.model] ?? 100
        // The level follows the refill model of the fuel card (`writeCosts`): the tank holds its
        // capacity less what was burned since the last fill, and a fill day's shift ends full.
        // So bought, burned and the level agree (docs/METRICS.md, "Bought against burned") but
        // for the sample's planted exceptions.
        let refillLitres = Self.tankLitres[a.model.group] ?? 80
        let capacityLitres = (Self.tankCapacityGallons[a.model.group] ?? 26) * Units.millilitresPerUSGallon / 1000
        var fillModel = SeededRandom(seed: fleet.seed).fork(UInt64(2000 + index))
        var sinceFill = fillModel.double(0...(refillLitres * 0.5))
        // These draws stay in the sequence so that the DEF, fault and GPS series drawn after
        // them keep their values; the level does not use them.
        var drawn = tank * rng.double(0.55...0.9)
        var def = rng.double(60...95)
        let diesel = a.model.fuel == "diesel"
        let faultDay = rng.chance(0.3) ? rng.int(0...(fleet.days - 1)) : nil
        let bearing = rng.double(0...(2 * Double.pi))
        // The last drive's engine-off (UTC ms), from the days before the period as well: a
        // long-haul drive of the day before the start may run past midnight, and the first
        // drive here starts only after it, exactly as the previous month's sample ended it.
        var previousEnd: Int64? = nil
        for back in (1...3).reversed() {
            let date = fleet.start.adding(days: -back)
            if let w = driveWindow(index, date, fleet.use(of: index, on: date), after: previousEnd) { previousEnd = w.endUTC }
        }
        for (d, day) in fleet.usage(of: index).enumerated() where day.operated {
            let dOdo = Int64((day.km * 10).rounded()) * 100, dIdle = Int64((day.idleHours * 100).rounded()) * 36_000
            let dFuel = Int64((day.fuelLitres * 10).rounded()) * 100
            let levelAtStart = max(0, capacityLitres - sinceFill) / capacityLitres * 100
            sinceFill += day.fuelLitres
            if sinceFill >= refillLitres * 0.7 { sinceFill = 0 }
            let levelAtEnd = max(0, capacityLitres - sinceFill) / capacityLitres * 100
            guard let window = driveWindow(index, day.date, SampleFleet.Use(operated: true, km: day.km, engineHours: day.engineHours,
                                                                            idleHours: day.idleHours, fuelLitres: day.fuelLitres),
                                           after: previousEnd) else { continue }
            let seconds = window.seconds, startSecond = window.start
            let localDay = Int64(day.date.daysSinceEpoch) * 86_400_000
            func utc(_ s: Int64) -> Int64 { Timestamp.utc(fromLocal: localDay + s * 1000, in: fleet.zone.timeZone) }
            func at(_ s: Int64) -> String { Timestamp.iso(utc(s)) }
            let times = [0, 1, 2, 3].map { startSecond + seconds * Int64($0) / 3 }
            let away = min(day.km / 6, 25.0)
            let out = offset(Self.yard, km: away, bearing: bearing), back = offset(Self.yard, km: away * 0.8, bearing: bearing + 0.3)
            for (k, t) in times.enumerated() {
                let along = Self.odometerAlong(start: times[0], end: times[3], at: t, out: out, back: back, metres: dOdo)
                s.add("obdOdometerMeters", d, "{\"time\": \"\(at(t))\", \"value\": \(odometer + along)}")
                s.add("obdEngineSeconds", d, "{\"time\": \"\(at(t))\", \"value\": \(engine + seconds * Int64(k) / 3)}")
            }
            for (k, t) in [times[0], times[3]].enumerated() {
                s.add("idlingDurationMilliseconds", d, "{\"time\": \"\(at(t))\", \"value\": \(idle + dIdle * Int64(k))}")
                s.add("fuelConsumedMilliliters", d, "{\"time\": \"\(at(t))\", \"value\": \(fuelUsed + dFuel * Int64(k))}")
            }
            if drawn - day.fuelLitres < tank * 0.15 { drawn = tank * rng.double(0.9...0.98) }
            drawn -= day.fuelLitres
            s.add("fuelPercents", d, "{\"time\": \"\(at(times[0]))\", \"value\": \(Int(levelAtStart.rounded()))}")
            s.add("fuelPercents", d, "{\"time\": \"\(at(times[3]))\", \"value\": \(Int(levelAtEnd.rounded()))}")
            if diesel {
                if def < 20 { def = rng.double(92...99) }
                s.add("defLevelMilliPercent", d, "{\"time\": \"\(at(times[0]))\", \"value\": \(Int((def * 1000).rounded()))}")
                def -= day.fuelLitres / tank * 12
            }
            s.add("engineStates", d, "{\"time\": \"\(at(times[0]))\", \"value\": \"On\"}")
            s.add("engineStates", d, "{\"time\": \"\(at(times[3]))\", \"value\": \"Off\"}")
            s.routes.append(Route(day: d, localDay: localDay, start: times[0], end: times[3], out: out, back: back, metres: Double(dOdo)))
            let fixes = [(times[0] + 60, Self.yard, 0.0, 0.0), (times[0] + 1260, out, bearing, rng.double(28...58)),
                         (times[3] - 1320, back, bearing + Double.pi, rng.double(28...58)), (times[3] - 60, Self.yard, 0.0, 0.0)]
            for (t, p, heading, mph) in fixes where t > times[0] && t < times[3] {
                let h = (heading * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
                s.add("gps", d, "{\"time\": \"\(at(t))\", \"latitude\": \(String(format: "%.6f", p.lat)), \"longitude\": \(String(format: "%.6f", p.lon)), "
                      + "\"headingDegrees\": \(Int(h.rounded()) % 360), \"speedMilesPerHour\": \(String(format: "%.1f", mph)), \"isEcuSpeed\": true}")
            }
            if d == faultDay { s.add("faultCodes", d, faultJSON(a, at: at(times[1]), &rng)) }
            previousEnd = utc(times[3])
            odometer += dOdo; engine += seconds; idle += dIdle; fuelUsed += dFuel
        }
        return s
    }

    /// The engine-on second (into the local day) and engine seconds of the asset's drive on
    /// `date`, and its engine-off (UTC ms); nil when it does not operate. A function of the
    /// seed, the asset and the date, and of the previous drive's end (a drive past midnight
    /// delays the next by `restBetweenDrives`), never of the sample's start.
    func driveWindow(_ index: Int, _ date: CivilDate, _ use: SampleFleet.Use, after previousEnd: Int64?) -> (start: Int64, seconds: Int64, endUTC: Int64)? {
        guard use.operated else { return nil }
        var rng = SeededRandom(seed: fleet.seed).fork(UInt64(7500 + index)).fork(UInt64(bitPattern: Int64(date.daysSinceEpoch)))
        let seconds = Int64((use.engineHours * 100).rounded()) * 36
        // The engine runs `seconds`, inside the local day: from about 07:00 when it fits.
        let latest = 86_340 - seconds
        var startSecond = max(30, min(Int64(7 * 3600 + rng.int(0...1200)), latest))
        let localDay = Int64(date.daysSinceEpoch) * 86_400_000
        func utc(_ s: Int64) -> Int64 { Timestamp.utc(fromLocal: localDay + s * 1000, in: fleet.zone.timeZone) }
        // A day of more engine time than the day has (a long-haul tractor's 720 km at
        // 32 km/h plus idle is 28 h) ends after midnight. The next day's drive starts only
        // after it, with a 30-minute stop: one vehicle never drives two drives at once (an
        // engine `On` while on, or fixes of two drives interleaved, are readings no vehicle sends).
        if let previousEnd, utc(startSecond) < previousEnd + Self.restBetweenDrives {
            startSecond += (previousEnd + Self.restBetweenDrives - utc(startSecond) + 999) / 1000
        }
        return (startSecond, seconds, utc(startSecond + seconds))
    }

    /// The odometer's rise (metres) at second `t` of a drive from `start` to `end` that covers
    /// `metres` along the day's route (`SampleGPX`: yard → `out` in the 20 minutes after the
    /// engine starts, four minutes there, the work leg at a steady speed, `back` → yard ending a
    /// minute before the engine stops). The odometer follows the path, so a GPS track of the
    /// drive is never longer than the odometer between two readings. A drive too short for
    /// that route (under two hours) rises evenly.
    static func odometerAlong(start: Int64, end: Int64, at t: Int64, out: (lat: Double, lon: Double), back: (lat: Double, lon: Double), metres: Int64) -> Int64 {
        guard end > start else { return metres }
        guard end - start >= 7200 else { return metres * (t - start) / (end - start) }
        let first = Geo.haversine(yard.lat, yard.lon, out.lat, out.lon), last = Geo.haversine(back.lat, back.lon, yard.lat, yard.lon)
        let work = max(Double(metres) - first - last, Geo.haversine(out.lat, out.lon, back.lat, back.lon))
        let total = first + work + last
        let workStart = start + 1505, workEnd = end - 1315
        func part(_ from: Int64, _ to: Int64) -> Double { min(max(Double(t - from) / Double(to - from), 0), 1) }
        let path = first * part(start + 65, start + 1265) + work * part(workStart, workEnd) + last * part(workEnd, end - 55)
        return min(metres, max(0, Int64((Double(metres) * path / total).rounded())))
    }

    private func faultJSON(_ a: SampleFleet.Asset, at time: String, _ rng: inout SeededRandom) -> String {
        if a.model.fuel == "diesel" {
            let f = rng.pick(Self.j1939Faults)
            return "{\"time\": \"\(time)\", \"canBusType\": \"CANBUS_J1939_500\", \"j1939\": {\"checkEngineLights\": {\"emissionsIsOn\": false, "
                + "\"protectIsOn\": false, \"stopIsOn\": false, \"warningIsOn\": true}, \"diagnosticTroubleCodes\": [{\"spnId\": \(f.0), \"fmiId\": \(f.1), "
                + "\"spnDescription\": \"\(f.2)\", \"fmiDescription\": \"\(f.3)\", \"sourceAddressName\": \"Engine #1\", \"occurrenceCount\": 1, \"milStatus\": 1, \"txId\": 0}]}}"
        }
        let f = rng.pick(Self.obdFaults)
        return "{\"time\": \"\(time)\", \"canBusType\": \"CANBUS_OBD_500\", \"obdii\": {\"checkEngineLightIsOn\": true, \"diagnosticTroubleCodes\": "
            + "[{\"txId\": 2024, \"confirmedDtcs\": [{\"dtcId\": \(Int(f.0.dropFirst(), radix: 16) ?? 0), \"dtcShortCode\": \"\(f.0)\", \"dtcDescription\": \"\(f.1)\"}], "
            + "\"pendingDtcs\": [], \"permanentDtcs\": []}]}}"
    }

    private func statsJSON(_ a: SampleFleet.Asset, _ s: Series, days: Range<Int>) -> String {
        var stats = ["obdOdometerMeters", "obdEngineSeconds", "engineStates", "gps", "fuelPercents", "fuelConsumedMilliliters", "idlingDurationMilliseconds"]
        if a.model.fuel == "diesel" { stats.append("defLevelMilliPercent") }
        if s.points["faultCodes"]?.contains(where: { days.contains($0.day) }) == true { stats.append("faultCodes") }
        let body = stats.map { stat -> String in
            let points = (s.points[stat] ?? []).filter { days.contains($0.day) }.map { "        " + $0.json }
            return "      \"\(stat)\": [" + (points.isEmpty ? "]" : "\n" + points.joined(separator: ",\n") + "\n      ]")
        }
        return "    {\n      \"id\": \"\(a.samsaraID!)\",\n      \"name\": \"\(a.unit) \(a.model.model)\",\n"
            + "      \"externalIds\": {\"samsara.vin\": \"\(a.vin ?? "")\"},\n" + body.joined(separator: ",\n") + "\n    }"
    }

    func offset(_ p: (lat: Double, lon: Double), km: Double, bearing: Double) -> (lat: Double, lon: Double) {
        (p.lat + km * cos(bearing) / 111.32, p.lon + km * sin(bearing) / (111.32 * cos(p.lat * Double.pi / 180)))
    }
}
