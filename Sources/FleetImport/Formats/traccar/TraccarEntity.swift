import Foundation

/// What a Traccar row is, told by its members (the schemas of Traccar's openapi.yaml): a
/// response carries no type name, and a script may join several responses into one list.
enum TraccarEntity: String, CaseIterable {
    case device = "Device", position = "Position", trip = "Trip", summary = "Summary"
    case unknown

    static func classify(_ node: JSONNode) -> TraccarEntity {
        func has(_ keys: String...) -> Bool { keys.contains { node[$0] != nil } }
        if has("fixTime"), has("deviceId") || has("latitude") { return .position }
        if has("startTime"), has("endTime") {
            if has("startPositionId", "endPositionId", "startLat", "endLat", "duration") { return .trip }
            if has("startHours", "endHours", "engineHours") { return .summary }
        }
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
        case .summary: return ["deviceId", "deviceName", "distance", "averageSpeed", "maxSpeed", "spentFuel", "startOdometer", "endOdometer", "startTime",
                               "endTime", "engineHours", "startHours", "endHours", "idleTime"]
        case .unknown: return []
        }
    }
}
