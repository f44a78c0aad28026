import Foundation
import FleetCore

/// What the user asked a report for.
public struct ReportRequest: Sendable {
    public enum GroupBy: String, Sendable, CaseIterable {
        case asset, group, costCenter = "cost-center", department

        /// The asset column that holds the key, and its heading.
        var column: (sql: String, title: String) {
            switch self {
            case .asset: return ("a.unit_number", "Unit")
            case .group: return ("a.asset_group", "Group")
            case .costCenter: return ("a.cost_center", "Cost centre")
            case .department: return ("a.department", "Department")
            }
        }
    }

    public enum DVIRPolicy: String, Sendable, CaseIterable { case everyDay = "every_day", defectsOnly = "defects_only" }

    public var period: ReportPeriod
    public var zone: FleetZone
    public var units: Units.System
    public var currency: String
    public var groupBy: GroupBy
    /// Only these unit numbers (nil: all).
    public var assets: [String]?
    public var dvirPolicy: DVIRPolicy
    public var generatedAt: Int64
    /// A detail table with more rows than this is streamed from the warehouse per format
    /// (`ReportRowStream`) instead of held; at or under it, rows are held and outputs are the
    /// same as they always were. Tests lower it to run the streamed path on small data.
    public var heldRowLimit: Int = 50_000

    public init(period: ReportPeriod, zone: FleetZone = .utc, units: Units.System = .metric, currency: String = "USD",
                groupBy: GroupBy = .asset, assets: [String]? = nil, dvirPolicy: DVIRPolicy = .everyDay, generatedAt: Int64 = Timestamp.now()) {
        self.period = period
        self.zone = zone
        self.units = units
        self.currency = currency
        self.groupBy = groupBy
        self.assets = assets
        self.dvirPolicy = dvirPolicy
        self.generatedAt = generatedAt
    }

    /// The period as UTC instants: [start of the first local day, start of the day after the last).
    public var start: Int64 { zone.start(of: period.from) }
    public var end: Int64 { zone.start(of: period.to.adding(days: 1)) }

    // MARK: Output units

    public var distanceUnit: String { units == .metric ? "km" : "mi" }
    public var volumeUnit: String { units == .metric ? "L" : "gal" }
    public var economyUnit: String { units == .metric ? "L/100 km" : "MPG" }

    public func distance(_ metres: Double) -> Double { units == .metric ? metres / 1000 : metres / Units.metresPerMile }
    public func volume(_ millilitres: Double) -> Double {
        units == .metric ? millilitres / 1000 : millilitres / Units.millilitresPerUSGallon
    }
    /// L/100 km, or US miles per gallon; nil when either side is zero.
    public func economy(metres: Double, millilitres: Double) -> Double? {
        guard metres > 0, millilitres > 0 else { return nil }
        return units == .metric ? (millilitres / 1000) / (metres / 100_000)
            : (metres / Units.metresPerMile) / (millilitres / Units.millilitresPerUSGallon)
    }

    /// SQL restricting `a.unit_number` to the requested assets, with its arguments.
    func assetFilter(_ alias: String = "a") -> (sql: String, arguments: [String]) {
        guard let assets, !assets.isEmpty else { return ("1", []) }
        return ("\(alias).unit_number IN (\(Array(repeating: "?", count: assets.count).joined(separator: ",")))", assets)
    }
}
