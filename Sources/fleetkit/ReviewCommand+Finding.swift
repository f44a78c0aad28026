import ArgumentParser
import FleetKit

/// `fleetkit review finding accept|dispute FINDING-ID --reason TEXT`: a compliance officer's word
/// on a DVIR signature-chain finding, kept append-only with who and when. The finding stays in
/// the DVIR compliance report and the evidence pack beside its decision.
struct ReviewFindingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finding",
        abstract: "Accept or dispute a DVIR signature-chain finding, with a reason.",
        discussion: """
            FINDING-ID is the "Finding id" column of the DVIR compliance report's signature-chain table \
            (DVIR/rule or DVIR/rule/component). A decision is never edited or removed: a later one on \
            the same finding supersedes it, and the report shows the latest with its reason, who and when.
            """,
        subcommands: [ReviewFindingAcceptCommand.self, ReviewFindingDisputeCommand.self])

    /// Records the decision and says what it was on; an id that names no finding is a usage
    /// error (64) listing the DVIR's findings.
    static func decide(_ id: String, _ state: DVIRFindingDecision.State, reason: String, warehouse options: WarehouseOptions, by person: String) throws {
        do {
            let (unit, finding) = try DVIRFindingDecision.record(try options.open(), finding: id, state, reason: reason, by: person)
            Console.out("\(state.rawValue) finding \(ControlText.escaped(id)) on \(ControlText.escaped(unit)) (\(finding)) by \(ControlText.escaped(person))")
        } catch let error as DVIRFindingDecision.UnknownFinding {
            let close = CloseMatches.of(error.value, in: error.candidates)
            Console.err("error: \(ControlText.escaped(error.description))"
                        + (close.isEmpty ? (error.candidates.isEmpty ? "; `fleetkit report dvir-compliance` lists the findings" : "; its findings: " + error.candidates.map(ControlText.escaped).joined(separator: ", "))
                           : "; did you mean \(close.map(ControlText.escaped).joined(separator: ", "))?"))
            throw ExitCode.validationFailure
        } catch { throw fail(error) }
    }
}

struct ReviewFindingAcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "The finding stands; the reason says what was done about it.")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The finding id, as the report's \"Finding id\" column shows it.")
    var finding: String
    @Option(help: "Why: what was done about it (shown beside the finding).")
    var reason: String

    func run() throws {
        try ReviewFindingCommand.decide(finding, .accepted, reason: reason, warehouse: warehouse, by: reviewer.person)
    }
}

struct ReviewFindingDisputeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dispute", abstract: "The finding is wrong; the reason says why.")

    @OptionGroup var warehouse: WarehouseOptions
    @OptionGroup var reviewer: ReviewerOptions
    @Argument(help: "The finding id, as the report's \"Finding id\" column shows it.")
    var finding: String
    @Option(help: "Why the finding is wrong (shown beside the finding).")
    var reason: String

    func run() throws {
        try ReviewFindingCommand.decide(finding, .disputed, reason: reason, warehouse: warehouse, by: reviewer.person)
    }
}
