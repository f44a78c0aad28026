import XCTest
import GRDB
import FleetTestSupport

/// Month-end you can sign (issue 29): a closed month changes only through a recorded
/// restatement; an imported file can be forgotten or replaced, putting back what the previous
/// file said. Before, a corrected re-export was loaded beside the old rows or moved them in
/// silence, and there was no way to take a file back but a new warehouse.
final class MonthEndTests: XCTestCase {
    static let header = "transaction_id,transaction_date,transaction_time,card_number,unit_number,driver_id,merchant,merchant_city,merchant_state,fuel_grade,gallons,price_per_gallon,total,currency,odometer_mi\n"

    /// One fill: transaction id, day in October, total in dollars.
    static func fill(_ id: String, _ day: Int, _ total: String) -> String {
        "\(id),2026-10-\(String(format: "%02d", day)),08:00:00,7071000040047514,T-07,,Shell,Joliet,IL,Diesel #2,20.000,3.500,\(total),USD,1000\n"
    }

    private func setUp(_ name: String) throws -> (dir: URL, db: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("monthend-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        return (dir, db)
    }

    private func write(_ rows: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try (Self.header + rows).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The fills as `id total_minor`, sorted (without the key's `card:` prefix).
    private func fills(_ db: String) throws -> [String] {
        // A busy timeout: the warehouse may still be locked for a moment by a process just ending.
        var config = Configuration()
        config.busyMode = .timeout(10)
        return try DatabaseQueue(path: db, configuration: config).read { db in
            try Row.fetchAll(db, sql: "SELECT replace(source_key, 'card:', ''), total_minor FROM fuel_purchase ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64)" }
        }
    }

    func testAClosedMonthIsRestatedOnlyWhenAllowedAndThenRecorded() throws {
        let (dir, db) = try setUp("close")
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, try write(Self.fill("T1", 3, "70.00"), "oct.csv", in: dir)]).status, 0)
        var r = try Fleetkit.run(["close", "2026-10", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("closed 2026-10"), r.stdout)
        XCTAssertTrue(r.stdout.contains("cost fuel USD: 70.00 USD (1 rows)"), r.stdout)
        let before = try fills(db)
        let corrected = try write(Self.fill("T1", 3, "80.00"), "oct-corrected.csv", in: dir)
        r = try Fleetkit.run(["import", "--db", db, corrected])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("closed period 2026-10 (a restatement): 2026-10 cost fuel USD: 70.00 USD (1 rows) → 80.00 USD (1 rows)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--allow-restatement"), r.stderr)
        XCTAssertEqual(try fills(db), before, "a refused restatement changed the warehouse")
        // A file that only adds another month is no restatement.
        r = try Fleetkit.run(["import", "--db", db, try write(Self.fill("T9", 3, "5.00").replacingOccurrences(of: "2026-10-", with: "2026-11-"), "nov.csv", in: dir)])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try Fleetkit.run(["import", "--db", db, "--allow-restatement", corrected])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("restated 2026-10 cost fuel USD: 70.00 USD (1 rows) → 80.00 USD (1 rows)"), r.stdout)
        XCTAssertEqual(try fills(db), ["T1 8000", "T9 500"])
        r = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(r.stdout.contains("closed months: 2026-10"), r.stdout)
        XCTAssertTrue(r.stdout.contains("2026-10 cost fuel USD: 70.00 USD (1 rows) → 80.00 USD (1 rows); \(corrected);"), r.stdout)
        // The report of the month shows the restatement beside its figures.
        let out = dir.appendingPathComponent("reports")
        r = try Fleetkit.run(["report", "cost", "--month", "2026-10", "--db", db, "--format", "json", "--out", out.path])
        let json = try String(contentsOf: out.appendingPathComponent("cost-2026-10.json"), encoding: .utf8)
        XCTAssertTrue(json.contains("Restatements of closed months"), json)
        XCTAssertTrue(json.contains("70.00 USD (1 rows) → 80.00 USD (1 rows)"), json)
        // Closing again changes nothing.
        r = try Fleetkit.run(["close", "2026-10", "--db", db])
        XCTAssertTrue(r.stdout.contains("already closed"), r.stdout)
    }

    /// A corrected rate changes the converted total finance signed without touching a stored
    /// amount: the September rate is in force on October 3. Before, the closed month's figures
    /// were the stored sums per currency and the month's own rates, so the correction went in
    /// with exit 0 and October's USD total moved in silence.
    /// CAD 70.00 at 1.37 CAD per USD: python3 -c "print(round(70/1.37, 2), round(70/1.39, 2))" → 51.09 50.36
    func testAnFxCorrectionThatChangesAClosedMonthsConvertedTotalIsARestatement() throws {
        let (dir, db) = try setUp("fx")
        func rates(_ rate: String, _ name: String) throws -> String {
            let url = dir.appendingPathComponent(name)
            try "date,currency,units_per_USD\n2026-09-28,CAD,\(rate)\n".write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, try rates("1.37", "fx-rates.csv")]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, try write(Self.fill("T1", 3, "70.00").replacingOccurrences(of: ",USD,", with: ",CAD,"), "card.csv", in: dir)]).status, 0)
        var r = try Fleetkit.run(["close", "2026-10", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("cost total in USD: 51.09 USD"), r.stdout)
        XCTAssertTrue(r.stdout.contains("cost fuel in USD: 51.09 USD"), r.stdout)
        let corrected = try rates("1.39", "fx-rates-corrected.csv")
        r = try Fleetkit.run(["import", "--db", db, corrected])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("2026-10 cost fuel in USD: 51.09 USD → 50.36 USD"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2026-10 cost total in USD: 51.09 USD → 50.36 USD"), r.stderr)
        r = try Fleetkit.run(["import", "--db", db, "--allow-restatement", corrected])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(r.stdout.contains("2026-10 cost total in USD: 51.09 USD → 50.36 USD; \(corrected);"), r.stdout)
        // The month's rows were converted with no rate at all before: adding the rate is a restatement too.
        let (dir2, db2) = try setUp("fx-missing")
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db2, try write(Self.fill("T1", 3, "70.00").replacingOccurrences(of: ",USD,", with: ",CAD,"), "card.csv", in: dir2)]).status, 0)
        r = try Fleetkit.run(["close", "2026-10", "--db", db2])
        XCTAssertTrue(r.stdout.contains("cost without a rate CAD: 70.00 CAD (1 rows, not in the total)"), r.stdout)
        r = try Fleetkit.run(["import", "--db", db2, try rates("1.37", "fx-rates.csv")])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("2026-10 cost total in USD: 0.00 USD → 51.09 USD"), r.stderr)
    }

    /// The issue's corrected re-export: the card file again with a `Currency` column (CAD). Its
    /// rows have no transaction id, so their keys (time, card, unit, total, currency) are new
    /// and they were loaded beside the first file's: every fill counted twice. Now the file is
    /// refused, naming the file it matches and `--replaces`, which then loads it.
    func testARowSetThatDiffersOnlyInCurrencyIsRefusedWithReplaces() throws {
        let (dir, db) = try setUp("twins")
        let rows = ["2026-10-03,08:00:00,7071000040047514,T-07,20.000,70.00", "2026-10-04,09:30:00,7071000040047514,T-07,10.000,35.00"]
        func file(_ name: String, currency: String?) throws -> String {
            let url = dir.appendingPathComponent(name)
            let header = "transaction_date,transaction_time,card_number,unit_number,gallons,total" + (currency == nil ? "" : ",currency")
            try ([header] + rows.map { $0 + (currency.map { "," + $0 } ?? "") }).joined(separator: "\n").appending("\n")
                .write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let first = try file("card.csv", currency: nil)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, first]).status, 0)
        let corrected = try file("card-cad.csv", currency: "CAD")
        var r = try Fleetkit.run(["import", "--db", db, "--json", corrected])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("\"matches_except_currency\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("\"rows\" : 2") || r.stdout.contains("\"rows\":2"), r.stdout)
        r = try Fleetkit.run(["import", "--db", db, corrected])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("2 rows match rows of #1 \(first) except the currency (USD there, CAD here)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("import it with --replaces \(first)"), r.stderr)
        var config = Configuration()
        config.busyMode = .timeout(10)
        func currencies() throws -> [String] {
            try DatabaseQueue(path: db, configuration: config).read { try String.fetchAll($0, sql: "SELECT currency FROM fuel_purchase ORDER BY at") }
        }
        XCTAssertEqual(try currencies(), ["USD", "USD"], "the refused file left rows")
        r = try Fleetkit.run(["import", "--db", db, "--replaces", first, corrected])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(try currencies(), ["CAD", "CAD"])
    }

    func testForgetPutsBackWhatThePreviousFileSaidAndRemovesWhatItCreated() throws {
        let (dir, db) = try setUp("forget")
        let a = try write(Self.fill("T1", 3, "70.00") + Self.fill("T2", 4, "35.00"), "a.csv", in: dir)
        let b = try write(Self.fill("T1", 3, "80.00") + Self.fill("T3", 5, "10.00"), "b.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, a]).status, 0)
        let onlyA = try fills(db)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, b]).status, 0)
        let both = try fills(db)
        XCTAssertEqual(both, ["T1 8000", "T2 3500", "T3 1000"])
        var r = try Fleetkit.run(["forget", "--db", db, "--dry-run", "b.csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("would forget #2 \(b): 1 rows removed, 1 restored"), r.stdout)
        XCTAssertEqual(try fills(db), both, "a dry run changed the warehouse")
        r = try Fleetkit.run(["forget", "--db", db, b])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try fills(db), onlyA)
        r = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(r.stdout.contains("forget \(b): 1 rows removed, 1 restored; by "), r.stdout)
        // Its bytes can come again: the same warehouse as before the forget.
        r = try Fleetkit.run(["import", "--db", db, b])
        XCTAssertTrue(r.stdout.contains("1 loaded, 1 updated"), r.stdout)
        XCTAssertEqual(try fills(db), both)
        // Forgetting the earlier file keeps what the later one says.
        XCTAssertEqual(try Fleetkit.run(["forget", "--db", db, a]).status, 0)
        XCTAssertEqual(try fills(db), ["T1 8000", "T3 1000"])
    }

    func testImportReplacesForgetsThePredecessorInTheSameTransaction() throws {
        let (dir, db) = try setUp("replace")
        let a = try write(Self.fill("T1", 3, "70.00") + Self.fill("T2", 4, "35.00"), "card.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, a]).status, 0)
        let fixed = try write(Self.fill("T1", 3, "72.50"), "card-fixed.csv", in: dir)
        var r = try Fleetkit.run(["import", "--db", db, "--replaces", "card.csv", fixed])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("replaced #1 \(a): 2 rows removed, 0 restored"), r.stdout)
        XCTAssertEqual(try fills(db), ["T1 7250"])
        // A predecessor that is not there: the import fails, nothing kept.
        r = try Fleetkit.run(["import", "--db", db, "--replaces", "nothing.csv", try write(Self.fill("T5", 3, "1.00"), "other.csv", in: dir)])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no imported file matches 'nothing.csv'"), r.stderr)
        XCTAssertEqual(try fills(db), ["T1 7250"])
    }

    /// The first-close rule (docs/OPERATIONS.md, "Closing by the nightly job"): the job closes the
    /// latest due month, then each later due month holding data; never the history before its
    /// first close nor a month with nothing in it. Before, `close_after_days` closed every month
    /// from the first data on, 2025-09's history and the empty months between included.
    func testTheNightlyJobClosesLastMonthNotTheHistoryNorEmptyMonths() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("monthend-firstclose-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"], extra: "close_after_days: 5")
        let db = dir.appendingPathComponent("fleet.sqlite").path
        func fill(_ id: String, _ month: String) -> String { Self.fill(id, 3, "10.00").replacingOccurrences(of: "2026-10-", with: month + "-") }
        _ = try write(fill("H1", "2025-09") + fill("T1", "2026-10"), "inbox/card.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-01"]).status, 0)
        func closed() throws -> String {
            try Fleetkit.run(["status", "--db", db]).stdout.split(separator: "\n").first { $0.hasPrefix("closed months: ") }.map(String.init) ?? "?"
        }
        XCTAssertEqual(try closed(), "closed months: none", "nothing is due on 2026-11-01")
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-10"]).status, 0)
        XCTAssertEqual(try closed(), "closed months: 2026-10")
        _ = try write(fill("T2", "2026-12"), "inbox/card-dec.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-12-04"]).status, 0)
        // Missed nights: on 2027-01-20 both November (no data) and December are due; only December holds data.
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2027-01-20"]).status, 0)
        XCTAssertEqual(try closed(), "closed months: 2026-10, 2026-12")
        // The history stays open: a correction of 2025-09 is no restatement.
        _ = try write(fill("H1", "2025-09").replacingOccurrences(of: ",10.00,", with: ",12.00,"), "inbox/card-fix.csv", in: dir)
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2027-01-21"]).status, 0)
    }

    /// The nightly job closes a month `close_after_days` after it ends, before the night's files;
    /// a file that would change it is quarantined with the figures it would change.
    func testTheNightlyJobClosesAndQuarantinesARestatement() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("monthend-nightly-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"], extra: "close_after_days: 5")
        _ = try write(Self.fill("T1", 3, "70.00"), "inbox/card-oct.csv", in: dir)
        var r = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-03"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        _ = try write(Self.fill("T1", 3, "80.00"), "inbox/card-oct-fixed.csv", in: dir)
        r = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-10"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let reason = try String(contentsOf: dir.appendingPathComponent("quarantine/card-oct-fixed.csv.reason.txt"), encoding: .utf8)
        XCTAssertTrue(reason.contains("2026-10 cost fuel USD: 70.00 USD (1 rows) → 80.00 USD (1 rows)"), reason)
        XCTAssertEqual(try fills(dir.appendingPathComponent("fleet.sqlite").path), ["T1 7000"])
        let status = try Fleetkit.run(["status", "--db", dir.appendingPathComponent("fleet.sqlite").path])
        XCTAssertTrue(status.stdout.contains("2026-10 closed "), status.stdout)
        XCTAssertTrue(status.stdout.contains("by fleetkit nightly"), status.stdout)
    }
}
