import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit verify`: checks the warehouse against every invariant (docs/METRICS.md, "Verify")
/// and lists each failure with what, where and what to do. Exit 0 clean, 1 a check failed,
/// 2 it could not run. It never changes the warehouse: the re-derivation check runs in a
/// transaction that is rolled back (it needs a writable warehouse for that).
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the warehouse against every invariant: trips, daily totals, meters, asset identity, derived rows, report totals.",
        discussion: "Exit codes: 0 every check passed; 1 a check failed (each failure is listed with what to do); 2 could not run. docs/METRICS.md lists each check and its tolerance.")

    @OptionGroup var warehouse: WarehouseOptions
    @Flag(help: "Print the result as JSON on stdout.")
    var json = false
    @Option(help: "Asset-days to derive again from the facts, spread evenly over the warehouse (0 skips that check).")
    var sample: Int = 200
    @Option(help: "Failures listed per check; the rest are counted.")
    var limit: Int = 50

    func validate() throws {
        guard sample >= 0 else { throw ValidationError("--sample must be 0 or more asset-days.") }
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
    }

    func run() throws {
        let result: VerifyResult
        do {
            let w = try warehouse.open()
            let context = try VerifyChecks.context(w, sampleDays: sample, listLimit: limit)
            result = try Verifier(checks: VerifyChecks.all).run(w, context: context)
        } catch { throw fail(error) }
        if json {
            try writeJSON(result)
        } else {
            Console.out("verify \(result.warehouse)")
            for c in result.checks {
                Console.out("\(c.failures == 0 ? "ok  " : "FAIL") \(c.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(c.examined) examined, \(c.failures) failures, \(c.seconds) s")
                for f in c.listed {
                    let place = [f.asset, f.day, f.trip.map { "trip \($0)" }].compactMap { $0 }.joined(separator: " ")
                    Console.out("       \(place.isEmpty ? "" : place + ": ")\(f.what)")
                    Console.out("         fix: \(f.fix)")
                }
                if c.failures > c.listed.count { Console.out("       … and \(c.failures - c.listed.count) more (--limit lists more)") }
            }
            let failed = result.checks.filter { $0.failures > 0 }.count
            Console.out(result.clean ? "clean: all \(result.checks.count) checks passed"
                                     : "\(result.failures) failures in \(failed) of \(result.checks.count) checks")
        }
        if !result.clean { throw Exit.rowsRejected }
    }
}
