import XCTest
import GRDB
import FleetTestSupport
@testable import FleetWarehouse

/// Every record against the live schema (after every migration): a record's column table names
/// exactly its table's columns, and a row written through it with a distinct value in every
/// column reads back with each value in its own column, so no two columns are swapped.
///
/// The expected rows below are written by hand from the schema (migrations), not from the
/// column tables: a column table that binds a field under another column's name fails here.
final class RecordSchemaTests: XCTestCase {
    /// A column table seen without its record type.
    struct TableView {
        var type: String
        var table: String
        var written: [String]
        var keys: [String]
        var notWritten: [String: String]

        init<R: TabulatedRecord>(_ type: R.Type) { self.init(R.columnTable) }

        init<R>(_ columns: ColumnTable<R>) {
            type = "\(R.self)"
            table = columns.table
            written = columns.names
            keys = columns.keyColumns
            notWritten = columns.notWritten
        }
    }

    static let tabulated: [TableView] = [
        TableView(AssetDay.self), TableView(Assignment.self), TableView(DVIR.self), TableView(DVIRDefect.self), TableView(DtcEvent.self),
        TableView(EngineEvent.self), TableView(Expense.self), TableView(FuelPurchase.self), TableView(FxRate.self), TableView(HOSLog.self), TableView(IdlePeriod.self),
        TableView(MaintenanceRecord.self), TableView(MeterReading.self), TableView(ObdSample.self), TableView(PendingDVIRDefect.self),
        TableView(Position.self), TableView(ReceiptField.self), TableView(ReceiptRead.self), TableView(ServiceSchedule.self),
        TableView(Trip.self), TableView(FuelDispense.self), TableView(TankDelivery.self), TableView(TankDip.self),
        TableView(VendorTotal.self),
    ]

    /// Records the loader does not upsert (identity, the run ledger, files, rejects), written
    /// through SQL generated from their column tables; their Codable `CodingKeys` only read rows.
    static let written: [TableView] = [
        TableView(Asset.writtenColumns), TableView(AssetIdentifier.columnTable), TableView(Driver.columnTable),
        TableView(DriverIdentifier.columnTable), TableView(ImportRun.columnTable), TableView(Reject.columnTable),
        TableView(SourceFile.columnTable),
    ]

    /// Every column table, loaded or written.
    static var everyTable: [TableView] { tabulated + written }

    /// Tables no record type writes: their one writer spells its SQL beside its reason.
    static let sqlTables: [String: String] = [
        "setting": "WarehouseSettings, key/value",
        "meter_anomaly": "DailyRollup writes the readings it refused",
        "receipt_correction": "review accept/fix",
        "period_close": "MonthEnd.close",
        "restatement": "MonthEnd.record",
        "correction": "Corrections.forget",
        "row_version": "RowVersions.record",
        "dvir_finding_decision": "DVIRFindingDecision.record, append-only",
        "fuel_exception_decision": "FuelExceptionDecision.record, append-only",
    ]

    private func liveColumns(_ t: TestWarehouse, _ table: String) throws -> [String] {
        try t.warehouse.pool.read { db in try db.columns(in: table).map(\.name) }
    }

    func testEveryColumnTableNamesExactlyItsTableColumns() throws {
        let t = try TestWarehouse()
        for view in Self.everyTable {
            let live = try liveColumns(t, view.table)
            XCTAssertFalse(live.isEmpty, "\(view.type): no table \(view.table)")
            XCTAssertEqual(view.written.count, Set(view.written).count, "\(view.type) names a column twice")
            XCTAssertTrue(Set(view.written).isDisjoint(with: view.notWritten.keys), "\(view.type): a column both written and not")
            XCTAssertEqual(Set(live), Set(view.written).union(view.notWritten.keys),
                           "\(view.type): schema has \(Set(live).subtracting(view.written).subtracting(view.notWritten.keys).sorted()) unlisted, "
                           + "lists \(Set(view.written).union(view.notWritten.keys).subtracting(live).sorted()) not in the schema")
        }
    }

    /// The key a record upserts on must be a key of its table, or re-imports would duplicate.
    func testEveryRecordKeyIsAUniqueKeyOfItsTable() throws {
        let t = try TestWarehouse()
        for view in Self.everyTable where !view.keys.isEmpty {
            let keys = try t.warehouse.pool.read { db -> [Set<String>] in
                var out = try db.indexes(on: view.table).filter(\.isUnique).map { Set($0.columns) }
                out.append(Set(try db.primaryKey(view.table).columns))
                return out
            }
            XCTAssertTrue(keys.contains(Set(view.keys)), "\(view.type): \(view.keys) is not a unique key of \(view.table): \(keys)")
        }
    }

    /// Every table is written by a column table, a Codable record, or one named SQL writer: a
    /// new table has to be put in one of them.
    func testEveryTableHasOneDescribedWriter() throws {
        let t = try TestWarehouse()
        let tables = try t.warehouse.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        }
        let described = Self.everyTable.map(\.table) + Array(Self.sqlTables.keys)
        XCTAssertEqual(described.count, Set(described).count, "a table described twice")
        XCTAssertEqual(Set(tables), Set(described))
    }

    /// The Codable records' encoded columns are exactly their tables' columns.
    func testCodableRecordsEncodeExactlyTheirTableColumns() throws {
        let t = try TestWarehouse()
        let records: [(String, any EncodableRecord)] = [
            ("asset", Asset(id: 1, kind: "vehicle", autoCreated: false)),
            ("asset_identifier", AssetIdentifier(assetID: 1, source: "s", idType: "t", idValue: "v")),
            ("driver", Driver(id: 1, autoCreated: false)),
            ("driver_identifier", DriverIdentifier(driverID: 1, source: "s", idType: "t", idValue: "v")),
            ("import_run", ImportRun(id: 1, startedAt: 0, command: "c", status: "ok")),
            ("reject", Reject(id: 1, sourceFileID: 1, location: "l", reason: "r", message: "m", raw: "x")),
            ("source_file", SourceFile(id: 1, path: "p", sha256: "h", format: "f", bytes: 1, importedAt: 0, status: "imported",
                                       loaded: 0, updated: 0, unchanged: 0, rejected: 0)),
        ]
        XCTAssertEqual(Set(records.map(\.0)), Set(Self.written.map(\.table)))
        // Columns no Codable record writes, each kept by named SQL: `asset.name_from_master` is
        // set only by the sink when master data names the asset, and by the asset merger, so an
        // asset saved through its record can never claim a master-data name. `import_run.exit_code`
        // is set when the run ends (ImportSession.finish, recordExitCode), never at its start.
        let writtenBySQL: [String: Set<String>] = ["asset": ["name_from_master"], "import_run": ["exit_code"]]
        for (table, record) in records {
            let encoded = try record.databaseDictionary.keys
            XCTAssertEqual(Set(encoded), Set(try liveColumns(t, table)).subtracting(writtenBySQL[table] ?? []), table)
        }
    }

    /// The hand-written asset statements (the sink's UPDATE, the resolver's INSERT) are generated
    /// from `Asset.writtenColumns`: it names every live `asset` column but the rowid and the
    /// column only named SQL writes (see `writtenBySQL` above), each once.
    func testAssetWrittenColumnsNameExactlyTheAssetColumns() throws {
        let t = try TestWarehouse()
        let names = Asset.writtenColumns.names
        XCTAssertEqual(names.count, Set(names).count, "Asset.writtenColumns names a column twice")
        XCTAssertEqual(Asset.writtenColumns.table, "asset")
        XCTAssertEqual(Set(Asset.writtenColumns.notWritten.keys), ["id", "name_from_master"])
        XCTAssertEqual(Set(names), Set(try liveColumns(t, "asset")).subtracting(["id", "name_from_master"]))
    }

    /// A row inserted and updated through the generated asset SQL, with a distinct value in every
    /// column, reads back through the Codable record unchanged: no two columns are swapped.
    func testAssetWrittenColumnsRoundTrip() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO source_file (path, sha256, format, bytes, imported_at, status, loaded, updated, unchanged, rejected) VALUES ('p', 'h', 'f', 1, 0, 'imported', 0, 0, 0, 0)")
            let file = db.lastInsertedRowID
            let a = Asset(unitNumber: "U1", kind: "equipment", name: "N1", vin: "V1", pin: "P1", make: "M1", model: "D1", year: 2011,
                          fuelType: "F1", licensePlate: "L1", costCenter: "C1", department: "E1", assetGroup: "G1",
                          inServiceDate: "2020-01-02", retiredDate: "2021-03-04", acquisitionCostMinor: 12345, currency: "EUR",
                          targetHoursPerWeek: 37.5, tankCapacityMl: 94_635.3, cdlClass: "B", autoCreated: true, sourceFileID: file)
            try CachedQuery.execute(db, Asset.insertSQL) { Asset.writtenColumns.bind(a, into: &$0) }
            let id = db.lastInsertedRowID
            var expected = a
            expected.id = id
            XCTAssertEqual(try Asset.fetchOne(db, key: id), expected)
            let b = Asset(unitNumber: "U2", kind: "trailer", name: "N2", vin: "V2", pin: "P2", make: "M2", model: "D2", year: 2012,
                          fuelType: "F2", licensePlate: "L2", costCenter: "C2", department: "E2", assetGroup: "G2",
                          inServiceDate: "2020-05-06", retiredDate: nil, acquisitionCostMinor: 678, currency: "USD",
                          targetHoursPerWeek: 40, cdlClass: "none", autoCreated: false, sourceFileID: nil)
            try CachedQuery.execute(db, Asset.updateSQL) { Asset.writtenColumns.bind(b, into: &$0); $0.bind(id) }
            expected = b
            expected.id = id
            XCTAssertEqual(try Asset.fetchOne(db, key: id), expected)
        }
    }

    // MARK: - Round trips

    /// Distinct parent ids, so that a record swapping two id columns stores a wrong id.
    struct Parents { var file: Int64; var asset: Int64; var driver: Int64; var dvir: Int64; var purchase: Int64 }

    func parents(_ db: Database) throws -> Parents {
        var file: Int64 = 0
        for _ in 0..<7 { file = try SourceFile.insertedForTest(db).id! }
        for n in 1...5 { try db.execute(sql: "INSERT INTO asset (id, unit_number, kind) VALUES (?, ?, 'vehicle')", arguments: [n, "U\(n)"]) }
        for n in 1...3 { try db.execute(sql: "INSERT INTO driver (id, employee_id) VALUES (?, ?)", arguments: [n, "E\(n)"]) }
        try db.execute(sql: """
            INSERT INTO dvir (id, source_key, asset_id, type, signed_at, safety_status, state_at, source_file_id)
            VALUES (11, 'parent-dvir', 5, 'pre_trip', 1, 'safe', 1, ?)
            """, arguments: [file])
        try db.execute(sql: """
            INSERT INTO fuel_purchase (id, source_key, origin, at, currency, source_file_id) VALUES (13, 'parent-card', 'card', 1, 'USD', ?)
            """, arguments: [file])
        return Parents(file: file, asset: 5, driver: 3, dvir: 11, purchase: 13)
    }

    /// Loads `record`, checks the stored row's values column by column against `expected`
    /// (every written column must be named), and loading it again is unchanged. Returns the
    /// mismatches rather than asserting, so the swap test can see them.
    static func mismatches<R: TabulatedRecord>(_ record: R, where condition: String, _ expected: [String: (any DatabaseValueConvertible)?],
                                              _ db: Database) throws -> [String] {
        var loader = Loader(db)
        var out: [String] = []
        if try loader.upsert(record) != .inserted { out.append("not inserted") }
        if try loader.upsert(record) != .unchanged { out.append("a second load changed it") }
        let missing = Set(R.columnTable.names).symmetricDifference(expected.keys)
        if !missing.isEmpty { out.append("expected row does not name \(missing.sorted())") }
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(R.columnTable.table) WHERE \(condition)") else { return out + ["no row"] }
        for (column, value) in expected.sorted(by: { $0.key < $1.key }) {
            let want = value?.databaseValue ?? .null
            let got: DatabaseValue = row[column]
            if got != want { out.append("\(column): stored \(got), expected \(want)") }
        }
        return out
    }

    private func assertRoundTrip<R: TabulatedRecord>(_ record: R, where condition: String = "1",
                                                     _ expected: [String: (any DatabaseValueConvertible)?],
                                                     _ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try Self.mismatches(record, where: condition, expected, db), [], "\(R.self)", file: file, line: line)
    }

    /// Reads the row back through the record's Codable decoding: the same record (its `id` aside).
    private func assertDecodes<R: TabulatedRecord & FetchableRecord & Equatable>(_ record: R, where condition: String = "1", _ db: Database,
                                                                                id: WritableKeyPath<R, Int64?>? = nil,
                                                                                file: StaticString = #filePath, line: UInt = #line) throws {
        var read = try R.fetchOne(db, sql: "SELECT * FROM \(R.columnTable.table) WHERE \(condition)")
        if let id { read?[keyPath: id] = nil }
        XCTAssertEqual(read, record, "\(R.self) reads back different", file: file, line: line)
    }

    func testEveryRecordRoundTripsWithEachValueInItsColumn() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            let p = try parents(db)
            let (f, a, d) = (p.file, p.asset, p.driver)

            let position = Position(assetID: a, at: 1_001, lat: 45.25, lon: -122.5, speedMps: 12.75, headingDeg: 271.5, altM: 88.125, sourceFileID: f)
            try assertRoundTrip(position, ["asset_id": a, "at": 1_001, "lat": 45.25, "lon": -122.5, "speed_mps": 12.75, "heading_deg": 271.5,
                                           "alt_m": 88.125, "source_file_id": f], db)
            try assertDecodes(position, db)
            // Bulk fuel: a dispense from a tank, the tank's delivery and a dip reading.
            try assertRoundTrip(FuelDispense(sourceKey: "id:YARD-D1|77", tank: "YARD-D1", assetID: a, unitHint: "M-01", at: 1_020, volumeMl: 151_416.5,
                                             odometerM: 1_234.5, engineS: 36_000.25, product: "diesel", sourceFileID: f),
                                ["source_key": "id:YARD-D1|77", "tank": "YARD-D1", "asset_id": a, "unit_hint": "M-01", "at": 1_020, "volume_ml": 151_416.5,
                                 "odometer_m": 1_234.5, "engine_s": 36_000.25, "product": "diesel", "source_file_id": f], db)
            try assertRoundTrip(TankDelivery(sourceKey: "inv:ACME|4411", tank: "YARD-D1", at: 1_010, volumeMl: 3_785_411.75, costMinor: 328_900,
                                             currency: "USD", currencyAssumed: true, supplier: "ACME Fuels", invoice: "4411", sourceFileID: f),
                                ["source_key": "inv:ACME|4411", "tank": "YARD-D1", "at": 1_010, "volume_ml": 3_785_411.75, "cost_minor": 328_900,
                                 "currency": "USD", "currency_assumed": 1, "supplier": "ACME Fuels", "invoice": "4411", "source_file_id": f], db)
            try assertRoundTrip(TankDip(sourceKey: "dip:YARD-D1|1030", tank: "YARD-D1", at: 1_030, levelMl: 15_141_647.25, sourceFileID: f),
                                ["source_key": "dip:YARD-D1|1030", "tank": "YARD-D1", "at": 1_030, "level_ml": 15_141_647.25, "source_file_id": f], db)
            // A vendor's figure for a period, beside (never in) the daily rollup.
            try assertRoundTrip(VendorTotal(assetID: a, source: "acme-portal", startAt: 1_040, endAt: 86_401_040, measure: "fuel_used", jurisdiction: "IL",
                                            fuelType: "diesel", value: 37_854.25, rawValue: "10.0001", rawUnit: "gal", stateAt: 1_050, sourceFileID: f),
                                ["asset_id": a, "source": "acme-portal", "start_at": 1_040, "end_at": 86_401_040, "measure": "fuel_used", "jurisdiction": "IL",
                                 "fuel_type": "diesel", "value": 37_854.25, "raw_value": "10.0001", "raw_unit": "gal", "state_at": 1_050, "source_file_id": f], db)

            let meter = MeterReading(assetID: a, meter: "engine_hours", at: 1_002, value: 3_600.5, rawValue: "1.0001", rawUnit: "h", sourceFileID: f)
            try assertRoundTrip(meter, ["asset_id": a, "meter": "engine_hours", "at": 1_002, "value": 3_600.5, "raw_value": "1.0001",
                                        "raw_unit": "h", "source_file_id": f], db)
            try assertDecodes(meter, db)

            let engine = EngineEvent(assetID: a, at: 1_003, state: "idle", sourceFileID: f)
            try assertRoundTrip(engine, ["asset_id": a, "at": 1_003, "state": "idle", "source_file_id": f], db)
            try assertDecodes(engine, db)

            let obd = ObdSample(assetID: a, at: 1_004, pid: 12, value: 1_850.25, sourceFileID: f)
            try assertRoundTrip(obd, ["asset_id": a, "at": 1_004, "pid": 12, "value": 1_850.25, "source_file_id": f], db)
            try assertDecodes(obd, db)

            let dtc = DtcEvent(assetID: a, at: 1_005, code: "P0420", system: "obd2", spn: 524_019, fmi: 31, description: "catalyst",
                               status: "active", milOn: true, clearedAt: 1_006, sourceFileID: f)
            try assertRoundTrip(dtc, ["asset_id": a, "at": 1_005, "code": "P0420", "system": "obd2", "spn": 524_019, "fmi": 31,
                                      "description": "catalyst", "status": "active", "mil_on": 1, "cleared_at": 1_006, "source_file_id": f], db)
            try assertDecodes(dtc, db, id: \.id)

            let trip = Trip(assetID: a, driverID: d, startAt: 1_007, endAt: 1_008, startLat: 1.5, startLon: 2.5, endLat: 3.5, endLon: 4.5,
                            distanceM: 5.5, durationS: 6.5, movingS: 7.5, idleS: 8.5, maxSpeedMps: 9.5, startReason: "engine_on",
                            endReason: "stop", source: "samsara", sourceFileID: f)
            try assertRoundTrip(trip, ["asset_id": a, "driver_id": d, "start_at": 1_007, "end_at": 1_008, "start_lat": 1.5, "start_lon": 2.5,
                                       "end_lat": 3.5, "end_lon": 4.5, "distance_m": 5.5, "duration_s": 6.5, "moving_s": 7.5, "idle_s": 8.5,
                                       "max_speed_mps": 9.5, "start_reason": "engine_on", "end_reason": "stop", "source": "samsara",
                                       "source_file_id": f], db)
            try assertDecodes(trip, db, id: \.id)

            let day = AssetDay(assetID: a, day: "2026-10-01", distanceM: 1.25, distanceMethod: "gps", engineS: 2.25, idleS: 3.25, fuelMl: 4.25,
                               firstAt: 1_009, lastAt: 1_010, trips: 6)
            try assertRoundTrip(day, ["asset_id": a, "day": "2026-10-01", "distance_m": 1.25, "distance_method": "gps", "engine_s": 2.25,
                                      "idle_s": 3.25, "fuel_ml": 4.25, "first_at": 1_009, "last_at": 1_010, "trips": 6], db)
            try assertDecodes(day, db)

            let assignment = Assignment(driverID: d, assetID: a, startAt: 1_011, endAt: 1_012, status: "active", sourceFileID: f)
            try assertRoundTrip(assignment, ["driver_id": d, "asset_id": a, "start_at": 1_011, "end_at": 1_012, "status": "active",
                                             "source_file_id": f], db)
            try assertDecodes(assignment, db, id: \.id)

            let fuel = FuelPurchase(sourceKey: "card:1", origin: "receipt", assetID: a, unitHint: "T-9", at: 1_013, merchant: "Shell",
                                    volumeMl: 40_000.5, unitPriceMinorPerL: 151.25, totalMinor: 6_050, currency: "EUR", currencyAssumed: true, fuelGrade: "diesel",
                                    productCode: "019", merchantState: "IL", merchantCountry: "US",
                                    odometerM: 123_456.5, odometerEntered: "76712", odometerEnteredUnit: "mi", cardLast4: "4242", ocrConfidence: 0.875, needsReview: true, linkedTo: p.purchase,
                                    sourceFileID: f)
            try assertRoundTrip(fuel, where: "source_key = 'card:1'", ["source_key": "card:1", "origin": "receipt", "asset_id": a,
                                                                       "unit_hint": "T-9", "at": 1_013, "merchant": "Shell", "volume_ml": 40_000.5,
                                                                       "unit_price_minor_per_l": 151.25, "total_minor": 6_050, "currency": "EUR", "currency_assumed": 1,
                                                                       "fuel_grade": "diesel", "product_code": "019", "merchant_state": "IL",
                                                                       "merchant_country": "US", "odometer_m": 123_456.5, "odometer_entered": "76712",
                                                                       "odometer_entered_unit": "mi", "card_last4": "4242",
                                                                       "ocr_confidence": 0.875, "needs_review": 1, "linked_to": p.purchase,
                                                                       "source_file_id": f], db)
            try assertDecodes(fuel, where: "source_key = 'card:1'", db, id: \.id)

            let expense = Expense(sourceKey: "exp:1", assetID: a, unitHint: "T-8", at: 1_014, category: "tolls", amountMinor: 1_250,
                                  currency: "CAD", currencyAssumed: true, vendor: "407 ETR", description: "toll", sourceFileID: f)
            try assertRoundTrip(expense, ["source_key": "exp:1", "asset_id": a, "unit_hint": "T-8", "at": 1_014, "category": "tolls",
                                          "amount_minor": 1_250, "currency": "CAD", "currency_assumed": 1, "vendor": "407 ETR", "description": "toll", "source_file_id": f], db)
            try assertDecodes(expense, db, id: \.id)

            let service = MaintenanceRecord(sourceKey: "wo:1", assetID: a, serviceType: "oil", performedAt: 1_015, odometerM: 10.5,
                                            engineS: 20.5, costMinor: 9_900, currency: "USD", currencyAssumed: true, vendor: "Shop", workOrder: "WO-7", notes: "ok",
                                            sourceFileID: f)
            try assertRoundTrip(service, ["source_key": "wo:1", "asset_id": a, "service_type": "oil", "performed_at": 1_015, "odometer_m": 10.5,
                                          "engine_s": 20.5, "cost_minor": 9_900, "currency": "USD", "currency_assumed": 1, "vendor": "Shop", "work_order": "WO-7",
                                          "notes": "ok", "source_file_id": f], db)
            try assertDecodes(service, db, id: \.id)

            // A schedule names an asset or a group, never both (a CHECK): one of each.
            let forAsset = ServiceSchedule(sourceKey: "pm:1", assetID: a, serviceType: "pm-a", everyDays: 90, everyMonths: 3, everyM: 15_000.5,
                                           everyEngineS: 900_000.5, soonDays: 14, soonM: 1_000.5, soonEngineS: 36_000.5, sourceFileID: f)
            try assertRoundTrip(forAsset, where: "source_key = 'pm:1'", ["source_key": "pm:1", "asset_id": a, "asset_group": nil,
                                                                         "service_type": "pm-a", "every_days": 90, "every_months": 3,
                                                                         "every_m": 15_000.5, "every_engine_s": 900_000.5, "soon_days": 14,
                                                                         "soon_m": 1_000.5, "soon_engine_s": 36_000.5, "source_file_id": f], db)
            try assertDecodes(forAsset, where: "source_key = 'pm:1'", db, id: \.id)
            let forGroup = ServiceSchedule(sourceKey: "pm:2", assetGroup: "loaders", serviceType: "pm-g", sourceFileID: f)
            try assertRoundTrip(forGroup, where: "source_key = 'pm:2'", ["source_key": "pm:2", "asset_id": nil, "asset_group": "loaders",
                                                                         "service_type": "pm-g", "every_days": nil, "every_months": nil,
                                                                         "every_m": nil, "every_engine_s": nil, "soon_days": nil, "soon_m": nil,
                                                                         "soon_engine_s": nil, "source_file_id": f], db)

            let dvir = DVIR(sourceKey: "dvir:1", assetID: a, driverID: d, type: "post_trip", startedAt: 1_016, signedAt: 1_017,
                            safetyStatus: "unsafe", odometerM: 77.5, location: "Yard", inspectorName: "Ann", mechanicName: "Bob",
                            mechanicSignedAt: 1_018, mechanicNotes: "fixed", reviewedAt: 1_019, reviewedBy: "Cy", trailer: "TR-9", stateAt: 1_020, sourceFileID: f)
            try assertRoundTrip(dvir, where: "source_key = 'dvir:1'", ["source_key": "dvir:1", "asset_id": a, "driver_id": d, "type": "post_trip",
                                                                       "started_at": 1_016, "signed_at": 1_017, "safety_status": "unsafe",
                                                                       "odometer_m": 77.5, "location": "Yard", "inspector_name": "Ann",
                                                                       "mechanic_name": "Bob", "mechanic_signed_at": 1_018, "mechanic_notes": "fixed",
                                                                       "reviewed_at": 1_019, "reviewed_by": "Cy", "trailer": "TR-9", "state_at": 1_020,
                                                                       "source_file_id": f], db)
            try assertDecodes(dvir, where: "source_key = 'dvir:1'", db, id: \.id)

            let defect = DVIRDefect(dvirID: p.dvir, sourceKey: "defect:1", component: "brakes", defectType: "worn", comment: "squeal",
                                    safetyCritical: true, createdAt: 1_021, resolvedAt: 1_022, resolvedBy: "Dee", certification: "repaired",
                                    stateAt: 1_023, sourceFileID: f)
            let defectRow: [String: (any DatabaseValueConvertible)?] = [
                "source_key": "defect:1", "component": "brakes", "defect_type": "worn", "comment": "squeal", "safety_critical": 1,
                "created_at": 1_021, "resolved_at": 1_022, "resolved_by": "Dee", "certification": "repaired", "state_at": 1_023, "source_file_id": f,
            ]
            var storedRow = defectRow
            storedRow["dvir_id"] = p.dvir
            try assertRoundTrip(defect, storedRow, db)
            try assertDecodes(defect, db, id: \.id)

            // The same defect waiting for its DVIR: the shared columns, plus where it waits.
            let pending = PendingDVIRDefect(defect, dvirKey: "samsara-dvir:9", trailerKey: "defect:trailer:1", location: "defects.json:4")
            var pendingRow = defectRow
            pendingRow["dvir_key"] = "samsara-dvir:9"
            pendingRow["trailer_key"] = "defect:trailer:1"
            pendingRow["location"] = "defects.json:4"
            try assertRoundTrip(pending, pendingRow, db)

            let fx = FxRate(day: "2026-10-02", currency: "EUR", perBase: 1.0875, sourceFileID: f)
            try assertRoundTrip(fx, ["day": "2026-10-02", "currency": "EUR", "per_base": 1.0875, "source_file_id": f], db)
            try assertDecodes(fx, db)

            let idle = IdlePeriod(assetID: a, startAt: 1_024, endAt: 1_025, durationS: 1.75, fuelMl: 2.75, pto: true, lat: 3.75, lon: 4.75,
                                  source: "samsara-event", sourceFileID: f)
            try assertRoundTrip(idle, ["asset_id": a, "start_at": 1_024, "end_at": 1_025, "duration_s": 1.75, "fuel_ml": 2.75, "pto": 1,
                                       "lat": 3.75, "lon": 4.75, "source": "samsara-event", "source_file_id": f], db)

            let hos = HOSLog(driverID: d, startAt: 1_026, endAt: 1_027, status: .yardMove, assetID: a, sourceFileID: f)
            try assertRoundTrip(hos, ["driver_id": d, "start_at": 1_026, "end_at": 1_027, "status": "yard_move", "asset_id": a, "source_file_id": f], db)
            try assertDecodes(hos, db, id: \.id)
        }
        try t.warehouse.pool.write { db in
            let file = try SourceFile.insertedForTest(db).id!
            let field = ReceiptReading.FieldValue(field: "total", value: "46.15", confidence: 0.625, line: 7, lineText: "TOTAL 46.15")
            let reading = ReceiptReading(contentSHA256: "0f1e", imagePath: "/in/slip.png", isFuel: true, category: "fuel", spendKind: "fleet",
                                         assetUnit: "T-7", currencySource: "printed", totalCheck: "matches", maskedText: "SHELL\nTOTAL 46.15",
                                         needsReview: true, fields: [field])
            let rows = ReceiptRead.rows(of: reading, sourceFileID: file)
            try assertRoundTrip(rows.read, ["source_file_id": file, "content_sha256": "0f1e", "image_path": "/in/slip.png", "is_fuel": 1,
                                            "category": "fuel", "spend_kind": "fleet", "asset_unit": "T-7", "currency_source": "printed",
                                            "total_check": "matches", "masked_text": "SHELL\nTOTAL 46.15", "needs_review": 1], db)
            XCTAssertEqual(rows.fields.count, 1)
            try assertRoundTrip(rows.fields[0], ["source_file_id": file, "field": "total", "value": "46.15", "confidence": 0.625, "line": 7,
                                                 "line_text": "TOTAL 46.15"], db)
            XCTAssertEqual(try ReceiptReviewStore.reading(db, sourceFileID: file), reading)
            // Review state, not facts: a sink does not count them as the file's rows.
            XCTAssertFalse(ReceiptRead.isFact)
            XCTAssertFalse(ReceiptField.isFact)

        }
        // Every column table is exercised above (a new record must be added here too).
        XCTAssertEqual(Self.tabulated.count, 24)
    }

    /// Positions bind field by field on the hot path: the same values in the same places as
    /// their column table, with every value present and with the optional ones absent.
    func testPositionsFastBindingEqualsItsColumnTable() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.read { db in
            let count = Position.columnTable.columns.count
            let sql = "SELECT " + (1...count).map { "quote(?\($0))" }.joined(separator: " || '|' || ")
            func bound(_ bind: (inout Binder) -> Void) throws -> String {
                let q = try CachedQuery(db, sql, bind: bind)
                defer { q.reset() }
                XCTAssertTrue(try q.step())
                return q.text(0)
            }
            for p in [Position(assetID: 5, at: 1_001, lat: 45.25, lon: -122.5, speedMps: 12.75, headingDeg: 271.5, altM: 88.125, sourceFileID: 7),
                      Position(assetID: 6, at: 1_002, lat: 1.5, lon: 2.5, sourceFileID: 8)] {
                let fast = try bound { p.bind(into: &$0) }
                XCTAssertEqual(fast, try bound { Position.columnTable.bind(p, into: &$0) })
                XCTAssertEqual(fast.split(separator: "|").count, count)
            }
            XCTAssertEqual(try bound { Position(assetID: 5, at: 1_001, lat: 45.25, lon: -122.5, sourceFileID: 7).bind(into: &$0) },
                           "5|1001|45.25|-122.5|NULL|NULL|NULL|7")
        }
    }

    /// The check above can fail: a table that binds `lon` under `lat` (and the reverse) is caught.
    func testASwappedColumnTableIsCaught() throws {
        let t = try TestWarehouse()
        let found = try t.warehouse.pool.write { db -> [String] in
            let p = try parents(db)
            let position = Position(assetID: p.asset, at: 1_001, lat: 45.25, lon: -122.5, sourceFileID: p.file)
            return try Self.mismatches(SwappedPosition(position: position), where: "1",
                                       ["asset_id": p.asset, "at": 1_001, "lat": 45.25, "lon": -122.5, "speed_mps": nil, "heading_deg": nil,
                                        "alt_m": nil, "source_file_id": p.file], db)
        }
        XCTAssertEqual(found, ["lat: stored -122.5, expected 45.25", "lon: stored 45.25, expected -122.5"])
    }
}

/// `Position` with two same-typed columns swapped, the mistake the column tables exist to catch.
private struct SwappedPosition: TabulatedRecord {
    var position: Position
    static let columnTable = ColumnTable<SwappedPosition>("position", [
        .key("asset_id") { $0.position.assetID },
        .key("at") { $0.position.at },
        .value("lat") { $0.position.lon },
        .value("lon") { $0.position.lat },
        .keptWhenAbsent("speed_mps") { $0.position.speedMps },
        .keptWhenAbsent("heading_deg") { $0.position.headingDeg },
        .keptWhenAbsent("alt_m") { $0.position.altM },
        .provenance("source_file_id") { $0.position.sourceFileID },
    ])
}
