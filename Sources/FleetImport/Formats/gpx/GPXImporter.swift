import Foundation
import FleetCore
import FleetWarehouse

/// GPS tracks from phones, navigation units and loggers (GPX 1.0 and 1.1).
///
/// Track points with a time become `position` rows, upserted on (asset, time) so a re-export
/// of the same drive changes nothing. A track point that cannot be a position (no time, a time
/// that is not a date, coordinates out of range) is rejected with its path and line. Route
/// points (a plan) and waypoints (places) are never positions, timed or not: one note per file
/// counts them, so a 1,653-point planned route is not 1,653 rejects and exit 1.
/// The file is read by a streaming byte scanner (`GPXScanner`): `XMLParser(data:)` fails on
/// files over about 10 MB and `XMLParser(stream:)` is ten times slower.
///
/// A GPX file names no vehicle reliably, so it must be attributed (docs/FORMATS.md, "Identity"): `--asset`, the
/// unit folder, or a file or track name equal to a known unit number or VIN. Otherwise the
/// whole file fails: guessing would put one vehicle's drive on another's books.
public struct GPXImporter: Importer {
    public static let format = "gpx"
    public static let summary = "GPS tracks (GPX 1.0/1.1, Garmin TrackPointExtension speed and course; routes and waypoints are noted, not stored); needs --asset UNIT or a unit folder"
    public static let example = "gpx/T-12/2026-10-01.gpx"

    public init() {}

    /// Points handed to the sink per call (a multiple of `Loader.batchRows`).
    static let batchSize = 16 * 64

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let text = String(decoding: head.prefix(8192), as: UTF8.self)
        let named = filename.lowercased().hasSuffix(".gpx")
        let xml = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.hasPrefix("<")
        if xml, text.contains("<gpx") { return .certain }
        return named ? .medium : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        do {
            // A plan stores nothing, so it needs no vehicle: a planned route dropped in the
            // inbox is noted, not failed for want of a unit, and --asset creates no empty asset.
            if let plan = try Self.plan(input) {
                notePlan(plan, into: &sink)
                if plan == Plan() { sink.note("the file holds no track, route or waypoint: nothing to import") }
                return
            }
            let asset = try attribute(input, &sink)
            let scanner = try GPXScanner(url: input.source)
            // The scanner runs on a second thread while this one loads (GPXPipeline): the same
            // sink calls in the same order as a one-thread scan, batches of `batchSize` points
            // (multi-row INSERTs) flushed before each reject and at the end of the file.
            let pipeline = GPXPipeline(scanner: scanner, asset: asset, file: sink.sourceFileID, batchSize: Self.batchSize)
            try pipeline.run(into: &sink)
            notes(scanner, into: &sink)
            let planned = pipeline.plannedPoints
            notePlan(Plan(routePoints: planned.routePoints, routes: planned.routes, waypoints: planned.waypoints), into: &sink)
        } catch let e as GPXFileError {
            throw FleetError.unreadable(file: input.path, location: "line \(e.line), byte \(e.offset)", reason: e.message,
                                        hint: "Nothing from this file was imported; re-export it from the device or app, or fix the file at that place.")
        }
    }

    /// What a file that records no drive holds.
    struct Plan: Equatable {
        var trackPoints = 0, tracks = 0, routePoints = 0, routes = 0, waypoints = 0
    }

    /// Thrown to stop a scan at the first track point that makes the file a recording.
    private struct Recorded: Error {}

    /// The file as a plan when none of its track points has a `<time>` (and none has another
    /// problem): a path drawn in a map tool or a planned trip exported as `<trk>`, like a
    /// route, is not a drive, so it is one note rather than a `missing_time` reject per point.
    /// nil as soon as one track point has a time or a problem other than the missing time
    /// (the scan stops there: for an ordinary recording, at its first point). A file with
    /// some timed track points is a recording, and its untimed points stay rejects.
    static func plan(_ input: InputFile) throws -> Plan? {
        var plan = Plan()
        var tracks = Set<Int>(), routes = Set<Int>()
        do {
            try GPXScanner(url: input.source).scan { point in
                switch point.kind {
                case .trackPoint:
                    guard point.time == nil, point.problem?.reason == "missing_time" else { throw Recorded() }
                    plan.trackPoints += 1
                    tracks.insert(point.track)
                case .routePoint: plan.routePoints += 1; routes.insert(point.track)
                case .waypoint: plan.waypoints += 1
                }
            }
        } catch is Recorded { return nil }
        (plan.tracks, plan.routes) = (tracks.count, routes.count)
        return plan
    }

    private func notePlan(_ planned: Plan, into sink: inout some RecordSink) {
        if planned.trackPoints > 0 {
            sink.note("\(planned.trackPoints) track point\(planned.trackPoints == 1 ? "" : "s") in \(planned.tracks) <trk>, none with a <time> (a drawn or planned path, not a recorded drive), were not stored as positions")
        }
        if planned.routePoints > 0 {
            sink.note("\(planned.routePoints) route point\(planned.routePoints == 1 ? "" : "s") in \(planned.routes) <rte> (a planned route, not a recorded drive) were not stored as positions; only <trk> points are fixes of the vehicle")
        }
        if planned.waypoints > 0 {
            sink.note("\(planned.waypoints) waypoint\(planned.waypoints == 1 ? "" : "s") (<wpt>: places such as a depot or a fuel stop, not fixes of the vehicle) were not stored as positions")
        }
    }

    /// `--asset` or the unit folder; else `<metadata><name>` (1.0: `<gpx><name>`), then the
    /// first `<trk>`/`<rte>` name, when one is a known unit number or VIN. Names never create
    /// an asset: a phone app's "Morning drive" must not become a vehicle.
    private func attribute(_ input: InputFile, _ sink: inout some RecordSink) throws -> Int64 {
        if let ref = input.asset { return try sink.asset(ref) }
        let header = try GPXScanner(url: input.source)
        try header.scan(headerOnly: true) { _ in }
        let names = [header.fileName, header.trackName].compactMap { $0 }.filter { !$0.isEmpty }
        for name in names {
            let vin = VIN.normalise(name)
            if VIN.isValid(vin), let id = try sink.findAsset(AssetRef(vin: vin)) { return id }
            if let id = try sink.findAsset(AssetRef(unitNumber: name)) { return id }
        }
        let seen = names.isEmpty ? "the file has no <metadata><name> or <trk><name>" : "names in the file: " + names.map { "\"\($0)\"" }.joined(separator: ", ") + ", none a known unit number or VIN"
        throw FleetError.unattributed(file: input.path, hint: """
            A GPX file does not say which vehicle recorded it (\(seen)). Use --asset UNIT, or put the file in a folder \
            named after the unit (inbox/gpx/T-12/track.gpx); a <metadata><name> or <trk><name> equal to a known unit number or VIN also works.
            """)
    }

    private func notes(_ scanner: GPXScanner, into sink: inout some RecordSink) {
        if scanner.zonelessTimes > 0 {
            sink.note("\(scanner.zonelessTimes) point times had no zone and were read as UTC (GPX times are UTC)")
        }
        if scanner.unknownValues > 0 {
            sink.note("\(scanner.unknownValues) negative speed or course values (devices write -1 for unknown) were stored as unknown")
        }
        if scanner.foreignValues > 0 {
            let all = scanner.foreignURIs
            let uris = all.isEmpty ? "" : " (namespaces: \(all.prefix(5).joined(separator: ", "))\(all.count > 5 ? ", … \(all.count) in all" : ""))"
            sink.note("\(scanner.foreignValues) speed/course elements in a namespace other than GPX or Garmin TrackPointExtension were not read\(uris)")
        }
    }
}
