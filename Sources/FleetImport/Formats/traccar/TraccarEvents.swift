import Foundation
import FleetCore
import FleetWarehouse

/// Event report rows (`/api/reports/events`, `/api/events/{id}`: openapi.yaml `Event`) are
/// checked and counted by kind, not stored.
///
/// - `ignitionOn`/`ignitionOff` would map onto `engine_event`, but the positions' `ignition`
///   attribute already gives every transition at the position's `deviceTime`, and an event's
///   `eventTime` is that same `deviceTime` only on current servers (Event.java:
///   `eventTime = position.getDeviceTime()`); servers of the 4.x line built ignition events with
///   `Event(type, deviceId, positionId)`, which sets `eventTime = new Date()`, the server's clock
///   when it processed the position. The response does not say which server wrote it, so a
///   route and an events report of the same day could record one transition twice at two
///   instants. The positions are the one source of ignition.
/// - The other types (alarms, geofence, motion, overspeed, fuel, maintenance, driver changes)
///   have no warehouse table.
/// The device, `eventTime` and `type` are still checked, so a malformed row is a reject with its
/// path and raw text.
extension TraccarReader {
    func event(_ f: JSONFields) throws {
        _ = try Self.deviceID(f, "deviceId")
        _ = try TraccarTime.required(f, "eventTime")
        let type = try f.requiredString("type")
        if type == "ignitionOn" || type == "ignitionOff" {
            tally.count("ignitionOn/ignitionOff event rows read, not stored (ignition comes from the positions' ignition attribute at deviceTime; older servers stamp eventTime with their own clock, so both would record one transition twice)")
        } else {
            tally.count("event report rows of other types read, not stored (no warehouse table for Traccar alarm, geofence, motion, overspeed or maintenance events)")
        }
    }
}
