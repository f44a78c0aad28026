import Foundation
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

extension TestWarehouse {
    /// Loads receipt text (OCR lines with their confidence, as `ReceiptExtractor` reads them)
    /// through the importer's review step and the one file load (`FileLoad`, derivations
    /// included) into a real warehouse: what importing the image `/in/slip.png` with content
    /// hash `0f` writes, without OCR. For the review and cost tests, which decide on the text
    /// and not on Tesseract.
    func loadReceipt(_ lines: [(String, Double)]) throws {
        let fields = ReceiptExtractor(defaultCurrency: "USD").extract(lines: lines)
        let file = FileLoad.NewFile(path: "/in/slip.png", format: "receipt", bytes: 1, runID: nil, sha256: { "0f" })
        _ = try FileLoad(warehouse: warehouse).load(file) { context, sink in
            let input = InputFile(url: URL(fileURLWithPath: "/in/slip.png"), head: Data(), zone: context.settings.zone, currency: context.settings.currency)
            try ReceiptImporter.loadReviewed(fields, sha256: "0f", input: input, into: &sink)
        }
    }
}
