import Foundation
import FleetCore
import FleetWarehouse

/// Stop report rows (`/api/reports/stops`: openapi.yaml `ReportStops`, serialised from
/// StopReportItem) are checked and counted, not stored.
///
/// A stop is the time a device stood between two trips: `startTime`/`endTime`, its position
/// (`latitude`/`longitude` as StopReportItem writes them, `lat`/`lon` in openapi.yaml),
/// `duration` and `engineHours` in milliseconds (StopReportItem: `// milliseconds`). The
/// warehouse has no stop table; the trips on either side and the positions already hold where
/// and when the vehicle stood, and engine hours come from the meters. Storing a stop as a trip
/// would add a zero-distance "trip" for every halt, so a stop row is never a trip. Its device and
/// times are still checked, so a malformed row is a reject with its path and raw text.
extension TraccarReader {
    func stop(_ f: JSONFields) throws {
        _ = try Self.deviceID(f, "deviceId")
        let start = try TraccarTime.required(f, "startTime"), end = try TraccarTime.required(f, "endTime")
        guard end >= start else { throw JSONRowError(.badValue, "the stop ends before it starts", at: f.at("endTime")) }
        for (lat, lon) in [("latitude", "longitude"), ("lat", "lon")] {
            _ = try f.number(lat, in: -90...90, unit: "°")
            _ = try f.number(lon, in: -180...180, unit: "°")
        }
        _ = try f.number("duration", in: 0...3.2e10, unit: "ms")
        _ = try f.number("engineHours", in: 0...3.6e13, unit: "ms")
        tally.count("stop report rows read, not stored (no stop table: the trips either side and the positions hold where and when the vehicle stood)")
    }
}
