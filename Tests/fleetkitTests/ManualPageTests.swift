import XCTest
import FleetTestSupport

/// docs/fleetkit.1 is generated from the command definitions (`make man`, swift-argument-parser's
/// generate-manual plugin). This test keeps it from going stale: every command, every option and
/// every help line the binary knows (`--experimental-dump-help`) is in the page, and the page
/// names no option the binary does not have.
final class ManualPageTests: XCTestCase {
    private struct Dump: Decodable { var command: Command }
    private struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var arguments: [Argument]?
        var subcommands: [Command]?
    }
    private struct Argument: Decodable {
        struct Name: Decodable { var kind: String; var name: String }
        var names: [Name]?
        var abstract: String?
        var shouldDisplay: Bool
    }

    func testManualPageMatchesTheCommands() throws {
        let page = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/fleetkit.1"), encoding: .utf8)
        let dump = try Fleetkit.run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let root = try JSONDecoder().decode(Dump.self, from: Data(dump.stdout.utf8)).command
        // roff escapes backslashes and some hyphens; compare text with them removed.
        func plain(_ s: String) -> String { s.replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "&", with: "") }
        let text = plain(page)
        var longNames: Set<String> = []
        func walk(_ c: Command, depth: Int) {
            if depth > 0, c.commandName != "help" { XCTAssertTrue(page.contains(".It Em \(c.commandName)\n"), "command \(c.commandName) is missing; run make man") }
            if let a = c.abstract, !a.isEmpty { XCTAssertTrue(text.contains(plain(a)), "\(c.commandName): '\(a)' is missing or changed; run make man") }
            for arg in c.arguments ?? [] where arg.shouldDisplay {
                for n in arg.names ?? [] where n.kind == "long" { longNames.insert(n.name) }
                if let a = arg.abstract, !a.isEmpty {
                    XCTAssertTrue(text.contains(plain(a)), "\(c.commandName): option help '\(a)' is missing or changed; run make man")
                }
            }
            for s in c.subcommands ?? [] { walk(s, depth: depth + 1) }
        }
        walk(root, depth: 0)
        let regex = try NSRegularExpression(pattern: #"Fl (?:[a-zA-Z] , )?-([a-z][a-z0-9-]*)"#)
        let inPage = Set(regex.matches(in: page, range: NSRange(page.startIndex..., in: page)).map { String(page[Range($0.range(at: 1), in: page)!]) })
        XCTAssertEqual(inPage.subtracting(longNames.union(["help", "version"])), [], "options in the page the binary does not have; run make man")
        XCTAssertEqual(longNames.subtracting(inPage), [], "options the page does not list; run make man")
        XCTAssertTrue(inPage.contains("init-config") && inPage.contains("quiet"), "the checks above read the page")
    }
}
