import ArgumentParser
import Foundation
import GRDB
import FleetKit

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what the warehouse holds: rows per table, assets, date coverage, last runs, rejects.")

    @OptionGroup var warehouse: WarehouseOptions
    @Flag(help: "Print as JSON on stdout.")
    var json = false

    func run() throws {
        let status: WarehouseStatus
        do { status = try WarehouseStatus.read(try warehouse.open(readOnly: true)) } catch { throw fail(error) }
        if json { try writeJSON(status) } else { status.printText() }
    }
}

/// The facts `fleetkit status` shows.
struct WarehouseStatus: Codable {
    /// `exit_code`: what the command exited with; absent while it runs, when its process died or
    /// it stopped on an error (exit 2), and for runs recorded before warehouses kept it.
    struct Run: Codable { var id: Int64; var started_at: String; var status: String; var command: String; var exit_code: Int? }
    /// A file that failed in one of the last runs: nothing of it is in the warehouse, so
    /// `rejects` cannot show it; its error is kept in the run's summary (`import_run.summary_json`).
    struct FailedFile: Codable { var run_id: Int64; var path: String; var error: String }
    struct Coverage: Codable { var table: String; var from: String?; var to: String? }
    var warehouse: String
    var settings: [String: String]
    /// The stored trip rules, `key value, …` (also in `settings.trip_rules`, as JSON).
    var trip_rules: String
    var tables: [String: Int]
    var assets: Int
    var auto_created_assets: Int
    /// The auto-created assets by what names them (unit number, VIN, PIN or name), the first
    /// `autoCreatedShown`: a typed unit number that is not in master data shows here.
    var auto_created: [String]
    static let autoCreatedShown = 50
    var files: Int
    var coverage: [Coverage]
    var rejects_by_reason: [String: Int]
    var last_runs: [Run]
    var failed_files: [FailedFile]
    var month_end: MonthEndStatus

    static let countedTables = ["asset", "driver", "assignment", "source_file", "reject", "meter_reading", "position", "engine_event",
                                "obd_sample", "dtc_event", "trip", "asset_day", "fuel_purchase", "expense", "maintenance_record",
                                "service_schedule", "dvir", "dvir_defect", "dvir_defect_pending", "fx_rate", "idle_period"]

    static func read(_ w: Warehouse) throws -> WarehouseStatus {
        try w.pool.read { db in
            var tables: [String: Int] = [:]
            // A table a later migration adds is absent from a warehouse opened read-only since an upgrade.
            for t in countedTables where try db.tableExists(t) { tables[t] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(t)") ?? 0 }
            var coverage: [Coverage] = []
            for (t, c) in [("meter_reading", "at"), ("position", "at"), ("fuel_purchase", "at"), ("expense", "at"),
                           ("maintenance_record", "performed_at"), ("dvir", "signed_at")] {
                let row = try Row.fetchOne(db, sql: "SELECT MIN(\(c)), MAX(\(c)) FROM \(t)")
                let lo: Int64? = row?[0], hi: Int64? = row?[1]
                if let lo, let hi { coverage.append(Coverage(table: t, from: Timestamp.iso(lo), to: Timestamp.iso(hi))) }
            }
            var reasons: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT reason, COUNT(*) FROM reject GROUP BY reason") { reasons[row[0]] = row[1] }
            // What every command uses: the stored values, else the documented defaults.
            let stored = try WarehouseSettings.load(db)
            var settings: [String: String] = [:]
            for (key, value) in try stored.stored() where key != .nightlySettleLooks {
                if let value { settings[key.rawValue] = value }
            }
            let trips = stored.trips.summary
            let recent = try Row.fetchAll(db, sql: "SELECT id, started_at, status, command, summary_json, exit_code FROM import_run ORDER BY id DESC LIMIT 5")
            var failed: [FailedFile] = []
            for row in recent {
                // A run still going, or one that died, has no summary yet.
                guard let json: String = row[4] else { continue }
                let summary: ImportSummary
                do { summary = try JSONDecoder().decode(ImportSummary.self, from: Data(json.utf8)) } catch {
                    // Never a silent gap in the list: say which run cannot be read, and why.
                    failed.append(FailedFile(run_id: row[0], path: "(import_run \(row[0] as Int64) summary)",
                                             error: "the run's stored summary cannot be read (\(error)); its failed files are not listed here, its rejects are in `fleetkit rejects`"))
                    continue
                }
                for f in summary.files where f.status == .failed {
                    failed.append(FailedFile(run_id: row[0], path: f.path, error: f.error ?? "unknown error"))
                }
            }
            let runs = recent.map { row -> Run in
                var run = Run(id: row[0], started_at: Timestamp.iso(row[1]), status: row[2], command: row[3], exit_code: row[5])
                // status is read-only: a run whose process died shows as interrupted here at
                // once; the next import or nightly run records it so (RunLock).
                // A lock that cannot be checked says so, with the reason (RunLock.Liveness.unknown).
                if run.status == "running" {
                    switch RunLock.liveness(warehouse: w.path, runID: run.id) {
                    case .alive: break
                    case .gone: run.status = "interrupted"
                    case let .unknown(reason): run.status = "running? (\(reason))"
                    }
                }
                return run
            }
            return WarehouseStatus(warehouse: w.path, settings: settings, trip_rules: trips, tables: tables, assets: tables["asset"] ?? 0,
                                   auto_created_assets: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE auto_created = 1") ?? 0,
                                   auto_created: try String.fetchAll(db, sql: """
                                       SELECT COALESCE(unit_number, vin, pin, name, 'asset #' || id) AS label FROM asset WHERE auto_created = 1
                                       ORDER BY label LIMIT \(autoCreatedShown)
                                       """),
                                   files: tables["source_file"] ?? 0, coverage: coverage, rejects_by_reason: reasons, last_runs: runs,
                                   failed_files: failed, month_end: try MonthEndStatus.read(db))
        }
    }

    /// The carrier DVIR reports and evidence packs name, as their headers print it (with the
    /// address), or loudly not set: an auditor asks for it first.
    var carrierText: String {
        let carrier = Carrier(name: settings["carrier_name"], usdotNumber: settings["usdot_number"], address: settings["carrier_address"])
        return ControlText.escaped(carrier.line + (carrier.address.map { ", \($0)" } ?? ""))
    }

    func printText() {
        Console.out("warehouse: \(warehouse)")
        Console.out("settings:  time zone \(settings["timezone"] ?? "?"), currency \(settings["currency"] ?? "?"), units \(settings["units"] ?? "?"), DVIR policy \(settings["dvir_policy"] ?? "?")")
        Console.out("carrier:   \(carrierText)")
        Console.out("trips:     \(trip_rules)")
        Console.out("assets:    \(assets) (\(auto_created_assets) auto-created from facts, not in master data)")
        if !auto_created.isEmpty {
            Console.out("auto-created: " + auto_created.map(ControlText.escaped).joined(separator: ", ") + (auto_created_assets > auto_created.count ? ", …" : "")
                        + " (add them to assets.csv, or correct the files that name them)")
        }
        Console.out("files:     \(files) imported")
        Console.out("rows per table:")
        for t in Self.countedTables where (tables[t] ?? 0) > 0 { Console.out("  \(t.padding(toLength: 20, withPad: " ", startingAt: 0))\(tables[t]!)") }
        if !coverage.isEmpty {
            Console.out("date coverage (UTC):")
            for c in coverage { Console.out("  \(c.table.padding(toLength: 20, withPad: " ", startingAt: 0))\(c.from ?? "") … \(c.to ?? "")") }
        }
        if rejects_by_reason.isEmpty { Console.out("rejects:   none") } else {
            Console.out("rejects by reason (fleetkit rejects lists them):")
            for (r, n) in rejects_by_reason.sorted(by: { $0.key < $1.key }) { Console.out("  \(r.padding(toLength: 20, withPad: " ", startingAt: 0))\(n)") }
        }
        month_end.printText()
        if !last_runs.isEmpty {
            Console.out("last runs:")
            for r in last_runs { Console.out("  #\(r.id) \(r.started_at) \(r.status)\(r.exit_code.map { " (exit \($0))" } ?? ""): \(r.command)") }
        }
        if !failed_files.isEmpty {
            Console.out("files that failed in these runs (nothing of them was kept; fix and import again):")
            for f in failed_files {
                var error = f.error
                if error.hasPrefix(f.path + ": ") { error.removeFirst(f.path.count + 2) }
                Console.out("  #\(f.run_id) \(f.path): \(error)")
            }
        }
    }
}
