import Foundation
import FleetCore
import FleetWarehouse

/// Samsara REST API responses as a nightly job saves them: one page per file, or a JSON array
/// of pages (`{"data": …, "pagination": {"endCursor", "hasNextPage"}}`).
///
/// Shapes (each record is recognised by its keys, so one file may even mix them): vehicles,
/// vehicle stats history/feed and snapshot, locations, DVIRs (legacy and stream), defects,
/// drivers, HOS daily logs and duty-status logs, v1 and stream trips, idling events and reports, fuel-energy and
/// IFTA reports. The handlers live in `Samsara/`, one file per shape family; docs/FORMATS.md
/// lists every field read and where it goes.
///
/// Streaming: `data[]` is read one record at a time and per-vehicle stat arrays point by point
/// (`JSONPullParser`), so memory is bounded by one record whatever the file size. A record or
/// point that cannot be used is rejected with its JSON path (`data[12].gps[3].latitude`) and its
/// raw text; unknown keys are ignored and counted in one note; JSON that is not well formed,
/// truncated included, fails the whole file and leaves nothing of it behind.
public struct SamsaraImporter: Importer {
    public static let format = "samsara"
    public static let summary = "Samsara API responses (JSON, one page or an array of pages): vehicles, stats history/feed/snapshot, locations, DVIRs and defects, drivers, HOS daily logs and duty-status logs, trips, idling"
    public static let example = "samsara/stats/2026-10-01.json"

    /// Keys that only Samsara responses have, in the first 64 KiB.
    static let markers = ["\"obdOdometerMeters\"", "\"obdEngineSeconds\"", "\"engineStates\"", "\"fuelPercents\"", "\"speedMilesPerHour\"",
                          "\"externalIds\"", "\"ExternalIds\"", "\"vehicleDefects\"", "\"dvirSubmissionTime\"", "\"safetyStatus\"", "\"hosLogs\"",
                          "\"dutyStatusDurations\"", "\"driverActivationStatus\"", "\"defectType\"", "\"tripStartTime\"", "\"startMs\"",
                          "\"durationMilliseconds\"", "\"vehicleReports\"", "\"engineState\"", "\"faultCodes\"", "\"gpsOdometerMeters\"",
                          "\"defLevelMilliPercent\"", "\"isResolved\"", "\"endCursor\"", "\"reverseGeo\"", "\"jurisdictionReports\"",
                          "\"taxableMeters\"", "\"happenedAtTime\"", "\"gpsSpeedMetersPerSecond\"", "\"ecuSpeedMetersPerSecond\""]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let named = filename.lowercased().contains("samsara")
        guard let first = head.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return .no }
        let text = String(decoding: head, as: UTF8.self)
        let wrapped = text.contains("\"data\"") || text.contains("\"trips\"")
        let hits = markers.filter { text.contains($0) }.count
        if wrapped, hits >= 2 { return named ? Confidence(95) : Confidence(90) }
        if wrapped, hits == 1 { return named ? Confidence(85) : Confidence(60) }
        return named ? Confidence(50) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.read(input, &sink)
    }

    private static func read<S: RecordSink>(_ input: InputFile, _ sink: inout S) throws {
        try SavedResponse.reading(input, response: "a Samsara response") { try SamsaraReader<S>(input).run(into: &sink) }
    }
}
