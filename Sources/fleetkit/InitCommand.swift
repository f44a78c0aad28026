import ArgumentParser
import Foundation
import FleetKit

/// Creates or migrates the warehouse and sets what it stores (WarehouseSettings).
///
/// WHY trip rules are set here and not in a separate `settings` command: `init` already is the
/// one command that sets the warehouse's settings, and a settings change has one rule whatever
/// the key (store it, re-derive what it affects); a second command would be a second place to
/// learn. `init` on an existing warehouse changes only what its flags name.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create or migrate the warehouse and store the fleet settings.",
        discussion: "Only the settings given change. A new time zone or trip rule re-derives every trip and daily rollup, in one transaction.")

    @OptionGroup var warehouse: WarehouseOptions
    @Option(help: "The fleet time zone (IANA name) for daily buckets, e.g. America/Chicago. Default UTC.")
    var tz: String?
    @Option(help: "The base currency (ISO 4217), e.g. USD. Default USD.")
    var currency: String?
    @Option(help: "Units for reports: metric or us. Default metric.")
    var units: Units.System?
    @Option(help: "Which days need an end-of-day DVIR: law (49 CFR 396.11 as amended 2014: property carriers, only days a defect is found), passenger (every day), every_day (company policy). Default every_day.")
    var dvirPolicy: DVIRPolicy?
    @Option(help: "The motor carrier's name, shown on DVIR reports and evidence packs.")
    var carrierName: String?
    @Option(help: "The carrier's USDOT number (1 to 8 digits).")
    var usdot: String?
    @Option(help: "The carrier's principal place of business.")
    var carrierAddress: String?
    @Option(name: .customLong("trip-rule"), help: ArgumentHelp("Set one trip rule, e.g. gap_seconds=1800 (repeatable; docs/METRICS.md lists them).", valueName: "KEY=VALUE"))
    var tripRules: [String] = []
    @Flag(help: "Put every trip rule back to its documented default (before any --trip-rule).")
    var resetTripRules = false
    @Flag(help: "Forget how the nightly job saw files that were still being written (they wait one more settle period).")
    var forgetSettleState = false
    @Flag(help: "Print the warehouse, its settings and what changed as JSON on stdout.")
    var json = false

    /// What `init --json` prints.
    struct Result: Codable {
        var warehouse: String
        var timezone, currency, units, dvir_policy: String
        var carrier_name, usdot_number, carrier_address: String?
        var trip_rules: String
        var changed: [String]
        var rederived_assets: Int
    }

    func validate() throws {
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("'\(tz)' is not an IANA time zone name, such as America/Chicago or Europe/Berlin.") }
        if let currency, !Money.isCurrencyCode(currency) { throw ValidationError("'\(currency)' is not an ISO 4217 currency code, such as USD or EUR.") }
        do { _ = try TripRules().setting(tripRules) } catch { throw ValidationError("\(error)") }
        if let usdot, !Carrier.isUSDOTNumber(usdot) { throw ValidationError("--usdot '\(usdot)' is not a USDOT number: 1 to 8 digits, as on the carrier's FMCSA registration.") }
        for (name, value) in [("--carrier-name", carrierName), ("--carrier-address", carrierAddress)] {
            if let value, value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || value.count > 500 || value.contains(where: { $0.isNewline }) {
                throw ValidationError("\(name) must be one line of 1 to 500 characters.")
            }
        }
    }

    func run() throws {
        do {
            let w = try warehouse.open(create: true)
            var keys: Set<WarehouseSettings.Key> = []
            if tz != nil { keys.insert(.timezone) }
            if currency != nil { keys.insert(.currency) }
            if units != nil { keys.insert(.units) }
            if dvirPolicy != nil { keys.insert(.dvirPolicy) }
            if carrierName != nil { keys.insert(.carrierName) }
            if usdot != nil { keys.insert(.usdotNumber) }
            if carrierAddress != nil { keys.insert(.carrierAddress) }
            if resetTripRules || !tripRules.isEmpty { keys.insert(.tripRules) }
            if forgetSettleState { keys.insert(.nightlySettleLooks) }
            // Rules set one by one onto unreadable stored rules would silently start from defaults.
            if !resetTripRules, !tripRules.isEmpty, let problem = try w.pool.read({ db in try WarehouseSettings.problems(db)[.tripRules] }) {
                throw FleetError.warehouse(path: w.path, reason: problem.statement, hint: problem.hint)
            }
            let change = try w.apply(setting: keys) { s in
                if let tz { s.zone = FleetZone(identifier: tz)! }
                if let currency { s.currency = currency }
                if let units { s.units = units }
                if let dvirPolicy { s.dvirPolicy = dvirPolicy }
                if let carrierName { s.carrier.name = carrierName.trimmingCharacters(in: .whitespaces) }
                if let usdot { s.carrier.usdotNumber = usdot }
                if let carrierAddress { s.carrier.address = carrierAddress.trimmingCharacters(in: .whitespaces) }
                if resetTripRules { s.trips = TripRules() }
                s.trips = try s.trips.setting(tripRules)
                if forgetSettleState { s.nightlySettleLooks = nil }
            }
            let s = try w.settings()
            if json {
                try writeJSON(Result(warehouse: w.path, timezone: s.zone.identifier, currency: s.currency, units: s.units.rawValue,
                                     dvir_policy: s.dvirPolicy.rawValue, carrier_name: s.carrier.name, usdot_number: s.carrier.usdotNumber,
                                     carrier_address: s.carrier.address, trip_rules: s.trips.summary, changed: change.changed.map(\.rawValue),
                                     rederived_assets: change.rederivedAssets))
                return
            }
            Console.out("warehouse \(w.path) is ready (time zone \(s.zone.identifier), currency \(s.currency), units \(s.units.rawValue))")
            Console.out("trip rules: " + s.trips.summary)
            if dvirPolicy != nil || carrierName != nil || usdot != nil || carrierAddress != nil {
                Console.out("DVIR policy " + s.dvirPolicy.statement + "; carrier: " + s.carrier.line + (s.carrier.address.map { ", " + $0 } ?? ""))
            }
            if change.rederivedAssets > 0 {
                let what = change.changed.filter(\.affectsDerivation).map(\.rawValue).joined(separator: " and ")
                Console.out("\(what) changed: re-derived the trips and daily rollups of \(change.rederivedAssets) asset\(change.rederivedAssets == 1 ? "" : "s")")
            }
        } catch { throw fail(error) }
    }
}

extension Units.System: ExpressibleByArgument {}
extension DVIRPolicy: ExpressibleByArgument {
    /// `defects_only`, the old name of `law`, is still accepted.
    public init?(argument: String) { self.init(text: argument) }
}
