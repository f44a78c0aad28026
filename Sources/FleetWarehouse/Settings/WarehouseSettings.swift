import Foundation
import GRDB
import FleetCore

/// Everything the warehouse remembers about how its data is bucketed, derived and reported:
/// read and written only here (the `setting` table, one row per `Key`).
///
/// WHY one type: settings used to be read by string key in six files, with defaults repeated in
/// each, and trip rules were not stored at all, so `import` (default rules) and `nightly` (its
/// config's rules) derived different trips from the same facts. Now every command derives with
/// the stored rules, and a change goes through `apply`, which re-derives what it affects.
///
/// A key never stored takes its documented default (docs/OPERATIONS.md, "Settings"); a stored
/// value that cannot be read is a `WarehouseSettingsError`, never a default.
public struct WarehouseSettings: Sendable {
    /// The fleet time zone: daily buckets are its local days.
    public var zone: FleetZone = .utc
    /// The base currency (ISO 4217) amounts are converted to.
    public var currency = "USD"
    /// Report units when a report is not given `--units`.
    public var units: Units.System = .metric
    public var dvirPolicy: DVIRPolicy = .everyDay
    /// The motor carrier DVIR reports name (none until `fleetkit init --carrier-name` sets it).
    public var carrier = Carrier()
    /// Trip and stop detection rules: every derivation uses these.
    public var trips = TripRules()
    /// The nightly job's memory of how files that were still being written looked (SettleRule),
    /// as the JSON object it owns, unchecked here (SettleRule.decode warns when it cannot read
    /// it); nil when it remembers none.
    public var nightlySettleLooks: String?

    public init() {}

    /// The stored keys, each spelled once.
    public enum Key: String, CaseIterable, Sendable, Codable {
        case timezone, currency, units, dvirPolicy = "dvir_policy", tripRules = "trip_rules", nightlySettleLooks = "nightly_settle_looks"
        case carrierName = "carrier_name", usdotNumber = "usdot_number", carrierAddress = "carrier_address"

        /// A change of these rewrites derived tables (zone: daily buckets; rules: trips and the
        /// daily trip counts); the others are only read by reports and the nightly job.
        public var affectsDerivation: Bool { self == .timezone || self == .tripRules }

        /// How to set the key again, for errors.
        public var hint: String {
            switch self {
            case .timezone: return "Set it again with `fleetkit init --tz ZONE` (an IANA name such as America/Chicago)."
            case .currency: return "Set it again with `fleetkit init --currency CODE` (ISO 4217, such as USD)."
            case .units: return "Set it again with `fleetkit init --units metric` (or us)."
            case .dvirPolicy: return "Set it again with `fleetkit init --dvir-policy law` (or passenger, every_day)."
            case .tripRules: return "Set the rules again with `fleetkit init --reset-trip-rules` (the documented defaults) and `--trip-rule KEY=VALUE`."
            case .nightlySettleLooks: return "It only remembers files that were still being written; forget it with `fleetkit init --forget-settle-state`."
            case .carrierName: return "Set it again with `fleetkit init --carrier-name NAME`."
            case .usdotNumber: return "Set it again with `fleetkit init --usdot NUMBER` (1 to 8 digits)."
            case .carrierAddress: return "Set it again with `fleetkit init --carrier-address ADDRESS`."
            }
        }
    }

    /// What derivation depends on.
    public var derive: DeriveSettings { DeriveSettings(zone: zone, trips: trips) }

    /// The stored settings. - throws: `WarehouseSettingsError` for the first unusable value.
    public static func load(_ db: Database) throws -> WarehouseSettings { try load(SQLiteReader(db)) }

    /// The stored settings read on either engine (reports on PostgreSQL read them here).
    public static func load(_ reader: any WarehouseReader) throws -> WarehouseSettings {
        let (settings, problems) = try read(reader)
        if let first = problems.values.sorted(by: { $0.key < $1.key }).first { throw first }
        return settings
    }

    /// The unusable stored values, by key (empty when all can be read).
    public static func problems(_ db: Database) throws -> [Key: WarehouseSettingsError] { try read(db).1 }

    /// The stored settings, with the default in place of each unusable value and the error for it.
    static func read(_ db: Database) throws -> (WarehouseSettings, [Key: WarehouseSettingsError]) { try read(SQLiteReader(db)) }

    static func read(_ reader: any WarehouseReader) throws -> (WarehouseSettings, [Key: WarehouseSettingsError]) {
        var settings = WarehouseSettings()
        var problems: [Key: WarehouseSettingsError] = [:]
        // Keys this version does not know are left alone: nothing reads them.
        for row in try reader.all("SELECT key, value FROM setting", [], { (try $0[0] as String, try $0[1] as String) }) {
            guard let key = Key(rawValue: row.0) else { continue }
            do { try settings.set(key, stored: row.1) } catch let error as WarehouseSettingsError { problems[key] = error }
        }
        return (settings, problems)
    }

    private mutating func set(_ key: Key, stored value: String) throws {
        func bad(_ reason: String) -> WarehouseSettingsError { WarehouseSettingsError(key: key.rawValue, value: value, reason: reason, hint: key.hint) }
        switch key {
        case .timezone:
            guard let zone = FleetZone(identifier: value) else { throw bad("is not an IANA time zone name") }
            self.zone = zone
        case .currency:
            guard Money.isCurrencyCode(value) else { throw bad("is not an ISO 4217 currency code") }
            currency = value
        case .units:
            guard let units = Units.System(rawValue: value) else { throw bad("is not metric or us") }
            self.units = units
        case .dvirPolicy:
            guard let policy = DVIRPolicy(text: value) else { throw bad("is not one of \(DVIRPolicy.names)") }
            dvirPolicy = policy
        case .tripRules:
            trips = try TripRules.stored(value)
        case .nightlySettleLooks:
            // Kept as text: the nightly job's SettleRule reads it, and an unreadable memory is a
            // warning there, not a stop (it only ever makes a file ready sooner).
            nightlySettleLooks = value
        case .carrierName:
            carrier.name = value
        case .usdotNumber:
            guard Carrier.isUSDOTNumber(value) else { throw bad("is not a USDOT number (1 to 8 digits)") }
            carrier.usdotNumber = value
        case .carrierAddress:
            carrier.address = value
        }
    }

    /// The text stored for each key (nil: the row is removed).
    public func stored() throws -> [Key: String?] {
        [.timezone: zone.identifier, .currency: currency, .units: units.rawValue, .dvirPolicy: dvirPolicy.rawValue,
         .tripRules: try trips.storedText(), .nightlySettleLooks: nightlySettleLooks,
         .carrierName: carrier.name, .usdotNumber: carrier.usdotNumber, .carrierAddress: carrier.address]
    }

    /// Stores `edit`'s change to the stored settings and re-derives what it affects, in the
    /// caller's transaction: a kill leaves the old settings with the old derived tables, or the
    /// new with the new.
    ///
    /// - parameter keys: the keys the caller sets. An unusable stored value of another key is
    ///   still an error; one of these is replaced (which is how a user repairs it).
    /// - returns: the keys whose value changed, and how many assets were re-derived: all of
    ///   them, every derived table, when the zone or the trip rules changed (rebuildAll).
    public static func apply(_ db: Database, setting keys: Set<Key>, _ edit: (inout WarehouseSettings) throws -> Void) throws -> SettingsChange {
        let (old, problems) = try read(db)
        if let other = problems.filter({ !keys.contains($0.key) }).values.sorted(by: { $0.key < $1.key }).first { throw other }
        var new = old
        try edit(&new)
        if let problem = new.trips.problem() {
            throw FleetError.invalidArgument(name: "trip rules", value: try new.trips.storedText(), hint: problem)
        }
        let before = try old.stored(), after = try new.stored()
        let present = Set(try String.fetchAll(db, sql: "SELECT key FROM setting").compactMap(Key.init(rawValue:)))
        var change = SettingsChange()
        for key in Key.allCases where keys.contains(key) {
            let value = after[key] ?? nil
            // A repaired value counts as changed: what was derived under it is unknown.
            if problems[key] != nil || before[key] != after[key] { change.changed.append(key) }
            if let value {
                try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key.rawValue, value])
            } else if present.contains(key) {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
            }
        }
        if change.changed.contains(where: \.affectsDerivation) {
            change.rederivedAssets = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0
            try Derivations.rebuildAll(db, settings: new.derive)
        }
        return change
    }
}

extension Warehouse {
    /// The stored settings (`WarehouseSettings.load`), an unusable one named with this warehouse.
    public func settings() throws -> WarehouseSettings {
        do { return try pool.read { db in try WarehouseSettings.load(db) } } catch let error as WarehouseSettingsError {
            throw FleetError.warehouse(path: path, reason: error.statement, hint: error.hint)
        }
    }

    /// `WarehouseSettings.apply` in one write transaction.
    @discardableResult
    public func apply(setting keys: Set<WarehouseSettings.Key>, _ edit: (inout WarehouseSettings) throws -> Void) throws -> SettingsChange {
        do { return try pool.write { db in try WarehouseSettings.apply(db, setting: keys, edit) } } catch let error as WarehouseSettingsError {
            throw FleetError.warehouse(path: path, reason: error.statement, hint: error.hint)
        }
    }
}
