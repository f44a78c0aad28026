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
        if readOnly || !create, !FileManager.default.fileExists(atPath: path) {
            throw FleetError.warehouse(path: path, reason: "there is no warehouse here",
                                       hint: "Create it with `fleetkit init --db \(path)`" + (flag.map { ", pass \($0)" } ?? "") + ", or pass --db with the right path.")
        }
        return try Warehouse(path: path, readOnly: readOnly)
    }
}

/// Settings a command reads from the warehouse, with the documented defaults.
struct FleetSettings {
    var zone: FleetZone
    var currency: String
    var units: Units.System

    static func load(_ warehouse: Warehouse) throws -> FleetSettings {
        let tz = try warehouse.setting("timezone") ?? "UTC"
        guard let zone = FleetZone(identifier: tz) else {
            throw FleetError.invalidArgument(name: "timezone setting", value: tz, hint: "set a valid IANA zone with `fleetkit init --tz America/Chicago`")
        }
        return FleetSettings(zone: zone, currency: try warehouse.setting("currency") ?? "USD",
                             units: Units.System(rawValue: try warehouse.setting("units") ?? "metric") ?? .metric)
    }
}

func writeJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}
