import Foundation

/// The J1979 PID an app's column or reading name stands for, and its unit conversions.
///
/// Apps name PIDs in words (Torque Pro: `Speed (OBD)`, Car Scanner: `Vehicle speed`). Names are
/// matched after lowercasing and dropping everything but letters and digits. Only names that mean
/// the raw PID are mapped: values an app computes itself (Torque's `Fuel flow rate/hour` from
/// MAF, trip averages, `GPS Speed`) are not PID readings and are not stored as one.
enum OBDChannels {
    static let names: [String: Int] = {
        let table: [(Int, [String])] = [
            (0x04, ["Engine Load", "Calculated engine load", "Calculated engine load value", "Calculated load value"]),
            (0x05, ["Engine Coolant Temperature", "Coolant temperature"]),
            (0x06, ["Short term fuel % trim - Bank 1", "Fuel Trim Bank 1 Short Term", "Short term fuel trim - Bank 1"]),
            (0x07, ["Long term fuel % trim - Bank 1", "Fuel Trim Bank 1 Long Term", "Long term fuel trim - Bank 1"]),
            (0x0A, ["Fuel pressure"]),
            (0x0B, ["Intake Manifold Pressure", "Intake manifold absolute pressure"]),
            (0x0C, ["Engine RPM", "RPM", "Engine speed"]),
            (0x0D, ["Speed (OBD)", "Vehicle speed", "Speed"]),
            (0x0E, ["Timing Advance"]),
            (0x0F, ["Intake Air Temperature"]),
            (0x10, ["Mass Air Flow Rate", "MAF air flow rate", "MAF"]),
            (0x11, ["Throttle Position(Manifold)", "Throttle position"]),
            (0x1F, ["Run time since engine start"]),
            (0x21, ["Distance travelled with MIL/CEL lit", "Distance traveled with MIL on", "Distance travelled with MIL on"]),
            (0x2E, ["Commanded evaporative purge"]),
            (0x2F, ["Fuel Level (From Engine ECU)", "Fuel level input", "Fuel tank level input", "Fuel level"]),
            (0x31, ["Distance travelled since codes cleared", "Distance traveled since codes cleared"]),
            (0x33, ["Barometric pressure (from vehicle)", "Absolute barometric pressure", "Barometric pressure"]),
            (0x42, ["Voltage (Control Module)", "Control module voltage"]),
            (0x46, ["Ambient air temp", "Ambient air temperature"]),
            (0x53, ["Absolute Evap system Vapor pressure", "Absolute evap system vapour pressure"]),
            (0x5A, ["Relative accelerator pedal position"]),
            (0x5C, ["Engine Oil Temperature"]),
            (0x5E, ["Engine fuel rate"]),
            (0xA6, ["Odometer"]),
        ]
        var out: [String: Int] = [:]
        for (pid, list) in table { for n in list { out[key(n)] = pid } }
        return out
    }()

    static func key(_ name: String) -> String {
        // ASCII (nearly every header and cell): lowercase letters and digits, byte by byte.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(name.utf8.count)
            for b in name.utf8 {
                switch b {
                case 0x41...0x5A: out.append(b + 0x20)
                case 0x61...0x7A, 0x30...0x39: out.append(b)
                default: break
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
    }

    static func pid(named name: String) -> Int? { names[key(name)] }

    /// `value` in `unit` converted to the PID's J1979 unit, nil when the unit is not one that
    /// quantity is written in. An empty unit is taken as the J1979 unit.
    static func convert(_ value: Double, unit: String, pid: Int) -> Double? {
        conversion(unit: unit, pid: pid)?.apply(value)
    }

    /// A unit conversion, decided once per column so that a row only does the arithmetic (the
    /// unit text was lowercased and compared for every value before: a tenth of a Torque import).
    enum Conversion: Equatable {
        case identity
        case times(Double)
        case fahrenheit

        func apply(_ value: Double) -> Double {
            switch self {
            case .identity: return value
            case let .times(k): return value * k
            case .fahrenheit: return (value - 32) * 5 / 9
            }
        }
    }

    /// How a value in `unit` becomes the PID's J1979 unit, nil when the unit is not one that
    /// quantity is written in. An empty unit is taken as the J1979 unit.
    static func conversion(unit: String, pid: Int) -> Conversion? {
        guard let target = OBDDecoder.pid(pid)?.unit else { return nil }
        let u = unit.lowercased().replacingOccurrences(of: " ", with: "")
        if u.isEmpty { return .identity }
        switch target {
        case "%": return u == "%" ? .identity : nil
        case "°C":
            if ["°c", "c", "℃", "degc"].contains(u) { return .identity }
            if ["°f", "f", "℉", "degf"].contains(u) { return .fahrenheit }
            return nil
        case "kPa":
            switch u {
            case "kpa": return .identity
            case "psi": return .times(6.894757293168)
            case "bar": return .times(100)
            case "inhg": return .times(3.386389)
            default: return nil
            }
        case "rpm": return ["rpm", "r/min", "1/min"].contains(u) ? .identity : nil
        case "km/h":
            switch u {
            case "km/h", "kph", "kmh", "km/hr": return .identity
            case "mph", "mi/h": return .times(1.609344)
            case "m/s": return .times(3.6)
            default: return nil
            }
        case "g/s": return ["g/s", "g/sec", "gps"].contains(u) ? .identity : (u == "lb/min" ? .times(7.559872833) : nil)
        case "s":
            switch u {
            case "s", "sec", "secs", "seconds": return .identity
            case "min": return .times(60)
            default: return nil
            }
        case "km":
            switch u {
            case "km": return .identity
            case "mi", "mile", "miles": return .times(1.609344)
            default: return nil
            }
        case "V": return ["v", "volt", "volts"].contains(u) ? .identity : nil
        case "L/h":
            switch u {
            case "l/h", "l/hr", "lph", "l/hour": return .identity
            case "gal/h", "gal/hr", "gph": return .times(3.785411784)
            default: return nil
            }
        case "° before TDC": return ["°", "deg", "degrees"].contains(u) ? .identity : nil
        default: return nil
        }
    }

    /// A header such as `Engine RPM(rpm)`, `Speed (OBD)(km/h)` or `Throttle Position(Manifold)(%)`:
    /// the name, and the unit in the last parentheses (empty for `ENGINE_RPM ()`, nil without).
    static func splitUnit(_ field: String) -> (name: String, unit: String?) {
        let f = field.trimmingCharacters(in: .whitespaces)
        guard f.hasSuffix(")"), let open = f.lastIndex(of: "(") else { return (f, nil) }
        let unit = String(f[f.index(after: open)..<f.index(before: f.endIndex)]).trimmingCharacters(in: .whitespaces)
        let name = String(f[..<open]).trimmingCharacters(in: .whitespaces)
        // `Speed (OBD)` alone: the parentheses are part of the name when no unit follows them.
        if pid(named: f) != nil, pid(named: name) == nil || name.isEmpty { return (f, nil) }
        return (name, unit)
    }

    /// A number as apps write it: `12.5`, `12,5` (comma locale), `-` or empty for none.
    static func number(_ text: String) -> Double?? {
        // ASCII: the same steps on a byte-trimmed slice; anything unusual takes the general path.
        if let t = OBDText.trimmedASCII(text) {
            if t.isEmpty || t == "-" { return .some(nil) }
            if let d = Double(t), d.isFinite { return d }
        }
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t == "-" || t == "—" { return .some(nil) }
        if let d = Double(t), d.isFinite { return d }
        if !t.contains("."), t.filter({ $0 == "," }).count == 1, let d = Double(t.replacingOccurrences(of: ",", with: ".")), d.isFinite { return d }
        return nil
    }
}
