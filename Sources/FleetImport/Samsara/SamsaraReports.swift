import Foundation
import FleetCore
import FleetWarehouse

/// Report endpoints: fuel & energy, idling reports and idling events.
///
/// - **Fuel & energy** (`/fleet/reports/vehicles/fuel-energy`) gives totals per vehicle per
///   requested period. No table holds period totals (`asset_day` is derived from meters), and
///   the same fuel and distance reach the warehouse as cumulative counters through the stats
///   feed, so rows are validated and counted in a note, not stored.
/// - **Idling** (`/fleet/reports/vehicle/idling` rows, `/idling/events`): each period becomes an
///   `engine_event` `idle` at its start. Its end is not written: an `on` there could overwrite
///   the stats feed's `off` at the same instant, depending on import order; the stats feed's
///   next state change ends it. Durations and fuel are counted in a note.
extension SamsaraReader {
    func fuelEnergy(_ f: Fields) {
        tally.count("fuel-energy report rows not stored (period totals have no warehouse table; fuel and distance come from the stats counters)")
    }

    func idling(_ f: Fields, _ shape: SamsaraShape, _ sink: inout S) throws {
        guard let asset = try assetOf(f, &sink) else {
            throw SamsaraRowError(.unknownAsset, "the idling \(shape == .idlingEvent ? "event" : "row") names no vehicle", at: f.at(shape == .idlingEvent ? "asset" : "vehicle"))
        }
        let start = try f.requiredTime("startTime")
        let key = shape == .idlingEvent ? "durationMilliseconds" : "durationMs"
        guard try f.number(key, in: 0...(7 * 86_400_000), unit: "ms") != nil else {
            throw SamsaraRowError(.missingField, "'\(key)' is missing", at: f.at(key))
        }
        if let end = try f.time("endTime"), end < start {
            throw SamsaraRowError(.badValue, "the idling period ends before it starts", at: f.at("endTime"))
        }
        try sink.load(EngineEvent(assetID: asset, at: start, state: "idle", sourceFileID: sink.sourceFileID))
        tally.count("idling periods stored as an 'idle' engine event at their start (duration and fuel not stored)")
    }
}
