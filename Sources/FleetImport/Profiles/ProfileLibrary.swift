import Foundation
import FleetCore

/// The profiles an import can use (docs/FORMATS.md, "Mapping profiles"): those FleetKit ships
/// (`ShippedProfiles`), then every `*.yml`/`*.yaml` in the folders given (`--profiles DIR`, and
/// the `profiles` folder beside the warehouse, which the nightly job and a person share). Names
/// are unique: a folder's profile with a shipped name replaces the shipped one (a fleet's own
/// corrected copy), two files of one name in the folders are an error naming both.
public struct ProfileLibrary: Sendable {
    public private(set) var profiles: [Profile]

    public init(profiles: [Profile]) { self.profiles = profiles }

    /// The shipped profiles and those in `folders` (a folder that does not exist adds nothing).
    /// A profile with a mistake fails the whole library: an import must not run on without a
    /// profile its user wrote, nor guess a format for the files it was written for.
    public static func load(folders: [String]) throws -> ProfileLibrary {
        var library = ProfileLibrary(profiles: try ShippedProfiles.all())
        var fromFolders: [String: String] = [:]
        var seen: Set<String> = []
        for folder in folders {
            // A folder named twice (`--profiles profiles` beside the warehouse) is read once.
            guard seen.insert(URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path).inserted else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
            for name in names {
                let path = (folder as NSString).appendingPathComponent(name)
                let profile = try ProfileFile.load(path)
                if let other = fromFolders[profile.name] {
                    throw ProfileError(path: path, line: profile.lines["name"] ?? 1,
                                       problem: ProfileProblem("profile name '\(profile.name)' is also the name of \(other)", fix: "give each profile its own name, or remove one of the files"))
                }
                fromFolders[profile.name] = path
                library.profiles.removeAll { $0.name == profile.name }
                library.profiles.append(profile)
            }
        }
        return library
    }

    /// The folder of profiles beside a warehouse: `<folder of fleet.sqlite>/profiles`.
    public static func folder(besideWarehouse path: String) -> String {
        (((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("profiles"))
    }

    /// The profile named `name`, or read from `name` when it is a path to a file.
    public func named(_ name: String) throws -> Profile {
        if let p = profiles.first(where: { $0.name == name }) { return p }
        if name.contains("/") || name.hasSuffix(".yml") || name.hasSuffix(".yaml") { return try ProfileFile.load(name) }
        throw FleetError.invalidArgument(name: "--profile", value: name,
                                         hint: "no profile has that name; the profiles are \(profiles.map(\.name).sorted().joined(separator: ", ")) (`fleetkit profile list`), or give a path to a .yml file")
    }

    /// The one profile whose signature the header has; nil when none does. Two or more is an
    /// error naming them: choosing one would be a guess.
    public func match(header fields: [String], file: String) throws -> Profile? {
        try match(file: file) { _ in fields }
    }

    /// As `match(header:file:)`, reading each profile's header row from the file's first bytes:
    /// a profile with a preamble finds its header below it.
    public func match(head: Data, file: String) throws -> Profile? {
        try match(file: file) { CSVReader.record(head, skipping: $0.preamble) }
    }

    private func match(file: String, header: (Profile) -> [String]?) throws -> Profile? {
        let found = profiles.filter { p in header(p).map { p.matches(header: $0) } ?? false }
        guard found.count > 1 else { return found.first }
        throw FleetError.unreadable(file: file, location: "line 1",
                                    reason: "the header matches \(found.count) profiles: " + found.map { "\($0.name) (\($0.path))" }.joined(separator: " and "),
                                    hint: "Pass --profile NAME to choose one, or add a column to one profile's signature so only one matches.")
    }
}
