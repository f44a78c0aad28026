import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse
import FleetSample

/// The daily rollup on meters as they really are: quantised (a reading is the true value
/// truncated to the meter's resolution) and polled every few minutes with jitter. Each case
/// simulates a machine with known running, idling and driving intervals and compares
/// `asset_day` with the truth (docs/METRICS.md, "Daily rollup").
final class MeterResolutionTests: XCTestCase {
    static let day = 86_400.0
    /// Day 0 warms up, days 1 and 2 are judged, day 3 closes the last judged day.
    static let days = 4
    let t0 = Timestamp.parse("2026-10-01T00:00:00Z")!

    /// A machine's true intervals (seconds from t0): engine on, idling, and driving at `speed`.
    struct Machine {
        var on: [(Double, Double)] = []
        var idle: [(Double, Double)] = []
        let speed = 20.0   // m/s while on and not idling

        /// Continuous running around the clock, idling 02:00–04:00 and 14:00–15:30.
        static func continuous() -> Machine {
            var m = Machine()
            m.on = [(0, Double(days) * day)]
            for d in 0..<days {
                let o = Double(d) * day
                m.idle += [(o + 7_200, o + 14_400), (o + 50_400, o + 55_800)]
            }
            return m
        }

        /// A working day with stops: on 06:00–10:00 and 10:15–12:00, then 13:00–17:30 ten
        /// minutes on, five off; off overnight. Each run idles its first 10 minutes.
        static func dutyCycle() -> Machine {
            var m = Machine()
            for d in 0..<days {
                let o = Double(d) * day
                m.on += [(o + 21_600, o + 36_000), (o + 36_900, o + 43_200)]
                var s = o + 46_800
                while s < o + 63_000 { m.on.append((s, s + 600)); s += 900 }
            }
            m.idle = m.on.map { ($0.0, $0.0 + min(600, $0.1 - $0.0)) }
            // The 10-minute runs of the afternoon idle their first 3 minutes only.
            m.idle = zip(m.on, m.idle).map { on, idle in on.1 - on.0 <= 600 ? (on.0, on.0 + 180) : idle }
            return m
        }

        static func measure(_ intervals: [(Double, Double)], upTo t: Double) -> Double {
            intervals.reduce(0) { $0 + max(0, min(t, $1.1) - $1.0) }
        }
        func engine(_ t: Double) -> Double { Self.measure(on, upTo: t) }
        func idling(_ t: Double) -> Double { Self.measure(idle, upTo: t) }
        func odometer(_ t: Double) -> Double { speed * (engine(t) - idling(t)) }
    }

    struct Case { var machine: String; var polling: Int; var hours: Double; var odometer: Double }

    /// The true reading truncated (floor) to the resolution, as a meter displays it.
    static func floor(_ v: Double, _ r: Double) -> Double { (v / r + 1e-9).rounded(.down) * r }

    /// Loads every case as its own asset in one file and derives, as an import does.
    private func load(_ t: TestWarehouse, _ cases: [Case], edit: (String, Int64, inout Double) -> Void = { _, _, _ in }) throws -> [Int64] {
        var assets: [Int64] = []
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            var rng = SeededRandom(seed: 15)
            for c in cases {
                let a = try sink.asset(AssetRef(unitNumber: "\(c.machine)-\(c.polling)-\(c.hours)"))
                assets.append(a)
                let m = c.machine == "continuous" ? Machine.continuous() : Machine.dutyCycle()
                let p = Double(c.polling * 60)
                var k = 0.0
                while k * p < Double(Self.days) * Self.day {
                    // Polled every p minutes, each poll up to 20 % of p early or late.
                    let s = max(0, k * p + Double.random(in: -0.2...0.2, using: &rng) * p)
                    let at = t0 + Int64(s * 1000)
                    for (meter, value, r) in [("engine_hours", m.engine(s), c.hours * 3600), ("idle_hours", m.idling(s), c.hours * 3600),
                                              ("odometer", m.odometer(s), c.odometer)] {
                        var v = Self.floor(value, r)
                        edit(meter, at, &v)
                        try sink.load(MeterReading(assetID: a, meter: meter, at: at, value: v, sourceFileID: sink.sourceFileID))
                    }
                    k += 1
                }
            }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: .utc))
        }
        return assets
    }

    func testQuantisedMetersAreWithinOneStepOfTheTruthAtAnyPolling() throws {
        let t = try TestWarehouse()
        var cases: [Case] = []
        // 0.05 h with 0.1 mi, 0.1 h with 1 km, 1 h with 1 mi.
        for (hours, odometer) in [(0.05, 160.9344), (0.1, 1000.0), (1.0, 1609.344)] {
            for polling in [1, 2, 5, 10, 15, 30, 60] {
                for machine in ["continuous", "duty"] { cases.append(Case(machine: machine, polling: polling, hours: hours, odometer: odometer)) }
            }
        }
        let assets = try load(t, cases)
        XCTAssertEqual(try t.rows("SELECT asset_id, meter, kind FROM meter_anomaly").map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as String)" }, [],
                       "a truncating meter polled on time is never an anomaly")
        var failures: [String] = []
        for (c, a) in zip(cases, assets) {
            let m = c.machine == "continuous" ? Machine.continuous() : Machine.dutyCycle()
            let rows = try t.rows("SELECT day, engine_s, idle_s, distance_m FROM asset_day WHERE asset_id = ? AND day IN ('2026-10-02', '2026-10-03') ORDER BY day",
                                  [a])
            XCTAssertEqual(rows.count, 2, "\(c)")
            var totals = [0.0, 0.0, 0.0], truths = [0.0, 0.0, 0.0]
            for (d, row) in rows.enumerated() {
                let (lo, hi) = (Double(d + 1) * Self.day, Double(d + 2) * Self.day)
                let got = [row[1] as Double? ?? -1, row[2] as Double? ?? -1, row[3] as Double? ?? -1]
                let truth = [m.engine(hi) - m.engine(lo), m.idling(hi) - m.idling(lo), m.odometer(hi) - m.odometer(lo)]
                let step = [c.hours * 3600, c.hours * 3600, c.odometer]
                for i in 0..<3 {
                    totals[i] += got[i]; truths[i] += truth[i]
                    if abs(got[i] - truth[i]) > step[i] + 0.01 { failures.append("\(c) day \(d + 1) \(["engine", "idle", "distance"][i]): \(got[i]) vs \(truth[i])") }
                }
            }
            for i in 0..<3 where abs(totals[i] - truths[i]) > [c.hours * 3600, c.hours * 3600, c.odometer][i] + 0.01 {
                failures.append("\(c) period \(["engine", "idle", "distance"][i]): \(totals[i]) vs \(truths[i])")
            }
        }
        XCTAssertEqual(failures, [])
        // The figures are real work, not zero: the continuous machine ran 24 h a day.
        let most: Double = try t.rows("SELECT MAX(engine_s) FROM asset_day").first?[0] ?? 0
        XCTAssertEqual(most, 86_400, accuracy: 3600)
    }

    func testJumpsRollbacksAndGlitchesAreStillCaughtOnAQuantisedMeter() throws {
        for (hours, polling) in [(0.1, 5), (1.0, 60), (0.05, 1)] {
            let t = try TestWarehouse()
            let c = Case(machine: "continuous", polling: polling, hours: hours, odometer: 1000)
            let p = Int64(polling) * 60_000
            // Hour meters are read in seconds: a swapped meter 100 h ahead from day 1 10:00, a
            // single glitch of +2,000 h on day 1 at 15:00, and a reset 150 h back from day 2 08:00;
            // the odometer the same at the same times: 5,000 km, 100,000 km and 7,500 km.
            let jump = t0 + 34 * 3_600_000, glitch = t0 + 39 * 3_600_000, reset = t0 + 56 * 3_600_000
            var marks: [String: Int64] = [:]
            _ = try load(t, [c]) { meter, at, v in
                guard meter != "idle_hours" else { return }
                let unit = meter == "engine_hours" ? 3600.0 : 50_000
                let slot = { (mark: Int64) in at >= mark - p / 2 && at < mark + p / 2 }
                if at >= jump - p / 2 { v += 100 * unit }
                if at >= reset - p / 2 { v -= 150 * unit }
                if slot(glitch) { v += 2000 * unit; marks["glitch"] = at }
                if slot(jump) { marks["jump"] = at }
                if slot(reset) { marks["reset"] = at }
            }
            for meter in ["engine_hours", "odometer"] {
                let found = try t.rows("SELECT at, kind FROM meter_anomaly WHERE meter = ? ORDER BY at", [meter]).map { "\($0[0] as Int64) \($0[1] as String)" }
                XCTAssertEqual(found.count, 4, "\(meter) \(hours) h every \(polling) min: \(found)")
                XCTAssertEqual(found.first, "\(marks["jump"]!) implausible_rate", meter)
                XCTAssertEqual(found.dropFirst().first, "\(marks["glitch"]!) implausible_rate", meter)
                XCTAssertTrue(found.dropFirst(2).first?.hasSuffix("rollback") == true, "the reading after the glitch goes back: \(found)")
                XCTAssertEqual(found.last, "\(marks["reset"]!) rollback", meter)
            }
            XCTAssertEqual(try t.count("meter_anomaly"), 8, "nothing on the idle meter, nothing else")
        }
    }
}
