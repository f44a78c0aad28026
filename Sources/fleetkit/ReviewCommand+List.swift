import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit review list`: each receipt under review with its image and the fields to look at,
/// each with the value read, its confidence and the OCR line it came from.
struct ReviewListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the receipts and fields waiting for review.")

    @OptionGroup var warehouse: WarehouseOptions
    @Flag(help: "Print JSON for programs.")
    var json = false

    func run() throws {
        let receipts: [ReceiptReview.Receipt]
        let unlisted: [String]
        do {
            let review = ReceiptReview(warehouse: try warehouse.open(readOnly: true))
            (receipts, unlisted) = (try review.list(), try review.unlisted())
        } catch { throw fail(error) }
        if !unlisted.isEmpty {
            // On stderr, so that --json stays one document.
            Console.err("note: \(unlisted.count) receipt(s) kept for review by an earlier FleetKit, without their fields, are not listed here: "
                        + "`fleetkit rejects` shows them (\(unlisted.prefix(3).joined(separator: ", "))\(unlisted.count > 3 ? ", …" : ""))")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            do { Console.json(try encoder.encode(receipts), newline: true) } catch { throw fail(error) }
            return
        }
        if receipts.isEmpty { Console.out("no receipts waiting for review") }
        for r in receipts {
            Console.out("receipt \(r.receipt): \(r.image) (\(r.kind), \(r.state))")
            for f in r.fields {
                let value = f.value.map { "'\($0)'" } ?? "—"
                let conf = f.confidence.map { " \(Int(($0 * 100).rounded()))%" } ?? ""
                Console.out("    \(f.field): \(value)\(conf), \(f.problem)\(f.required ? "" : " (not required)")"
                            + (f.line.map { "; line \($0): \(f.lineText ?? "")" } ?? ""))
            }
        }
        if !receipts.isEmpty {
            Console.out("\(receipts.count) receipt(s); `fleetkit review accept RECEIPT FIELD…` keeps a value, `fleetkit review fix RECEIPT FIELD VALUE` corrects it")
        }
    }
}
