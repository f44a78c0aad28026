import XCTest
import FleetKit
@testable import FleetNightly

/// Issue 35 items 11, 14 and 16: every config value is bounded where the config is read, YAML
/// anchors, aliases and merge keys are refused before any parser expands them, and a message
/// quoting a value quotes a few hundred characters of it.
final class NightlyConfigBoundsTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-bounds-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func load(_ extra: String) throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports\n\(extra)\n"
            .write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    private func refused(_ extra: String, _ says: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try load(extra), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(says), "\(error)", file: file, line: line)
        }
    }

    /// The nightly job runs on SQLite only: `warehouse: postgresql://…` is refused with the
    /// password masked and a pointer to `fleetkit warehouse copy`, never resolved as a file name.
    func testAPostgreSQLWarehouseIsRefusedWithItsPasswordMasked() throws {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try "warehouse: postgresql://fleet:hunter2@db.example/fleet\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports\n"
            .write(to: yml, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try NightlyConfig.load(yml.path)) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains("hunter2"), text)
            XCTAssertTrue(text.contains("postgresql://fleet:***@db.example/fleet") && text.contains("warehouse copy"), text)
        }
    }

    /// `settle_seconds: .inf` trapped the job when a file waited; `gap_seconds: 1e300` trapped
    /// every track import. Both are refused with their limits; the limits themselves load.
    func testSettleSecondsAndTripRulesAreBounded() throws {
        refused("settle_seconds: .inf", "settle_seconds")
        refused("settle_seconds: 604801", "from 0 to 604800")
        refused("trips:\n  gap_seconds: 1e300", "gap_seconds is 1e+300, beyond its limit")
        refused("trips:\n  idle_speed_mps: 101", "beyond its limit of 100")
        XCTAssertEqual(try load("settle_seconds: 604800\ntrips:\n  gap_seconds: 604800").trips.gapSeconds, 604_800)
    }

    /// Before: an 851-byte config of merge keys seven levels deep took 2.1 GB and 43 s.
    func testAnchorsAliasesAndMergeKeysAreRefusedBeforeParsing() throws {
        var bomb = "a0: &a0 {x: 1, y: 2, z: 3, w: 4, v: 5, u: 6, t: 7, s: 8}\n"
        for i in 1...7 { bomb += "a\(i): &a\(i) {<<: [*a\(i - 1), *a\(i - 1), *a\(i - 1), *a\(i - 1), *a\(i - 1), *a\(i - 1), *a\(i - 1), *a\(i - 1)]}\n" }
        let clock = ContinuousClock()
        let took = clock.measure { refused(bomb, "line 6 has an anchor (&)") }
        XCTAssertLessThan(took, .seconds(1))
        refused("trips: &r\n  gap_seconds: 600", "line 6 has an anchor (&)")
        refused("periods: [*p]", "an alias (*)")
        refused("attribution:\n  <<: {by_folder: false}", "a merge key (<<)")
        // Text that only looks like one is text.
        XCTAssertEqual(try load("# *not an alias* & no anchor\ncurrency: \"USD\" # R&D *x").currency, "USD")
        XCTAssertEqual(YAMLAliasCheck.firstProblem("inbox: 'a & *b'\nreports: R&D*\n")?.line, nil)
    }

    /// A 20 MB value was echoed whole on stderr every night.
    func testAMessageQuotesAFewHundredCharactersOfAValue() throws {
        let long = String(repeating: "x", count: 100_000)
        XCTAssertThrowsError(try load("timezone: \(long)")) { error in
            let text = "\(error)"
            XCTAssertLessThan(text.utf8.count, 1_000, String(text.prefix(300)))
            XCTAssertTrue(text.contains("… (100000 characters in all)"), String(text.prefix(600)))
        }
        XCTAssertEqual(QuotedText.cut("short"), "short")
    }
}
