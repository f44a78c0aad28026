import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit warehouse copy --from A --to B`: SQLite → PostgreSQL, or PostgreSQL → a new SQLite
/// file, in one transaction on the side written (`WarehouseCopy`). A password in a URL is
/// never printed: output and errors show `PostgresURL.masked`.
struct WarehouseCopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a warehouse from SQLite to PostgreSQL, or from PostgreSQL to a new SQLite file.",
        discussion: """
            One side is a warehouse file, the other a URL postgresql://user@host:port/dbname. The password \
            comes from the URL, from PGPASSFILE (or ~/.pgpass) or from PGPASSWORD, and is never printed. \
            To PostgreSQL, the database must hold no warehouse tables; to SQLite, the file must not exist. \
            Everything is written in one transaction: after an error the target is as it was. \
            Prints one line per table with its row count, then the total.
            """)

    @Option(help: "The warehouse to read: a file, or a postgresql:// URL.")
    var from: String

    @Option(help: "Where to write it: a postgresql:// URL (an empty database), or a new file.")
    var to: String

    func run() throws {
        let summary: WarehouseCopy.Summary
        let fromURL = PostgresURL(from), toURL = PostgresURL(to)
        do {
            switch (fromURL, toURL) {
            case let (nil, url?):
                guard FileManager.default.fileExists(atPath: from) else {
                    throw FleetError.warehouse(path: from, reason: "there is no warehouse here", hint: "Pass --from with the path of an SQLite warehouse.")
                }
                let warehouse = try Warehouse(path: from, readOnly: true)
                summary = try WarehouseCopy.toPostgres(from: warehouse, to: url)
            case let (url?, nil):
                summary = try WarehouseCopy.toSQLite(from: url, to: to)
            case (nil, nil):
                throw FleetError.invalidArgument(name: "--to", value: to, hint: "One side must be a postgresql:// URL; to copy a file, use cp while no import runs.")
            case (_?, _?):
                throw FleetError.invalidArgument(name: "--to", value: toURL!.masked, hint: "One side must be an SQLite file; to copy between servers, use pg_dump.")
            }
        } catch { throw fail(error) }
        let target = toURL?.masked ?? to
        let width = summary.tables.map(\.table.count).max() ?? 0
        for t in summary.tables {
            let count = String(t.rows)
            let line = t.table.padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(0, 12 - count.count)) + count
            Console.out(line + (summary.partitions[t.table].map { "  (\($0) month partition\($0 == 1 ? "" : "s"))" } ?? ""))
        }
        for fk in summary.droppedForeignKeys { Console.err("note: foreign key \(fk) is not declared in PostgreSQL (its target is partitioned)") }
        for t in summary.skippedTables { Console.err("note: table \(t) is not a warehouse table and was not copied") }
        Console.out("copied \(summary.rows) rows in \(summary.tables.count) tables to \(target) in \(String(format: "%.1f", summary.seconds)) s")
    }
}
