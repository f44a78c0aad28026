import Foundation
import FleetCore

/// The JDLink machines as John Deere Operations Center saves: the equipment list
/// (`deere/equipment.json`, two pages of two, the first with a `nextPage` link) and, per
/// machine, the month's engine hours and location history
/// (`deere/engine-hours/<principalId>.json`, `deere/location-history/<principalId>.json`).
///
/// The same machines are in the JDLink ISO 15143-3 snapshots (`iso15143/jdlink/`), keyed by
/// PIN; here the machine endpoints know only the principal id, and the equipment list links it
/// to the serial number, which is the PIN. Importing both shows one asset per machine.
///
/// The readings add to the ISO feed without double counting or inventing anything. The daily
/// rollup sums deltas between consecutive readings of one counter, so a reading between two
/// others changes nothing as long as it fits the counter. The hour meter is read at local noon
/// of each operated day, between the ISO snapshot's shift-start and shift-end readings, with
/// the value the meter has then if the day's hours run evenly between those two report times
/// (on the model's 0.01 h grid): each day's engine time and every rate check stay as they
/// were. The noon fix repeats the day's ISO position, so no GPS distance appears for a machine
/// that does not travel. Both come from the ISO writer's per-machine, per-day draw
/// (`SampleFleet+ISO.swift`: latitude, longitude, start and end minute, in that order). One
/// point a month has no fix (`gpsFixTimestamp` 1970), as Deere sends when the receiver has none.
extension SampleWriter {
    mutating func writeDeere() throws {
        let machines = fleet.assets.indices.filter { fleet.assets[$0].model.telematics == "jdlink" && fleet.assets[$0].pin != nil }
        guard !machines.isEmpty else { return }
        let principal = Dictionary(uniqueKeysWithValues: machines.map { ($0, 1_200_000 + $0 * 1_117) })

        let pages = stride(from: 0, to: machines.count, by: 2).map { Array(machines[$0..<min($0 + 2, machines.count)]) }
        let base = "https://equipmentapi.deere.com/isg/equipment?organizationIds=412345&itemLimit=2"
        let text = pages.enumerated().map { p, page in
            var links = ["{\"@type\": \"Link\", \"rel\": \"self\", \"uri\": \"\(base)\(p == 0 ? "" : "&pageOffset=\(p * 2)")\"}"]
            if p < pages.count - 1 { links.append("{\"@type\": \"Link\", \"rel\": \"nextPage\", \"uri\": \"\(base)&pageOffset=\((p + 1) * 2)\"}") }
            return "  {\n    \"links\": [\n      " + links.joined(separator: ",\n      ") + "\n    ],\n    \"total\": \(machines.count),\n    \"values\": [\n"
                + page.map { equipmentJSON($0, principal: principal[$0]!) }.joined(separator: ",\n") + "\n    ]\n  }"
        }.joined(separator: ",\n")
        try write("[\n" + text + "\n]\n", to: "deere/equipment.json")

        for i in machines {
            let id = principal[i]!
            let usage = fleet.usage(of: i)
            var hours: [String] = [], points: [String] = []
            var fixRng = SeededRandom(seed: fleet.seed).fork(UInt64(8000 + i))
            let site = (41.52 + Double(i % 4) * 0.031, -88.08 - Double(i % 3) * 0.027)
            for (d, u) in usage.enumerated() where u.operated {
                // The ISO writer's draw for this machine and day: its position and report minutes.
                var iso = SeededRandom(seed: fleet.seed).fork(UInt64(5000 + i * 100 + d))
                let lat = site.0 + iso.double(-0.002...0.002), lon = site.1 + iso.double(-0.002...0.002)
                let start = localISO(u.date, 6, iso.int(25...55)).ms, end = localISO(u.date, 16, iso.int(0...59)).ms
                let noon = localISO(u.date, 12, 0).ms
                let steps = (u.engineHours * 100).rounded()
                let share = min(max((steps * Double(noon - start) / Double(end - start)).rounded(), 1), steps - 1) / 100
                hours.append("    {\"@type\": \"EngineHours\", \"reading\": {\"@type\": \"measurementAsDouble\", \"valueAsDouble\": "
                             + "\(SampleWriter.decimal(u.engineHoursAtStart + share, 2)), \"unit\": \"Hours\"}, \"reportTime\": \"\(Self.deereTime(noon))\", \"source\": \"TM\"}")
                let fix = noon - Int64(fixRng.int(1...9)) * 1000
                let noFix = d == usage.firstIndex(where: \.operated)
                points.append("    {\"@type\": \"LocationHistory\", \"point\": {\"lat\": \(String(format: "%.6f", noFix ? 0 : lat)), \"lon\": "
                              + "\(String(format: "%.6f", noFix ? 0 : lon)), \"altitude\": {\"valueAsDouble\": \(noFix ? "0.0" : "190.0"), \"unit\": \"meters\"}}, "
                              + "\"eventTimestamp\": \"\(Self.deereTime(noon))\", \"gpsFixTimestamp\": \"\(noFix ? "1970-01-01T00:00:00.000Z" : Self.deereTime(fix))\"}")
            }
            let window = "startDate=\(Self.deereTime(localISO(fleet.start, 0, 0).ms))&endDate=\(Self.deereTime(localISO(fleet.start.adding(days: fleet.days), 0, 0).ms))"
            for (endpoint, folder, values) in [("engineHours", "engine-hours", hours), ("locationHistory", "location-history", points)] {
                let body = "{\n  \"links\": [\n    {\"@type\": \"Link\", \"rel\": \"self\", \"uri\": \"https://partnerapi.deere.com/platform/machines/\(id)/\(endpoint)?\(window)\"}\n  ],\n"
                    + "  \"total\": \(values.count),\n  \"values\": [\n" + values.joined(separator: ",\n") + "\n  ]\n}\n"
                try write(body, to: "deere/\(folder)/\(id).json")
            }
        }
    }

    private func equipmentJSON(_ index: Int, principal: Int) -> String {
        let a = fleet.assets[index]
        var rng = SeededRandom(seed: fleet.seed).fork(UInt64(8500 + index))
        let hex = Array("0123456789abcdef")
        let erid = [8, 4, 4, 4, 12].map { n in String((0..<n).map { _ in rng.pick(hex) }) }.joined(separator: "-")
        let types = ["Loaders": "Wheel Loader", "Excavators": "Excavator", "Dozers": "Crawler Dozer", "Graders": "Motor Grader"]
        return """
                  {"@type": "Equipment", "id": "\(10_048_000 + index * 7)", "principalId": \(principal), "ERID": "\(erid)", "name": "\(a.unit) \(a.model.model)", \
            "serialNumber": "\(a.pin!)", "modelYear": \(a.model.year), "make": {"name": "\(a.model.make.uppercased())"}, \
            "type": {"name": "\(types[a.model.group] ?? a.model.group)"}, "model": {"name": "\(a.model.model)"}, "telematicsCapable": true, \
            "devices": [{"@type": "TelematicsGateway", "serialNumber": "PCXM4G\(String(format: "%06d", 100_000 + index * 37))", "model": {"name": "JDLink Modem-4G"}}], \
            "organizationRole": "OWNER", "archived": false}
            """
    }

    /// Deere's timestamp form: UTC with milliseconds (`2026-10-01T17:00:00.000Z`).
    static func deereTime(_ ms: Int64) -> String {
        let s = Timestamp.iso(ms)
        return ms % 1000 == 0 ? String(s.dropLast()) + ".000Z" : s
    }
}
