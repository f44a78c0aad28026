import XCTest
import FleetCore
@testable import FleetReports

/// The typed table builder: cells are read by column, totals are made from the rows by the
/// declared rule, quantities convert with `--units`, and unknown stays unknown.
final class TableBuilderTests: XCTestCase {
    struct Line {
        var unit: String
        var costMinor: Int64?
        var metres: Double?
        var engineS: Double?
        var idleS: Double?
        var targetH: Double
    }

    static func columns(_ request: ReportRequest) -> [TableColumn<Line>] {
        [.text("unit", "Unit", total: .label("Fleet")) { $0.unit },
         .money("cost", "Cost", currency: "USD") { $0.costMinor },
         .distance("distance", "Distance", request, total: .sumOfKnown) { $0.metres },
         .hours("engine_hours", "Engine hours", total: .sumOfKnown) { $0.engineS },
         .hours("idle_hours", "Idle hours", total: .sumOfKnown) { $0.idleS },
         .percent("idle_ratio", "Idle ratio", total: .ratio(of: "idle_hours", to: "engine_hours", scale: 100)) { l in
             l.engineS.flatMap { e in l.idleS.map { $0 / e * 100 } }
         },
         TableColumn(ReportColumn("target_hours", "Target hours", .duration, unit: "h"), role: .measure, total: .sumWhereKnown("engine_hours")) {
             .number($0.targetH)
         }]
    }

    static let lines = [
        Line(unit: "A", costMinor: 10_001, metres: 1609.344, engineS: 7200, idleS: 3600, targetH: 10),
        Line(unit: "B", costMinor: 20_002, metres: nil, engineS: nil, idleS: nil, targetH: 20),
        Line(unit: "C", costMinor: nil, metres: 3218.688, engineS: 3600, idleS: 0, targetH: 5),
    ]

    func testCellsAreReadByColumnAndTotalsComeFromTheRows() throws {
        var b = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10))))
        for l in Self.lines { try b.add(l) }
        let t = b.table()
        XCTAssertEqual(t.columns.map(\.name), ["unit", "cost", "distance", "engine_hours", "idle_hours", "idle_ratio", "target_hours"])
        XCTAssertEqual(t.rows[1], [.text("B"), .money(minor: 20_002, currency: "USD"), .null, .null, .null, .null, .number(20)])
        XCTAssertEqual(t.totals?[0], .text("Fleet"))
        XCTAssertEqual(t.totals?[1], .money(minor: 30_003, currency: "USD"), "money is summed in minor units; the unknown cost is left out")
        XCTAssertEqual(t.totals?[2].number ?? 0, 4.828032, accuracy: 1e-9)
        XCTAssertEqual(t.totals?[3], .number(3))
        XCTAssertEqual(t.totals?[5], .percent(1.0 / 3.0 * 100), "a ratio of the sums, not an average of the rows' ratios (25 %)")
        XCTAssertEqual(t.totals?[6], .number(15), "target hours of the rows whose engine hours are known")
        XCTAssertEqual(b.headline("distance")?.unit, .distance)
        XCTAssertEqual(b.headline("cost")?.unit, .money)
        XCTAssertEqual(b.headline("cost")?.value, 300.03)
    }

    func testQuantitiesFollowTheRequestedUnits() throws {
        var b = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10), units: .us)))
        for l in Self.lines { try b.add(l) }
        let t = b.table()
        XCTAssertEqual(t.columns[2].unit, "mi")
        XCTAssertEqual(t.rows[0][2].number ?? 0, 1, accuracy: 1e-12)
        XCTAssertEqual(t.totals?[2].number ?? 0, 3, accuracy: 1e-12)
    }

    func testUnknownTotalsStayUnknown() throws {
        var b = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10))))
        try b.add(Self.lines[1])
        let t = b.table()
        XCTAssertEqual(t.totals?[2], .null, "no distance known: unknown, not 0")
        XCTAssertEqual(t.totals?[3], .null)
        XCTAssertEqual(t.totals?[5], .null)
        XCTAssertNil(b.headline("engine_hours"), "an unknown headline is left out, never 0")
        let empty = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10)))).table()
        XCTAssertEqual(empty.totals?[1], .money(minor: 0, currency: "USD"), "no rows cost nothing")
        XCTAssertEqual(empty.totals?[3], .null, "no rows measured nothing: unknown")
    }

    func testAStreamedTableKeepsTheTotalsOfEveryRow() throws {
        var b = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10))))
        for (i, l) in Self.lines.enumerated() { try b.add(l, hold: i < 1) }
        b.dropHeldRows()
        let t = b.table(stream: ReportRowStream(table: "t", count: 3, produce: { _, _ in }))
        XCTAssertTrue(t.rows.isEmpty)
        XCTAssertEqual(t.rowCount, 3)
        XCTAssertEqual(t.totals?[1], .money(minor: 30_003, currency: "USD"))
        // Counted rows compute only the cells totals need, and total exactly as held rows do.
        var held = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10))))
        var counted = held
        for l in Self.lines { try held.add(l); try counted.add(l, hold: false) }
        XCTAssertEqual(counted.totals, held.totals)
        XCTAssertEqual(counted.rowCount, 3)
    }

    /// A verdict column totals the share of its rows with one verdict among the rows judged
    /// (PM compliance): rows judged neither way count in neither count, and with none judged
    /// the share is unknown, not 0 or 100.
    func testAShareCountsRowsByTheirVerdict() throws {
        let columns: [TableColumn<(String, String)>] = [
            .text("unit", "Unit", total: .label("Compliance")) { $0.0 },
            .text("on_time", "On time", role: .measure, total: .share(of: ["yes"], among: ["yes", "late"])) { $0.1 },
        ]
        var b = TableBuilder(name: "t", title: "T", columns: columns)
        for r in [("A", "yes"), ("A", "late"), ("B", "not judged"), ("C", "yes"), ("C", "yes")] { try b.add(r) }
        XCTAssertEqual(b.table().totals, [.text("Compliance"), .percent(75)], "3 on time of 4 judged; the unjudged row is in neither count")
        var counted = TableBuilder(name: "t", title: "T", columns: columns)
        for r in [("A", "yes"), ("A", "late"), ("B", "not judged"), ("C", "yes"), ("C", "yes")] { try counted.add(r, hold: false) }
        XCTAssertEqual(counted.totals, b.totals, "a streamed table counts the same")
        var unjudged = TableBuilder(name: "t", title: "T", columns: columns)
        try unjudged.add(("B", "not judged"))
        XCTAssertEqual(unjudged.total("on_time"), .null, "nothing judged: unknown")
        XCTAssertEqual(TableBuilder(name: "t", title: "T", columns: columns).table().totals, [.text("Compliance"), .null])
    }

    /// Issue 35 item 9: twelve 18-digit amounts made the money total trap (SIGILL); the sum is
    /// checked and the overflow is an error naming the table and column.
    func testAMoneyTotalThatOverflowsIsAnErrorNotATrap() throws {
        var b = TableBuilder(name: "t", title: "T", columns: Self.columns(ReportRequest(period: .month(2026, 10))))
        let big = Line(unit: "A", costMinor: 999_999_999_999_999_999, metres: nil, engineS: nil, idleS: nil, targetH: 0)
        for _ in 0..<9 { try b.add(big) }
        XCTAssertThrowsError(try b.add(big)) { error in
            XCTAssertEqual((error as? Checked.Overflow)?.what, "the t table's cost total")
        }
    }

}
