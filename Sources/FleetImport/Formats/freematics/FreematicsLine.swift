import Foundation
import FleetCore

/// One data line of a Freematics ONE/ONE+ log (docs/FORMATS.md, "Freematics"): a device time,
/// a hexadecimal PID and its value. The firmwares write three shapes:
///
/// - `#12345,10D=50`, `200,10C=850`, `,105=90` (the ONE's datalogger, `CDataLogger::record`): a
///   time of `#` and milliseconds since the device started, or the milliseconds since the line
///   before, or nothing for the same time;
/// - `12345:10D=50`: milliseconds since the device started, then `PID=value`;
/// - `12345,10D,50` (the ONE+'s datalogger, `SDLogger::write`): milliseconds since the device
///   started, PID and value as CSV fields.
///
/// A value of three numbers (accelerometer, gyroscope, compass) is written `x/y/z` or `x,y,z`.
struct FreematicsLine: Equatable {
    enum Time: Equatable {
        /// Milliseconds since the device started.
        case absolute(Int64)
        /// Milliseconds since the previous line's time.
        case delta(Int64)
    }

    var time: Time
    /// The PID as the device writes it: `0x100 | pid` for a mode 01 PID, the device's own numbers
    /// (GPS, motion sensors, battery) below `0x100`.
    var id: Int
    var values: [Substring]

    /// The line read, or nil when it is none of the shapes above.
    static func parse(_ text: Substring) -> FreematicsLine? {
        let t = text.drop { $0 == " " || $0 == "\t" }
        guard let sep = t.firstIndex(where: { $0 == "," || $0 == ":" }) else { return nil }
        let stamp = t[..<sep]
        let rest = t[t.index(after: sep)...]
        // Found as a Character, as it is split below: `contains("=")` searches scalars and finds
        // an `=` that a prepended mark (U+0605) fused into another character.
        let eq = rest.firstIndex(of: "=")
        let keyed = eq != nil
        let time: Time
        if t[sep] == ":" {
            guard keyed, let ms = millis(stamp) else { return nil }
            time = .absolute(ms)
        } else if stamp.first == "#" {
            guard keyed, let ms = millis(stamp.dropFirst()) else { return nil }
            time = .absolute(ms)
        } else if stamp.isEmpty {
            guard keyed else { return nil }
            time = .delta(0)
        } else {
            guard let ms = millis(stamp) else { return nil }
            time = keyed ? .delta(ms) : .absolute(ms)
        }
        let pidText: Substring, valueText: Substring
        if let eq {
            pidText = rest[..<eq]
            valueText = rest[rest.index(after: eq)...]
        } else {
            guard let comma = rest.firstIndex(of: ",") else { return nil }
            pidText = rest[..<comma]
            valueText = rest[rest.index(after: comma)...]
        }
        // Hex digits only: Int(_:radix:) would also take a sign ('-33' is no PID).
        guard (1...4).contains(pidText.count), pidText.allSatisfy(\.isHexDigit), let id = Int(pidText, radix: 16) else { return nil }
        var value = valueText
        while let last = value.last, last == " " || last == "\t" || last == "\r" { value.removeLast() }
        let values = value.split(omittingEmptySubsequences: false) { $0 == "," || $0 == "/" }
        guard values.count == 1 || values.count == 3, values.allSatisfy({ !$0.isEmpty && $0.count <= 24 }) else { return nil }
        return FreematicsLine(time: time, id: id, values: values)
    }

    /// A telelogger event record written among the readings, `102440:EV=3,TS=103160,SK=…,VIN=…`:
    /// the device time, then `EV=` and the event number of the Freematics Hub protocol (`EVENT_LOGIN
    /// 1`, `EVENT_LOGOUT 2`, `EVENT_SYNC 3` … in the firmware's `teleclient.h`). It is no reading.
    static func isEvent(_ text: Substring) -> Bool {
        let t = text.drop { $0 == " " || $0 == "\t" }
        guard let sep = t.firstIndex(where: { $0 == ":" || $0 == "," }) else { return false }
        let stamp = t[..<sep]
        guard millis(stamp.first == "#" ? stamp.dropFirst() : stamp) != nil else { return false }
        let rest = t[t.index(after: sep)...]
        return rest.hasPrefix("EV=") && (rest.dropFirst(3).first.map { $0.isASCII && $0.isNumber } ?? false)
    }

    /// 1 to 10 digits (the device counts in a 32-bit unsigned integer).
    private static func millis(_ s: Substring) -> Int64? {
        guard (1...10).contains(s.count), s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(s)
    }
}

/// The device's GPS PIDs decoded: date `ddmmyy` and time `hhmmsscc` in UTC (as TinyGPS, which
/// the firmwares read the receiver with, gives them), coordinates in degrees.
enum FreematicsGPS {
    /// `ddmmyy` as days since 1970-01-01, nil when it is not a date (0: no fix yet).
    static func date(_ text: Substring) -> Int? {
        guard text.count <= 6, let v = Int(text), v > 0 else { return nil }
        guard let d = CivilDate(year: 2000 + v % 100, month: v / 100 % 100, day: v / 10_000) else { return nil }
        return d.daysSinceEpoch
    }

    /// `hhmmsscc` (hundredths of a second) as milliseconds since midnight.
    static func time(_ text: Substring) -> Int64? {
        guard text.count <= 8, let v = Int(text), v >= 0 else { return nil }
        let h = v / 1_000_000, m = v / 10_000 % 100, s = v / 100 % 100, cs = v % 100
        guard h < 24, m < 60, s < 60 else { return nil }
        return Int64(((h * 60 + m) * 60 + s) * 1000 + cs * 10)
    }

    /// Degrees: written with a decimal point by the ONE+ (`-33.868820`), as an integer of
    /// millionths of a degree by older firmware.
    static func coordinate(_ text: Substring) -> Double? {
        if text.contains(".") { return Double(text).flatMap { $0.isFinite ? $0 : nil } }
        return Int(text).map { Double($0) / 1_000_000 }
    }
}
