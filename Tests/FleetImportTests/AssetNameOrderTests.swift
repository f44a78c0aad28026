import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Two feeds name the same vehicle (one VIN) differently: "Truck 12 Joliet" and
/// "T-12 Cascadia". The first one imported used to keep its name, so the asset's name depended
/// on import order. Now master data's name wins, and between feed names the lexically smallest
/// (`AssetNaming`), in every order.
final class AssetNameOrderTests: XCTestCase {
    private func name(after order: [String]) throws -> [String] {
        let t = try TestWarehouse()
        for file in order {
            let o = try t.importFile(fixture("samsara/" + file))
            XCTAssertEqual(o.status, .imported, "\(file): \(o.error ?? "")")
        }
        return try t.rows("SELECT name FROM asset ORDER BY id").map { $0["name"] as String? ?? "NULL" }
    }

    func testTwoFeedNamesGiveTheSameNameInEitherOrder() throws {
        XCTAssertEqual(try name(after: ["names-yard.json", "names-fleet.json"]), ["T-12 Cascadia"])
        XCTAssertEqual(try name(after: ["names-fleet.json", "names-yard.json"]), ["T-12 Cascadia"])
        // Master data without a name leaves the choice to the feeds, before or after them.
        XCTAssertEqual(try name(after: ["assets.csv", "names-yard.json", "names-fleet.json"]).first, "T-12 Cascadia")
        XCTAssertEqual(try name(after: ["names-yard.json", "names-fleet.json", "assets.csv"]).first, "T-12 Cascadia")
        XCTAssertEqual(try name(after: ["names-fleet.json", "assets.csv", "names-yard.json"]).first, "T-12 Cascadia")
    }

    func testMasterDataNameWinsInEveryOrder() throws {
        for order in [["assets-named.csv", "names-yard.json", "names-fleet.json"], ["names-yard.json", "names-fleet.json", "assets-named.csv"],
                      ["names-fleet.json", "assets-named.csv", "names-yard.json"], ["names-yard.json", "assets-named.csv", "names-fleet.json"]] {
            XCTAssertEqual(try name(after: order), ["Tractor Twelve"], "\(order)")
        }
    }
}
