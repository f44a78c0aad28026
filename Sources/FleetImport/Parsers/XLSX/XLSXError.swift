import Foundation

/// Why a workbook cannot be read at all: a damaged or hostile archive, a missing part, a
/// sheet that is not there. Every case fails the whole file (nothing of it is imported) and
/// says what to do; a problem with one cell is a row's reject instead (`XLSXSheetReader`).
struct XLSXError: Error, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case notZip, truncated, unsupported, encrypted, bomb, damaged, missingPart, missingSheet, badXML, dtd, tooLarge, badReference
    }
    var kind: Kind
    /// The part of the workbook (`xl/worksheets/sheet1.xml`), empty for the archive itself.
    var part: String
    var message: String

    init(_ kind: Kind, _ message: String, part: String = "") {
        self.kind = kind
        self.part = part
        self.message = message
    }

    var description: String { part.isEmpty ? message : "\(part): \(message)" }

    /// What the user can do, by kind.
    var hint: String {
        switch kind {
        case .truncated, .damaged, .notZip:
            return "Nothing of this file was imported; copy or download the workbook again (it is incomplete or damaged) and import it again."
        case .missingSheet:
            return "Name one of the workbook's sheets with --sheet NAME, or import without --sheet to read the first one."
        case .encrypted:
            return "Save the workbook without a password (Excel: File › Info › Protect Workbook), then import it again."
        case .bomb, .tooLarge:
            return "Nothing of this file was imported. If the workbook is genuine, split it into smaller workbooks (or save the sheet as CSV, which has no such bound)."
        case .unsupported, .missingPart, .badXML, .dtd, .badReference:
            return "Nothing of this file was imported. Open the workbook in Excel or LibreOffice and save it again as .xlsx, then import it again."
        }
    }
}
