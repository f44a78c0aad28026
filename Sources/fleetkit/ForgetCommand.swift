import ArgumentParser
import Foundation
import GRDB
import FleetKit

/// `fleetkit forget FILE|ID`: takes an imported file back out, in one transaction.
struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove everything an imported file contributed, in one transaction.",
        discussion: "Rows the file stored go back to what the previous file said of them, or are removed if no other file did; its rejects go with it; trips, daily totals and fuel links are recomputed; the correction is recorded with who and when. A file that changes a closed month is refused unless --allow-restatement. Name the file by its id (`fleetkit forget --list`), its path as imported, its bytes (a copy of it) or its file name. To replace a file by a corrected export in one step, use `fleetkit import --replaces FILE NEW`.")

    @OptionGroup var warehouse: WarehouseOptions
    @Flag(help: "Show what would be removed and restored, and change nothing.")
    var dryRun = false
    @Flag(help: "Apply it even when it changes a figure of a closed month (recorded in the restatement ledger).")
    var allowRestatement = false
    @Flag(help: "List the imported files with their ids, newest first, and exit.")
    var list = false
    @Argument(help: "The imported file: its id, its path, or its file name.")
    var file: String?

    func validate() throws {
        if !list, file == nil { throw ValidationError("name the file to forget (its id, path or file name), or pass --list.") }
    }

    func run() throws {
        do {
            let w = try warehouse.open(readOnly: list)
            if list {
                let files = try w.pool.read { db in
                    try Row.fetchAll(db, sql: "SELECT id, path, format, loaded, updated, imported_at FROM source_file ORDER BY id DESC")
                }
                for f in files {
                    Console.out("#\(f[0] as Int64)  \(Timestamp.iso(f[5] as Int64))  [\(f[2] as String)]  \(f[3] as Int) loaded, \(f[4] as Int) updated  \(f[1] as String)")
                }
                return
            }
            let outcome = try Corrections.forget(in: w, file!, allowRestatement: allowRestatement, dryRun: dryRun, by: UserName.current)
            let (forgotten, restated) = (outcome.forgotten, outcome.restatements)
            let refused = outcome.refused ? restated : []
            let word = dryRun || !refused.isEmpty ? "would forget" : "forgot"
            Console.out("\(word) #\(forgotten.fileID) \(forgotten.path): \(forgotten.totalRemoved) rows removed, \(forgotten.totalRestored) restored to an earlier file's version, \(forgotten.rejects) rejects dropped")
            for (t, n) in forgotten.removed.sorted(by: { $0.key < $1.key }) { Console.out("  removed   \(t): \(n)") }
            for (t, n) in forgotten.restored.sorted(by: { $0.key < $1.key }) { Console.out("  restored  \(t): \(n)") }
            for c in restated { Console.out("  restates  \(c.text)") }
            if !refused.isEmpty {
                Console.err("error: \(MonthEnd.refusal(refused).replacingOccurrences(of: "import it with", with: "forget it with")); nothing was changed")
                throw ExitCode(1)
            }
            if dryRun { Console.out("dry run: nothing was changed") }
        } catch let e as ExitCode { throw e } catch { throw fail(error) }
    }
}
