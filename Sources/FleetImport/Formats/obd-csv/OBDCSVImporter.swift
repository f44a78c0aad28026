import Foundation
import FleetCore
import FleetWarehouse

/// Logger CSVs with a clock: one wide row per sample, a time column that is an epoch (seconds,
/// milliseconds, microseconds or nanoseconds, told apart by magnitude) or a full date-time, and
/// columns found by name (`OBDCSVLayout`): J1979 PIDs (`rpm`, `speed`, `COOLANT_TEMP`, …,
/// units in parentheses converted to the PID's unit), latitude and longitude, and a driver.
///
/// What python-OBD scripts, pyobd forks, Raspberry Pi loggers and research data sets write when
/// they are not Torque or Car Scanner. Rows are placed in time by their own clock: an epoch is
/// UTC by definition, a date-time with a zone is exact, one without is read in the fleet zone
/// and counted in a note. Positions are judged against their neighbours (`FixJudge`) as GPX
/// fixes are. A driver column names the driver of each run of rows (a session): the driver
/// (`auto_created` when new, identified by the column's value) is assigned to the asset from
/// the run's first row to its last, which is how trips find their driver. A log names no
/// vehicle: `--asset` or the unit folder must.
public struct OBDCSVImporter: Importer {
    public static let format = "obd-csv"
    public static let summary = "OBD-II logger CSVs with a clock (wide: an epoch or date-time time column, PID columns by name such as rpm, speed, COOLANT_TEMP, lat/lon, a driver column); needs --asset UNIT or a unit folder"
    public static let example = "obd/T-12/obd_log_1711293780.csv"

    public init() {}

    /// Below Torque's 95: a Torque log has time-like columns too, and is Torque's.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        guard let fields = CSVReader.firstRecord(head), let layout = OBDCSVLayout(fields) else { return .no }
        return layout.pids.isEmpty ? Confidence(60) : Confidence(70)
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        guard let fields = CSVReader.firstRecord(input.head), OBDCSVLayout(fields) != nil else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the header has no time column with a name FleetKit knows (\(OBDCSVLayout.timeNames.prefix(6).joined(separator: ", ")), …) beside OBD or GPS columns",
                                        hint: OBDLayouts.supported)
        }
        let asset = try OBDAttribution.asset(input, vin: nil, format: Self.format, into: &sink)
        var rows = try OBDLogRows(input, app: "the logger")
        guard let layout = OBDCSVLayout(rows.header.fields) else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the header has no time column beside OBD or GPS columns", hint: OBDLayouts.supported)
        }
        let headerKey = OBDChannels.key(rows.header.fields.first ?? "")
        var state = ReadState(asset: asset, file: sink.sourceFileID, zone: input.zone.timeZone)
        while let record = try rows.next(into: &sink) {
            // A logger that restarts may write its header again: not a row.
            if OBDChannels.key(record.fields[0]) == headerKey, OBDCSVLayout(record.fields) != nil { continue }
            do {
                try row(record, layout, &state, &sink)
            } catch let e as RowError {
                try sink.reject(e.issue(at: rows.location(record.line), raw: record.raw))
            }
        }
        try state.finish(into: &sink)
        // Rows, and nothing stored nor rejected: not an import (exit 0 would say all is well).
        if state.rows > 0, state.recorder.samples == 0, state.positions == 0, sink.counts.rejected == 0 {
            throw FleetError.unreadable(file: input.path, location: nil,
                                        reason: "its \(state.rows) rows have no value in any PID or position column (\(layout.pids.map { rows.header.fields[$0.index] }.joined(separator: ", "))): nothing of the log could be stored",
                                        hint: "Check that the logger wrote its readings (an empty column is no reading); nothing of this file was imported.")
        }
        if let note = state.clock.note(column: layout.timeName) { sink.note(note) }
        if state.drivers > 0, let d = layout.driver {
            sink.note("'\(rows.header.fields[d])' read as the driver: \(state.drivers) run\(state.drivers == 1 ? "" : "s") of rows, each assigned to its driver on this asset from its first row to its last")
        }
        for column in layout.unconvertible.sorted() {
            sink.note("PID columns with a unit FleetKit does not convert, not stored", example: column)
        }
        if !layout.ignored.isEmpty {
            let list = layout.ignored
            sink.note("\(list.count) columns were not stored (not a J1979 PID FleetKit reads, nor time, position or driver): \(list.prefix(8).joined(separator: ", "))\(list.count > 8 ? ", …" : "")")
        }
    }

    /// What a file's rows build up: samples and engine state, positions in doubt, the current
    /// driver's run.
    struct ReadState {
        var recorder: OBDRecorder
        var clock: OBDCSVClock
        var judge = FixJudge<Position>(time: { $0.at }, place: { ($0.lat, $0.lon) })
        /// Kept fixes not yet loaded (a batch at most); dropped ones go straight to the notes.
        var fixes: [Position] = []
        var run: (driver: String, first: Int64, last: Int64)?
        var drivers = 0
        /// Rows placed in time, and positions kept.
        var rows = 0, positions = 0

        init(asset: Int64, file: Int64, zone: TimeZone) {
            recorder = OBDRecorder(asset: asset, file: file)
            clock = OBDCSVClock(zone: zone)
        }

        mutating func position<S: RecordSink>(_ p: Position, into sink: inout S) throws {
            var kept: [Position] = [], gone: [String] = []
            judge.add(p, keep: { kept.append($0) }, drop: { gone.append(Self.describe($0)) })
            fixes += kept
            for d in gone { sink.note(GPXPipeline.droppedKind, example: d) }
            positions += kept.count
            if fixes.count >= OBDRecorder.batch { try sink.load(contentsOf: fixes); fixes.removeAll(keepingCapacity: true) }
        }

        /// A driver's value on a row: a new value ends the run before and starts one.
        mutating func driver<S: RecordSink>(_ value: String, at: Int64, into sink: inout S) throws {
            if var r = run, r.driver == value {
                (r.first, r.last) = (min(r.first, at), max(r.last, at))
                run = r
                return
            }
            try closeRun(into: &sink)
            run = (value, at, at)
        }

        mutating func closeRun<S: RecordSink>(into sink: inout S) throws {
            guard let r = run else { return }
            run = nil
            let id = try sink.driver(DriverRef(identifiers: [.init(source: OBDCSVImporter.format, type: "driver_id", value: r.driver)]))
            try sink.load(Assignment(driverID: id, assetID: recorder.asset, startAt: r.first, endAt: r.last, sourceFileID: recorder.file))
            drivers += 1
        }

        mutating func finish<S: RecordSink>(into sink: inout S) throws {
            var kept: [Position] = [], gone: [String] = []
            judge.finish(keep: { kept.append($0) }, drop: { gone.append(Self.describe($0)) })
            positions += kept.count
            fixes += kept
            for d in gone { sink.note(GPXPipeline.droppedKind, example: d) }
            if !fixes.isEmpty { try sink.load(contentsOf: fixes) }
            fixes = []
            try closeRun(into: &sink)
            try recorder.finish(into: &sink)
        }

        static func describe(_ v: FixJudge<Position>.Verdict) -> String {
            let speeds = v.speeds.map { $0.isFinite ? "\(Int($0.rounded())) m/s" : "no time" }
            return "\(Timestamp.iso(v.fix.at)): \(speeds.joined(separator: ", "))"
        }
    }

    private func row<S: RecordSink>(_ record: CSVRecord, _ layout: OBDCSVLayout, _ state: inout ReadState, _ sink: inout S) throws {
        func field(_ i: Int?) -> String? {
            guard let i, i < record.fields.count else { return nil }
            return record.fields[i]
        }
        func number(_ i: Int?, _ what: @autoclosure () -> String) throws -> Double? {
            guard let text = field(i) else { return nil }
            guard let n = OBDChannels.number(text) else { throw RowError(.badNumber, "\(what()) is '\(text)', not a number") }
            return n
        }
        guard let timeText = field(layout.time).map(OBDText.trimmed), !timeText.isEmpty else {
            throw RowError(.missingField, "'\(layout.timeName)' is empty")
        }
        // A local time the zone skipped is never shifted onto another (LocalTime).
        if let local = LocalTime.skipped(OBDText.trimmed(timeText), zone: state.clock.zone) {
            throw RowError(.badDate, "'\(layout.timeName)' is " + LocalTime.skippedReason(timeText, local: local, zone: state.clock.zone))
        }
        guard let at = state.clock.read(timeText) else {
            throw RowError(.badDate, "'\(layout.timeName)' is '\(timeText)': neither an epoch number (seconds or milliseconds since 1970 UTC) nor a date-time such as 2026-10-01T08:00:00Z")
        }
        guard Timestamp.plausible.contains(at) else {
            throw RowError(.outOfRange, "'\(layout.timeName)' is '\(timeText)', \(Timestamp.iso(at)), outside the years 1971–2200")
        }
        var values: [(pid: Int, value: Double)] = []
        for column in layout.pids {
            guard let v = try number(column.index, "the \(OBDDecoder.pid(column.pid)?.name ?? "PID") (PID \(OBDDecoder.hex(column.pid)))") else { continue }
            values.append((column.pid, column.conversion.apply(v)))
        }
        state.rows += 1
        var position: Position?
        if let lat = try number(layout.lat, "the latitude"), let lon = try number(layout.lon, "the longitude"), lat != 0 || lon != 0 {
            guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw RowError(.outOfRange, "the position \(lat), \(lon) is outside the globe") }
            let heading = try number(layout.heading, "the heading")
            position = Position(assetID: state.recorder.asset, at: at, lat: lat, lon: lon,
                                headingDeg: heading.flatMap { (0...360).contains($0) ? $0 : nil }, altM: try number(layout.alt, "the altitude"),
                                sourceFileID: sink.sourceFileID)
        }
        // Every value is checked before the first write: a rejected row has written nothing.
        if let driver = field(layout.driver).map(OBDText.trimmed), !driver.isEmpty { try state.driver(driver, at: at, into: &sink) }
        if let position { try state.position(position, into: &sink) }
        try state.recorder.record(at: at, values: values, into: &sink)
    }
}
