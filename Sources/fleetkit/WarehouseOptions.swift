import ArgumentParser
import Foundation
import FleetKit

/// `--db`, shared by every command that opens the warehouse.
struct WarehouseOptions: ParsableArguments {
    @Option(name: .long, help: "The warehouse file (default: $FLEETKIT_DB, else ./fleet.sqlite).")
    var db: String?

    var path: String { db ?? ProcessInfo.processInfo.environment["FLEETKIT_DB"] ?? "fleet.sqlite" }

    /// Opens the warehouse. A missing one is created only when `create` is true (`init`, and
    /// `import --create`): a mistyped `--db` must not silently start an empty warehouse that
    /// the next report then totals as zero. `orPass` names the flag that would create it.
    func open(readOnly: Bool = false, create: Bool = false, orPass flag: String? = nil) throws -> Warehouse {
        try Warehouse.refusePostgres(path)
        if readOnly || !create, !FileManager.default.fileExists(atPath: path) {
            throw FleetError.warehouse(path: path, reason: "there is no warehouse here",
                                       hint: "Create it with `fleetkit init --db \(path)`" + (flag.map { ", pass \($0)" } ?? "") + ", or pass --db with the right path.")
        }
        return try Warehouse(path: path, readOnly: readOnly)
    }
}

/// `value` as one line of JSON on stdout (JSON Lines): a job's log gets one line a run, which
/// `jq -c`, `grep` and log shippers read line by line.
func writeJSONLine<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}

func writeJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}
