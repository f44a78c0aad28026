import GRDB

extension WarehouseMigrator {
    /// Indexes for the reports' per-asset and per-period lookups. Without them each report
    /// scanned whole tables once per asset: on a 1,000-vehicle year (245,676 DVIRs, 487,339
    /// trips) `report all` for one month took 78 s, 31 s of it DVIR compliance reading every
    /// DVIR for every vehicle; with them 11 s (BENCHMARKS.md). The indexed tables are written a
    /// few rows per asset and day, so imports do not pay for them noticeably; positions and
    /// meter readings, written by the million, get no new index.
    static let v3 = """
    CREATE INDEX dvir_asset_signed ON dvir(asset_id, signed_at);
    CREATE INDEX dvir_signed ON dvir(signed_at);
    CREATE INDEX dvir_defect_dvir ON dvir_defect(dvir_id);
    CREATE INDEX maintenance_record_asset ON maintenance_record(asset_id, performed_at);
    CREATE INDEX fuel_purchase_asset ON fuel_purchase(asset_id, at);
    CREATE INDEX trip_start ON trip(start_at);
    CREATE INDEX assignment_asset ON assignment(asset_id, start_at);
    """
}
