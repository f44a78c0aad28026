import Foundation
import FleetCore

/// OBD-II logs of three light road vehicles, as a driver's phone app or a mechanic's laptop
/// leaves them: for each vehicle an ELM327 transcript (`obd/<UNIT>/elm-<day>.log`), a Torque
/// Pro CSV (`obd/<UNIT>/trackLog-<day>.csv`) and a Car Scanner CSV
/// (`obd/<UNIT>/carscanner-<day>.csv`), each of a morning drive on one of the vehicle's operated
/// days in the usage model, a few hundred lines long.
///
/// The drive: a minute of warm-up idle, a cruise at the model's typical speed, a stop and a minute
/// of idle, engine off. RPM follows speed (750 rpm idle, about 28 rpm per km/h). The logs carry
/// no odometer or fuel level: those counters come from Samsara for these vehicles, and a second
/// source of the same counter at other instants would only add noise. Each transcript differs
/// in adapter settings (echo, spaces, headers) and starts with the VIN (mode 09) and a
/// trouble-code read, so the three together exercise the importers' quirks.
extension SampleWriter {
    mutating func writeOBD() throws {
        let vehicles = fleet.assets.indices.filter { fleet.assets[$0].model.kind == "vehicle" && fleet.assets[$0].vin != nil }
        for (n, index) in [0, 1, 4].compactMap({ $0 < vehicles.count ? vehicles[$0] : nil }).enumerated() {
            let a = fleet.assets[index]
            let days = fleet.usage(of: index).filter { $0.operated && $0.km > 20 }
            guard days.count >= 3 else { continue }
            let unit = a.unit
            try write(elm(a, day: days[0], variant: n), to: "obd/\(unit)/elm-\(days[0].date).log")
            try write(torque(a, index: index, day: days[1], salt: UInt64(7100 + index)), to: "obd/\(unit)/trackLog-\(days[1].date).csv")
            try write(carScanner(a, day: days[2], salt: UInt64(7200 + index)), to: "obd/\(unit)/carscanner-\(days[2].date).csv")
        }
    }

    /// One instant of the drive.
    private struct DrivePoint {
        var at: Int64
        var kmh: Double
        var rpm: Double
        var coolant: Double
        var load: Double
    }

    /// A drive of `steps` samples `every` seconds apart starting 07:30 local (plus a minute per
    /// vehicle so logs of different units do not share instants).
    private func drive(_ a: SampleFleet.Asset, day: SampleFleet.Day, steps: Int, every: Int, salt: UInt64) -> [DrivePoint] {
        var rng = SeededRandom(seed: fleet.seed).fork(salt)
        let cruise = min(max(a.model.dailyKm.upperBound / 4, 35), 80)
        let unitMinute = Int64(a.unit.hashValue8 % 20)
        let start = Timestamp.utc(fromLocal: Int64(day.date.daysSinceEpoch) * 86_400_000 + (7 * 3600 + 30 * 60) * 1000 + unitMinute * 60_000, in: fleet.zone.timeZone)
        let idleSteps = max(60 / every, 1)
        var out: [DrivePoint] = []
        var coolant = 40.0
        for i in 0..<steps {
            let moving = i >= idleSteps && i < steps - idleSteps - 1
            let ramp = min(Double(i - idleSteps + 1), Double(steps - idleSteps - 1 - i), 6) / 6
            let kmh = moving ? (cruise * ramp * rng.double(0.85...1.1)).rounded() : 0
            let off = i == steps - 1
            let rpm = off ? 0 : ((750 + kmh * 28 * rng.double(0.9...1.1)) * 4).rounded() / 4
            coolant = min(coolant + (off ? 0 : 1.5), 90)
            let load = off ? 0 : (Double(Int(min(20 + kmh * 0.6 * rng.double(0.8...1.2), 95) * 255 / 100)) * 100 / 255)
            out.append(DrivePoint(at: start + Int64(i * every) * 1000, kmh: kmh, rpm: rpm, coolant: coolant.rounded(), load: load))
        }
        return out
    }

    // MARK: ELM327

    private func elm(_ a: SampleFleet.Asset, day: SampleFleet.Day, variant: Int) -> String {
        let points = drive(a, day: day, steps: 40, every: 30, salt: UInt64(7000 + variant))
        var lines: [String] = []
        let headers = variant == 1, spaces = variant != 2, echo = variant == 0
        func stamp(_ at: Int64) -> String { SampleWriter.localISO(at, fleet.zone) }
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined(separator: spaces ? " " : "") }
        func exchange(_ at: Int64, _ request: String, _ answers: [String]) {
            lines.append("\(stamp(at)) >\(request)")
            if echo { lines.append("\(stamp(at)) \(request)") }
            for answer in answers { lines.append("\(stamp(at + 120)) \(answer)") }
        }
        /// One ISO-TP single frame (headers on) or the bare answer (headers off).
        func single(_ payload: [UInt8]) -> String {
            headers ? "7E8" + (spaces ? " " : "") + hex([UInt8(payload.count)] + payload) : hex(payload)
        }
        let t0 = points[0].at - 5000
        lines.append("# ELM327 session, \(a.unit) \(a.model.make) \(a.model.model)")
        exchange(t0, "ATZ", ["ELM327 v1.5"])
        exchange(t0 + 1000, echo ? "ATE1" : "ATE0", ["OK"])
        exchange(t0 + 1200, spaces ? "ATS1" : "ATS0", ["OK"])
        exchange(t0 + 1400, headers ? "ATH1" : "ATH0", ["OK"])
        exchange(t0 + 1600, "ATSP0", ["OK"])
        exchange(t0 + 2000, "0100", ["SEARCHING...", single([0x41, 0x00, 0xBE, 0x3F, 0xA8, 0x13])])
        // The VIN: ISO-TP frames with headers, the ELM's numbered lines without.
        let vin = [UInt8(0x49), 0x02, 0x01] + Array(a.vin!.utf8)
        if headers {
            let sp = spaces ? " " : ""
            exchange(t0 + 3000, "0902", ["7E8\(sp)" + hex([0x10, 0x14] + vin[0..<6]), "7E8\(sp)" + hex([0x21] + vin[6..<13]), "7E8\(sp)" + hex([0x22] + vin[13..<20])])
        } else {
            exchange(t0 + 3000, "0902", ["014", "0: " + hex(Array(vin[0..<6])), "1: " + hex(Array(vin[6..<13])), "2: " + hex(Array(vin[13..<20]))])
        }
        // Stored trouble codes: one vehicle has P0420 (catalyst), the others none.
        exchange(t0 + 4000, "03", [single(variant == 0 ? [0x43, 0x01, 0x04, 0x20] : [0x43, 0x00])])
        exchange(t0 + 4500, "0146", ["NO DATA"])
        for p in points {
            let rpm = UInt16(p.rpm * 4)
            exchange(p.at, "010C", [single([0x41, 0x0C, UInt8(rpm >> 8), UInt8(rpm & 0xFF)])])
            exchange(p.at + 500, "010D", [single([0x41, 0x0D, UInt8(p.kmh)])])
            exchange(p.at + 1000, "0105", [single([0x41, 0x05, UInt8(p.coolant + 40)])])
            exchange(p.at + 1500, "0104", [single([0x41, 0x04, UInt8((p.load * 255 / 100).rounded())])])
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: Torque Pro

    /// The phone's GPS in the Torque log lies on the vehicle's route of that day as Samsara
    /// reports it (`SampleGPX.track`): the same drive seen by two sources, so a trip built from
    /// both is never longer than the odometer says. Outside that route (a drive under two hours
    /// has no planned path) the log has no fix, as when the phone has none.
    private func torque(_ a: SampleFleet.Asset, index: Int, day: SampleFleet.Day, salt: UInt64) -> String {
        let points = drive(a, day: day, steps: 300, every: 5, salt: salt)
        let header = "GPS Time, Device Time, Longitude, Latitude,GPS Speed (Meters/second), Horizontal Dilution of Precision, Altitude, Bearing, "
            + "G(x), G(y), G(z), G(calibrated),Engine RPM(rpm),Speed (OBD)(km/h), Engine Coolant Temperature(°C),Engine Load(%),"
            + "Voltage (Control Module)(V),Trip average KPL(kpl),"
        var lines = [header]
        let dayIndex = day.date.daysSinceEpoch - fleet.start.daysSinceEpoch
        let route = samsaraSeries(of: index).routes.first { $0.day == dayIndex }
        let path = route.flatMap { $0.end - $0.start >= 7200 ? track($0, seed: UInt64(8000 + index * 100 + $0.day)) : nil } ?? []
        let midnight = Timestamp.utc(fromLocal: Int64(day.date.daysSinceEpoch) * 86_400_000, in: fleet.zone.timeZone)
        for (i, p) in points.enumerated() {
            let mps = p.kmh / 3.6
            let second = (p.at - midnight) / 1000
            let fix = path.count > 1 && second >= path[0].second && second <= path[path.count - 1].second
                ? path.min { abs($0.second - second) < abs($1.second - second) } : nil
            let local = SampleWriter.torqueTime(p.at, fleet.zone)
            let gps = i < 6 || fix == nil ? ["-", "-", "-", "-", "-", "-", "-"]
                : [SampleWriter.javaTime(p.at, fleet.zone), SampleWriter.decimal(fix!.lon, 6), SampleWriter.decimal(fix!.lat, 6), SampleWriter.decimal(mps, 2), "4.0", "191.0",
                   SampleWriter.decimal(fix!.course, 1)]
            let volts = p.rpm > 0 ? "14.1" : "12.6"
            let kpl = i < 60 ? "-" : "11.4"
            lines.append(([gps[0], local] + gps[1...] + ["0.01", "0.02", "0.98", "0.01", SampleWriter.decimal(p.rpm, 2), SampleWriter.decimal(p.kmh, 0),
                                                          SampleWriter.decimal(p.coolant, 0), SampleWriter.decimal(p.load, 2), volts, kpl, ""]).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Car Scanner

    private func carScanner(_ a: SampleFleet.Asset, day: SampleFleet.Day, salt: UInt64) -> String {
        let points = drive(a, day: day, steps: 75, every: 4, salt: salt)
        var lines = ["\"SECONDS\";\"PID\";\"VALUE\";\"UNITS\";"]
        for p in points {
            let secs = String(format: "%.3f", Double(p.at) / 1000)
            for (name, value, unit) in [("Engine RPM", SampleWriter.decimal(p.rpm, 2), "rpm"), ("Vehicle speed ", SampleWriter.decimal(p.kmh, 0), "km/h"),
                                        ("Engine coolant temperature", SampleWriter.decimal(p.coolant, 0), "°C"),
                                        ("Calculated engine load value", SampleWriter.decimal(p.load, 2), "%")] {
                lines.append("\"\(secs)\";\"\(name)\";\"\(value)\";\"\(unit)\";")
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: Time texts

    static func offset(_ at: Int64, _ zone: FleetZone) -> Int {
        zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(at) / 1000))
    }

    /// `2026-10-05T07:30:00.120-05:00`
    static func localISO(_ at: Int64, _ zone: FleetZone) -> String {
        let off = offset(at, zone)
        let local = Timestamp.iso(at + Int64(off) * 1000).dropLast()
        let withMillis = local.contains(".") ? String(local) : local + ".000"
        let sign = off < 0 ? "-" : "+"
        return withMillis + sign + String(format: "%02d:%02d", abs(off) / 3600, abs(off) % 3600 / 60)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// Torque's Device Time: `05-Oct-2026 07:30:00.000 CDT`. The abbreviation is written from the
    /// offset (Foundation's names differ between platforms); the sample fleet is in Chicago.
    static func torqueTime(_ at: Int64, _ zone: FleetZone) -> String {
        let off = offset(at, zone)
        let local = at + Int64(off) * 1000
        let d = CivilDate(daysSinceEpoch: Int((Double(local) / 86_400_000).rounded(.down)))
        let ms = Int(local - Int64(d.daysSinceEpoch) * 86_400_000)
        let abbreviation = [0: "UTC", -18000: "CDT", -21600: "CST"][off] ?? gmt(off)
        return two(d.day) + "-" + monthNames[d.month - 1] + "-" + String(d.year) + " " + two(ms / 3_600_000) + ":" + two(ms / 60_000 % 60) + ":"
            + two(ms / 1000 % 60) + "." + String(format: "%03d", ms % 1000) + " " + abbreviation
    }

    private static func two(_ v: Int) -> String { String(format: "%02d", v) }

    private static func gmt(_ off: Int) -> String { "GMT" + (off < 0 ? "-" : "+") + two(abs(off) / 3600) + ":" + two(abs(off) % 3600 / 60) }

    /// Torque's GPS Time (Java `Date.toString`): `Mon Oct 05 07:30:00 GMT-05:00 2026`.
    static func javaTime(_ at: Int64, _ zone: FleetZone) -> String {
        let off = offset(at, zone)
        let local = at + Int64(off) * 1000
        let days = Int((Double(local) / 86_400_000).rounded(.down))
        let d = CivilDate(daysSinceEpoch: days)
        let s = Int(local / 1000 - Int64(days) * 86_400)
        return dayNames[((days % 7) + 7) % 7] + " " + monthNames[d.month - 1] + " " + two(d.day) + " " + two(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60)
            + " " + gmt(off) + " " + String(d.year)
    }
}

private extension String {
    /// A stable small hash (Swift's `hashValue` is seeded per process).
    var hashValue8: Int { utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } }
}
