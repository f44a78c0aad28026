import XCTest
import GRDB
import FleetTestSupport

/// The T-07 workflow of `make run` (scripts/run-sample.sh): the Pilot receipt of T-07
/// (SampleData/receipts/T-07, read by Tesseract) records card transaction T2026100100037, and the
/// vendor's corrected October file changes that transaction's total from 59.32 to 69.32. Before,
/// the receipt no longer matched the card to the cent, fell loose and was counted beside it: the
/// restatement said +69.32 for a +10.00 correction. The receipt now stays linked as the same fill
/// (FuelPurchaseLinker rule 3), the fill is counted once at the card's amount, and the cost report
/// lists the difference.
///
/// Expected figures, read independently of FleetKit:
/// python3 -c "import csv; print([r for r in csv.DictReader(open('SampleData/fuel-card/fuel-card-2026-10.csv')) if r['transaction_id']=='T2026100100037'])"
/// → 2026-10-01 06:41:00, card …7514, T-07, 17.650 gal, total 59.32 USD; scripts/receipts/sample-truth.json
/// prints the same on the receipt. Corrected: 59.32 + 10.00 = 69.32; the month's counted fuel and
/// total were 59.32 and are 69.32, not 59.32 + 69.32 = 128.64. (The stored sum of every fuel row,
/// the linked receipt included, goes 118.64 → 128.64: also +10.00.)
final class FuelLinkCorrectionTests: XCTestCase {
    static let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let receipt = root.appendingPathComponent("SampleData/receipts/T-07/receipt-2026-10-01-pilot.png").path
    static let environment = ["OMP_THREAD_LIMIT": "1"]

    private func setUp(_ name: String) throws -> (dir: URL, db: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fuel-link-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, Self.root.appendingPathComponent("SampleData/master/assets.csv").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (dir, db)
    }

    /// The sample card file's header and T2026100100037's row, its total plus `add` dollars (the
    /// same edit scripts/run-sample.sh makes to the first fill).
    private func cardFile(_ name: String, add: Int, in dir: URL) throws -> String {
        let text = try String(contentsOf: Self.root.appendingPathComponent("SampleData/fuel-card/fuel-card-2026-10.csv"), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        var row = try XCTUnwrap(lines.first { $0.hasPrefix("T2026100100037,") }).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(row[12], "59.32")
        row[12] = String(format: "%.2f", Double(row[12])! + Double(add))
        let url = dir.appendingPathComponent(name)
        try (lines[0] + "\n" + row.joined(separator: ",") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @discardableResult
    private func importFile(_ db: String, _ path: String, _ extra: [String] = []) throws -> CommandResult {
        let r = try Fleetkit.run(["import", "--db", db] + extra + [path], environment: Self.environment)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        return r
    }

    /// Each purchase as `origin total_minor volume(mL, rounded) -> linked origin`.
    private func purchases(_ db: String) throws -> [String] {
        var config = Configuration()
        config.busyMode = .timeout(10)
        return try DatabaseQueue(path: db, configuration: config).read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.origin, p.total_minor, CAST(ROUND(p.volume_ml) AS INTEGER), l.origin FROM fuel_purchase p LEFT JOIN fuel_purchase l ON l.id = p.linked_to ORDER BY p.origin
                """).map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as Int64) -> \($0[3] as String? ?? "-")" }
        }
    }

    /// The cost report of October as JSON: its fuel total and the data-quality row of corrected links.
    private func cost(_ db: String, in dir: URL) throws -> (fuel: Double?, corrected: [Any]?) {
        // The warehouse holds one day of October: the report is partial, and allowed to be.
        let out = dir.appendingPathComponent("reports-\(UUID())")
        let r = try Fleetkit.run(["report", "cost", "--month", "2026-10", "--db", db, "--format", "json", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("cost-2026-10.json"))) as? [String: Any])
        let totals = json["totals"] as? [String: Any]
        let quality = (json["data_quality"] as? [String: Any])?["rows"] as? [[Any]] ?? (json["data_quality"] as? [[Any]]) ?? []
        let row = quality.first { ($0.first as? String)?.hasPrefix("Receipts linked to their card transaction at another amount") == true }
        return (totals?["fuel"] as? Double, row)
    }

    // 17.650 gal = 66,812.52 mL (3,785.411784 mL a gallon), on the card and on the receipt.
    static let linked = ["card 6932 66813 -> -", "receipt 5932 66813 -> card"]

    func testACorrectedCardTransactionKeepsItsReceiptAndRestatesOnlyTheCorrection() throws {
        let (dir, db) = try setUp("workflow")
        try importFile(db, try cardFile("fuel-card-2026-10.csv", add: 0, in: dir))
        try importFile(db, Self.receipt)
        XCTAssertEqual(try purchases(db), ["card 5932 66813 -> -", "receipt 5932 66813 -> card"])
        var r = try Fleetkit.run(["close", "2026-10", "--db", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("cost fuel in USD: 59.32 USD\n"), r.stdout)
        let corrected = try cardFile("fuel-card-2026-10-corrected.csv", add: 10, in: dir)
        r = try importFile(db, corrected, ["--allow-restatement", "--replaces", "fuel-card-2026-10.csv"])
        XCTAssertTrue(r.stdout.contains("restated 2026-10 cost fuel in USD: 59.32 USD → 69.32 USD\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("restated 2026-10 cost total in USD: 59.32 USD → 69.32 USD\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("restated 2026-10 cost fuel USD: 118.64 USD (2 rows) → 128.64 USD (2 rows)\n"), r.stdout)
        XCTAssertEqual(try purchases(db), Self.linked)
        let report = try cost(db, in: dir)
        XCTAssertEqual(report.fuel, 69.32)
        let finding = try XCTUnwrap(report.corrected, "the corrected link in data quality")
        XCTAssertEqual(finding.count, 3)
        XCTAssertEqual((finding[1] as? NSNumber)?.intValue, 1)
        let detail = try XCTUnwrap(finding[2] as? String)
        XCTAssertTrue(detail.contains("T-07 2026-10-01: card:T2026100100037 69.32 USD, its receipt 59.32 USD (card − receipt +10.00 USD)"), detail)
    }

    /// The corrected card file first and the receipt after it: the same link, the same total,
    /// the same finding.
    func testTheReceiptAfterTheCorrectedFileLinksTheSame() throws {
        let (dir, db) = try setUp("reverse")
        try importFile(db, try cardFile("fuel-card-2026-10-corrected.csv", add: 10, in: dir))
        try importFile(db, Self.receipt)
        XCTAssertEqual(try purchases(db), Self.linked)
        let report = try cost(db, in: dir)
        XCTAssertEqual(report.fuel, 69.32)
        XCTAssertEqual((report.corrected?[1] as? NSNumber)?.intValue, 1)
    }
}
