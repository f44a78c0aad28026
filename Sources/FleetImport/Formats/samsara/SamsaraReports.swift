import Foundation
import FleetCore
import FleetWarehouse

/// Report endpoints: fuel & energy, idling reports and idling events.
///
/// - **Fuel & energy** (`/fleet/reports/vehicles/fuel-energy`) gives totals per vehicle per
///   requested period. No table holds period totals (`asset_day` is derived from meters), and
///   the same fuel and distance reach the warehouse as cumulative counters through the stats
///   feed, so rows are validated and counted in a note, not stored.
/// - **Idling** (`/fleet/reports/vehicle/idling` rows, `/idling/events`): each period is an
///   `idle_period` row (start, end = start + duration, duration, fuel, PTO, place), keyed on
///   (asset, start) so that an event and a report row of the same period are one row, and an
///   `engine_event` `idle` at its start. Its end is not written as an engine event: an `on`
///   there could overwrite the stats feed's `off` at the same instant, depending on import
///   order; the stats feed's next state change ends it.
extension SamsaraReader {
    func fuelEnergy(_ f: JSONFields) {
        tally.count("fuel-energy report rows not stored (period totals have no warehouse table; fuel and distance come from the stats counters)")
    }

    func idling(_ f: JSONFields, _ shape: SamsaraShape, _ sink: inout S) throws {
        let event = shape == .idlingEvent
        guard let asset = try assetOf(f, &sink) else {
            throw JSONRowError(.unknownAsset, "the idling \(event ? "event" : "row") names no vehicle", at: f.at(event ? "asset" : "vehicle"))
        }
        let start = try f.requiredTime("startTime")
        let key = event ? "durationMilliseconds" : "durationMs"
        guard let ms = try f.number(key, in: 0...(7 * 86_400_000), unit: "ms") else {
            throw JSONRowError(.missingField, "'\(key)' is missing", at: f.at(key))
        }
        // The duration is the measure; the report's endTime, when it disagrees (Samsara's own
        // example ends the 860 s period at its start), is only noted.
        let end = start + Int64(ms.value.rounded())
        if let stated = try f.time("endTime") {
            if stated < start { throw JSONRowError(.badValue, "the idling period ends before it starts", at: f.at("endTime")) }
            if abs(stated - end) > 1000 { tally.count("idling report rows whose endTime disagrees with durationMs (the duration was used)") }
        }
        let fuel = try f.number(event ? "fuelConsumedMilliliters" : "fuelConsumptionMl", in: 0...1e7, unit: "mL")
        var pto: Bool? = nil
        if event, let state = try f.string("ptoState") {
            switch state.lowercased() {
            case "active": pto = true
            case "inactive": pto = false
            default: tally.count("idling events whose ptoState is neither active nor inactive (PTO left unknown)")
            }
        } else if !event {
            pto = try f.bool("isPtoActive")
        }
        let place = event ? f : try f.object("address")
        let lat = try place?.number("latitude", in: -90...90, unit: "°"), lon = try place?.number("longitude", in: -180...180, unit: "°")
        let file = sink.sourceFileID
        try sink.load(IdlePeriod(assetID: asset, startAt: start, endAt: end, durationS: ms.value / 1000, fuelMl: fuel?.value, pto: pto,
                                 lat: lat == nil || lon == nil ? nil : lat?.value, lon: lat == nil || lon == nil ? nil : lon?.value,
                                 source: event ? "samsara-event" : "samsara-report", sourceFileID: file))
        try sink.load(EngineEvent(assetID: asset, at: start, state: "idle", sourceFileID: file))
        tally.count("idling periods stored (idle_period, and an 'idle' engine event at their start)")
    }
}
