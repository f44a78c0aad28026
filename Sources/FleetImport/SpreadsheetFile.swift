import Foundation

/// A workbook handed to `import`: an XLSX or ODS file (a zip archive) or a legacy XLS (an OLE2
/// compound file). XLSX is read (`XLSXRecords`); ODS and XLS are not, and a user who has one
/// needs to be told the one step that fixes it, not "the format was not recognised".
/// Detected from the bytes, not the name: a workbook renamed `.csv` is still a workbook, and
/// `--format expenses` must not feed zip bytes to the CSV reader as rows to reject.
struct SpreadsheetFile: Error, CustomStringConvertible {
    let path: String
    let kind: String

    /// The workbook kind when `head` starts like one, else nil. A zip archive is a workbook
    /// only when its entries say so (`xl/…` for XLSX, the OpenDocument spreadsheet mimetype for
    /// ODS); any other zip is named as an archive, to be unpacked, not re-saved.
    static func kind(of head: Data) -> String? {
        let bytes = [UInt8](head.prefix(8))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            if head.range(of: Data("opendocument.spreadsheet".utf8)) != nil { return "a spreadsheet workbook (ODS)" }
            if head.range(of: Data("xl/".utf8)) != nil { return xlsx }
            return archive
        }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "a legacy Excel workbook (XLS)" }
        return nil
    }

    static let archive = "a zip archive"
    /// Read like a CSV (`XLSXRecords`); the other kinds are refused.
    static let xlsx = "a spreadsheet workbook (XLSX)"

    var description: String {
        if kind == Self.archive {
            return "\(path): this is \(kind), not a file FleetKit reads. Unpack it and import the files inside (`fleetkit import` takes a folder)."
        }
        return "\(path): this is \(kind), not a file FleetKit reads. Open it and save it as an Excel workbook (.xlsx) or the sheet as CSV UTF-8, then import that file."
    }
}
