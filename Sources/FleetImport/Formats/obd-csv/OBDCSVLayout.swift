import Foundation
import FleetCore

/// The columns of a logger CSV, found by name: one time column, PID columns, GPS columns and a
/// driver column (docs/FORMATS.md, `obd-csv`).
///
/// Names are compared as `OBDChannels.key` makes them (lowercase letters and digits only), so
/// `timeStamp`, `time_stamp` and `TIME STAMP` are one name. A unit in the last parentheses
/// (`Speed (mph)`, `COOLANT_TEMP (degF)`) converts the values as the other OBD importers do; a
/// column without one is in the PID's J1979 unit (km/h, °C, kPa, rpm, %). Names are only ever
/// matched whole: `airTemperature` (the weather) is not the intake air temperature, and
/// `currentTrafficTravelTime` is not a clock.
struct OBDCSVLayout {
    /// Time columns, most specific first: the first of these names in the header is the clock.
    static let timeNames = ["timestamp", "timestamputc", "timestampms", "ts", "epoch", "epochms", "epochtime", "unixtime",
                            "unixtimestamp", "datetime", "dateandtime", "datetimeutc", "utctime", "timeutc", "utc", "time", "timems", "date"]
    static let driverNames: Set = ["driver", "driverid", "driverkey", "drivercode", "driverno", "drivernumber"]
    static let latNames: Set = ["lat", "latitude", "gpslat", "gpslatitude"]
    static let lonNames: Set = ["lon", "long", "lng", "longitude", "gpslon", "gpslong", "gpslng", "gpslongitude"]
    static let altNames: Set = ["alt", "altitude", "gpsaltitude", "elevation"]
    static let headingNames: Set = ["bearing", "heading", "course", "gpsbearing", "gpsheading"]

    /// Logger names for J1979 PIDs beyond `OBDChannels.names`: python-OBD's command names
    /// (`COOLANT_TEMP`, `THROTTLE_POS`, `AMBIANT_AIR_TEMP` as it spells it) and short forms
    /// loggers write. Only names that mean the PID reading itself.
    static let pidAliases: [String: Int] = [
        "coolanttemp": 0x05, "coolant": 0x05, "coolanttemperature": 0x05, "enginecoolanttemp": 0x05,
        "enginecoolanttemperature": 0x05, "throttlepos": 0x11, "throttle": 0x11, "intaketemp": 0x0F,
        "intakeairtemp": 0x0F, "intakeairtemperature": 0x0F, "intakepressure": 0x0B, "ambiantairtemp": 0x46,
        "ambientairtemp": 0x46, "runtime": 0x1F, "fuelrate": 0x5E, "oiltemp": 0x5C, "relativeaccelpos": 0x5A,
        "enginespeed": 0x0C, "vehiclespeed": 0x0D, "obdspeed": 0x0D, "speedobd": 0x0D, "engineload": 0x04,
        "fuellevel": 0x2F, "mafrate": 0x10, "controlmodulevoltage": 0x42,
    ]

    var time: Int
    var timeName: String
    var driver: Int?
    var lat: Int?, lon: Int?, alt: Int?, heading: Int?
    var pids: [(index: Int, pid: Int, unit: String, conversion: OBDChannels.Conversion)] = []
    var ignored: [String] = []
    var unconvertible: [String] = []

    static func pid(_ name: String) -> Int? { OBDChannels.pid(named: name) ?? pidAliases[OBDChannels.key(name)] }

    /// True for a header name that is a clock column of this layout.
    static func isTimeName(_ field: String) -> Bool { timeNames.contains(OBDChannels.key(OBDChannels.splitUnit(field).name)) }

    /// nil unless the header has a time column and at least one PID or a latitude and longitude.
    init?(_ fields: [String]) {
        let names = fields.map { $0.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{FEFF}"))) }
        let keys = names.map { OBDChannels.key(OBDChannels.splitUnit($0).name) }
        guard let clock = Self.timeNames.lazy.compactMap({ name in keys.firstIndex(of: name) }).first else { return nil }
        (time, timeName) = (clock, names[clock])
        for (i, field) in names.enumerated() where i != clock && !field.isEmpty {
            let (name, unit) = OBDChannels.splitUnit(field)
            let k = keys[i]
            if Self.driverNames.contains(k), driver == nil { driver = i; continue }
            if Self.latNames.contains(k), lat == nil { lat = i; continue }
            if Self.lonNames.contains(k), lon == nil { lon = i; continue }
            if Self.altNames.contains(k), alt == nil { alt = i; continue }
            if Self.headingNames.contains(k), heading == nil { heading = i; continue }
            if let pid = Self.pid(name), !pids.contains(where: { $0.pid == pid }) {
                if let c = OBDChannels.conversion(unit: unit ?? "", pid: pid) { pids.append((i, pid, unit ?? "", c)) } else { unconvertible.append(field) }
                continue
            }
            ignored.append(field)
        }
        if lat == nil || lon == nil { (lat, lon) = (nil, nil) }
        guard !pids.isEmpty || lat != nil else { return nil }
    }
}
