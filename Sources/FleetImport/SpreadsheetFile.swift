import Foundation

/// A workbook handed to `import`: an XLSX or ODS file (a zip archive) or a legacy XLS (an OLE2
/// compound file). FleetKit reads CSV exports, not workbooks, and a user who exported a sheet
/// from Excel needs to be told the one step that fixes it, not "the format was not recognised".
/// Detected from the bytes, not the name: a workbook renamed `.csv` is still a workbook, and
/// `--format expenses` must not feed zip bytes to the CSV reader as rows to reject.
struct SpreadsheetFile: Error, CustomStringConvertible {
    let path: String
    let kind: String

    /// The workbook kind when `head` starts like one, else nil.
    static func kind(of head: Data) -> String? {
        let bytes = [UInt8](head.prefix(8))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a spreadsheet workbook (XLSX or ODS: zip content)" }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "a legacy Excel workbook (XLS)" }
        return nil
    }

    var description: String {
        "\(path): this is \(kind), not a file FleetKit reads. Open it and save the sheet as CSV (in Excel: File › Save As › CSV UTF-8; in LibreOffice: File › Save As › Text CSV), then import the .csv file."
    }
}
