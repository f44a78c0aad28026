import XCTest
@testable import FleetReports

/// Real libxlsxwriter: write a workbook, then read the sheet XML back out of the zip with a
/// real reader (Python's zipfile) and check the cell types.
final class WorkbookTests: XCTestCase {
    func testWritesTypedCells() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wb-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("t.xlsx").path
        let wb = try Workbook(path: path)
        let sheet = try wb.addSheet("Summary")
        sheet.write("Total", row: 0, column: 0)
        sheet.write(1234.56, row: 0, column: 1)
        try wb.close()

        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.read('xl/worksheets/sheet1.xml').decode()); print(z.read('xl/sharedStrings.xml').decode())", path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(out.contains("<c r=\"B1\"><v>1234.56</v></c>"), out)      // a number, not text
        XCTAssertTrue(out.contains("<c r=\"A1\" t=\"s\"><v>0</v></c>"), out)     // a shared string
        XCTAssertTrue(out.contains("<t>Total</t>"), out)
    }

    func testAnUnwritableFolderIsAClearError() throws {
        let wb = try Workbook(path: "/nonexistent-folder/t.xlsx")
        _ = try wb.addSheet("x")
        XCTAssertThrowsError(try wb.close())
    }
}
