import ArgumentParser
import FleetKit

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "formats", abstract: "List the input formats, what each reads, and an example file name.")

    func run() {
        let width = ImporterRegistry.all.map { $0.format.count }.max() ?? 0
        for i in ImporterRegistry.all {
            Console.out(i.format.padding(toLength: width + 2, withPad: " ", startingAt: 0) + i.summary + "  (e.g. \(i.example))")
        }
    }
}
