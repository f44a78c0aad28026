import XCTest
import FleetTestSupport

/// The manners of the tools people already use: progress on stderr only and only on a terminal
/// (or with --verbose), per-file lines as files finish, --quiet, no colour or escape sequences,
/// shell completion and a man page that matches the commands.
final class CommandLineMannersTests: XCTestCase {
    private var root: URL!
    private var db: String { root.appendingPathComponent("fleet.sqlite").path }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("manners-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private static var assets: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/assets")
    }

    private func folder(_ names: [String]) throws -> URL {
        let f = root.appendingPathComponent("in-\(UUID())")
        try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true)
        for n in names { try FileManager.default.copyItem(at: Self.assets.appendingPathComponent(n), to: f.appendingPathComponent(n)) }
        return f
    }

    /// Piped (as in a script or cron): stdout has one line per file and the totals, stderr has
    /// no progress at all.
    func testPipedImportHasNoProgressAndOneLinePerFile() throws {
        let f = try folder(["good.csv", "vin-with-i.csv"])
        let r = try Fleetkit.run(["import", "--db", db, "--create", f.path])
        XCTAssertEqual(r.status, 1)   // vin-with-i.csv has a rejected row
        XCTAssertEqual(r.stderr, "")
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("imported  \(f.path)/good.csv [assets]: 2 loaded"), r.stdout)
        XCTAssertTrue(lines[1].hasPrefix("imported  \(f.path)/vin-with-i.csv [assets]:"), r.stdout)
        XCTAssertTrue(lines[2].hasPrefix("2 files: 2 imported"), r.stdout)
    }

    /// --verbose into a log: the progress count on stderr, nothing of it on stdout.
    func testVerboseShowsProgressOnStderrOnly() throws {
        let f = try folder(["good.csv", "duplicate-unit.csv"])
        let r = try Fleetkit.run(["import", "--db", db, "--create", "--verbose", "--json", f.path])
        XCTAssertTrue(r.stderr.contains("import: 2/2 files, "), r.stderr)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), "stdout must stay pure JSON: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("import: "), r.stdout)
    }

    /// --quiet: nothing on stdout; a failed file is still an error on stderr, and the exit code tells.
    func testQuietPrintsOnlyErrors() throws {
        let f = try folder(["good.csv", "truncated.csv"])
        let r = try Fleetkit.run(["import", "--db", db, "--create", "--quiet", f.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("failed    \(f.path)/truncated.csv: unterminated quoted field"), r.stderr)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, "--quiet", "--verbose", f.path]).status, 64)
    }

    /// On a terminal (a pseudo-terminal from util-linux `script`) a long import redraws one
    /// progress line in place, naming the file in progress; there is never an escape sequence,
    /// with or without NO_COLOR.
    func testTerminalShowsProgressInPlaceWithoutEscapes() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is needed for a terminal")
        let big = root.appendingPathComponent("gpx/big.gpx")
        try LongTrack.write(big, points: 1_500_000)
        for colour in [["NO_COLOR": "1"], [:]] {
            let db = root.appendingPathComponent("tty-\(UUID()).sqlite").path
            let command = [Fleetkit.executable.path, "import", "--db", db, "--create", "--asset", "T-01", big.path].map { "'\($0)'" }.joined(separator: " ")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            p.arguments = ["-qefc", command, "/dev/null"]
            p.environment = ProcessInfo.processInfo.environment.merging(colour) { $1 }
            let out = Pipe()
            p.standardOutput = out
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            XCTAssertEqual(p.terminationStatus, 0, text)
            // Redrawn in place (carriage return), the path cut from the left to fit 80 columns.
            XCTAssertTrue(text.contains("\rimport: 0/1 files, 0 rows; now …"), text)
            XCTAssertTrue(text.contains("/gpx/big.gpx ("), text)
            let drawn = text.components(separatedBy: "\r").filter { $0.hasPrefix("import: ") }
            XCTAssertGreaterThan(drawn.count, 1, "redrawn periodically")
            XCTAssertTrue(drawn.allSatisfy { $0.count <= 79 }, "\(drawn.map(\.count))")
            XCTAssertTrue(text.contains("imported  \(big.path) [gpx]"), text)
            XCTAssertFalse(data.contains(0x1B), "no escape sequences (colour or cursor) on a terminal: \(text)")
        }
    }

    /// `--generate-completion-script` completes the commands; docs/OPERATIONS.md says how to install it.
    func testShellCompletionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try Fleetkit.run(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, r.stderr)
            for command in ["import", "nightly", "report", "rejects", "status"] { XCTAssertTrue(r.stdout.contains(command), "\(shell): \(command)") }
        }
        let bash = try Fleetkit.run(["--generate-completion-script", "bash"]).stdout
        XCTAssertTrue(bash.contains("--init-config"), "nightly's options are completed")
        // Report and format names are completed from their registries, not typed from memory.
        func words(_ list: [String]) -> String { list.map { "'\($0)'" }.joined(separator: "$'\\n'") }
        XCTAssertTrue(bash.contains(words(["summary", "cost", "utilization", "maintenance-due", "dvir-compliance", "trips", "fuel-exceptions", "all"])), "report names")
        XCTAssertTrue(bash.contains(words(["csv", "xlsx", "html", "json"])), "report --format")
        XCTAssertTrue(bash.contains(words(["assets", "drivers", "assignments"])), "import --format")
    }

    /// `init --json`: the settings in use and what this call changed.
    func testInitJSON() throws {
        let first = try Fleetkit.run(["init", "--db", db, "--json", "--tz", "America/Chicago"])
        XCTAssertEqual(first.status, 0, first.stderr)
        var json = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(json["warehouse"] as? String, db)
        XCTAssertEqual(json["timezone"] as? String, "America/Chicago")
        XCTAssertEqual(json["currency"] as? String, "USD")   // the documented default
        XCTAssertEqual(json["changed"] as? [String], ["timezone"])
        let again = try Fleetkit.run(["init", "--db", db, "--json", "--units", "us"])
        json = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(json["units"] as? String, "us")
        XCTAssertEqual(json["timezone"] as? String, "America/Chicago")
        XCTAssertEqual(json["changed"] as? [String], ["units"])
        XCTAssertEqual(json["rederived_assets"] as? Int, 0)
    }

    /// `formats --json` is the registry as data.
    func testFormatsJSON() throws {
        let r = try Fleetkit.run(["formats", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: String]]
        XCTAssertEqual(list.first?["format"], "assets")
        XCTAssertTrue(list.contains { $0["format"] == "gpx" })
        XCTAssertTrue(list.allSatisfy { !($0["summary"] ?? "").isEmpty && !($0["example"] ?? "").isEmpty })
        XCTAssertEqual(list.count, try Fleetkit.run(["formats"]).stdout.split(separator: "\n").count)
    }
}
