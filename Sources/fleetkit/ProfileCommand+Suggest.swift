import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit profile suggest FILE --out PROFILE.yml`: a first profile for a file, every guess marked.
struct ProfileSuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Propose a profile for a file from its header and first rows, write it, and preview the rows with it.",
        discussion: "Every guessed line is marked `# GUESS:` with why: check those, then `fleetkit profile test`. Exit 1 when the suggestion needs an edit before it reads the file (the problem and its line are printed); an existing --out file is not replaced.")

    @OptionGroup var options: ProfileOptions
    @Option(help: ArgumentHelp("Where to write the profile (a .yml file that does not exist yet).", valueName: "profile.yml"))
    var out: String
    @Option(help: "The profile's name (default: the --out file's name without .yml).")
    var name: String?
    @Option(help: "The sheet to read of an .xlsx workbook; without it, the first sheet.")
    var sheet: String?
    @Argument(help: "The file to propose a profile for.", completion: .file())
    var file: String

    func validate() throws {
        guard out.hasSuffix(".yml") || out.hasSuffix(".yaml") else { throw ValidationError("--out names a .yml file.") }
        guard !FileManager.default.fileExists(atPath: out) else { throw ValidationError("\(out) exists; choose another --out, or remove it first.") }
    }

    func run() throws {
        let profileName = name ?? ((out as NSString).lastPathComponent as NSString).deletingPathExtension
        let suggestion: ProfileSuggestion.Result
        do {
            suggestion = try ProfileSuggestion.suggest(file, name: profileName, sheet: sheet)
            try AtomicWrite.write(Data(suggestion.yaml.utf8), to: URL(fileURLWithPath: out), mode: 0o644)
        } catch { throw fail(error) }
        Console.out("wrote \(out): \(suggestion.guesses) line\(suggestion.guesses == 1 ? "" : "s") marked GUESS to check")
        let preview: [ProfilePreview.Row]
        do {
            let profile = try ProfileFile.load(out)
            let s = try options.settings()
            preview = try ProfilePreview.rows(file, profile: profile, zone: s.zone, currency: s.currency, sheet: sheet, limit: 5)
        } catch {
            Console.err("the suggestion needs an edit before it reads the file: \(error)")
            throw ExitCode(1)
        }
        for row in preview {
            Console.out("\(row.location): " + (row.reject.map { "rejected \($0)" } ?? row.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "  ")))
        }
    }
}
