import Foundation
import FleetCore
import FleetWarehouse

/// What the user asked a report for.
///
/// A report whose figures are incomplete is still written, marked partial in its header
/// (`ReportMetadata.partial`): the nightly job keeps writing the current month's reports as it
/// always did, and the CLI decides what partial means for its exit code (1 unless
/// `--allow-partial`).
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

    /// The warehouse setting's type (FleetCore), named here as reports always called it.
    public typealias DVIRPolicy = FleetCore.DVIRPolicy

    public var period: ReportPeriod
    public var zone: FleetZone
    public var units: Units.System
    public var currency: String
    public var groupBy: GroupBy
    /// Only these unit numbers (nil: all).
    public var assets: [String]?
    public var dvirPolicy: DVIRPolicy
    /// The motor carrier DVIR reports and evidence packs name (the warehouse setting).
    public var carrier: Carrier
    /// When the report was made: the real clock, shown as "Generated at".
    public var generatedAt: Int64
    /// The day the report is as of ("today"): days after it cannot have data yet, so a period
    /// running past it is partial and utilization does not count its later days as available.
    /// Defaults to today by the clock in the report zone; the nightly job's `--as-of` sets it.
    public var asOf: CivilDate
    /// A detail table with more rows than this is streamed from the warehouse per format
    /// (`ReportRowStream`) instead of held; at or under it, rows are held and outputs are the
    /// same as they always were. Tests lower it to run the streamed path on small data.
    public var heldRowLimit: Int = 50_000

    public init(period: ReportPeriod, zone: FleetZone = .utc, units: Units.System = .metric, currency: String = "USD",
                groupBy: GroupBy = .asset, assets: [String]? = nil, dvirPolicy: DVIRPolicy = .everyDay, generatedAt: Int64 = Timestamp.now(),
                asOf: CivilDate? = nil, carrier: Carrier = Carrier()) {
        self.period = period
        self.zone = zone
        self.units = units
        self.currency = currency
        self.groupBy = groupBy
        self.assets = assets
        self.dvirPolicy = dvirPolicy
        self.carrier = carrier
        self.generatedAt = generatedAt
        self.asOf = asOf ?? zone.day(of: Timestamp.now())
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
    func assetFilter(_ alias: String = "a") -> (sql: String, arguments: [String]) { AssetLookup.unitFilter(assets, alias: alias) }
}
