import Foundation
import GRDB
import XCTest
import FleetKit

extension TestWarehouse {
    /// Every table but the import bookkeeping (`import_run`, `source_file`, the month-end ledgers, migrations), each row
    /// as text with generated ids replaced by what they stand for (an asset by its unit number,
    /// VIN or PIN, a driver by employee id, licence or name, a DVIR by its source key, a file by
    /// its SHA-256, which is how FleetKit knows a file: two paths with the same bytes are one
    /// file, imported once), sorted: two warehouses with the same facts give the same lines.
    /// Shared by the import-order property tests and the importer conformance suite, so both
    /// compare warehouses the same way.
    public func canonicalDump() throws -> [String] {
        try warehouse.pool.read { db in
            // The ledgers of files and of month-end (row versions by file, closes, restatements,
            // corrections with their times) are bookkeeping about files, like `source_file`.
            let skip: Set<String> = ["import_run", "source_file", "grdb_migrations", "sqlite_sequence", "row_version", "period_close", "restatement", "correction"]
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").filter { !skip.contains($0) }
            var lines: [String] = []
            for table in tables {
                let columns = try db.columns(in: table).map(\.name).filter { !["id", "imported_at"].contains($0) }
                let select = columns.map { c -> String in
                    switch c {
                    case "asset_id": return "(SELECT COALESCE(unit_number, vin, pin, name, 'auto') FROM asset WHERE id = t.asset_id)"
                    case "driver_id": return "(SELECT COALESCE(employee_id, license_number, name) FROM driver WHERE id = t.driver_id)"
                    case "dvir_id": return "(SELECT source_key FROM dvir WHERE id = t.dvir_id)"
                    case "linked_to": return "(SELECT source_key FROM fuel_purchase WHERE id = t.linked_to)"
                    case "source_file_id": return table == "reject" ? "(SELECT sha256 FROM source_file WHERE id = t.source_file_id)" : "NULL"
                    default: return "t.\(c)"
                    }
                }.joined(separator: ", ")
                for row in try Row.fetchAll(db, sql: "SELECT \(select) FROM \(table) t") {
                    lines.append(table + "|" + row.databaseValues.map(\.description).joined(separator: "|"))
                }
            }
            return lines.sorted()
        }
    }
}

/// Two canonical dumps must be equal; on a difference, names the first differing lines rather
/// than dumping two huge arrays.
public func assertSame(_ a: [String], _ b: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    guard a != b else { return }
    let onlyA = Set(a).subtracting(b), onlyB = Set(b).subtracting(a)
    XCTFail("\(what): \(onlyA.count) rows only in the first, \(onlyB.count) only in the second (or duplicated)\nfirst:\n"
            + onlyA.sorted().prefix(12).joined(separator: "\n") + "\nsecond:\n" + onlyB.sorted().prefix(12).joined(separator: "\n"),
            file: file, line: line)
}
