import Foundation
import FleetCore
import FleetWarehouse

/// Motive (formerly KeepTruckin) REST API responses as a nightly script saves them: one page
/// object, or a JSON list of saved pages.
///
/// Read: `/v1/vehicles` and `/v1/vehicle_locations` (`{"vehicles": [{"vehicle": {…}}]}`: the
/// vehicle's identity, and its `current_location` when the response has one), and the v2/v3
/// location histories (`{"vehicle_locations": [{"vehicle_location": {…, "vehicle": {…}}}]}`):
/// positions, odometer and engine hours. Responses FleetKit does not read yet (inspection
/// reports, fuel purchases, IFTA trips) and the v1 single-vehicle history, whose records do not
/// name their vehicle, fail the file saying so. docs/FORMATS.md lists every member read, where
/// it goes and the documentation of its unit.
///
/// Streaming: each list is read one record at a time (`JSONPullParser`); each record is loaded
/// in its own savepoint and an unusable one is rejected with its JSON path and raw text. JSON
/// that is not well formed, truncated included, or an object with a duplicate member, fails
/// the whole file.
public struct MotiveImporter: Importer {
    public static let format = "motive"
    public static let summary = "Motive (KeepTruckin) API responses: /v1/vehicles identity, /v1/vehicle_locations current locations, v2/v3 vehicle_locations histories (positions, odometer, engine hours)"
    public static let example = "motive/vehicle_locations-2026-10-01.json"

    /// Member names of Motive's response shapes, in the first 64 KiB.
    static let markers = ["\"vehicle_locations\"", "\"vehicle_location\"", "\"location_histories\"", "\"current_location\"", "\"located_at\"",
                          "\"metric_units\"", "\"page_no\"", "\"per_page\"", "\"true_odometer\"", "\"true_engine_hours\"", "\"current_driver\"",
                          "\"inspection_reports\"", "\"fuel_purchases\"", "\"ifta_trips\""]

    public init() {}

    /// Needs a Motive list wrapper (`"vehicles": [{"vehicle"`, `"vehicle_locations"`, …) or two
    /// of the markers; MyGeotab (`result`) and Samsara (`data`) envelopes never carry these.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let lower = filename.lowercased()
        let named = lower.contains("motive") || lower.contains("keeptruckin")
        guard let first = head.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return .no }
        let text = String(decoding: head, as: UTF8.self)
        let squeezed = text.filter { !$0.isWhitespace }
        let wrapped = squeezed.contains("\"vehicles\":[{\"vehicle\":{") || text.contains("\"vehicle_locations\"") || text.contains("\"location_histories\"")
        let hits = markers.filter { text.contains($0) }.count
        if wrapped, hits >= 2 { return named ? Confidence(95) : Confidence(90) }
        if wrapped { return named ? Confidence(85) : Confidence(60) }
        if hits >= 3 { return named ? Confidence(70) : Confidence(50) }
        return named && hits > 0 ? Confidence(50) : .no
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        try Self.read(input, &sink)
    }

    private static func read<S: RecordSink>(_ input: InputFile, _ sink: inout S) throws {
        try SavedResponse.reading(input, response: "a Motive API response") { try MotiveReader<S>(input).run(into: &sink) }
    }
}
