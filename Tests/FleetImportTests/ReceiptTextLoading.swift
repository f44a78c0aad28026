import Foundation
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

extension TestWarehouse {
    /// Loads receipt text (OCR lines with their confidence, as `ReceiptExtractor` reads them)
    /// through the importer's review step into a real warehouse sink: what importing the image
    /// `/in/slip.png` with content hash `0f` writes, without OCR. For the review and cost tests,
    /// which decide on the text and not on Tesseract.
    func loadReceipt(_ lines: [(String, Double)]) throws {
        let fields = ReceiptExtractor(defaultCurrency: "USD").extract(lines: lines)
        try warehouse.pool.write { db in
            var file = SourceFile(path: "/in/slip.png", sha256: "0f", format: "receipt", bytes: 1, importedAt: 0, importRunID: nil,
                                  status: "imported", loaded: 0, updated: 0, unchanged: 0, rejected: 0)
            try file.insert(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            try ReceiptImporter.loadReviewed(fields, sha256: "0f", input: InputFile(url: URL(fileURLWithPath: "/in/slip.png"), head: Data()), into: &sink)
        }
    }
}
