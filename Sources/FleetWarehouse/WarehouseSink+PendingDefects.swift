import GRDB

extension WarehouseSink {
    /// Pending defects are few (exports imported out of order), so they are read whole; the
    /// lookup by `dvir_key` uses its index, and those naming no DVIR are matched by key.
    @discardableResult
    public mutating func attachPendingDefects(dvirKey: String?, dvirID: Int64) throws -> Int {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, source_key, trailer_key, component, defect_type, comment, safety_critical, created_at, resolved_at,
                   resolved_by, certification, state_at, source_file_id
            FROM dvir_defect_pending p
            WHERE p.dvir_key = ?1
               OR (p.dvir_key IS NULL AND EXISTS (SELECT 1 FROM dvir_defect d WHERE d.source_key = p.source_key AND d.dvir_id = ?2))
            ORDER BY p.source_key
            """), arguments: [dvirKey, dvirID])
        for r in rows {
            var key: String = r["source_key"]
            // As `SamsaraReader.defect` decides when the DVIR is already stored: a stream defect
            // naming a trailer updates the DVIR's trailer-keyed row of the same defect.
            if let alt: String = r["trailer_key"],
               try Int64.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM dvir_defect WHERE source_key = ?"), arguments: [key]) == nil,
               try Int64.fetchOne(db.cachedStatement(sql: "SELECT dvir_id FROM dvir_defect WHERE source_key = ?"), arguments: [alt]) == dvirID {
                key = alt
            }
            let defect = DVIRDefect(dvirID: dvirID, sourceKey: key, component: r["component"], defectType: r["defect_type"], comment: r["comment"],
                                    safetyCritical: r["safety_critical"], createdAt: r["created_at"], resolvedAt: r["resolved_at"],
                                    resolvedBy: r["resolved_by"], certification: r["certification"], stateAt: r["state_at"],
                                    sourceFileID: r["source_file_id"])
            _ = try loader.upsert(defect)
            try db.cachedStatement(sql: "DELETE FROM dvir_defect_pending WHERE id = ?").execute(arguments: [r["id"] as Int64])
        }
        return rows.count
    }
}
