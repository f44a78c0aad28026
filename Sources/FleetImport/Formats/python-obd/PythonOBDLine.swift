import Foundation
import FleetCore

/// One reading line of python-OBD output (docs/FORMATS.md, "python-OBD"): a local date-time,
/// ` - `, optionally more ` - `-separated fields (Python `logging`'s logger name and level), then
/// `COMMAND: value` where value is what `print(response)` writes, `str(response.value)`: a pint
/// quantity (`850.0 revolutions_per_minute`, `42 kilometer_per_hour`, abbreviated `42 kph`), or
/// `None` when the car did not answer.
///
///     2026-10-01 08:00:00.250123 - RPM: 850.0 revolutions_per_minute
///     2026-10-01 08:00:00,250 - obd_logger - INFO - SPEED: 42 kilometer_per_hour
struct PythonOBDLine: Equatable {
    var time: Substring
    var command: Substring
    /// nil: `None`, no answer.
    var value: Double?
    /// The text after the number (the pint unit), or the whole value text when it is no number.
    var unit: Substring
    var isNumber: Bool

    /// Whether a line starts like a reading (a `YYYY-MM-DD` date): such a line that does not
    /// parse is a damaged reading, not other output.
    static func startsWithDate(_ text: Substring) -> Bool {
        let u = Array(text.utf8.prefix(10))
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D else { return false }
        return [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { (0x30...0x39).contains(u[$0]) }
    }

    /// The reading, or nil when the line has no `COMMAND:` field after its time (other output,
    /// such as a logged message). A value that is no number is returned with `isNumber` false.
    static func parse(_ text: Substring) -> PythonOBDLine? {
        guard startsWithDate(text) else { return nil }
        let parts = text.split(separator: " - ", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        for i in 1..<parts.count {
            let message = parts[i...].joined(separator: " - ")
            guard let colon = message.firstIndex(of: ":") else { continue }
            let name = message[..<colon]
            guard !name.isEmpty, name.count <= 64, name.first!.isASCII, name.first!.isUppercase,
                  name.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else { continue }
            let rest = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let time = parts[0].trimmingCharacters(in: .whitespaces)
            if rest == "None" { return PythonOBDLine(time: Substring(time), command: Substring(name), value: nil, unit: "", isNumber: true) }
            let space = rest.firstIndex(of: " ") ?? rest.endIndex
            if let v = Double(rest[..<space]), v.isFinite {
                let unit = rest[space...].trimmingCharacters(in: .whitespaces)
                return PythonOBDLine(time: Substring(time), command: Substring(name), value: v, unit: Substring(unit), isNumber: true)
            }
            return PythonOBDLine(time: Substring(time), command: Substring(name), value: nil, unit: Substring(rest), isNumber: false)
        }
        return nil
    }

    /// python-OBD's command names (`obd.commands`, mode 01) for the PIDs FleetKit stores.
    static let commands: [String: Int] = [
        "ENGINE_LOAD": 0x04, "COOLANT_TEMP": 0x05, "SHORT_FUEL_TRIM_1": 0x06, "LONG_FUEL_TRIM_1": 0x07,
        "FUEL_PRESSURE": 0x0A, "INTAKE_PRESSURE": 0x0B, "RPM": 0x0C, "SPEED": 0x0D, "TIMING_ADVANCE": 0x0E,
        "INTAKE_TEMP": 0x0F, "MAF": 0x10, "THROTTLE_POS": 0x11, "RUN_TIME": 0x1F, "DISTANCE_W_MIL": 0x21,
        "EVAPORATIVE_PURGE": 0x2E, "FUEL_LEVEL": 0x2F, "DISTANCE_SINCE_DTC_CLEAR": 0x31, "BAROMETRIC_PRESSURE": 0x33,
        "CONTROL_MODULE_VOLTAGE": 0x42, "AMBIANT_AIR_TEMP": 0x46, "EVAP_VAPOR_PRESSURE_ABS": 0x53,
        "RELATIVE_ACCEL_POS": 0x5A, "OIL_TEMP": 0x5C, "FUEL_RATE": 0x5E,
    ]

    /// A pint unit as printed, in full (`kilometer_per_hour`) or abbreviated (`kph`, `°F`), as the
    /// unit text `OBDChannels.conversion` reads; nil when it is not one of these.
    static func unit(_ pint: Substring) -> String? {
        let u = pint.lowercased().replacingOccurrences(of: " ", with: "")
        switch u {
        case "": return ""
        case "revolutions_per_minute", "revolution_per_minute", "revolution/minute", "rpm": return "rpm"
        case "kilometer_per_hour", "kilometre_per_hour", "kilometer/hour", "kph", "km/h": return "km/h"
        case "mile_per_hour", "mile/hour", "mph": return "mph"
        case "degree_celsius", "degc", "°c", "celsius", "degreec": return "°C"
        case "degree_fahrenheit", "degf", "°f", "fahrenheit", "degreef": return "°F"
        case "kilopascal", "kpa": return "kPa"
        case "pound_force_per_square_inch", "psi": return "psi"
        case "percent", "%": return "%"
        case "gps", "gram_per_second", "grams_per_second", "gram/second", "g/s": return "g/s"
        case "lph", "liter_per_hour", "liters_per_hour", "litre_per_hour", "liter/hour", "l/h": return "L/h"
        case "volt", "v": return "V"
        case "second", "s": return "s"
        case "minute", "min": return "min"
        case "kilometer", "kilometre", "km": return "km"
        case "mile", "mi": return "mi"
        case "degree", "deg", "°": return "°"
        default: return nil
        }
    }
}
