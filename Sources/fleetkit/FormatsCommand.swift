import ArgumentParser
import FleetKit

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "formats", abstract: "List the input formats, what each reads, and an example file name.")

    @Flag(help: "Print the formats as JSON on stdout (an array of {format, summary, example}).")
    var json = false

    /// One input format, as `--json` prints it.
    struct Format: Codable { var format, summary, example: String }

    func run() throws {
        if json {
            try writeJSON(ImporterRegistry.all.map { Format(format: $0.format, summary: $0.summary, example: $0.example) })
            return
        }
        let width = ImporterRegistry.all.map { $0.format.count }.max() ?? 0
        for i in ImporterRegistry.all {
            Console.out(i.format.padding(toLength: width + 2, withPad: " ", startingAt: 0) + i.summary + "  (e.g. \(i.example))")
        }
    }
}
