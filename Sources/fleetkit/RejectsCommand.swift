import ArgumentParser
import Foundation
import GRDB
import FleetKit

struct RejectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rejects", abstract: "List rejected rows with their file, location, reason and raw text.",
                                                    discussion: "Open rejects only, by default: a reject whose row a later file loaded (the same transaction, expense or work-order id) is resolved and listed only with --all.")

    enum Output: String, ExpressibleByArgument, CaseIterable { case text, csv }

    @OptionGroup var warehouse: WarehouseOptions
    @Option(help: ArgumentHelp("Only the rejects of this imported file: its path as given to import (or the end of it, such as its name), or its id.",
                               valueName: "path"))
    var file: String?
    @Option(help: "Output: text or csv.")
    var format: Output = .text
    @Flag(help: "Also list the rejects a later file resolved by loading the same row, marked with that file.")
    var all = false
    @Flag(help: "Print the rejects as JSON on stdout (an array of {file_id, path, location, reason, message, raw, resolved_by}).")
    var json = false

    /// One rejected row, as `--json` prints it; `resolved_by` is the path of the file that loaded
    /// the row since (only with `--all`).
    struct Reject: Codable { var file_id: Int64; var path, location, reason, message, raw: String; var resolved_by: String? }

    func run() throws {
        let rows: [Row]
        do {
            let w = try warehouse.open(readOnly: true)
            rows = try w.pool.read { db in
                let ids = try file.map { try RejectFileFilter.ids(for: $0, in: db) }
                return try Row.fetchAll(db, sql: """
                    SELECT * FROM (
                      SELECT r.source_file_id, f.path, r.location, r.reason, r.message, r.raw,
                             (SELECT path FROM source_file WHERE id = \(RejectResolution.resolvedBy("r"))) AS resolved_by, r.id AS rid
                      FROM reject r JOIN source_file f ON f.id = r.source_file_id
                      WHERE ? IS NULL OR r.source_file_id IN (SELECT value FROM json_each(?))
                    ) WHERE ? OR resolved_by IS NULL ORDER BY source_file_id, rid
                    """, arguments: [ids.map { _ in 1 }, ids.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }, all])
            }
        } catch { throw fail(error) }
        if json {
            try writeJSON(rows.map { Reject(file_id: $0[0], path: $0[1], location: $0[2], reason: $0[3], message: $0[4], raw: $0[5], resolved_by: $0[6]) })
            return
        }
        switch format {
        case .csv:
            // Each cell escaped like a text line (`Console`), so no record spans lines; records end in CRLF.
            func cell(_ text: String) -> String { CSVWriter.text(ControlText.escaped(text)) }
            Console.out(["file_id", "path", "location", "reason", "message", "raw"].joined(separator: ",") + (all ? ",resolved_by" : ""), terminator: "\r\n")
            for r in rows {
                Console.out([String(r[0] as Int64), cell(r[1]), cell(r[2]), cell(r[3]), cell(r[4]), cell(r[5])].joined(separator: ",")
                            + (all ? "," + cell(r[6] as String? ?? "") : ""), terminator: "\r\n")
            }
        case .text:
            if rows.isEmpty { Console.out(all ? "no rejected rows" : "no open rejected rows") }
            for r in rows {
                let path: String = r[1], location: String = r[2], reason: String = r[3], message: String = r[4], raw: String = r[5]
                let resolved = (r[6] as String?).map { " [resolved: loaded since by \($0)]" } ?? ""
                Console.out("\(path):\(location.replacingOccurrences(of: "line ", with: "")): \(reason): \(message)\(resolved)")
                Console.out("    \(raw.prefix(200))")
            }
        }
    }
}
