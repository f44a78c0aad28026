import Foundation

/// SAE J1979 decoding: mode 01 PID formulas, trouble codes (modes 03, 07, 0A) and the VIN
/// (mode 09 PID 02). Pure functions over bytes, shared by the ELM327 transcript importer and,
/// through `OBDPID`, by the app CSV importers that name the same quantities.
///
/// Values keep the unit J1979 defines for the PID (km/h, rpm, °C, kPa, km, …), because
/// `obd_sample` is a record of what the vehicle said and the derivations read it that way
/// (docs/METRICS.md: PID 0x0D is km/h). Where a value feeds an SI table (position speed,
/// odometer meter) the importer converts it there.
public enum OBDDecoder {
    /// One mode 01 PID FleetKit decodes.
    public struct PID: Sendable, Equatable {
        public let number: Int
        public let name: String
        /// The unit the value is stored in.
        public let unit: String
        /// Data bytes after the PID byte.
        public let length: Int
        /// The formula, as docs/FORMATS.md prints it.
        public let formula: String
        let decode: @Sendable ([UInt8]) -> Double

        public static func == (a: PID, b: PID) -> Bool { a.number == b.number }
    }

    private static func ab(_ b: [UInt8]) -> Double { Double(Int(b[0]) * 256 + Int(b[1])) }

    /// The table, in PID order. docs/FORMATS.md prints the same table.
    public static let pids: [PID] = [
        PID(number: 0x04, name: "calculated engine load", unit: "%", length: 1, formula: "100A/255") { Double($0[0]) * 100 / 255 },
        PID(number: 0x05, name: "engine coolant temperature", unit: "°C", length: 1, formula: "A−40") { Double($0[0]) - 40 },
        PID(number: 0x06, name: "short term fuel trim, bank 1", unit: "%", length: 1, formula: "100A/128−100") { Double($0[0]) * 100 / 128 - 100 },
        PID(number: 0x07, name: "long term fuel trim, bank 1", unit: "%", length: 1, formula: "100A/128−100") { Double($0[0]) * 100 / 128 - 100 },
        PID(number: 0x0A, name: "fuel pressure", unit: "kPa", length: 1, formula: "3A") { Double($0[0]) * 3 },
        PID(number: 0x0B, name: "intake manifold absolute pressure", unit: "kPa", length: 1, formula: "A") { Double($0[0]) },
        PID(number: 0x0C, name: "engine speed", unit: "rpm", length: 2, formula: "(256A+B)/4") { ab($0) / 4 },
        PID(number: 0x0D, name: "vehicle speed", unit: "km/h", length: 1, formula: "A") { Double($0[0]) },
        PID(number: 0x0E, name: "timing advance", unit: "° before TDC", length: 1, formula: "A/2−64") { Double($0[0]) / 2 - 64 },
        PID(number: 0x0F, name: "intake air temperature", unit: "°C", length: 1, formula: "A−40") { Double($0[0]) - 40 },
        PID(number: 0x10, name: "mass air flow rate", unit: "g/s", length: 2, formula: "(256A+B)/100") { ab($0) / 100 },
        PID(number: 0x11, name: "throttle position", unit: "%", length: 1, formula: "100A/255") { Double($0[0]) * 100 / 255 },
        PID(number: 0x1F, name: "run time since engine start", unit: "s", length: 2, formula: "256A+B") { ab($0) },
        PID(number: 0x21, name: "distance travelled with MIL on", unit: "km", length: 2, formula: "256A+B") { ab($0) },
        PID(number: 0x2E, name: "commanded evaporative purge", unit: "%", length: 1, formula: "100A/255") { Double($0[0]) * 100 / 255 },
        PID(number: 0x2F, name: "fuel tank level", unit: "%", length: 1, formula: "100A/255") { Double($0[0]) * 100 / 255 },
        PID(number: 0x31, name: "distance travelled since codes cleared", unit: "km", length: 2, formula: "256A+B") { ab($0) },
        PID(number: 0x33, name: "absolute barometric pressure", unit: "kPa", length: 1, formula: "A") { Double($0[0]) },
        PID(number: 0x42, name: "control module voltage", unit: "V", length: 2, formula: "(256A+B)/1000") { ab($0) / 1000 },
        PID(number: 0x46, name: "ambient air temperature", unit: "°C", length: 1, formula: "A−40") { Double($0[0]) - 40 },
        PID(number: 0x53, name: "absolute evap system vapour pressure", unit: "kPa", length: 2, formula: "(256A+B)/200") { ab($0) / 200 },
        PID(number: 0x5A, name: "relative accelerator pedal position", unit: "%", length: 1, formula: "100A/255") { Double($0[0]) * 100 / 255 },
        PID(number: 0x5C, name: "engine oil temperature", unit: "°C", length: 1, formula: "A−40") { Double($0[0]) - 40 },
        PID(number: 0x5E, name: "engine fuel rate", unit: "L/h", length: 2, formula: "(256A+B)/20") { ab($0) / 20 },
        PID(number: 0xA6, name: "odometer", unit: "km", length: 4, formula: "(2²⁴A+2¹⁶B+2⁸C+D)/10") {
            Double((Int($0[0]) << 24) | (Int($0[1]) << 16) | (Int($0[2]) << 8) | Int($0[3])) / 10
        },
    ]

    private static let byNumber: [Int: PID] = Dictionary(uniqueKeysWithValues: pids.map { ($0.number, $0) })

    public static func pid(_ number: Int) -> PID? { byNumber[number] }

    /// PIDs 00, 20, 40, … answer "which PIDs are supported" with a 4-byte bitmap: not a value.
    public static func isSupportBitmap(_ pid: Int) -> Bool { pid % 0x20 == 0 && pid <= 0xE0 }

    /// A decoded mode 01 value, or why the bytes are not one.
    public enum Value: Equatable, Sendable {
        case sample(pid: Int, value: Double)
        /// A PID outside the table (its data length is unknown, so later PIDs in the same
        /// response cannot be found either).
        case unsupported(pid: Int)
        case bitmap(pid: Int)
    }

    public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Decodes the data of a mode 01 response after the `41` byte. A CAN ECU may answer up to six
    /// PIDs in one response (`41 0C 1A F8 0D 32`), so this reads PID, data, PID, data, ….
    public static func mode01(_ data: ArraySlice<UInt8>) throws -> [Value] {
        var out: [Value] = []
        var i = data.startIndex
        guard i < data.endIndex else { throw DecodeError(message: "a mode 01 response without a PID") }
        while i < data.endIndex {
            let number = Int(data[i])
            i += 1
            if isSupportBitmap(number) {
                guard data.endIndex - i >= 4 else { throw DecodeError(message: "PID \(hex(number)) needs 4 data bytes, got \(data.endIndex - i)") }
                out.append(.bitmap(pid: number))
                i += 4
                continue
            }
            guard let pid = byNumber[number] else {
                out.append(.unsupported(pid: number))
                return out
            }
            guard data.endIndex - i >= pid.length else {
                throw DecodeError(message: "PID \(hex(number)) (\(pid.name)) needs \(pid.length) data byte(s), got \(data.endIndex - i)")
            }
            out.append(.sample(pid: number, value: pid.decode(Array(data[i..<(i + pid.length)]))))
            i += pid.length
        }
        return out
    }

    /// The one value of a mode 01 response that answers exactly one PID of the table, with
    /// exactly its data bytes: what `mode01` returns as its only `.sample` for such data (nil
    /// for anything else, which `mode01` then reads). Most answers are this; it spares the
    /// array of values.
    public static func singleSample(_ data: ArraySlice<UInt8>) -> (pid: Int, value: Double)? {
        guard let first = data.first else { return nil }
        let number = Int(first)
        let index = tableIndex[number]
        guard !isSupportBitmap(number), index >= 0, data.count == 1 + pids[index].length else { return nil }
        return (number, pids[index].decode(Array(data.dropFirst())))
    }

    /// Each PID number's position in `pids`, -1 when not there: an array lookup instead of
    /// hashing the number, for the per-sample path.
    private static let tableIndex: [Int] = {
        var out = [Int](repeating: -1, count: 256)
        for (i, pid) in pids.enumerated() { out[pid.number] = i }
        return out
    }()

    /// One two-byte trouble code: the top two bits pick P/C/B/U, the next two the first digit,
    /// then three hex digits. `01 33` → `P0133`, `C1 23` → `U0123`.
    public static func dtc(_ a: UInt8, _ b: UInt8) -> String {
        let system = ["P", "C", "B", "U"][Int(a >> 6)]
        let digits = String(Int(a >> 4) & 0x3) + hexDigit(a & 0x0F) + hexDigit(b >> 4) + hexDigit(b & 0x0F)
        return system + digits
    }

    /// The codes in a mode 03/07/0A response after its `43`/`47`/`4A` byte. CAN ECUs send a count
    /// byte then 2 bytes per code (`43 01 01 33`); older protocols send exactly three codes padded
    /// with `00 00` (`43 01 33 00 00 00 00`). The length tells them apart (count form: 1 + 2n
    /// bytes; padded form: 6 bytes). `00 00` is padding, never a code.
    public static func dtcs(_ data: ArraySlice<UInt8>) throws -> [String] {
        let bytes = Array(data)
        let pairs0: ArraySlice<UInt8>
        if let n = bytes.first, bytes.count == 1 + 2 * Int(n) {
            pairs0 = bytes.dropFirst()
        } else if bytes.count == 6 {
            pairs0 = bytes[...]
        } else {
            throw DecodeError(message: "a trouble-code response of \(bytes.count) byte(s) is neither a count followed by 2-byte codes nor three padded codes")
        }
        var pairs = pairs0
        var codes: [String] = []
        while pairs.count >= 2 {
            let a = pairs[pairs.startIndex], b = pairs[pairs.startIndex + 1]
            pairs = pairs.dropFirst(2)
            if a == 0 && b == 0 { continue }
            codes.append(dtc(a, b))
        }
        return codes
    }

    /// The VIN in the data of a mode 09 PID 02 answer after `49 02`: CAN sends an item count then
    /// 17 ASCII characters; older protocols send five messages `49 02 0n` + 4 bytes each, which
    /// the caller concatenates, the first padded with zeros. Padding (`00`) is dropped; what
    /// remains must be 17 characters.
    public static func vin(_ data: [UInt8]) throws -> String {
        var bytes = data[...]
        if bytes.count == 18 || bytes.first == 1 && bytes.count > 17 { bytes = bytes.dropFirst() }
        let chars = bytes.filter { $0 != 0 }
        guard chars.count == 17, chars.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw DecodeError(message: "the mode 09 PID 02 answer holds \(chars.count) character(s) '\(String(decoding: chars.map { $0 < 0x20 || $0 > 0x7E ? 0x3F : $0 }, as: UTF8.self))', not a 17-character VIN")
        }
        return String(decoding: chars, as: UTF8.self).uppercased()
    }

    public static func hex(_ v: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return s.count < 2 ? "0" + s : s
    }

    private static func hexDigit(_ v: UInt8) -> String { String(v & 0x0F, radix: 16, uppercase: true) }
}
