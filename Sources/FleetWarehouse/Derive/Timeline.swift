/// Facts that sit on an asset's timeline. When one is loaded, the derived tables (trips, daily
/// rollups) of that asset around that instant are recomputed.
public protocol TimelineRecord {
    var timelineAsset: Int64 { get }
    var timelineAt: Int64 { get }
}

extension MeterReading: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { at }
}

extension Position: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { at }
}

extension EngineEvent: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { at }
}

extension Trip: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { startAt }
}

extension ObdSample: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { at }
}

extension DtcEvent: TimelineRecord {
    public var timelineAsset: Int64 { assetID }
    public var timelineAt: Int64 { at }
}

/// The span of each asset's timeline that a file touched.
public struct TouchedTimeline: Sendable, Equatable {
    public private(set) var ranges: [Int64: ClosedRange<Int64>] = [:]
    /// Assets whose whole history must be recomputed (after a merge moved rows onto them).
    public private(set) var whole: Set<Int64> = []

    public init() {}

    public mutating func touch(_ asset: Int64, _ at: Int64) {
        if let r = ranges[asset] {
            if at < r.lowerBound { ranges[asset] = at...r.upperBound } else if at > r.upperBound { ranges[asset] = r.lowerBound...at }
        } else {
            ranges[asset] = at...at
        }
    }

    public mutating func touchAll(_ asset: Int64) { whole.insert(asset) }

    /// The times of the fuel purchases a file stored or changed, with or without an asset: the
    /// receipts near them are linked again (`FuelLinking`).
    public private(set) var fuelPurchases: ClosedRange<Int64>?

    public mutating func touchFuelPurchase(at: Int64) {
        fuelPurchases = fuelPurchases.map { min($0.lowerBound, at)...max($0.upperBound, at) } ?? at...at
    }

    /// The bulk tanks whose deliveries, dips or dispenses a file stored, changed or forgot: their
    /// dispensed cost is recomputed (`TankCosting`).
    public private(set) var tanks: Set<String> = []

    public mutating func touchTank(_ tank: String) { tanks.insert(tank) }

    /// Whether a file stored, changed or forgot exchange rates: a tank whose deliveries are in
    /// more than one currency is priced through them, so every tank is repriced (`TankCosting`).
    public private(set) var rates = false

    public mutating func touchRates() { rates = true }

    public var isEmpty: Bool { ranges.isEmpty && whole.isEmpty && fuelPurchases == nil && tanks.isEmpty && !rates }
}
