import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit review list|accept|fix`: the receipts waiting for a person (docs/FORMATS.md, "receipt"); `review finding`: a
/// compliance officer's decision on a DVIR finding; `review exception`: a person's decision on a fuel exception.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Receipts and fields waiting for a person: list them, accept a value read, or fix it; accept or dispute a DVIR finding; accept or reject a fuel exception.",
        discussion: """
            A receipt is listed while its total, date or (fuel) volume is missing or doubtful, or its currency \
            was not printed. Once every field it needs is accepted or fixed, its fuel purchase is no longer \
            flagged, or its expense is loaded. Corrections are kept with who and when, against the image's \
            content, and applied whenever the same image is imported again. `review finding accept|dispute` \
            records a compliance officer's decision on a DVIR signature-chain finding, with a reason; \
            `review exception accept|reject` a person's decision on a fuel exception (a rejected purchase \
            leaves the cost report's totals).
            """,
        subcommands: [ReviewListCommand.self, ReviewAcceptCommand.self, ReviewFixCommand.self, ReviewFindingCommand.self, ReviewExceptionCommand.self])
}

/// Shared by `accept` and `fix`: who is correcting, and how the outcome is printed.
struct ReviewerOptions: ParsableArguments {
    @Option(help: "Who made the change, for the audit (default: $USER).")
    var by: String?

    var person: String {
        let name = by ?? ProcessInfo.processInfo.environment["USER"] ?? ""
        return name.isEmpty ? "unknown" : name
    }
}

extension ReviewCommand {
    /// Applies changes to one receipt and says where it stands now. Unknown receipts, fields
    /// and bad values are usage errors (64) naming what was wrong.
    static func apply(_ receipt: String, _ changes: [ReceiptReview.Change], warehouse options: WarehouseOptions, by person: String) throws {
        do {
            let w = try options.open()
            let after = try ReceiptReview(warehouse: w).apply(receipt, changes, by: person)
            for change in changes {
                switch change {
                case let .accept(f): Console.out("accepted \(f) on receipt \(receipt)")
                case let .fix(f, v): Console.out("fixed \(f) on receipt \(receipt): \(v)")
                }
            }
            if let after {
                let left = after.fields.filter(\.required).map { "\($0.field) \($0.problem)" }
                Console.out("receipt \(after.receipt) is still under review (\(after.state))"
                            + (left.isEmpty ? "" : ": " + left.joined(separator: ", ")))
            } else {
                Console.out("receipt \(receipt) no longer needs review: it is counted in the cost report")
            }
        } catch let error as ReceiptReview.UnknownReceipt {
            let close = CloseMatches.of(error.value, in: error.candidates)
            Console.err("error: \(error); " + (close.isEmpty ? "`fleetkit review list` shows the receipts under review" : "did you mean \(close.joined(separator: ", "))?"))
            throw ExitCode.validationFailure
        } catch { throw fail(error) }
    }
}
