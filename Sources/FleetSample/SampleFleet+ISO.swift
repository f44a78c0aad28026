import Foundation
import FleetCore

/// The machines' telematics as ISO 15143-3 fleet snapshots, two per OEM feed and local day (the
/// nightly job pulls at 07:00 and 23:00): JDLink in the ISO namespace, KOMTRAX in the JCMA
/// namespace with a prefix. Cumulative hours, idle hours and fuel follow the usage model exactly:
/// the morning snapshot reports the meters at shift start, the evening one at shift end, so a
/// day's hours fall between them. A machine that did not run keeps the element times and place
/// of its last report (a stale snapshot, as real feeds send).
extension SampleWriter {
    mutating func writeISO() throws {
        let feeds: [(name: String, telematics: String, open: String, close: String, prefix: String)] = [
            ("jdlink", "jdlink", "<Fleet xmlns=\"http://standards.iso.org/iso/15143/-3\" version=\"1\"", "</Fleet>", ""),
            ("komtrax", "komtrax", "<j:Fleet xmlns:j=\"http://www.jcmanet.or.jp/english2017/ISO/15143/-3/20190501\" version=\"20190501\"", "</j:Fleet>", "j:"),
        ]
        let machines = fleet.assets.enumerated().filter { $0.element.model.kind == "equipment" }
        let usage = Dictionary(uniqueKeysWithValues: machines.map { ($0.offset, fleet.usage(of: $0.offset)) })
        for feed in feeds {
            let mine = machines.filter { $0.element.model.telematics == feed.telematics }
            guard !mine.isEmpty else { continue }
            var lastReport: [Int: (text: String, hours: Double, idle: Double, fuel: Double, lat: Double, lon: Double)] = [:]
            for d in 0..<fleet.days {
                let day = fleet.start.adding(days: d)
                for (hour, label) in [(7, "07"), (23, "23")] {
                    let snapshot = localISO(day, hour, 0)
                    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- \(feed.name.uppercased()) ISO 15143-3 fleet snapshot, saved by the nightly job. -->\n"
                    xml += "\(feed.open) snapshotTime=\"\(snapshot.text)\">\n"
                    let p = feed.prefix
                    for (i, a) in mine {
                        let u = usage[i]![d]
                        let before = usage[i]![..<d]
                        let startIdle = a.idleHours + before.map(\.idleHours).reduce(0, +)
                        let startFuel = a.fuelLitres + before.map(\.fuelLitres).reduce(0, +)
                        if u.operated {
                            lastReport[i] = isoReport(i, day, SampleFleet.Use(operated: true, km: u.km, engineHours: u.engineHours, idleHours: u.idleHours,
                                                                               fuelLitres: u.fuelLitres),
                                                      meters: (u.engineHoursAtStart, startIdle, startFuel), evening: hour != 7)
                        } else if lastReport[i] == nil {
                            lastReport[i] = reportBefore(i, a) ?? isoReport(i, day.adding(days: -1), SampleFleet.Use(operated: true, km: 0, engineHours: 0, idleHours: 0, fuelLitres: 0),
                                                                          meters: (u.engineHoursAtStart, startIdle, startFuel), evening: true)
                        }
                        let r = lastReport[i]!
                        func el(_ name: String, _ body: String) -> String {
                            "    <\(p)\(name) datetime=\"\(r.text)\">\n\(body)    </\(p)\(name)>\n"
                        }
                        func v(_ name: String, _ value: String) -> String { "      <\(p)\(name)>\(value)</\(p)\(name)>\n" }
                        xml += "  <\(p)Equipment>\n    <\(p)EquipmentHeader>\n"
                        xml += "  " + v("OEMName", a.model.make.uppercased()) + "  " + v("Model", a.model.model)
                        xml += "  " + v("EquipmentID", "\(a.unit) \(a.model.model)") + "  " + v("SerialNumber", a.pin!) + "  " + v("PIN", a.pin!)
                        xml += "    </\(p)EquipmentHeader>\n"
                        xml += el("Location", v("Latitude", String(format: "%.6f", r.lat)) + v("Longitude", String(format: "%.6f", r.lon))
                                  + v("Altitude", "190") + v("AltitudeUnits", "metre"))
                        xml += el("CumulativeOperatingHours", v("Hour", String(format: "%.2f", r.hours)))
                        xml += el("CumulativeIdleHours", v("Hour", String(format: "%.2f", r.idle)))
                        xml += el("FuelUsed", v("FuelUnits", "litre") + v("FuelConsumed", String(format: "%.1f", r.fuel)))
                        xml += el("EngineStatus", v("EngineNumber", "1") + v("Running", hour == 7 && u.operated ? "true" : "false"))
                        xml += "  </\(p)Equipment>\n"
                    }
                    xml += feed.close + "\n"
                    try write(xml, to: "iso15143/\(feed.name)/fleet-\(day)T\(label).xml")
                }
            }
        }
    }

    typealias ISOReport = (text: String, hours: Double, idle: Double, fuel: Double, lat: Double, lon: Double)

    /// A machine's report of `date`: at shift start (06:xx) or shift end (16:xx, later on a long
    /// day), with the meters at the day's start plus its use. A function of the seed, the
    /// machine and the date: the samples of two months report the same of every day.
    func isoReport(_ i: Int, _ date: CivilDate, _ u: SampleFleet.Use, meters: (hours: Double, idle: Double, fuel: Double), evening: Bool) -> ISOReport {
        var rng = SeededRandom(seed: fleet.seed).fork(UInt64(5000 + i)).fork(UInt64(bitPattern: Int64(date.daysSinceEpoch)))
        let site = (41.52 + Double(i % 4) * 0.031, -88.08 - Double(i % 3) * 0.027)
        let lat = site.0 + rng.double(-0.002...0.002), lon = site.1 + rng.double(-0.002...0.002)
        let startMinute = rng.int(25...55), endMinute = rng.int(0...59)
        // The shift ends at 16:xx, or later on a long day: the hour meter cannot
        // run faster than the clock (the rollup flags that as implausible).
        let end = max(16 * 60 + endMinute, 6 * 60 + startMinute + Int((u.engineHours * 60).rounded(.up)) + 20)
        return evening
            ? (localISO(date, end / 60, end % 60).text, meters.hours + u.engineHours, meters.idle + u.idleHours, meters.fuel + u.fuelLitres, lat, lon)
            : (localISO(date, 6, startMinute).text, meters.hours, meters.idle, meters.fuel, lat, lon)
    }

    /// The last report before the period (the evening of the machine's last operated day in
    /// the 60 days before it): what a stale snapshot repeats until the machine runs again, the
    /// same report the previous month's sample ended with.
    func reportBefore(_ i: Int, _ a: SampleFleet.Asset) -> ISOReport? {
        var hours = a.engineHours, idle = a.idleHours, fuel = a.fuelLitres
        for back in 1...60 {
            let date = fleet.start.adding(days: -back)
            guard date >= a.inService else { return nil }
            let u = fleet.use(of: i, on: date)
            hours -= u.engineHours
            idle -= u.idleHours
            fuel -= u.fuelLitres
            if u.operated { return isoReport(i, date, u, meters: (hours, idle, fuel), evening: true) }
        }
        return nil
    }
}
