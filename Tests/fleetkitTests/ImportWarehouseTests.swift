import XCTest
import FleetTestSupport

/// `import` manners (issue 19): a missing warehouse is an error that says to run `fleetkit
/// init` (as `status` and `report` do) unless `--create`; `--dry-run` leaves nothing on disk; a
/// workbook is told to be saved as CSV.
final class ImportWarehouseTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetImportTests/Fixtures")
    var dir: URL!
    var db: String { dir.appendingPathComponent("fleet.sqlite").path }
    var assets: String { Self.fixtures.appendingPathComponent("assets/good.csv").path }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("import-wh-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// What the folder holds besides what the test put there: a warehouse, its -wal/-shm files.
    func leftovers() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    func testImportIntoAMissingWarehouseSaysRunInitAndCreatesNothing() throws {
        let r = try Fleetkit.run(["import", "--db", db, assets])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("there is no warehouse here. Create it with `fleetkit init --db \(db)`, pass --create"), r.stderr)
        XCTAssertEqual(try leftovers(), [])
    }

    func testADryRunCreatesNothingEvenWithCreate() throws {
        let r = try Fleetkit.run(["import", "--db", db, "--dry-run", "--create", assets])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("a dry run creates nothing"), r.stderr)
        XCTAssertEqual(try leftovers(), [])
    }

    func testCreateMakesTheWarehouseAndImports() throws {
        let r = try Fleetkit.run(["import", "--db", db, "--create", assets])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try TestWarehouse(existing: db).count("asset"), 2)
    }

    /// An .xlsx is read like the CSV of its first sheet (`--sheet` names one: the fixture's only sheet is `expenses`); the second
    /// file, the same bytes renamed `.csv`, is the same file and changes nothing.
    func testAnXLSXIsImportedAndItsSheetChosen() throws {
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        let xlsx = Self.fixtures.appendingPathComponent("spreadsheet/expenses.xlsx").path
        let renamed = Self.fixtures.appendingPathComponent("spreadsheet/expenses-xlsx-named.csv").path
        let wrong = try Fleetkit.run(["import", "--db", db, "--sheet", "Costs", xlsx])
        XCTAssertEqual(wrong.status, 1, wrong.stdout + wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("the workbook has no sheet named 'Costs'; its sheets are: 'expenses'"), wrong.stderr)
        let r = try Fleetkit.run(["import", "--db", db, "--sheet", "expenses", xlsx, renamed])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(try TestWarehouse(existing: db).count("expense"), 1)
    }

    func testALegacyXLSIsToldToBeSavedAsXLSXOrCSV() throws {
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        let path = Self.fixtures.appendingPathComponent("spreadsheet/legacy.xls").path
        let r = try Fleetkit.run(["import", "--db", db, path])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("failed    \(path): this is a legacy Excel workbook (XLS), not a file FleetKit reads. Open it and save it as an Excel workbook (.xlsx)"), r.stderr)
    }
}
