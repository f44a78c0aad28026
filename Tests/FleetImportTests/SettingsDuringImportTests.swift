import XCTest
import FleetKit
import FleetTestSupport

/// Issue 35 item 1: `init --tz` (or a trip-rule change, or a nightly run storing its config's
/// zone) committed while an import ran: the import had read the settings once, so its later
/// files were derived with the old ones and `verify` found 372 failures. Each file's transaction
/// reads them again; a file started after the change fails with what happened, nothing kept.
final class SettingsDuringImportTests: XCTestCase {
    func testASettingsChangeDuringARunFailsTheLaterFilesInsteadOfDerivingThemWithTheOldOnes() throws {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        let settings = try t.warehouse.settings()
        var options = ImportOptions(zone: settings.zone, currency: settings.currency)
        options.trips = settings.trips
        options.settingsFromWarehouse = true
        let first = try t.write("expense_id,date,category,amount,currency,vendor\nE1,2026-10-01,tolls,1.00,USD,I-PASS\n", to: "a-expenses.csv")
        let second = try t.write("expense_id,date,category,amount,currency,vendor\nE2,2026-10-02,tolls,2.00,USD,I-PASS\n", to: "b-expenses.csv")
        var changed = false
        let summary = try ImportSession(warehouse: t.warehouse).run([first.path, second.path], options: options, command: "test") { event in
            // Between the two files, another process changes the fleet's zone.
            if case let .started(url, _, _, _) = event, url.lastPathComponent == "b-expenses.csv", !changed {
                changed = true
                _ = try? t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "Europe/Berlin")! }
            }
        }
        XCTAssertTrue(changed)
        XCTAssertEqual(summary.files.map(\.status), [.imported, .failed])
        XCTAssertTrue(summary.files[1].error?.contains("its settings changed while this import ran (now: time zone Europe/Berlin") ?? false, "\(summary.files[1])")
        XCTAssertEqual(try t.rows("SELECT source_key FROM expense").map { $0[0] as String }.count, 1)
    }
}
