import XCTest
import FleetTestSupport

/// `fleetkit profile list|test`, `import --profile/--profiles`, and the nightly job reading the
/// `profiles` folder beside its warehouse in its import child (docs/FORMATS.md, "Mapping profiles").
final class ProfileCommandTests: XCTestCase {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetImportTests/Fixtures/profiles")
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("profile-cli-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("us-card.yml"), to: dir.appendingPathComponent("profiles/us-card.yml"))
    }

    func testListAndTestPreviewWithoutWriting() throws {
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let list = try Fleetkit.run(["profile", "list", "--db", db])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("geotab-generic-fuel@1") && list.stdout.contains("shipped:geotab-generic-fuel"), list.stdout)
        XCTAssertTrue(list.stdout.contains("us-card@2") && list.stdout.contains("profiles/us-card.yml"), list.stdout)
        let test = try Fleetkit.run(["profile", "test", "--db", db, "us-card", fixtures.appendingPathComponent("us-card.csv").path])
        XCTAssertEqual(test.status, 1, "row 4 would be rejected: \(test.stderr)")
        XCTAssertTrue(test.stdout.contains("line 2: asset=T-12  at=2026-10-05T19:30:00Z  source_key=card:A-1  volume_ml=37854.11784"), test.stdout)
        XCTAssertTrue(test.stdout.contains("line 4: rejected bad_date"), test.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "a preview creates no warehouse")
        let bad = try Fleetkit.run(["profile", "test", "--db", db, fixtures.appendingPathComponent("bad/unit-mismatch.yml").path, fixtures.appendingPathComponent("us-card.csv").path])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("unit-mismatch.yml:6: unit 'km' does not fit field volume"), bad.stderr)
    }

    func testImportForcesAProfileAndRefusesTwoWaysOfReading() throws {
        let db = dir.appendingPathComponent("fleet.sqlite").path
        let both = try Fleetkit.run(["import", "--db", db, "--create", "--format", "fuel-card", "--profile", "us-card", fixtures.appendingPathComponent("us-card.csv").path])
        XCTAssertEqual(both.status, 64, both.stderr)
        let r = try Fleetkit.run(["import", "--db", db, "--create", "--profile", "us-card", fixtures.appendingPathComponent("us-card.csv").path])
        XCTAssertEqual(r.status, 1, "one row rejected: \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("[profile:us-card@2]: 2 loaded, 0 updated, 0 unchanged, 1 rejected"), r.stdout)
    }

    func testTheNightlyJobReadsTheProfilesBesideItsWarehouse() throws {
        let config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago")
        try NightlySetup.addToInbox(fixtures.appendingPathComponent("us-card.csv"), as: "cards/us-card.csv", in: dir)
        let r = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-02"])
        XCTAssertEqual(r.status, 1, "one row rejected: \(r.stdout) \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("[profile:us-card@2]: 2 loaded"), r.stdout)

        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("bad/unknown-field.yml"), to: dir.appendingPathComponent("profiles/x.yml"))
        try NightlySetup.addToInbox(fixtures.appendingPathComponent("gps.csv"), as: "gps.csv", in: dir)
        let stopped = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-02"])
        XCTAssertEqual(stopped.status, 2, stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("x.yml:5: unknown field 'totl'"), stopped.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("inbox/gps.csv").path), "nothing was imported or quarantined")
    }
}

extension ProfileCommandTests {
    func testSuggestWritesAProfileWithItsGuessesMarkedAndNeverReplacesOne() throws {
        let out = dir.appendingPathComponent("profiles/hours.yml").path
        let r = try Fleetkit.run(["profile", "suggest", "--db", dir.appendingPathComponent("fleet.sqlite").path, "--out", out, fixtures.appendingPathComponent("meters.xlsx").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote \(out): "), r.stdout)
        XCTAssertTrue(r.stdout.contains("Hours!2:2: asset=M-1  at=2026-10-01T06:00:00Z"), r.stdout)
        let yaml = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(yaml.contains("name: hours") && yaml.contains("# GUESS:"), yaml)
        let again = try Fleetkit.run(["profile", "suggest", "--out", out, fixtures.appendingPathComponent("meters.xlsx").path])
        XCTAssertEqual(again.status, 64, again.stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), yaml)
    }
}
