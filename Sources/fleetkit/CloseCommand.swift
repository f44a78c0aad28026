import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit close YYYY-MM`: the month's figures are signed; a later file that would change
/// one is a restatement (refused unless `--allow-restatement`, then recorded).
struct CloseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close",
        abstract: "Close a month: its figures are kept, and a later import that would change one is a restatement.",
        discussion: "A file that would change a figure of a closed month is refused (the nightly job quarantines it, with the figures it would change); `fleetkit import --allow-restatement` applies it and records each changed figure in the restatement ledger, which `fleetkit status` and the reports show. Closing a month already closed changes nothing.")

    @OptionGroup var warehouse: WarehouseOptions
    @Argument(help: "The month to close, YYYY-MM (local time of the warehouse).")
    var period: String

    func validate() throws {
        guard PeriodFigures.month(period) != nil else { throw ValidationError("'\(period)' is not a month; write YYYY-MM, e.g. 2026-10.") }
    }

    func run() throws {
        do {
            let w = try warehouse.open()
            let zone = try w.settings().zone
            let by = UserName.current
            let closed = try w.pool.write { db in try MonthEnd.close(db, period: period, zone: zone, by: by) }
            guard let closed else {
                Console.out("\(period) was already closed; nothing changed (`fleetkit status` shows when and by whom)")
                return
            }
            Console.out("closed \(period) (\(zone.identifier)) by \(by); its figures as kept:")
            for f in closed.figures { Console.out("  \(f.report) \(f.figure): \(f.value)") }
            if closed.figures.allSatisfy({ $0.value == "0" }) {
                Console.err("warning: \(period) holds no data yet; a later import of its files will be refused as a restatement")
            }
        } catch { throw fail(error) }
    }
}
