import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Settings are read and written only through `WarehouseSettings`: a value never stored is the
/// documented default, a stored value that cannot be read is an error that names the key, the
/// value and the command that sets it again.
final class WarehouseSettingsTests: XCTestCase {
    /// Stores a raw value, as a hand edit or another program would.
    private func store(_ t: TestWarehouse, _ key: String, _ value: String) throws {
        try t.warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
        }
    }

    func testNothingStoredIsTheDocumentedDefaults() throws {
        let s = try TestWarehouse().warehouse.settings()
        XCTAssertEqual(s.zone.identifier, "UTC")
        XCTAssertEqual(s.currency, "USD")
        XCTAssertEqual(s.units, .metric)
        XCTAssertEqual(s.dvirPolicy, .everyDay)
        XCTAssertEqual(s.trips, TripRules())
        XCTAssertEqual(s.trips.stopSeconds, 180)
        XCTAssertNil(s.nightlySettleLooks)
    }

    func testAppliedSettingsReadBackAndOnlyTheGivenKeysAreWritten() throws {
        let t = try TestWarehouse()
        var rules = TripRules()
        rules.stopSeconds = 600
        let change = try t.warehouse.apply(setting: [.timezone, .tripRules, .units]) { s in
            s.zone = FleetZone(identifier: "America/Chicago")!
            s.trips = rules
            s.units = .us
            s.currency = "EUR"   // not in the keys: not written
        }
        XCTAssertEqual(change.changed, [.timezone, .units, .tripRules])
        XCTAssertEqual(change.rederivedAssets, 0)   // no assets yet
        let s = try t.warehouse.settings()
        XCTAssertEqual(s.zone.identifier, "America/Chicago")
        XCTAssertEqual(s.trips.stopSeconds, 600)
        XCTAssertEqual(s.units, .us)
        XCTAssertEqual(s.currency, "USD")
        let stored = try t.rows("SELECT key, value FROM setting ORDER BY key").map { "\($0[0] as String)=\($0[1] as String)" }
        XCTAssertEqual(stored, ["timezone=America/Chicago",
                                "trip_rules={\"gap_seconds\":3600,\"idle_speed_mps\":0.2777777777777778,\"start_distance_m\":200,\"stop_radius_m\":200,\"stop_seconds\":600}",
                                "units=us"])
        // The same values again change nothing and re-derive nothing.
        let again = try t.warehouse.apply(setting: [.timezone, .tripRules, .units]) { s in s.trips = rules }
        XCTAssertEqual(again, SettingsChange())
    }

    func testEveryUnreadableStoredValueIsAnErrorNamingKeyValueAndFix() throws {
        let cases: [(key: String, value: String, says: String, fix: String)] = [
            ("timezone", "Mars/Olympus", "is not an IANA time zone name", "fleetkit init --tz"),
            ("currency", "dollars", "is not an ISO 4217 currency code", "fleetkit init --currency"),
            ("units", "imperial", "is not metric or us", "fleetkit init --units"),
            ("dvir_policy", "sometimes", "is not one of law, passenger, every_day", "fleetkit init --dvir-policy"),
            ("usdot_number", "12AB", "is not a USDOT number (1 to 8 digits)", "fleetkit init --usdot"),
            ("trip_rules", "{gap", "is not a JSON object of trip rules", "fleetkit init --reset-trip-rules"),
            ("trip_rules", "{\"gap_secs\":900}", "names the unknown rule 'gap_secs'", "fleetkit init --reset-trip-rules"),
            ("trip_rules", "{\"gap_seconds\":-5}", "gap_seconds is -5", "fleetkit init --reset-trip-rules"),
            // Issue 35 item 11: a rule of 1e300 was stored, then trapped every track import.
            ("trip_rules", "{\"gap_seconds\":1e300}", "beyond its limit of 604800", "fleetkit init --reset-trip-rules"),
            ("trip_rules", "{\"gap_seconds\":\"long\"}", "holds a value of the wrong type", "fleetkit init --reset-trip-rules"),
        ]
        // The nightly job's settle memory is its own to judge (a warning there, NightlySettleSettingTests).
        let looks = try TestWarehouse()
        try store(looks, "nightly_settle_looks", "[1,2]")
        XCTAssertEqual(try looks.warehouse.settings().nightlySettleLooks, "[1,2]")
        for c in cases {
            let t = try TestWarehouse()
            try store(t, c.key, c.value)
            XCTAssertThrowsError(try t.warehouse.settings(), c.value) { error in
                guard case let FleetError.warehouse(path, reason, hint) = error else { return XCTFail("\(c.key): \(error)") }
                XCTAssertEqual(path, t.warehouse.path)
                XCTAssertTrue(reason.contains("the warehouse setting '\(c.key)' is '\(c.value)'"), reason)
                XCTAssertTrue(reason.contains(c.says), reason)
                XCTAssertTrue(hint.contains(c.fix), hint)
            }
            // Inside a transaction (reports, derivation) the typed error carries the same.
            XCTAssertThrowsError(try t.warehouse.pool.read { db in try WarehouseSettings.load(db) }) { error in
                XCTAssertEqual((error as? WarehouseSettingsError)?.key, c.key, "\(error)")
            }
        }
    }

    func testSettingAKeyRepairsItButAnotherUnreadableKeyStillStopsTheChange() throws {
        let t = try TestWarehouse()
        try store(t, "timezone", "Mars/Olympus")
        try store(t, "trip_rules", "{gap")
        XCTAssertThrowsError(try t.warehouse.apply(setting: [.timezone]) { $0.zone = .utc }) { error in
            XCTAssertTrue("\(error)".contains("'trip_rules' is '{gap'"), "\(error)")
        }
        let change = try t.warehouse.apply(setting: [.timezone, .tripRules]) { s in
            s.zone = .utc
            s.trips = TripRules()
        }
        // Both count as changed: what was derived under an unreadable value is unknown.
        XCTAssertEqual(change.changed, [.timezone, .tripRules])
        XCTAssertEqual(try t.warehouse.settings().trips, TripRules())
    }

    func testANilValueRemovesTheRow() throws {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.nightlySettleLooks]) { $0.nightlySettleLooks = "{\"inbox/a.csv\":{}}" }
        XCTAssertEqual(try t.warehouse.settings().nightlySettleLooks, "{\"inbox/a.csv\":{}}")
        let change = try t.warehouse.apply(setting: [.nightlySettleLooks]) { $0.nightlySettleLooks = nil }
        XCTAssertEqual(change.changed, [.nightlySettleLooks])
        XCTAssertNil(try t.warehouse.settings().nightlySettleLooks)
        XCTAssertEqual(try t.count("setting", where: "key = 'nightly_settle_looks'"), 0)
    }

    func testTripRuleAssignmentsTakeTheRulesOwnKeysAndRefuseTheRest() throws {
        let rules = try TripRules().setting(["gap_seconds=1800", "stop_radius_m = 150"])
        XCTAssertEqual(rules.gapSeconds, 1800)
        XCTAssertEqual(rules.stopRadiusM, 150)
        XCTAssertEqual(rules.stopSeconds, 180)
        for bad in ["gap_secs=10", "gap_seconds", "gap_seconds=-1", "gap_seconds=soon", "gap_seconds=nan", "gap_seconds=inf",
                    "gap_seconds=1e300", "stop_seconds=604801", "idle_speed_mps=1000", "start_distance_m=1e9"] {
            XCTAssertThrowsError(try TripRules().setting([bad]), bad) { error in
                guard case let FleetError.invalidArgument(name, value, _) = error else { return XCTFail("\(bad): \(error)") }
                XCTAssertEqual(name, "trip rule")
                XCTAssertEqual(value, bad)
            }
        }
        XCTAssertEqual(try TripRules().setting(["gap_seconds=604800"]).gapSeconds, 604_800)
        var huge = TripRules()
        huge.gapSeconds = 1e300
        let t = try TestWarehouse()
        XCTAssertThrowsError(try t.warehouse.apply(setting: [.tripRules]) { $0.trips = huge }) { XCTAssertTrue("\($0)".contains("beyond its limit"), "\($0)") }
        XCTAssertEqual(TripRules.keys, ["gap_seconds", "idle_speed_mps", "start_distance_m", "stop_radius_m", "stop_seconds"])
    }
}
