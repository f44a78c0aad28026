import Foundation
import GRDB
import FleetKit

/// `--assets` checked against the warehouse before any report runs: a unit number no asset has
/// is a usage error (exit 64), since the report would otherwise total nothing for it and exit 0
/// (`--assets T-99` printed `$0.00`). The message says how many assets exist and which are close.
enum AssetFilterCheck {
    /// The error sentence for the unknown units in `list` (comma-separated), or nil when all exist.
    static func problem(_ list: String?, in warehouse: Warehouse) throws -> String? {
        try problem(list) { try warehouse.pool.read { db in try AssetLookup(db).unitNumbers() } }
    }

    /// The same, with the warehouse's unit numbers from `units` (either engine).
    static func problem(_ list: String?, units readUnits: () throws -> [String]) throws -> String? {
        guard let list else { return nil }
        let wanted = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if wanted.isEmpty { return "--assets is empty; give unit numbers separated by commas, such as --assets T-101,T-102." }
        let units = try readUnits()
        let known = Set(units)
        let unknown = wanted.filter { !known.contains($0) }
        guard !unknown.isEmpty else { return nil }
        let each = unknown.map { u -> String in
            let near = CloseMatches.of(u, in: units)
            return "'\(u)'" + (near.isEmpty ? "" : " (close: \(near.joined(separator: ", ")))")
        }
        let sample = units.count <= 10 ? ": " + units.joined(separator: ", ") : "; `fleetkit status` lists them"
        return "no asset has the unit number \(each.joined(separator: ", ")); the warehouse has \(units.count) asset\(units.count == 1 ? "" : "s") with a unit number\(sample)."
    }
}
