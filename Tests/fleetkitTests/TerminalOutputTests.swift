import XCTest
import Foundation
import FleetTestSupport

/// Terminal escape sequences in files (ESC, C1 CSI, BEL, CR, bidi overrides), in file names,
/// column names, rejected identifiers and raw text, reach no terminal: every line the command
/// line prints goes through `Console`, which writes them as `\x1b`, `\x9b`, `\u{202e}`. The
/// output holds no control character but the line ends.
final class TerminalOutputTests: XCTestCase {
    private var dir: URL!
    static let hostileName = "evil\u{1B}]0;pwned\u{07}\u{202E}vsc.csv"
    static let emptyName = "empty\u{1B}[1m.csv"

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/hostile/assets-terminal-escapes.csv")
        try FileManager.default.copyItem(at: fixture, to: dir.appendingPathComponent("inbox/" + Self.hostileName))
        FileManager.default.createFile(atPath: dir.appendingPathComponent("inbox/" + Self.emptyName).path, contents: Data())
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Fails when `text` holds a control character other than the line ends `allowed`.
    private func assertNoControls(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"], _ what: String, line: UInt = #line) {
        let bad = text.unicodeScalars.filter { s in
            !allowed.contains(s) && (s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value))
        }
        XCTAssertTrue(bad.isEmpty, "\(what) printed \(bad.map { String($0.value, radix: 16) }): \(text.debugDescription)", line: line)
    }

    func testImportRejectsAndStatusPrintEscapesNotControlCharacters() throws {
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let files = [Self.hostileName, Self.emptyName].map { dir.appendingPathComponent("inbox/" + $0).path }
        let imp = try Fleetkit.run(["import", "--db", db, "--create", "--format", "assets"] + files)
        XCTAssertEqual(imp.status, 1, imp.stdout + imp.stderr)
        assertNoControls(imp.stdout, "import stdout")
        assertNoControls(imp.stderr, "import stderr")
        XCTAssertTrue(imp.stdout.contains("evil\\x1b]0;pwned\\x07\\u{202e}vsc.csv [assets]: 1 loaded"), imp.stdout)
        XCTAssertTrue(imp.stdout.contains("note: columns not part of the assets format, ignored: 'x\\x1b[2J\\x1b]0;pwned\\x07'"), imp.stdout)
        XCTAssertTrue(imp.stderr.contains("failed    " + dir.appendingPathComponent("inbox").path + "/empty\\x1b[1m.csv"), imp.stderr)

        let text = try Fleetkit.run(["rejects", "--db", db])
        assertNoControls(text.stdout, "rejects")
        XCTAssertTrue(text.stdout.contains("bad_identifier: the unit number 'T-9\\x1b[31m'"), text.stdout)
        XCTAssertTrue(text.stdout.contains("    T-9\\x1b[31m,truck,Ford,1"), text.stdout)
        // A newline inside a quoted field cannot forge an output line: it stays in its (escaped) line.
        XCTAssertTrue(text.stdout.contains("Ford\\x0aimported  fake.csv"), text.stdout)
        XCTAssertFalse(text.stdout.split(separator: "\n").contains { $0.hasPrefix("imported  fake.csv") }, text.stdout)

        let csv = try Fleetkit.run(["rejects", "--db", db, "--format", "csv"])
        assertNoControls(csv.stdout, allowing: ["\r", "\n"], "rejects --format csv")
        XCTAssertEqual(csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 3, csv.stdout)

        let status = try Fleetkit.run(["status", "--db", db])
        assertNoControls(status.stdout, "status")
        XCTAssertTrue(status.stdout.contains("evil\\x1b]0;pwned\\x07"), status.stdout)   // the last run's command line

        // JSON stays JSON: the encoder escapes C0 itself, and a decoder gets the bytes back.
        let json = try Fleetkit.run(["import", "--db", db, "--json", "--dry-run", "--format", "assets", dir.appendingPathComponent("inbox/" + Self.hostileName).path])
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, json.stdout)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(((decoded["files"] as! [[String: Any]])[0]["path"] as! String).hasSuffix(Self.hostileName), true)
    }

    func testNightlyLinesPrintEscapesNotControlCharacters() throws {
        try NightlySetup.writeConfig(in: dir)
        let r = try Fleetkit.run(["nightly", "--config", dir.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        assertNoControls(r.stdout, "nightly stdout")
        assertNoControls(r.stderr, "nightly stderr")
        XCTAssertTrue(r.stdout.contains("evil\\x1b]0;pwned\\x07\\u{202e}vsc.csv [assets]"), r.stdout)
        XCTAssertTrue(r.stderr.contains("quarantined " + dir.appendingPathComponent("inbox").path + "/empty\\x1b[1m.csv"), r.stderr)
    }

    /// Every text path goes through `Console`: no other file of the command line writes to
    /// stdout or stderr itself (only `writeJSON`, whose encoder escapes).
    func testNoPrintPathBypassesTheConsole() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/fleetkit")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 8)
        for name in files where name != "Console.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//")[0]
                let direct = code.range(of: #"(^|[^A-Za-z_.])print\("#, options: .regularExpression) != nil
                    || code.contains("Swift.print") || code.contains("fputs") || code.contains("FileHandle.standardError")
                    || (code.contains("FileHandle.standardOutput") && name != "WarehouseOptions.swift")
                XCTAssertFalse(direct, "\(name):\(n + 1) writes to the terminal without Console: \(line)")
            }
        }
    }
}
