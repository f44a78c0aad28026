import GRDB
import FleetCore

/// One invariant `fleetkit verify` checks a warehouse against (docs/METRICS.md, "Verify").
///
/// Why a protocol with one check per file: each invariant has its own rule, tolerance and
/// corruption test, and a check added later (in FleetReports, which sees the report engine)
/// joins the same run without the verifier knowing it.
public protocol WarehouseCheck: Sendable {
    /// A stable snake_case id (`trip_invariants`), used in the JSON output and the docs.
    var name: String { get }
    /// The rule and its tolerance, one sentence a reader can check a finding against.
    var rule: String { get }
    /// True when the check re-derives rows: it runs in a write transaction that is always
    /// rolled back, so the warehouse is never changed. Otherwise it runs in a read snapshot.
    var rewrites: Bool { get }
    /// Examines the warehouse and adds what fails to `findings`; returns how many items
    /// (trips, asset-days, readings, assets, report tables) it examined.
    func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int
}

extension WarehouseCheck {
    public var rewrites: Bool { false }
}

/// What a check needs besides the database: how the warehouse was derived, and how much to list.
public struct VerifyContext: Sendable {
    /// The fleet time zone and trip rules the derived tables were built with.
    public var settings: DeriveSettings
    /// Asset-days the re-derivation check recomputes, spread evenly over the warehouse.
    public var sampleDays: Int
    /// Findings listed per check; the rest are counted.
    public var listLimit: Int
    /// The warehouse's reporting settings (report-level checks run the report engine with them).
    public var currency: String
    public var units: Units.System

    public init(settings: DeriveSettings = DeriveSettings(), sampleDays: Int = 200, listLimit: Int = 50, currency: String = "USD",
                units: Units.System = .metric) {
        self.settings = settings
        self.sampleDays = sampleDays
        self.listLimit = listLimit
        self.currency = currency
        self.units = units
    }
}

/// One failed invariant: what is wrong, where (asset, day, trip id) and what to do.
public struct VerifyFinding: Codable, Sendable, Equatable {
    public var check: String
    /// The asset's unit number, else its VIN, PIN, name or `asset #id`.
    public var asset: String?
    /// The local day (`YYYY-MM-DD`) or month (`YYYY-MM`) of the fleet time zone.
    public var day: String?
    public var trip: Int64?
    public var what: String
    public var fix: String

    public init(check: String, asset: String? = nil, day: String? = nil, trip: Int64? = nil, what: String, fix: String) {
        self.check = check
        self.asset = asset
        self.day = day
        self.trip = trip
        self.what = what
        self.fix = fix
    }
}

/// A check's findings: the first `limit` kept, all counted, so a badly broken warehouse gives a
/// readable list and an honest count rather than a million lines.
public struct FindingList: Sendable {
    public let check: String
    public let limit: Int
    public private(set) var listed: [VerifyFinding] = []
    public private(set) var count = 0

    public init(check: String, limit: Int) {
        self.check = check
        self.limit = limit
    }

    public mutating func add(asset: String? = nil, day: String? = nil, trip: Int64? = nil, _ what: String, fix: String) {
        count += 1
        if listed.count < limit { listed.append(VerifyFinding(check: check, asset: asset, day: day, trip: trip, what: what, fix: fix)) }
    }
}

/// Asset labels for findings: every asset's for `verify`, which reads the whole warehouse
/// anyway; one asset's for a check inside a file's load, whose memory may not grow with the
/// number of assets in the warehouse or the file.
public struct AssetLabels: Sendable {
    private let labels: [Int64: String]
    private static let label = "COALESCE(unit_number, vin, pin, name, 'asset #' || id)"

    public init(_ db: Database) throws {
        var labels: [Int64: String] = [:]
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, \(Self.label) FROM asset")
        while let row = try cursor.next() { labels[row[0]] = row[1] }
        self.labels = labels
    }

    public init(_ db: Database, asset: Int64) throws {
        let label = try String.fetchOne(db.cachedStatement(sql: "SELECT \(Self.label) FROM asset WHERE id = ?"), arguments: [asset])
        labels = label.map { [asset: $0] } ?? [:]
    }

    public subscript(_ id: Int64) -> String { labels[id] ?? "asset #\(id) (not in the asset table)" }
}

/// What to do about the findings that several checks share.
enum VerifyFix {
    /// Derived rows that do not follow from the facts.
    static let rebuild = "rebuild the derived tables from the facts (`fleetkit init --tz` to another zone and back rebuilds every asset's trips and days); if verify still fails, report it with the asset's files"
}
