import Foundation
import FleetCore
import FleetWarehouse

/// Torque Pro CSV logs: one wide row per sample.
///
/// The header starts `GPS Time, Device Time, Longitude, Latitude, GPS Speed (Meters/second), …`
/// and then has one column per PID with its unit in the last parentheses (`Engine RPM(rpm)`,
/// `Speed (OBD)(km/h)`, `Engine Coolant Temperature(°C)`); there can be well over 100 columns,
/// with Unicode units, odd spaces and trailing commas. Columns that name a J1979 PID
/// (`OBDChannels`) become `obd_sample` rows converted to the PID's unit; GPS columns become
/// `position` rows; the rest (computed values such as trip averages) are listed in one note.
/// `-` is a missing value. Torque writes the header again when logging restarts in the same file;
/// such a line starts a new layout.
///
/// Time: `Device Time`, local, read by `OBDLocalClock`. Its zone, in this order: the abbreviation
/// or offset written after it; else the zone `GPS Time` names (`Sun Nov 02 01:09:03 MST 2025`,
/// Java's `Date.toString()`), when GPS Time's wall clock agrees with Device Time within 2 minutes
/// (GPS Time is the phone's last fix and may lag or be `-`); else the fleet zone, with the repeated
/// hour of a DST change resolved by file order. The zone GPS Time names decides the repeated hour
/// exactly, even for a log that starts after the clocks went back, where file order cannot tell;
/// a note says which was used. A log names no vehicle: `--asset` or the unit folder must.
public struct TorqueImporter: Importer {
    public static let format = "torque"
    public static let summary = "Torque Pro CSV logs (wide: Device Time, GPS, one 'Name(unit)' column per OBD-II PID); needs --asset UNIT or a unit folder"
    public static let example = "obd/T-12/trackLog-2026-Oct-01_08-00-00.csv"

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head) else { return OBDLayouts.looksLikeOBD(head) ? .low : .no }
        if let layout = Layout(fields), layout.time != nil, !layout.pids.isEmpty || layout.lat != nil {
            return Confidence(95)
        }
        return OBDLayouts.looksLikeOBD(head) ? .low : .no
    }

    /// Column positions of one header.
    struct Layout {
        var time: Int?
        /// `GPS Time`, read for the zone it names.
        var gpsTime: Int?
        var lat: Int?, lon: Int?, gpsSpeed: (Int, String)?, alt: Int?, bearing: Int?
        /// PID columns with their conversion to the PID's unit, decided here once per header.
        var pids: [(index: Int, pid: Int, unit: String, conversion: OBDChannels.Conversion)] = []
        var ignored: [String] = []
        var unconvertible: [String] = []

        /// nil when the header is not Torque's: it must have a `Device Time` column.
        init?(_ fields: [String]) {
            var device: Int?, gps: Int?
            for (i, raw) in fields.enumerated() {
                let field = raw.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{FEFF}")))
                if field.isEmpty { continue }
                let (name, unit) = OBDChannels.splitUnit(field)
                switch OBDChannels.key(name) {
                case "devicetime": device = i
                case "gpstime": gps = i
                case "longitude": lon = i
                case "latitude": lat = i
                case "gpsspeed": gpsSpeed = (i, unit ?? "m/s")
                case "altitude": alt = i
                case "bearing": bearing = i
                default:
                    if let pid = OBDChannels.pid(named: name), !pids.contains(where: { $0.pid == pid }) {
                        if let c = OBDChannels.conversion(unit: unit ?? "", pid: pid) { pids.append((i, pid, unit ?? "", c)) } else { unconvertible.append(field) }
                    } else {
                        ignored.append(field)
                    }
                }
            }
            guard device != nil else { return nil }
            time = device ?? gps
            gpsTime = gps
        }
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        // A file claimed only because it looks like some OBD log is refused for what it is
        // before any question of which vehicle: --asset would not make it importable.
        if let fields = CSVReader.firstRecord(input.head), Layout(fields) == nil {
            let (reason, hint) = OBDLayouts.refusal(input.head)
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: reason, hint: hint)
        }
        let asset = try OBDAttribution.asset(input, vin: nil, format: Self.format, into: &sink)
        var rows = try OBDLogRows(input, delimiter: UInt8(ascii: ","), app: "Torque Pro")
        guard var layout = Layout(rows.header.fields) else {
            let (reason, hint) = OBDLayouts.refusal(input.head)
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: reason, hint: hint)
        }
        let headerKey = OBDChannels.key(rows.header.fields.first ?? "")
        var recorder = OBDRecorder(asset: asset, file: sink.sourceFileID)
        var clock = OBDLocalClock(zone: input.zone.timeZone)
        var ignored = Set(layout.ignored), unconvertible = Set(layout.unconvertible)
        var zones = TorqueZoneTally()
        while let record = try rows.next(into: &sink) {
            let location = rows.location(record.line)
            if OBDChannels.key(record.fields[0]) == headerKey, let l = Layout(record.fields) {
                layout = l
                ignored.formUnion(l.ignored); unconvertible.formUnion(l.unconvertible)
                continue
            }
            // No savepoint per row (it was a tenth of the import): `row` throws every RowError
            // before its first write (values are parsed and checked, then loaded), and a write
            // never throws one, so a rejected row has written nothing; any other error fails the
            // whole file, savepoint or not.
            do {
                try row(record, layout, &clock, &zones, &recorder, &sink)
            } catch let e as RowError {
                try sink.reject(e.issue(at: location, raw: record.raw))
            }
        }
        try recorder.finish(into: &sink)
        for note in zones.notes(fleetZone: input.zone.identifier) { sink.note(note) }
        for column in unconvertible.sorted() {
            sink.note("PID columns with a unit FleetKit does not convert, not stored", example: column)
        }
        if !ignored.isEmpty {
            let list = ignored.sorted()
            sink.note("\(list.count) columns were not stored (GPS and sensor extras, values the app computes, PIDs outside FleetKit's table): \(list.prefix(8).joined(separator: ", "))\(list.count > 8 ? ", …" : "")")
        }
    }

    private func row<S: RecordSink>(_ record: CSVRecord, _ layout: Layout, _ clock: inout OBDLocalClock, _ zones: inout TorqueZoneTally, _ recorder: inout OBDRecorder, _ sink: inout S) throws {
        func field(_ i: Int?) -> String? {
            guard let i, i < record.fields.count else { return nil }
            return record.fields[i]
        }
        // `what` is only built for the message of a bad value: not once per cell.
        func number(_ i: Int?, _ what: @autoclosure () -> String) throws -> Double? {
            guard let text = field(i) else { return nil }
            guard let n = OBDChannels.number(text) else { throw RowError(.badNumber, "\(what()) is '\(text)', not a number") }
            return n
        }
        guard let timeText = field(layout.time).map(OBDText.trimmed), !timeText.isEmpty, timeText != "-" else {
            throw RowError(.missingField, "'Device Time' is empty")
        }
        let local: Int64, written: Int?
        do { (local, written) = try clock.read(timeText) } catch OBDLocalClock.Problem.unknownZone(let z) {
            throw RowError(.badDate, "'Device Time' is '\(timeText)': the zone '\(z)' is not an abbreviation FleetKit knows (docs/FORMATS.md lists them)")
        } catch {
            throw RowError(.badDate, "'Device Time' is '\(timeText)', not a time such as 01-Oct-2026 08:00:00.000")
        }
        let at: Int64
        do { at = try clock.resolve(local: local, offset: written ?? zones.offset(gpsTime: field(layout.gpsTime), deviceLocal: local)) } catch {
            throw RowError(.badDate, "'Device Time' is " + clock.skippedReason(timeText, local: local))
        }
        guard Timestamp.plausible.contains(at) else { throw RowError(.outOfRange, "'Device Time' is '\(timeText)', outside the years 1971–2200") }
        var values: [(pid: Int, value: Double)] = []
        for column in layout.pids {
            guard let v = try number(column.index, "the \(OBDDecoder.pid(column.pid)!.name) (PID \(OBDDecoder.hex(column.pid)))") else { continue }
            values.append((column.pid, column.conversion.apply(v)))
        }
        if let lat = try number(layout.lat, "'Latitude'"), let lon = try number(layout.lon, "'Longitude'"), lat != 0 || lon != 0 {
            guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw RowError(.outOfRange, "the position \(lat), \(lon) is outside the globe") }
            var speed: Double?
            if let (i, unit) = layout.gpsSpeed, let v = try number(i, "'GPS Speed'") {
                speed = OBDChannels.convert(v, unit: unit.lowercased().contains("meter") ? "m/s" : unit, pid: 0x0D).map { $0 / 3.6 }
            }
            try sink.load(Position(assetID: recorder.asset, at: at, lat: lat, lon: lon, speedMps: speed,
                                   headingDeg: try number(layout.bearing, "'Bearing'"), altM: try number(layout.alt, "'Altitude'"), sourceFileID: sink.sourceFileID))
        }
        try recorder.record(at: at, values: values, into: &sink)
    }
}
