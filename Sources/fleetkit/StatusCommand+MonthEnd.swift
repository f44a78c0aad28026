import Foundation
import GRDB
import FleetKit

/// Month-end in `fleetkit status`: the closed months, the restatements of their figures, and
/// the corrections (forgotten and replaced files), each with who and when.
struct MonthEndStatus: Codable {
    struct Closed: Codable { var period: String; var closed_at: String; var closed_by: String }
    struct Restated: Codable { var period: String; var report: String; var figure: String; var old: String; var new: String; var file: String; var at: String; var by: String }
    struct Corrected: Codable { var action: String; var file: String; var replaced_by: String?; var removed: Int; var restored: Int; var at: String; var by: String }
    var closed: [Closed]
    var restatements: [Restated]
    var corrections: [Corrected]

    static func read(_ db: Database) throws -> MonthEndStatus {
        // A warehouse opened read-only before its upgrade has no month-end tables yet.
        guard try db.tableExists("period_close") else { return MonthEndStatus(closed: [], restatements: [], corrections: []) }
        return MonthEndStatus(
            closed: try MonthEnd.closed(db).map { Closed(period: $0.period, closed_at: Timestamp.iso($0.closedAt), closed_by: $0.closedBy) },
            restatements: try MonthEnd.restatements(db).map {
                Restated(period: $0.period, report: $0.report, figure: $0.figure, old: $0.old, new: $0.new, file: $0.filePath, at: Timestamp.iso($0.at), by: $0.by)
            },
            corrections: try Corrections.entries(db).map {
                Corrected(action: $0.action, file: $0.path, replaced_by: $0.replacedBy, removed: $0.removed, restored: $0.restored, at: Timestamp.iso($0.at), by: $0.by)
            })
    }

    func printText() {
        Console.out("closed months: " + (closed.isEmpty ? "none" : closed.map(\.period).joined(separator: ", ")))
        for c in closed { Console.out("  \(c.period) closed \(c.closed_at) by \(c.closed_by)") }
        if restatements.isEmpty { Console.out("restatements: none") } else {
            Console.out("restatements of closed months (period, report, figure: old → new, file, when, by):")
            for r in restatements { Console.out("  \(r.period) \(r.report) \(r.figure): \(r.old) → \(r.new); \(r.file); \(r.at) by \(r.by)") }
        }
        if !corrections.isEmpty {
            Console.out("corrections (forgotten and replaced files):")
            for c in corrections {
                Console.out("  \(c.at) \(c.action) \(c.file)" + (c.replaced_by.map { " by \($0)" } ?? "") + ": \(c.removed) rows removed, \(c.restored) restored; by \(c.by)")
            }
        }
    }
}
