import XCTest
import FleetTestSupport

/// `status` names the carrier DVIR reports are filed under (issue 30: it showed the policy but
/// not whose records they are), and says loudly when it is not set.
final class StatusCarrierTests: XCTestCase {
    func testStatusTextNamesTheCarrierOrSaysItIsNotSet() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("status-carrier-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        let unset = try Fleetkit.run(["status", "--db", db])
        XCTAssertEqual(unset.status, 0, unset.stderr)
        XCTAssertTrue(unset.stdout.contains("carrier:   carrier not set (fleetkit init --carrier-name NAME --usdot NUMBER)"), unset.stdout)

        let set = try Fleetkit.run(["init", "--db", db, "--carrier-name", "Prairie Haulers LLC", "--usdot", "3141592", "--carrier-address", "12 Mill Rd, Peoria IL"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let status = try Fleetkit.run(["status", "--db", db])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("carrier:   Prairie Haulers LLC, USDOT 3141592, 12 Mill Rd, Peoria IL\n"), status.stdout)
    }
}
