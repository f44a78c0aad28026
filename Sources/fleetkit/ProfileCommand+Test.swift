import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit profile test NAME FILE`: the first rows of a file as the profile would store them.
struct ProfileTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Preview the first rows of a file as a profile would store them (SI units, UTC, minor currency units); nothing is written.",
        discussion: "Exit 1 when a previewed row would be rejected; 64 when the profile has a mistake or does not fit the file's header.")

    @OptionGroup var options: ProfileOptions
    @Option(help: "The sheet to read of an .xlsx workbook; without it, the first sheet.")
    var sheet: String?
    @Option(help: "How many data rows to show.")
    var rows = 10
    @Argument(help: "The profile: its name, or a path to a .yml file.")
    var profile: String
    @Argument(help: "The file to preview.", completion: .file())
    var file: String

    func validate() throws {
        guard rows >= 1, rows <= 10_000 else { throw ValidationError("--rows takes 1 to 10000.") }
    }

    func run() throws {
        let preview: [ProfilePreview.Row]
        let chosen: Profile
        do {
            chosen = try options.library().named(profile)
            let s = try options.settings()
            preview = try ProfilePreview.rows(file, profile: chosen, zone: s.zone, currency: s.currency, sheet: sheet, limit: rows)
        } catch { throw fail(error) }
        Console.out("\(file) with profile \(chosen.formatName) (\(chosen.path)) → \(chosen.target.rawValue)")
        for row in preview {
            if let reject = row.reject {
                Console.out("\(row.location): rejected \(reject)")
                continue
            }
            Console.out("\(row.location): " + row.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "  "))
        }
        if preview.isEmpty { Console.out("(no data rows)") }
        if preview.contains(where: { $0.reject != nil }) { throw ExitCode(1) }
    }
}
