import XCTest
import GRDB
import FleetCore
import FleetWarehouse
import FleetTestSupport
@testable import FleetImport

/// A minimal telematics-like importer for framework tests: `vin,samsara_id,at,odometer_km`.
struct VINFactsImporter: Importer {
    static let format = "vin-facts"
    static let summary = "test facts"
    static let example = "facts.csv"
    static let columns: [String: [String]] = ["vin": [], "samsara_id": [], "at": [], "odometer_km": []]
    init() {}
    static func sniff(_ head: Data, filename: String) -> Confidence {
        CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, required: ["at", "odometer_km"])
    }
    func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns, required: ["at", "odometer_km"])
        try rows.forEach(into: &sink) { row, sink in
            let ref = AssetRef(identifiers: row.text("samsara_id").map { [.init(source: "samsara", type: "vehicle_id", value: $0)] } ?? [],
                               vin: try row.vin("vin"))
            let asset = try sink.asset(ref)
            try sink.load(MeterReading(assetID: asset, meter: "odometer", at: try row.requiredTimestamp("at"),
                                       value: try row.double("odometer_km")! * 1000, sourceFileID: sink.sourceFileID))
        }
    }
}

/// Loads some rows, then dies: stands in for a crash or a kill in the middle of a file.
struct DiesMidFileImporter: Importer {
    static let format = "dies"
    static let summary = "test"
    static let example = "x"
    init() {}
    static func sniff(_ head: Data, filename: String) -> Confidence { .no }
    func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        let asset = try sink.asset(AssetRef(unitNumber: "HALF"))
        for i in 0..<100 {
            try sink.load(Position(assetID: asset, at: Int64(i), lat: 1, lon: 1, sourceFileID: sink.sourceFileID))
        }
        throw FleetError.io(path: input.path, reason: "killed")
    }
}

final class ImportSessionTests: XCTestCase {
    let facts = """
        vin,samsara_id,at,odometer_km
        1FTFW1E50PFA00001,281474977075801,2026-10-01T08:00:00Z,12000.5
        ,281474977075801,2026-10-01T18:00:00Z,12100.25
        1FTFW1E50PFA00002,,2026-10-01T09:00:00Z,500

        """

    /// Master data before or after the facts that mention the same VIN gives the same assets.
    func testMasterDataBeforeOrAfterFactsGivesTheSameWarehouse() throws {
        var dumps: [[String]] = []
        for order in [[0, 1], [1, 0]] {
            let t = try TestWarehouse()
            let session = ImportSession(warehouse: t.warehouse, importers: ImporterRegistry.all + [VINFactsImporter.self])
            let files = [fixture("assets/good.csv"), try t.write(facts, to: "facts.csv")]
            for i in order { _ = try session.run([files[i].path], options: ImportOptions(), command: "test") }
            dumps.append(try t.factDump())
            XCTAssertEqual(try t.count("asset"), 3)
            XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 1)  // the second VIN is in no master data
        }
        XCTAssertEqual(dumps[0], dumps[1])
        XCTAssertTrue(dumps[0].contains("meter_reading: \"T-01\"|\"odometer\"|1790841600000|12000500.0|NULL|NULL"), dumps[0].joined(separator: "\n"))
    }

    func testAKillMidFileLeavesNoRowOfThatFile() throws {
        let t = try TestWarehouse()
        let url = try t.write("anything", to: "half.bin")
        let outcome = try ImportSession(warehouse: t.warehouse).importFile(url, options: ImportOptions(), runID: nil, importer: DiesMidFileImporter.self)
        XCTAssertEqual(outcome.status, .failed)
        for table in ["asset", "position", "source_file", "reject"] { XCTAssertEqual(try t.count(table), 0, table) }
        // The file can be imported later: nothing marks it as done.
        XCTAssertEqual(try t.importFile(fixture("assets/good.csv")).status, .imported)
    }

    func testForcingTheWrongFormatFailsWithTheMissingColumns() throws {
        let t = try TestWarehouse()
        let url = try t.write(facts, to: "facts.csv")
        let summary = try t.importFiles([url.path], options: ImportOptions(format: "assets"))
        XCTAssertEqual(summary.files[0].status, .failed)
        XCTAssertTrue(summary.files[0].error!.contains("the assets header lacks required column(s): unit_number"), summary.files[0].error!)
        XCTAssertEqual(summary.exitCode, 1)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testUnknownFormatNameIsAnArgumentError() throws {
        let t = try TestWarehouse()
        XCTAssertThrowsError(try t.importFiles([fixture("assets/good.csv").path], options: ImportOptions(format: "nonsense"))) { error in
            guard case FleetError.invalidArgument(let name, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "--format")
        }
    }

    func testUnrecognisedContentFailsWithAHint() throws {
        let t = try TestWarehouse()
        let url = try t.write("hello,world\n1,2\n", to: "mystery.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("the format was not recognised. Pass --format NAME"), outcome.error!)
    }

    func testAFolderWithUnreadableEntriesImportsTheRest() throws {
        let t = try TestWarehouse()
        let inbox = t.directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture("assets/good.csv"), to: inbox.appendingPathComponent("sub/assets.csv"))
        try FileManager.default.createSymbolicLink(atPath: inbox.appendingPathComponent("gone.csv").path, withDestinationPath: "/nonexistent/file.csv")
        XCTAssertEqual(mkfifo(inbox.appendingPathComponent("pipe.csv").path, 0o644), 0)
        try "notes".write(to: inbox.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        var expectedFailures = 2
        if geteuid() != 0 {   // root reads everything, so permissions can only be tested as a user
            let locked = inbox.appendingPathComponent("locked.csv")
            try "unit_number,vin\n".write(to: locked, atomically: true, encoding: .utf8)
            chmod(locked.path, 0)
            expectedFailures += 1
        }
        let summary = try t.importFiles([inbox.path])
        XCTAssertEqual(summary.totals.imported, 1)
        XCTAssertEqual(summary.totals.failed, expectedFailures)
        XCTAssertEqual(summary.exitCode, 1)
        let errors = summary.files.compactMap(\.error).joined(separator: "\n")
        XCTAssertTrue(errors.contains("gone.csv: a link to nothing"), errors)
        XCTAssertTrue(errors.contains("pipe.csv: a named pipe (FIFO), not a regular file"), errors)
        XCTAssertEqual(try t.count("asset"), 2)
    }

    func testALockedWarehouseStopsTheRunWithAClearError() throws {
        let t = try TestWarehouse(busyTimeout: 0.2)
        var config = Configuration()
        config.allowsUnsafeTransactions = true   // this connection holds the write lock across accesses on purpose
        let holder = try DatabaseQueue(path: t.warehouse.path, configuration: config)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        defer { try? holder.inDatabase { db in try db.execute(sql: "ROLLBACK") } }
        XCTAssertThrowsError(try t.importFiles([fixture("assets/good.csv").path])) { error in
            XCTAssertTrue("\(error)".contains("locked by another process"), "\(error)")
        }
    }

    func testAReadOnlyWarehouseStopsTheRunWithAClearError() throws {
        let t = try TestWarehouse()
        let readOnly = try Warehouse(path: t.warehouse.path, readOnly: true)
        XCTAssertThrowsError(try ImportSession(warehouse: readOnly).run([fixture("assets/good.csv").path], options: ImportOptions(), command: "test")) { error in
            XCTAssertTrue("\(error)".contains("read-only"), "\(error)")
        }
        XCTAssertEqual(try t.count("asset"), 0)
    }

    func testDryRunWritesNothing() throws {
        let t = try TestWarehouse()
        let summary = try t.importFiles([fixture("assets/good.csv").path], options: ImportOptions(dryRun: true))
        XCTAssertEqual(summary.files[0].loaded, 2)
        XCTAssertTrue(summary.dry_run)
        for table in ["asset", "source_file", "import_run"] { XCTAssertEqual(try t.count(table), 0, table) }
    }

    func testRunLedger() throws {
        let t = try TestWarehouse()
        try t.importFiles([fixture("assets/vin-with-i.csv").path])
        let run = try t.rows("SELECT status, summary_json, finished_at IS NOT NULL FROM import_run")[0]
        XCTAssertEqual(run[0] as String, "partial")
        XCTAssertTrue((run[1] as String).contains("\"rejected\":1"))
        XCTAssertEqual(run[2] as Bool, true)
    }
}
