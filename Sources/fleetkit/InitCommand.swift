import ArgumentParser
import Foundation
import FleetKit

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "init", abstract: "Create or migrate the warehouse and store the fleet settings.")

    @OptionGroup var warehouse: WarehouseOptions
    @Option(help: "The fleet time zone (IANA name) for daily buckets, e.g. America/Chicago. Default UTC.")
    var tz: String?
    @Option(help: "The base currency (ISO 4217), e.g. USD. Default USD.")
    var currency: String?
    @Option(help: "Units for reports: metric or us. Default metric.")
    var units: Units.System?

    func validate() throws {
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("'\(tz)' is not an IANA time zone name, such as America/Chicago or Europe/Berlin.") }
        if let currency, !Money.isCurrencyCode(currency) { throw ValidationError("'\(currency)' is not an ISO 4217 currency code, such as USD or EUR.") }
    }

    func run() throws {
        do {
            let w = try warehouse.open(create: true)
            if let tz, try w.setting("timezone") ?? "UTC" != tz {
                try w.setSetting("timezone", tz)
                // Daily buckets are local days: a new zone moves every boundary.
                try w.pool.write { db in try Derivations.rebuildAll(db, settings: DeriveSettings(zone: FleetZone(identifier: tz)!)) }
            }
            if let currency { try w.setSetting("currency", currency) }
            if let units { try w.setSetting("units", units.rawValue) }
            let s = try FleetSettings.load(w)
            Console.out("warehouse \(w.path) is ready (time zone \(s.zone.identifier), currency \(s.currency), units \(s.units.rawValue))")
        } catch { throw fail(error) }
    }
}

extension Units.System: ExpressibleByArgument {}
