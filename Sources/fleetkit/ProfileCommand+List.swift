import ArgumentParser
import Foundation
import FleetKit

/// `fleetkit profile list`: every profile an import would match files against.
struct ProfileListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the mapping profiles: name, version, target, where it comes from, and its signature.")

    @OptionGroup var options: ProfileOptions
    @Flag(help: "Print the profiles as JSON on stdout (an array of {name, version, target, path, signature, citation}).")
    var json = false

    struct Entry: Codable { var name: String; var version: Int?; var target: String; var path: String; var signature: [String]; var citation: String? }

    func run() throws {
        let profiles: [Profile]
        do { profiles = try options.library().profiles.sorted { $0.name < $1.name } } catch { throw fail(error) }
        if json {
            try writeJSON(profiles.map { Entry(name: $0.name, version: $0.version, target: $0.target.rawValue, path: $0.path, signature: $0.signature, citation: $0.citation) })
            return
        }
        let width = profiles.map { $0.name.count + ($0.version.map { "@\($0)".count } ?? 0) }.max() ?? 0
        for p in profiles {
            let name = p.name + (p.version.map { "@\($0)" } ?? "")
            Console.out(name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + p.target.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0) + p.path)
            Console.out("  signature: " + p.signature.joined(separator: ", "))
        }
    }
}
