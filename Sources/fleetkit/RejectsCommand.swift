import ArgumentParser
import Foundation
import GRDB
import FleetKit

struct RejectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rejects", abstract: "List rejected rows with their file, location, reason and raw text.")

    enum Output: String, ExpressibleByArgument, CaseIterable { case text, csv }

    @OptionGroup var warehouse: WarehouseOptions
    @Option(help: ArgumentHelp("Only the rejects of this imported file: its path as given to import (or the end of it, such as its name), or its id.",
                               valueName: "path"))
    var file: String?
    @Option(help: "Output: text or csv.")
    var format: Output = .text
    @Flag(help: "Print the rejects as JSON on stdout (an array of {file_id, path, location, reason, message, raw}).")
    var json = false

    /// One rejected row, as `--json` prints it.
    struct Reject: Codable { var file_id: Int64; var path, location, reason, message, raw: String }

    func run() throws {
        let rows: [Row]
        do {
            let w = try warehouse.open(readOnly: true)
            rows = try w.pool.read { db in
                let ids = try file.map { try RejectFileFilter.ids(for: $0, in: db) }
                return try Row.fetchAll(db, sql: """
                    SELECT r.source_file_id, f.path, r.location, r.reason, r.message, r.raw
                    FROM reject r JOIN source_file f ON f.id = r.source_file_id
                    WHERE ? IS NULL OR r.source_file_id IN (SELECT value FROM json_each(?)) ORDER BY r.source_file_id, r.id
                    """, arguments: [ids.map { _ in 1 }, ids.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }])
            }
        } catch { throw fail(error) }
        if json {
            try writeJSON(rows.map { Reject(file_id: $0[0], path: $0[1], location: $0[2], reason: $0[3], message: $0[4], raw: $0[5]) })
            return
        }
        switch format {
        case .csv:
            // Each cell escaped like a text line (`Console`), so no record spans lines; records end in CRLF.
            func cell(_ text: String) -> String { CSVWriter.text(ControlText.escaped(text)) }
            Console.out(["file_id", "path", "location", "reason", "message", "raw"].joined(separator: ","), terminator: "\r\n")
            for r in rows {
                Console.out([String(r[0] as Int64), cell(r[1]), cell(r[2]), cell(r[3]), cell(r[4]), cell(r[5])].joined(separator: ","), terminator: "\r\n")
            }
        case .text:
            if rows.isEmpty { Console.out("no rejected rows") }
            for r in rows {
                let path: String = r[1], location: String = r[2], reason: String = r[3], message: String = r[4], raw: String = r[5]
                Console.out("\(path):\(location.replacingOccurrences(of: "line ", with: "")): \(reason): \(message)")
                Console.out("    \(raw.prefix(200))")
            }
        }
    }
}
