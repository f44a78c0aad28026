import XCTest
import GRDB
import FleetKit
import FleetTestSupport

final class MaintenanceDueReportTests: XCTestCase {
    let zone = FleetZone(identifier: "America/Chicago")!

    /// T-01: oil every 10,000 km or 12 months, due soon within 1,000 km; done at 50,000 km on
    /// 2026-03-01, 59,400 km now and 100 km a day: due soon by distance, forecast in 6 days.
    /// T-02: same schedule, last done 2025-09-15: overdue by date. M-01: 500 h service, never done.
    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.importFiles([
            try t.write("unit_number,kind,vin,pin,make,in_service_date\nT-01,vehicle,1FTFW1E50PFA00001,,Ford,2024-01-01\nT-02,vehicle,1FTFW1E50PFA00002,,Ford,2024-01-01\nM-01,equipment,,1DW644KXCKE123456,Deere,2025-06-01\n", to: "assets.csv").path,
            try t.write("unit_number,asset_group,service_type,every_months,every_km,every_engine_hours,soon_days,soon_km,soon_engine_hours\n,,oil_change,12,10000,,30,1000,\nM-01,,pm_500h,,,500,,,50\n", to: "service-schedules.csv").path,
            try t.write("unit_number,service_type,performed_at,odometer_km,engine_hours,cost,work_order\nT-01,oil_change,2026-03-01T09:00:00-06:00,50000,,99.00,WO-1\nT-02,oil_change,2025-09-15T09:00:00-05:00,30000,,99.00,WO-2\nT-01,oil_change,2025-03-20T09:00:00-05:00,41000,,95.00,WO-0\nT-02,oil_change,2024-08-01T09:00:00-05:00,10000,,90.00,WO-00\n", to: "maintenance.csv").path,
        ], options: ImportOptions(zone: zone))
        try t.warehouse.pool.write { db in
            var f = SourceFile(path: "telematics", sha256: "x", format: "test", bytes: 1, importedAt: 0, status: "imported", loaded: 0, updated: 0, unchanged: 0, rejected: 0)
            try f.insert(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let t1 = try sink.asset(AssetRef(unitNumber: "T-01"))
            let m1 = try sink.asset(AssetRef(unitNumber: "M-01"))
            for d in 0...30 {   // Oct 1…31 at noon: 100 km and 3 h a day
                let at = zone.start(of: CivilDate("2026-10-01")!.adding(days: d)) + 12 * 3_600_000
                try sink.load(MeterReading(assetID: t1, meter: "odometer", at: at, value: (56_400 + Double(d) * 100) * 1000, sourceFileID: f.id!))
                try sink.load(MeterReading(assetID: m1, meter: "engine_hours", at: at, value: (380 + Double(d) * 3) * 3600, sourceFileID: f.id!))
            }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: zone))
        }
        return t
    }

    private func run(_ t: TestWarehouse) throws -> ReportOutput {
        try t.warehouse.pool.read { db in try MaintenanceDueReport().run(db, ReportRequest(period: .month(2026, 10), zone: zone, generatedAt: 0)) }
    }

    private func row(_ out: ReportOutput, _ unit: String, _ service: String) -> [String: ReportValue] {
        let table = out.tables[0]
        let r = table.rows.first { $0[0] == .text(unit) && $0[1] == .text(service) }!
        return Dictionary(uniqueKeysWithValues: zip(table.columns.map(\.name), r))
    }

    func testWhicheverMeterComesFirst() throws {
        let out = try run(try warehouse())
        let t1 = row(out, "T-01", "oil_change")
        XCTAssertEqual(t1["status"], .text("due soon"))
        XCTAssertEqual(t1["first_reached"], .text("distance"))
        XCTAssertEqual(t1["due_date"], .date(CivilDate("2027-03-01")!))
        XCTAssertEqual(t1["distance_left"], .number(600))           // 60,000 − 59,400 km
        // 600 km at the 30-day average (Oct 2–31; Oct 31 has half a day of readings): 98.3 km/day → 7 days.
        XCTAssertEqual(t1["forecast"], .date(CivilDate("2026-11-07")!))
        let t2 = row(out, "T-02", "oil_change")
        XCTAssertEqual(t2["status"], .text("overdue"))
        XCTAssertEqual(t2["days_left"], .integer(-46))               // due 2026-09-15
        let m1 = row(out, "M-01", "pm_500h")
        XCTAssertEqual(m1["status"], .text("due soon"))              // 470 h of 500: 30 left, due soon within 50
        XCTAssertEqual(m1["first_reached"], .text("engine_hours"))
        // The fleet-wide oil schedule also binds M-01 by its 12 months: never done since it entered service in June 2025.
        XCTAssertEqual(row(out, "M-01", "oil_change")["status"], .text("overdue"))
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "overdue" }?.1, 2)
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "due_soon" }?.1, 2)
    }

    func testPMComplianceJudgesAgainstThePreviousService() throws {
        let t = try warehouse()
        func compliance(_ year: Int, _ month: Int) throws -> ReportTable {
            try t.warehouse.pool.read { db in try MaintenanceDueReport().run(db, ReportRequest(period: .month(year, month), zone: zone, generatedAt: 0)).tables[2] }
        }
        XCTAssertEqual(try compliance(2026, 10).rows.count, 0)        // nothing performed in October
        let march = try compliance(2026, 3)                           // 50,000 km on Mar 1, due 51,000 km or Mar 20: on time
        XCTAssertEqual(march.rows.map { $0[5] }, [.text("yes")])
        XCTAssertEqual(march.totals?.last, .percent(100))
        let september = try compliance(2025, 9)                       // 30,000 km, due at 20,000 km: 100 % of the interval late
        XCTAssertEqual(september.rows.map { $0[5] }, [.text("late")])
        XCTAssertEqual(september.rows.first?[4], .percent(100))
        XCTAssertEqual(september.totals?.last, .percent(0))
    }
}
