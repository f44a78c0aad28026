import Foundation

/// What a Traccar row is, told by its members (the schemas of Traccar's openapi.yaml and the
/// report models it serialises): a response carries no type name, and a script may join several
/// responses into one list.
///
/// Report rows share `startTime`/`endTime`, so they are told apart by what only one of them
/// has: a trip its start and end positions (`startPositionId`, `startLat`; TripReportItem,
/// `ReportTrips`), a stop its one position (`positionId`, `latitude`; StopReportItem, or `lat`
/// in openapi.yaml `ReportStops`), a summary its hour meters (`startHours`; SummaryReportItem).
/// A stop also carries `duration` and `engineHours`, so the stop test comes before the
/// `duration` and `engineHours` fallbacks. An event (`Event`: `eventTime`, `type`) has no
/// `startTime`.
enum TraccarEntity: String, CaseIterable {
    case device = "Device", position = "Position", trip = "Trip", stop = "Stop", summary = "Summary", event = "Event"
    case unknown

    static func classify(_ node: JSONNode) -> TraccarEntity {
        func has(_ keys: String...) -> Bool { keys.contains { node[$0] != nil } }
        if has("fixTime"), has("deviceId") || has("latitude") { return .position }
        if has("startTime"), has("endTime") {
            if has("startPositionId", "endPositionId", "startLat", "endLat") { return .trip }
            if has("positionId", "latitude", "longitude", "lat", "lon") { return .stop }
            if has("startHours", "endHours") { return .summary }
            if has("duration") { return .trip }
            if has("engineHours") { return .summary }
        }
        if has("eventTime"), has("type"), has("deviceId") { return .event }
        if has("uniqueId"), !has("deviceId") { return .device }
        return .unknown
    }

    /// The members each row may have; others are counted in the unknown-key note.
    var known: Set<String> {
        switch self {
        case .device: return ["id", "name", "uniqueId", "status", "disabled", "lastUpdate", "positionId", "groupId", "calendarId", "phone", "model",
                              "contact", "category", "expirationTime", "motionStreak", "motionState", "motionTime", "motionDistance", "overspeedState",
                              "overspeedTime", "overspeedGeofenceId", "motionPositionId", "attributes", "geofenceIds"]
        case .position: return ["id", "deviceId", "protocol", "serverTime", "deviceTime", "fixTime", "outdated", "valid", "latitude", "longitude",
                                "altitude", "speed", "course", "address", "accuracy", "network", "geofenceIds", "attributes", "type"]
        case .trip: return ["deviceId", "deviceName", "distance", "averageSpeed", "maxSpeed", "spentFuel", "startOdometer", "endOdometer", "startTime",
                            "endTime", "startPositionId", "endPositionId", "startLat", "startLon", "endLat", "endLon", "startAddress", "endAddress",
                            "duration", "driverUniqueId", "driverName", "idleTime"]
        case .stop: return ["deviceId", "deviceName", "distance", "averageSpeed", "maxSpeed", "spentFuel", "startOdometer", "endOdometer", "startTime",
                            "endTime", "positionId", "latitude", "longitude", "lat", "lon", "address", "duration", "engineHours"]
        case .event: return ["id", "type", "eventTime", "deviceId", "positionId", "geofenceId", "maintenanceId", "attributes"]
        case .summary: return ["deviceId", "deviceName", "distance", "averageSpeed", "maxSpeed", "spentFuel", "startOdometer", "endOdometer", "startTime",
                               "endTime", "engineHours", "startHours", "endHours", "idleTime"]
        case .unknown: return []
        }
    }
}
