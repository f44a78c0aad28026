import ArgumentParser
import FleetKit

/// `fleetkit review exception accept|reject EXCEPTION-ID --reason TEXT`: a person's word on a
/// fuel exception, kept append-only with who and when. Accepted, the purchase stands; rejected,
/// it leaves the cost report's totals and is listed there with the reason. Named `exception`
/// beside `finding` (DVIR): the fuel-exceptions report calls them exceptions.
struct ReviewExceptionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exception",
        abstract: "Accept or reject a fuel exception, with a reason.",
        discussion: """
            EXCEPTION-ID is the "Exception id" column of the fuel-exceptions report (PURCHASE/rule). A decision \
            is never edited or removed: a later one on the same exception supersedes it, and the report shows \
            the latest with its reason, who and when. A rejected purchase is out of the cost report's totals and \
            fuel figures, listed in its detail with the reason. A decision that changes a figure of a closed \
            month is refused unless --allow-restatement, and then recorded in the restatement ledger.
            """,
        subcommands: [ReviewExceptionAcceptCommand.self, ReviewExceptionRejectCommand.self])

    /// Records the decision and says what it was on; an id that names no exception is a usage
    /// error (64) with the close ones; a refused restatement exits 1 with the figures.
    static func decide(_ id: String, _ state: FuelExceptionDecision.State, reason: String, allowRestatement: Bool,
                       warehouse options: WarehouseOptions, by person: String) throws {
        do {
            let outcome = try FuelExceptionDecision.record(try options.open(), exception: id, state, reason: reason, by: person, allowRestatement: allowRestatement)
            Console.out("\(state.rawValue) exception \(ControlText.escaped(id)) on \(ControlText.escaped(outcome.unit)) (\(ControlText.escaped(outcome.evidence))) by \(ControlText.escaped(person))")
            for c in outcome.restatements { Console.out("  restates  \(ControlText.escaped(c.text))") }
        } catch let error as FuelExceptionDecision.UnknownException {
            let close = CloseMatches.of(error.value, in: error.candidates)
            Console.err("error: \(ControlText.escaped(error.description))"
                        + (close.isEmpty ? (error.candidates.isEmpty || error.candidates.count > 20 ? "; `fleetkit report fuel-exceptions` lists the exceptions"
                                            : "; its exceptions: " + error.candidates.map(ControlText.escaped).joined(separator: ", "))
                           : "; did you mean \(close.map(ControlText.escaped).joined(separator: ", "))?"))
            throw ExitCode.validationFailure
        } catch let error as FuelExceptionDecision.RestatementRefused {
            for c in error.changes { Console.out("  restates  \(ControlText.escaped(c.text))") }
            Console.err("error: \(ControlText.escaped(error.description))")
            throw ExitCode(1)
        } catch { throw fail(error) }
    }
}

struct ReviewExceptionAcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "The purchase stands as charged; the reason says why.")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The exception id, as the report's \"Exception id\" column shows it.")
    var exception: String
    @Option(help: "Why the purchase stands (shown beside the exception).")
    var reason: String
    @Flag(help: "Record it even when it changes a figure of a closed month (recorded in the restatement ledger).")
    var allowRestatement = false

    func run() throws {
        try ReviewExceptionCommand.decide(exception, .accepted, reason: reason, allowRestatement: allowRestatement, warehouse: warehouse, by: reviewer.person)
    }
}

struct ReviewExceptionRejectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reject", abstract: "The purchase is not the fleet's cost: it leaves the totals; the reason says why.")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The exception id, as the report's \"Exception id\" column shows it.")
    var exception: String
    @Option(help: "Why the purchase is rejected (shown beside it in the fuel-exceptions and cost reports).")
    var reason: String
    @Flag(help: "Record it even when it changes a figure of a closed month (recorded in the restatement ledger).")
    var allowRestatement = false

    func run() throws {
        try ReviewExceptionCommand.decide(exception, .rejected, reason: reason, allowRestatement: allowRestatement, warehouse: warehouse, by: reviewer.person)
    }
}
