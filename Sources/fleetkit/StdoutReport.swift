import Foundation
import FleetKit

/// `fleetkit report NAME --format F --out -`: the report's one file, written in a private
/// folder and copied to stdout in chunks, so a script can pipe it (`| jq`, `| mail`). Progress,
/// headlines and every message go to stderr; stdout holds the file's bytes and nothing else.
enum StdoutReport {
    /// A new owner-only folder under the temporary directory.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fleetkit-report-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return url
    }

    /// The folder holds a copy of the report (figures, driver names): one left behind is said, so
    /// the user can delete it, though stdout already has what they asked for.
    static func remove(_ folder: URL) {
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            Console.err("fleetkit: warning: the temporary report folder \(folder.path) could not be removed (\(error.localizedDescription)); delete it by hand")
        }
    }

    /// Copies the one report file to stdout; more or fewer is an error naming them.
    static func copy(_ files: [URL]) throws {
        let reports = files.filter { $0.lastPathComponent != "index.html" }
        guard reports.count == 1 else {
            throw FleetError.invalidArgument(name: "out", value: "-",
                                             hint: "the format wrote \(reports.count) files (\(reports.map(\.lastPathComponent).joined(separator: ", "))); write them to a folder with --out DIR")
        }
        let input = try FileHandle(forReadingFrom: reports[0])
        // A read handle's close cannot lose data; its error changes nothing the user could act on.
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 16), !chunk.isEmpty {
            try Console.bytes(chunk)
        }
    }
}
