import XCTest
import GRDB
import FleetTestSupport

/// `fleetkit review exception accept|reject` (issue 34): a person's decision on a fuel
/// exception, with a reason, who and when; append-only; kept when the card file is forgotten and
/// imported again; a rejected purchase leaves the cost report's totals, listed with the reason;
/// on a closed month the change is a recorded restatement.
///
/// The figures are read off the CSV below by hand (docs/METRICS.md, "Fuel exceptions"):
/// - T2026101400012, T-12 (petrol, 25 gal tank), Diesel 22.100 gal, 86.19 USD: `misfuel`
///   (diesel into a petrol tank); 22.1 gal ≤ 25 × 1.05, so not over capacity.
/// - T2026101400031, T-12, Unleaded Regular 21.000 gal, 69.30 USD, 2 h 30 min later:
///   `refill_window` (2.5 h after the diesel fill, within 6 h).
/// - T2026100500007, T-07 (petrol), Unleaded Regular 15.000 gal, 49.50 USD: clear.
/// Three lines: no price median (5 needed). Counted fuel: 86.19 + 69.30 + 49.50 = 204.99 USD;
/// with the diesel fill rejected: 69.30 + 49.50 = 118.80 USD.
final class FuelExceptionDecisionTests: XCTestCase {
    static let assets = """
        unit_number,kind,vin,make,model,year,fuel_type,tank_capacity_gal
        T-07,vehicle,1FTBR1Y84NP101007,Ford,Transit 250,2022,petrol,25.0
        T-12,vehicle,1FTBR1Y84NP101441,Ford,Transit 250,2022,petrol,25.0

        """
    static let card = """
        transaction_id,transaction_date,transaction_time,card_number,unit_number,driver_id,merchant,merchant_city,merchant_state,fuel_grade,gallons,price_per_gallon,total,currency,odometer_mi
        T2026100500007,2026-10-05,08:00:00,7071000040047514,T-07,E-1007,Pilot Travel Center #412,Joliet,IL,Unleaded Regular,15.000,3.300,49.50,USD,107052
        T2026101400012,2026-10-14,12:10:00,7071000040126704,T-12,E-1012,Shell,Aurora,IL,Diesel,22.100,3.900,86.19,USD,55012
        T2026101400031,2026-10-14,14:40:00,7071000040126704,T-12,E-1012,Speedway #88,Aurora,IL,Unleaded Regular,21.000,3.300,69.30,USD,55020

        """
    static let misfuel = "card:T2026101400012/misfuel"
    static let refill = "card:T2026101400031/refill_window"

    private func setUp(_ name: String) throws -> (dir: URL, db: String, card: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fuel-decision-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC"]).status, 0)
        let assets = dir.appendingPathComponent("assets.csv"), card = dir.appendingPathComponent("fuel-card-2026-10.csv")
        try Self.assets.write(to: assets, atomically: true, encoding: .utf8)
        try Self.card.write(to: card, atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["import", "--db", db, assets.path, card.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        return (dir, db, card.path)
    }

    private func report(_ db: String, _ name: String, _ table: String, in dir: URL) throws -> [String] {
        let out = dir.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(6))")
        let r = try Fleetkit.run(["report", name, "--db", db, "--month", "2026-10", "--format", "csv", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try String(contentsOf: out.appendingPathComponent("\(name)-2026-10-\(table).csv"), encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The fields of one CSV line (RFC 4180 quoting; the merchant holds commas).
    static func fields(_ line: String) -> [String] {
        var out: [String] = [], field = "", quoted = false, chars = Array(line), i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" { if i + 1 < chars.count, chars[i + 1] == "\"" { field.append("\""); i += 1 } else { quoted = false } } else { field.append(c) }
            } else if c == "\"" { quoted = true } else if c == "," { out.append(field); field = "" } else { field.append(c) }
            i += 1
        }
        return out + [field]
    }

    private func row(_ rows: [String], _ prefix: String) throws -> String { try XCTUnwrap(rows.first { $0.hasPrefix(prefix) }, "\(prefix) in \(rows)") }

    /// The fleet total of the cost report (by_asset) and the sum of its detail rows' report amounts.
    private func costTotals(_ db: String, in dir: URL) throws -> (total: String, detailSum: Decimal, detail: [String]) {
        let byAsset = try report(db, "cost", "by_asset", in: dir)
        let header = byAsset[0].split(separator: ",").map(String.init)
        let totalColumn = try XCTUnwrap(header.firstIndex(of: "total"))
        let fleet = Self.fields(try row(byAsset, "Fleet total,"))
        let detail = try report(db, "cost", "detail", in: dir)
        let dh = detail[0].split(separator: ",").map(String.init)
        let amount = try XCTUnwrap(dh.firstIndex(of: "amount_report"))
        var sum = Decimal(0)
        for line in detail.dropFirst() where !line.hasPrefix("Total,") {
            let cell = Self.fields(line)[amount]
            if !cell.isEmpty { sum += try XCTUnwrap(Decimal(string: cell), line) }
        }
        return (fleet[totalColumn], sum, detail)
    }

    func testAcceptKeepsTheExceptionListedAndRejectTakesThePurchaseOutOfTheTotals() throws {
        let (dir, db, _) = try setUp("decide")
        let before = try report(db, "fuel-exceptions", "exceptions", in: dir)
        XCTAssertTrue(before[0].hasPrefix("exception_id,"), before[0])
        XCTAssertTrue(before[0].hasSuffix(",rule,evidence,decision,decision_reason,decided_by,decided_at"), before[0])
        XCTAssertEqual(Set(before.dropFirst().map { String($0.prefix { $0 != "," }) }), [Self.misfuel, Self.refill])
        XCTAssertTrue(before.dropFirst().allSatisfy { $0.hasSuffix(",open,,,") }, "\(before)")
        let costBefore = try costTotals(db, in: dir)
        XCTAssertEqual(costBefore.total, "204.99")
        XCTAssertEqual(costBefore.detailSum, Decimal(string: "204.99"))

        let accept = try Fleetkit.run(["review", "exception", "accept", "--db", db, Self.refill, "--by", "m.chen", "--reason", "Second van on the same card; pump receipt on file"])
        XCTAssertEqual(accept.status, 0, accept.stderr)
        XCTAssertTrue(accept.stdout.hasPrefix("accepted exception \(Self.refill) on T-12 (2.5 h after card:T2026101400012"), accept.stdout)
        let reject = try Fleetkit.run(["review", "exception", "reject", "--db", db, Self.misfuel, "--by", "m.chen", "--reason", "Diesel bought for a private car; recovered from payroll"])
        XCTAssertEqual(reject.status, 0, reject.stderr)

        let after = try report(db, "fuel-exceptions", "exceptions", in: dir)
        XCTAssertEqual(after.count, 3, "\(after)")
        XCTAssertTrue(try row(after, Self.refill + ",").contains(",accepted,\"Second van on the same card; pump receipt on file\",m.chen,"), "\(after)")
        XCTAssertTrue(try row(after, Self.misfuel + ",").contains(",rejected,\"Diesel bought for a private car; recovered from payroll\",m.chen,"), "\(after)")

        // Rejected: out of the total, the detail row kept with its amount and the reason, and the
        // total still the sum of the detail's report amounts.
        let cost = try costTotals(db, in: dir)
        XCTAssertEqual(cost.total, "118.80")
        XCTAssertEqual(cost.detailSum, Decimal(string: "118.80"))
        let diesel = try XCTUnwrap(cost.detail.first { $0.contains("T2026101400012") }, "\(cost.detail)")
        XCTAssertTrue(diesel.contains(",86.19,USD,1,,\"no: rejected as \(Self.misfuel) by m.chen at "), diesel)
        XCTAssertTrue(diesel.contains(": Diesel bought for a private car; recovered from payroll; not counted\""), diesel)
        let quality = try report(db, "cost", "data_quality", in: dir)
        XCTAssertTrue(try row(quality, "Fuel purchases rejected at the review of a fuel exception (not counted),1,").contains("86.19 USD in all; 2026-10-14 card:T2026101400012 86.19 USD: rejected as \(Self.misfuel) by m.chen at "), "\(quality)")
        // Both exceptions decided: none open in the cost report's exception count.
        XCTAssertEqual(Self.fields(try row(quality, "\"Fuel purchases with exceptions")).dropFirst(), ["0", "none open; 2 decided at review (see fuel-exceptions)"])

        // A later accept supersedes the reject: the purchase is back in the totals; both rows kept.
        XCTAssertEqual(try Fleetkit.run(["review", "exception", "accept", "--db", db, Self.misfuel, "--by", "m.chen", "--reason", "Driver repaid; keep as fleet cost"]).status, 0)
        XCTAssertEqual(try costTotals(db, in: dir).total, "204.99")
        let rows = try DatabaseQueue(path: db).read { db in
            try String.fetchAll(db, sql: "SELECT decision FROM fuel_exception_decision WHERE purchase = 'card:T2026101400012' ORDER BY id")
        }
        XCTAssertEqual(rows, ["rejected", "accepted"])
        XCTAssertThrowsError(try DatabaseQueue(path: db).write { try $0.execute(sql: "DELETE FROM fuel_exception_decision") })
    }

    func testAnUnknownIdIsAUsageErrorWithTheCloseOnes() throws {
        let (dir, db, _) = try setUp("unknown")
        _ = dir
        // The purchase exists but that rule did not fire on it: its exceptions are named.
        let rule = try Fleetkit.run(["review", "exception", "reject", "--db", db, "card:T2026101400012/refill_window", "--reason", "x"])
        XCTAssertEqual(rule.status, 64, rule.stderr)
        XCTAssertTrue(rule.stderr.contains(Self.misfuel), rule.stderr)
        // No such purchase: the close purchase keys.
        let purchase = try Fleetkit.run(["review", "exception", "reject", "--db", db, "card:T2026101400013/misfuel", "--reason", "x"])
        XCTAssertEqual(purchase.status, 64, purchase.stderr)
        XCTAssertTrue(purchase.stderr.contains("did you mean card:T2026101400012"), purchase.stderr)
        // A clear purchase, a rule that is none, no rule, and an empty reason.
        XCTAssertEqual(try Fleetkit.run(["review", "exception", "reject", "--db", db, "card:T2026100500007/misfuel", "--reason", "x"]).status, 64)
        XCTAssertEqual(try Fleetkit.run(["review", "exception", "reject", "--db", db, "card:T2026101400012/no_such_rule", "--reason", "x"]).status, 64)
        XCTAssertEqual(try Fleetkit.run(["review", "exception", "reject", "--db", db, "card:T2026101400012", "--reason", "x"]).status, 64)
        XCTAssertNotEqual(try Fleetkit.run(["review", "exception", "reject", "--db", db, Self.misfuel, "--reason", "  "]).status, 0)
        let count = try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM fuel_exception_decision") }
        XCTAssertEqual(count, 0)
    }

    func testADecisionSurvivesAReimportAndAForgetAndReimport() throws {
        let (dir, db, card) = try setUp("reimport")
        XCTAssertEqual(try Fleetkit.run(["review", "exception", "reject", "--db", db, Self.misfuel, "--by", "m.chen", "--reason", "Not a fleet vehicle's fill"]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, card]).status, 0)
        let forget = try Fleetkit.run(["forget", "--db", db, card])
        XCTAssertEqual(forget.status, 0, forget.stderr)
        XCTAssertEqual(try costTotals(db, in: dir).total, "0.00")
        let again = try Fleetkit.run(["import", "--db", db, card])
        XCTAssertEqual(again.status, 0, again.stderr)
        let rows = try report(db, "fuel-exceptions", "exceptions", in: dir)
        XCTAssertTrue(try row(rows, Self.misfuel + ",").contains(",rejected,Not a fleet vehicle's fill,m.chen,"), "\(rows)")
        XCTAssertTrue(try row(rows, Self.refill + ",").contains(",open,,,"), "\(rows)")
        let cost = try costTotals(db, in: dir)
        XCTAssertEqual(cost.total, "118.80")
        XCTAssertEqual(cost.detailSum, Decimal(string: "118.80"))
    }

    func testARejectOnAClosedMonthIsARecordedRestatement() throws {
        let (dir, db, _) = try setUp("closed")
        XCTAssertEqual(try Fleetkit.run(["close", "--db", db, "2026-10"]).status, 0)
        let refused = try Fleetkit.run(["review", "exception", "reject", "--db", db, Self.misfuel, "--by", "m.chen", "--reason", "Private car"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--allow-restatement"), refused.stderr)
        XCTAssertTrue(refused.stdout.contains("restates  2026-10 cost total in USD: 204.99 USD → 118.80 USD"), refused.stdout)
        let nothing = try DatabaseQueue(path: db).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fuel_exception_decision"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM restatement"))
        }
        XCTAssertEqual(nothing.0, 0)
        XCTAssertEqual(nothing.1, 0)

        let allowed = try Fleetkit.run(["review", "exception", "reject", "--db", db, Self.misfuel, "--by", "m.chen", "--reason", "Private car", "--allow-restatement"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        let ledger = try DatabaseQueue(path: db).read { db in
            try Row.fetchAll(db, sql: "SELECT period, report, figure, old_value, new_value, file_path, by FROM restatement ORDER BY figure").map {
                "\($0[0] as String) \($0[1] as String) \($0[2] as String): \($0[3] as String) → \($0[4] as String) [\($0[5] as String), \($0[6] as String)]"
            }
        }
        XCTAssertEqual(ledger, ["2026-10 cost fuel in USD: 204.99 USD → 118.80 USD [review exception reject \(Self.misfuel), m.chen]",
                                "2026-10 cost total in USD: 204.99 USD → 118.80 USD [review exception reject \(Self.misfuel), m.chen]"])
        // The reports of the closed month show it.
        let quality = try report(db, "cost", "data_quality", in: dir)
        XCTAssertTrue(quality.contains { $0.contains("204.99 USD → 118.80 USD") }, "\(quality)")
    }
}
