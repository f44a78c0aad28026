import Foundation
import FleetCore

enum RecordSources {
    /// The records of `input`: its worksheet when it is a workbook (`InputFile.sheet`), else its CSV.
    static func open(_ input: InputFile, delimiter: UInt8? = nil) throws -> any RecordSource {
        if let sheet = input.sheet { return try XLSXRecords(url: input.source, sheet: sheet.name) }
        return try CSVReader(url: input.source, delimiter: delimiter)
    }

    /// A reading error as the `FleetError` that fails the file, nil when it is not one.
    static func unreadable(_ error: Error, file: String, hint: String) -> FleetError? {
        if let e = error as? CSVError { return .unreadable(file: file, location: nil, reason: e.description, hint: hint) }
        if let e = error as? XLSXError { return .unreadable(file: file, location: e.part.isEmpty ? nil : e.part, reason: e.message, hint: e.hint) }
        return nil
    }
}
