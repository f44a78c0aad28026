import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// A small warehouse for the DVIR rules: unit T-01 (VIN 1FTFW1E50PFA00001) drives 14:00–14:25 UTC
/// on the days given (a real GPX drive, about 18 km, imported for T-01) and has the DVIRs of a
/// CSV fixture; T-02 has DVIRs and no telematics. Times are UTC and the fleet zone is UTC, so a
/// local day is the UTC day.
struct DVIRFixture {
    let t: TestWarehouse

    static let header = "dvir_id,unit_number,driver_id,driver_name,type,started_at,signed_at,safety_status,mechanic_name,mechanic_signed_at,reviewed_at,reviewed_by,trailer,defect_id,component,defect_type,comment,safety_critical,defect_created_at,resolved_at,resolved_by,certification"

    static let assets = """
        unit_number,kind,vin,pin,make,model,year,fuel_type,asset_group,cost_center,department,in_service_date,acquisition_cost,currency,target_hours_per_week,samsara_id,license_plate
        T-01,truck,1FTFW1E50PFA00001,,Ford,F-150,2023,gasoline,Pickups,CC-100,Field Ops,2023-02-01,"48,500.00",USD,40,,IL 123 456
        T-02,truck,1FTFW1E50PFA00002,,Ford,F-150,2023,gasoline,Pickups,CC-100,Field Ops,2023-02-01,"48,500.00",USD,40,,

        """

    /// - parameter drives: the days (YYYY-MM-DD) T-01 drives.
    /// - parameter dvirs: DVIR CSV rows under `header`.
    init(drives: [String], dvirs: [String]) throws {
        t = try TestWarehouse()
        XCTAssertEqual(try t.importFile(try t.write(Self.assets, to: "assets.csv")).rejected, 0)
        for day in drives {
            let o = try t.importFile(try t.write(StopAndGoGPX.text(day: day), to: "T-01-\(day).gpx"), options: ImportOptions(asset: "T-01"))
            XCTAssertEqual(o.rejected, 0, o.error ?? "")
        }
        let o = try t.importFile(try t.write(([Self.header] + dvirs).joined(separator: "\n") + "\n", to: "dvir.csv"))
        XCTAssertEqual(o.rejected, 0, o.error ?? "")
    }

    func output(_ policy: DVIRPolicy = .everyDay, assets: [String]? = nil, carrier: Carrier = Carrier()) throws -> ReportOutput {
        let request = ReportRequest(period: .month(2026, 10), zone: .utc, units: .metric, currency: "USD", assets: assets, dvirPolicy: policy,
                                    generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 1)!, carrier: carrier)
        return try t.warehouse.pool.read { db in try DVIRComplianceReport().run(db, request) }
    }

    /// Each row of `table` as column name → display text.
    static func rows(_ output: ReportOutput, _ table: String) throws -> [[String: String]] {
        guard let t = output.tables.first(where: { $0.name == table }) else { XCTFail("no table \(table)"); return [] }
        var out: [[String: String]] = []
        try t.forEachRow { row in
            var r: [String: String] = [:]
            for (c, v) in zip(t.columns, row) { r[c.name] = HTMLFormat.cell(v, type: c.type, zone: TimeZone(identifier: "UTC")!).1 }
            out.append(r)
        }
        return out
    }
}
