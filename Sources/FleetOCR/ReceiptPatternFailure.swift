import Foundation

/// A regular expression of the receipt rules that does not compile, with whose it is.
///
/// The rules' patterns are constants of the source, compiled once through `compile`: a failure
/// is kept as a value (`ReceiptCountry.idPatternFailures`, `ReceiptTotals.includedTax`) that
/// `ReceiptPatternCompileTests` requires to be absent for every pattern of every country, so a
/// bad pattern fails the tests, and at run time can never trap (no `try!`).
public struct ReceiptPatternFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule the pattern belongs to (`ReceiptCountry DE idPatterns`, `ReceiptTotals.includedTax`).
    public var owner: String
    public var pattern: String
    public var reason: String

    public var description: String { "\(owner): the pattern /\(pattern)/ does not compile: \(reason)" }

    static func compile(_ pattern: String, owner: String, options: NSRegularExpression.Options = []) -> Result<NSRegularExpression, ReceiptPatternFailure> {
        do { return .success(try NSRegularExpression(pattern: pattern, options: options)) } catch {
            return .failure(ReceiptPatternFailure(owner: owner, pattern: pattern, reason: "\(error)"))
        }
    }
}
