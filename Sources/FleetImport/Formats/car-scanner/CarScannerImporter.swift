import Foundation
import FleetCore
import FleetWarehouse

/// Car Scanner CSV logs: long format, one reading per row.
///
/// `"SECONDS";"PID";"VALUE";"UNITS";`, `;`-separated, every field quoted, a trailing `;`,
/// sometimes `"LATITUDE";"LONGITUDE"` columns, mixed line endings, PID names with trailing
/// spaces. A PID name that means a J1979 PID (`OBDChannels`) becomes an `obd_sample` row in the
/// PID's unit; other names (the app's computed values) are counted in one note. Consecutive rows
/// with the same SECONDS are one instant.
///
/// SECONDS is a Unix time when it is one (≥ 10⁹); otherwise it counts from local midnight of the
/// recording day, which must then be in the file name (`2025-11-20 16-05-09.csv`,
/// `log_2026-10-01_080000`, `nov_4_2025`; local in the fleet zone), see `CarScannerClock`. A log
/// names no vehicle: `--asset` or the unit folder must.
public struct CarScannerImporter: Importer {
    public static let format = "car-scanner"
    public static let summary = "Car Scanner CSV logs (long, ';'-separated: SECONDS;PID;VALUE;UNITS, optional LATITUDE;LONGITUDE); needs --asset UNIT or a unit folder"
    public static let example = "obd/T-12/2026-10-01 08-00-00.csv"

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head) else { return .no }
        let keys = fields.map { OBDChannels.key($0) }
        return ["seconds", "pid", "value", "units"].allSatisfy(keys.contains) ? Confidence(95) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.refuseUndated(input)
        let asset = try OBDAttribution.asset(input, vin: nil, format: Self.format, into: &sink)
        var rows = try OBDLogRows(input, app: "Car Scanner")
        var columns: [String: Int] = [:]
        for (i, f) in rows.header.fields.enumerated() {
            let k = OBDChannels.key(f)
            if k.hasPrefix("long") { columns["longitude"] = i } else if !k.isEmpty, columns[k] == nil { columns[k] = i }
        }
        guard let cSeconds = columns["seconds"], let cPID = columns["pid"], let cValue = columns["value"] else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the header lacks SECONDS, PID or VALUE, so this is not a Car Scanner log", hint: OBDLayouts.supported)
        }
        var clock = CarScannerClock(fileName: input.name, zone: input.zone)
        var recorder = OBDRecorder(asset: asset, file: sink.sourceFileID)
        var instant: (at: Int64, values: [(pid: Int, value: Double)])?
        var lastPosition: Int64?
        var unknown: [String: Int] = [:], otherUnknown = 0
        var empty = 0
        while let record = try rows.next(into: &sink) {
            let location = rows.location(record.line)
            func field(_ i: Int?) -> String {
                guard let i, i < record.fields.count else { return "" }
                return record.fields[i].trimmingCharacters(in: .whitespaces)
            }
            do {
                guard let secs = Double(field(cSeconds)), secs.isFinite, secs >= 0 else {
                    throw RowError(.badNumber, "SECONDS is '\(field(cSeconds))', not a number of seconds")
                }
                let at: Int64
                do { at = try clock.utc(secs) } catch let u as CarScannerClock.Undated {
                    throw FleetError.unreadable(file: input.path, location: location, reason: u.reason, hint: u.hint)
                }
                guard Timestamp.plausible.contains(at) else { throw RowError(.outOfRange, "SECONDS \(field(cSeconds)) is outside the years 1971–2200") }
                if let i = instant, i.at != at {
                    try recorder.record(at: i.at, values: i.values, into: &sink)
                    instant = nil
                }
                let name = field(cPID)
                guard let pid = OBDChannels.pid(named: name) else {
                    // At most 100 distinct names kept: a file of unique names cannot grow the tally.
                    if unknown[name] != nil || unknown.count < 100 { unknown[name, default: 0] += 1 } else { otherUnknown += 1 }
                    try position(record, columns, at, &lastPosition, asset, &sink)
                    continue
                }
                guard let parsed = OBDChannels.number(field(cValue)) else { throw RowError(.badNumber, "VALUE of '\(name)' is '\(field(cValue))', not a number") }
                guard let raw = parsed else { empty += 1; continue }
                let unit = field(columns["units"])
                guard let value = OBDChannels.convert(raw, unit: unit, pid: pid) else {
                    throw RowError(.badValue, "'\(name)' is in '\(unit)', not a unit FleetKit converts to \(OBDDecoder.pid(pid)!.unit)")
                }
                var current = instant ?? (at, [])
                if !current.values.contains(where: { $0.pid == pid }) { current.values.append((pid, value)) }
                instant = current
                try position(record, columns, at, &lastPosition, asset, &sink)
            } catch let e as RowError {
                try sink.reject(e.issue(at: location, raw: record.raw))
            }
        }
        if let i = instant { try recorder.record(at: i.at, values: i.values, into: &sink) }
        try recorder.finish(into: &sink)
        let names = unknown.keys.sorted()
        let total = unknown.values.reduce(0, +) + otherUnknown, distinct = otherUnknown > 0 ? "more than \(names.count)" : "\(names.count)"
        // Readings, and none stored: not an import (a log in the app's other languages was
        // "imported, exit 0" with nothing in it).
        if recorder.samples == 0, lastPosition == nil, total + empty > 0 {
            let what = total > 0
                ? "its \(total) readings are of \(distinct) names, none a PID FleetKit reads (\(names.prefix(5).joined(separator: ", "))\(names.count > 5 ? ", …" : ""))\(empty > 0 ? ", and \(empty) readings have no value" : "")"
                : "its \(empty) readings all have no value ('-' or empty)"
            throw FleetError.unreadable(file: input.path, location: nil, reason: "\(what): nothing of the log could be stored",
                                        hint: "Car Scanner writes PID names in the app's language and FleetKit reads the names docs/FORMATS.md lists (English); set the app's language to English and export the log again. Nothing of this file was imported.")
        }
        if !unknown.isEmpty {
            sink.note("\(total) readings of \(distinct) names were not stored (values the app computes, or PIDs outside FleetKit's table): \(names.prefix(8).joined(separator: ", "))\(names.count > 8 ? ", …" : "")")
        }
        if let how = clock.description { sink.note(how) }
        if empty > 0 { sink.note("\(empty) readings without a value ('-' or empty) were skipped") }
    }

    /// A log whose time cannot be known (SECONDS of a day the file name does not give) is refused
    /// for that before any question of which vehicle: --asset would not make it importable. Read
    /// from the first data row in the head; the main loop decides again on the same row.
    static func refuseUndated(_ input: InputFile) throws {
        guard var reader = try? CSVReader(data: input.head), let header = try? reader.next(),
              let i = header.fields.firstIndex(where: { OBDChannels.key($0) == "seconds" }),
              let row = try? reader.next(), i < row.fields.count,
              let secs = Double(row.fields[i].trimmingCharacters(in: .whitespaces)), secs.isFinite, secs >= 0 else { return }
        var clock = CarScannerClock(fileName: input.name, zone: input.zone)
        do { _ = try clock.utc(secs) } catch let u as CarScannerClock.Undated {
            throw FleetError.unreadable(file: input.path, location: "line \(row.line)", reason: u.reason, hint: u.hint)
        } catch is RowError {
            // An impossible first value is that row's reject in the main loop, not the file's.
        }
    }

    /// One position per instant from the optional LATITUDE/LONGITUDE columns.
    private func position<S: RecordSink>(_ record: CSVRecord, _ columns: [String: Int], _ at: Int64, _ last: inout Int64?, _ asset: Int64, _ sink: inout S) throws {
        guard let li = columns["latitude"], let oi = columns["longitude"], li < record.fields.count, oi < record.fields.count, last != at,
              let la = OBDChannels.number(record.fields[li]), let lo = OBDChannels.number(record.fields[oi]) else { return }
        guard let lat = la, let lon = lo, lat != 0 || lon != 0 else { return }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw RowError(.outOfRange, "the position \(lat), \(lon) is outside the globe") }
        try sink.load(Position(assetID: asset, at: at, lat: lat, lon: lon, sourceFileID: sink.sourceFileID))
        last = at
    }
}
