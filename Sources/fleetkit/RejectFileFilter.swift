import Foundation
import GRDB
import FleetKit

/// What `rejects --file` names: a source file by the path a person typed (as given to `import`,
/// relative or absolute, or just its tail such as `vin-with-i.csv`), or by its id from
/// `fleetkit status --json`. WHY paths: people know the file they imported, not the warehouse's
/// internal id. An ambiguous or unknown name is a usage error (64) that lists the candidates,
/// never an empty listing that reads as "no rejects".
enum RejectFileFilter {
    static func ids(for wanted: String, in db: Database) throws -> [Int64] {
        let files = try Row.fetchAll(db, sql: "SELECT id, path FROM source_file ORDER BY id").map { (id: $0[0] as Int64, path: $0[1] as String) }
        if let id = Int64(wanted), files.contains(where: { $0.id == id }) { return [id] }
        let absolute = URL(fileURLWithPath: wanted).standardizedFileURL.path
        let exact = files.filter { $0.path == wanted || $0.path == absolute }
        if !exact.isEmpty { return exact.map(\.id) }
        let tail = wanted.hasPrefix("/") ? wanted : "/" + wanted
        let byTail = files.filter { $0.path.hasSuffix(tail) }
        // The same path imported twice (changed bytes) is one file to a person: all its versions.
        if Set(byTail.map(\.path)).count == 1 { return byTail.map(\.id) }
        if byTail.count > 1 {
            let paths = Array(Set(byTail.map(\.path))).sorted()
            throw FleetError.invalidArgument(name: "--file", value: wanted,
                                             hint: "\(paths.count) imported files end so: \(paths.prefix(10).joined(separator: ", "))\(paths.count > 10 ? ", …" : ""); give more of the path")
        }
        let near = CloseMatches.of(URL(fileURLWithPath: wanted).lastPathComponent, in: Array(Set(files.map { URL(fileURLWithPath: $0.path).lastPathComponent })))
        throw FleetError.invalidArgument(name: "--file", value: wanted,
                                         hint: "no imported file has this path" + (near.isEmpty ? "" : " (close: \(near.joined(separator: ", ")))")
                                             + "; `fleetkit status --json` and `fleetkit rejects` show the imported files")
    }
}
