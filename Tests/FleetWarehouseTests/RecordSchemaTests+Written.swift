import XCTest
import GRDB
import FleetTestSupport
@testable import FleetWarehouse

/// The records written through SQL generated from their column tables (identity, the run
/// ledger, files, rejects): each round-trips a distinct value in every column through its
/// generated INSERT (and UPDATE where it has one), checked column by column against rows
/// written by hand from the schema, and reads back through its Codable decoding unchanged.
extension RecordSchemaTests {
    /// Inserts `record` with `sql` (bound through `table`), then compares the stored row (found by
    /// `condition`) with `expected`, which must name every written column.
    private func assertInserted<R>(_ table: ColumnTable<R>, _ record: R, sql: String? = nil, where condition: String,
                                   _ expected: [String: (any DatabaseValueConvertible)?], _ db: Database,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        try CachedQuery.execute(db, sql ?? table.insertSQL()) { table.bind(record, into: &$0) }
        try assertStored(table, where: condition, expected, db, file: file, line: line)
    }

    private func assertStored<R>(_ table: ColumnTable<R>, where condition: String, _ expected: [String: (any DatabaseValueConvertible)?],
                                 _ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Set(expected.keys), Set(table.names), "\(R.self): the expected row does not name every written column", file: file, line: line)
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table.table) WHERE \(condition)") else {
            return XCTFail("\(R.self): no row", file: file, line: line)
        }
        for (column, value) in expected.sorted(by: { $0.key < $1.key }) {
            let got: DatabaseValue = row[column]
            XCTAssertEqual(got, value?.databaseValue ?? .null, "\(R.self).\(column)", file: file, line: line)
        }
    }

    /// An identifier inserted through its generated SQL is stored as `expected`; the same key
    /// again for another owner (`moved`) leaves it with its first owner, which the generated
    /// lookup finds by the key alone; it reads back through its Codable decoding unchanged.
    private func assertIdentifier<R: FetchableRecord & Equatable>(_ table: ColumnTable<R>, _ tag: R, moved: (inout R) -> Void,
                                                                  insertSQL: String, ownerSQL: String,
                                                                  _ expected: [String: (any DatabaseValueConvertible)?], owner: Int64,
                                                                  _ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        let value = expected["id_value"]!!
        try assertInserted(table, tag, sql: insertSQL, where: "id_value = '\(value)'", expected, db, file: file, line: line)
        var other = tag
        moved(&other)
        try CachedQuery.execute(db, insertSQL) { table.bind(other, into: &$0) }
        XCTAssertEqual(try CachedQuery.int64(db, ownerSQL) { table.bindKey(other, into: &$0) }, owner, file: file, line: line)
        XCTAssertEqual(try R.fetchOne(db, sql: "SELECT * FROM \(table.table) WHERE id_value = '\(value)'"), tag, file: file, line: line)
    }

    func testWrittenRecordsRoundTripWithEachValueInItsColumn() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            let p = try parents(db)

            let run = ImportRun(startedAt: 2_001, finishedAt: 2_002, command: "import a.csv", status: "partial", summaryJson: "{}")
            let runID = try ImportRun.columnTable.insert(run, in: db)
            try assertStored(ImportRun.columnTable, where: "id = \(runID)", ["started_at": 2_001, "finished_at": 2_002,
                                                                          "command": "import a.csv", "status": "partial",
                                                                          "summary_json": "{}"], db)
            var read = run
            read.id = runID
            XCTAssertEqual(try ImportRun.fetchOne(db, key: runID), read)

            let file = SourceFile(path: "/in/a.csv", sha256: "ab12", format: "gpx", bytes: 2_003, importedAt: 2_004, exportedAt: 2_005,
                                  importRunID: runID, status: "partial", loaded: 6, updated: 7, unchanged: 8, rejected: 9)
            let fileID = try SourceFile.columnTable.insert(file, in: db)
            try assertStored(SourceFile.columnTable, where: "id = \(fileID)", [
                "path": "/in/a.csv", "sha256": "ab12", "format": "gpx", "bytes": 2_003, "imported_at": 2_004, "exported_at": 2_005,
                "import_run_id": runID, "status": "partial", "loaded": 6, "updated": 7, "unchanged": 8, "rejected": 9,
            ], db)
            var changed = SourceFile(path: "/archive/a.csv", sha256: "cd34", format: "csv", bytes: 3_003, importedAt: 3_004, exportedAt: nil,
                                     importRunID: nil, status: "imported", loaded: 16, updated: 17, unchanged: 18, rejected: 19)
            try SourceFile.columnTable.update(changed, id: fileID, in: db)
            try assertStored(SourceFile.columnTable, where: "id = \(fileID)", [
                "path": "/archive/a.csv", "sha256": "cd34", "format": "csv", "bytes": 3_003, "imported_at": 3_004, "exported_at": nil,
                "import_run_id": nil, "status": "imported", "loaded": 16, "updated": 17, "unchanged": 18, "rejected": 19,
            ], db)
            changed.id = fileID
            XCTAssertEqual(try SourceFile.fetchOne(db, key: fileID), changed)

            let reject = Reject(sourceFileID: p.file, location: "row 4", reason: "bad_value", message: "speed -1", raw: "4,-1",
                                rowTable: "fuel_purchase", rowKey: "card:T3", amountMinor: 5_838, currency: "USD", at: 1_790_000_000_000)
            let rejectID = try Reject.columnTable.insert(reject, in: db)
            try assertStored(Reject.columnTable, where: "id = \(rejectID)", ["source_file_id": p.file, "location": "row 4", "reason": "bad_value",
                                                                          "message": "speed -1", "raw": "4,-1", "row_table": "fuel_purchase", "row_key": "card:T3",
                                                                          "amount_minor": 5_838, "currency": "USD", "at": 1_790_000_000_000], db)

            let driver = Driver(employeeID: "E9", name: "Ann", licenseNumber: "L9", licenseState: "OR", licenseExpiry: "2030-01-02", licenseClass: "B",
                                medicalExpiry: "2028-05-06", status: "active", phone: "555", email: "a@x", autoCreated: true, sourceFileID: p.file)
            let driverID = try Driver.columnTable.insert(driver, in: db)
            let driverRow: [String: (any DatabaseValueConvertible)?] = [
                "employee_id": "E9", "name": "Ann", "license_number": "L9", "license_state": "OR", "license_expiry": "2030-01-02", "license_class": "B", "medical_expiry": "2028-05-06",
                "status": "active", "phone": "555", "email": "a@x", "auto_created": 1, "source_file_id": p.file,
            ]
            try assertStored(Driver.columnTable, where: "id = \(driverID)", driverRow, db)
            let redefined = Driver(employeeID: "E10", name: "Bo", licenseNumber: "L10", licenseState: "WA", licenseExpiry: "2031-03-04", licenseClass: "A",
                                   medicalExpiry: "2029-07-08", status: "inactive", phone: "556", email: "b@x", autoCreated: false, sourceFileID: nil)
            try Driver.columnTable.update(redefined, id: driverID, in: db)
            var expected = redefined
            expected.id = driverID
            XCTAssertEqual(try Driver.fetchOne(db, key: driverID), expected)

            // Identifiers: the generated INSERT leaves one already attached where it is, and the
            // generated lookup finds its owner by the key alone.
            try assertIdentifier(AssetIdentifier.columnTable, AssetIdentifier(assetID: p.asset, source: "samsara", idType: "vehicle_id", idValue: "281"),
                                 moved: { $0.assetID = 1 }, insertSQL: AssetIdentifier.insertSQL, ownerSQL: AssetIdentifier.assetSQL,
                                 ["asset_id": p.asset, "source": "samsara", "id_type": "vehicle_id", "id_value": "281"], owner: p.asset, db)
            try assertIdentifier(DriverIdentifier.columnTable, DriverIdentifier(driverID: p.driver, source: "samsara", idType: "driver_id", idValue: "77"),
                                 moved: { $0.driverID = 1 }, insertSQL: DriverIdentifier.insertSQL, ownerSQL: DriverIdentifier.driverSQL,
                                 ["driver_id": p.driver, "source": "samsara", "id_type": "driver_id", "id_value": "77"], owner: p.driver, db)
        }
        // Every written table is exercised here or in the asset tests (a new one must be added).
        XCTAssertEqual(Self.written.count, 7)
    }
}
