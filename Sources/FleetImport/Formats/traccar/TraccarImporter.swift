import Foundation
import FleetCore
import FleetWarehouse

/// Traccar server API responses as a script saves them: the JSON list that `/api/positions`,
/// `/api/reports/route`, `/api/devices`, `/api/reports/trips`, `/api/reports/summary`,
/// `/api/reports/stops` and `/api/reports/events` return (Traccar's openapi.yaml, schemas
/// `Position`, `Device`, `ReportTrips`, `ReportSummary`, `ReportStops`, `Event`). One
/// file may hold any mix of them.
///
/// Rows carry no type name: each is recognised by its members (`TraccarEntity.classify`).
/// Read: `Device` (identity and the name hint), `Position` (GPS fixes in SI: speed is in knots,
/// stored as m/s; the `odometer` and `hours` attributes as meters; `ignition` as engine events),
/// trip report rows (vendor trips). Summary, stop and event report rows are checked and counted,
/// not stored (`TraccarStops`, `TraccarEvents` say why).
/// docs/FORMATS.md lists every member read and where it goes.
///
/// Streaming: the list is read one row at a time (`JSONPullParser`); each row is loaded in its
/// own savepoint and an unusable one is rejected with its JSON path and raw text. JSON that is
/// not well formed, truncated included, fails the whole file.
public struct TraccarImporter: Importer {
    public static let format = "traccar"
    public static let summary = "Traccar server API responses (JSON lists of /api/positions, /api/reports/route, /api/devices, /api/reports/trips, /api/reports/summary, /api/reports/stops, /api/reports/events): positions (knots to m/s), odometer and hours meters, ignition, devices, trips; summary, stop and event rows counted"
    public static let example = "traccar/route-2026-10-01.json"

    /// Member names of Traccar's `Position`, `Device` and report rows that no other format FleetKit
    /// reads uses together, in the first 64 KiB.
    static let markers = ["\"fixTime\"", "\"deviceTime\"", "\"serverTime\"", "\"outdated\"", "\"uniqueId\"", "\"positionId\"",
                          "\"startPositionId\"", "\"endPositionId\"", "\"startOdometer\"", "\"endOdometer\"", "\"spentFuel\"", "\"startHours\"",
                          "\"eventTime\"", "\"maintenanceId\"", "\"geofenceId\""]

    public init() {}

    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let named = filename.lowercased().contains("traccar")
        guard let first = head.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "[") else { return .no }
        let text = String(decoding: head, as: UTF8.self)
        let hits = markers.filter { text.contains($0) }.count
        // Every Traccar row but a Device names its device as a top-level integer `deviceId`.
        let device = text.contains("\"deviceId\"") || text.contains("\"uniqueId\"")
        if device, hits >= 3 { return named ? Confidence(95) : Confidence(85) }
        if device, hits == 2 { return named ? Confidence(85) : Confidence(65) }
        return named && device && hits == 1 ? Confidence(50) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.read(input, &sink)
    }

    private static func read<S: RecordSink>(_ input: InputFile, _ sink: inout S) throws {
        try SavedResponse.reading(input, response: "a Traccar API response") { try TraccarReader<S>(input).run(into: &sink) }
    }
}
