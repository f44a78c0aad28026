import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class FuelCardImporterTests: XCTestCase {
    static let gallon = 3785.411784

    struct Purchase: Equatable, CustomStringConvertible {
        var key: String, unit: String, hint: String, at: Int64, merchant: String, grade: String
        var total: Int64, currency: String, last4: String, review: Int
        var description: String { "\(key) | \(unit) | \(hint) | \(at) | \(merchant) | \(grade) | \(total) \(currency) | \(last4) | review \(review)" }
    }

    func purchases(_ t: TestWarehouse) throws -> [Purchase] {
        try t.rows("""
            SELECT f.source_key, COALESCE(a.unit_number, a.vin, '-'), f.unit_hint, f.at, f.merchant, f.fuel_grade, f.total_minor, f.currency, f.card_last4, f.needs_review, f.origin
            FROM fuel_purchase f LEFT JOIN asset a ON a.id = f.asset_id ORDER BY f.at, f.source_key
            """).map { r in
            XCTAssertEqual(r[10] as String, "card")
            return Purchase(key: r[0], unit: r[1], hint: r[2] as String? ?? "nil", at: r[3], merchant: r[4] as String? ?? "nil", grade: r[5] as String? ?? "nil",
                            total: r[6], currency: r[7], last4: r[8] as String? ?? "nil", review: r[9])
        }
    }

    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "fuel-card")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [4, 0, 0, 0])
        // The file has no currency column: said on the import line, and kept on each row.
        XCTAssertEqual(outcome.notes, ["4 rows took the warehouse currency USD: no currency column (lines 2, 3, 4, 5); if they are in another currency, add a currency column and import the file again"])
        XCTAssertEqual(try t.count("fuel_purchase", where: "currency_assumed = 1"), 4)
        XCTAssertEqual(try purchases(t).map(\.description), [
            "card:WX-900001 | T-12 | nil | 1790836930000 | Pilot Travel Center #318, Joliet, IL | Diesel #2 | 33239 USD | 1234 | review 0",
            "card:WX-900002 | 1FTFW1E50PFA00001 | nil | 1790960700000 | Shell, Naperville, IL | Unleaded Regular | 6365 USD | 5678 | review 0",
            "card:WX-900003 | - | Yard spare (no unit) | 1791028800000 | Love's #512, Gary, IN | DEF | 1050 USD | 9012 | review 0",
            "card-row:2026-10-04T08:15:00Z|1234|T-12|39500 USD | T-12 | nil | 1791101700000 | Pilot Travel Center #318, Joliet, IL | Diesel #2 | 39500 USD | 1234 | review 0",
        ])
        let q = try t.rows("SELECT volume_ml, unit_price_minor_per_l, odometer_m FROM fuel_purchase ORDER BY at")
        let expected: [(Double, Double, Double?)] = [
            (85.25 * Self.gallon, 389.9 * 1000 / Self.gallon, 120_450 * 1609.344),
            (18.402 * Self.gallon, 345.9 * 1000 / Self.gallon, 45_210 * 1609.344),
            (2.5 * Self.gallon, 419.9 * 1000 / Self.gallon, nil),
            (100 * Self.gallon, 395.0 * 1000 / Self.gallon, 120_900 * 1609.344),
        ]
        for (row, e) in zip(q, expected) {
            XCTAssertEqual(row[0] as Double, e.0, accuracy: 1e-6)
            XCTAssertEqual(row[1] as Double, e.1, accuracy: 1e-9)
            if let m = e.2 { XCTAssertEqual(row[2] as Double, m, accuracy: 1e-6) } else { XCTAssertNil(row[2] as Double?) }
        }
        XCTAssertEqual(try t.count("fuel_purchase", where: "asset_id IS NULL"), 1)
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 2)   // T-12 and the VIN, unknown to master data
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("fuel-card/good.csv"))
        let before = try t.factDump()
        XCTAssertEqual(try t.importFile(fixture("fuel-card/good.csv")).status, .unchanged)
        let copy = try t.write(try String(contentsOf: fixture("fuel-card/good.csv"), encoding: .utf8) + "\n", to: "fuel-card-again.csv")
        let outcome = try t.importFile(copy)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 0, 4, 0])
        XCTAssertEqual(try t.factDump(), before)
    }

    func testLocalTimesAreInTheFleetTimeZone() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("fuel-card/good.csv"), options: ImportOptions(zone: FleetZone(identifier: "America/Chicago")!))
        // 06:42:10 CDT is 11:42:10Z.
        XCTAssertEqual(try t.rows("SELECT at FROM fuel_purchase WHERE source_key = 'card:WX-900001'").map { $0[0] as Int64 }, [1_790_854_930_000])
    }

    /// Issue 35 item 4, CSV family (every CSV format reads local times through `Row`): a time
    /// the clocks skipped on 2026-03-08 (America/Chicago) was shifted onto 03:xx in silence; it
    /// is a `bad_date` reject with the reason, in a time column and in a date-time date column.
    /// A fall-back hour's 01:30 takes the first (CDT) pass, as every format does. Expected
    /// instants (python3 zoneinfo): datetime(2026,3,8,1,59,tzinfo=Chicago) = 1772956740000 ms,
    /// (2026,3,8,3,10) = 1772957400000, (2026,11,1,1,30) = 1793514600000 (fold=0, CDT).
    func testLocalTimesInTheSpringForwardGapAreRejectedAndTheRepeatedHourTakesItsFirstPass() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("fuel-card/spring-forward-gap.csv"), options: ImportOptions(zone: FleetZone(identifier: "America/Chicago")!))
        XCTAssertEqual(o.rejected, 2)
        let rejects = try t.rows("SELECT location || ' ' || reason || ' ' || message FROM reject ORDER BY id").map { $0[0] as String }
        XCTAssertEqual(rejects.count, 2)
        XCTAssertTrue(rejects[0].hasPrefix("line 3 bad_date 'transaction_date' and 'transaction_time' are '2026-03-08 02:30' (2026-03-08 02:30:00) does not exist in America/Chicago"), rejects[0])
        XCTAssertTrue(rejects[1].hasPrefix("line 4 bad_date 'transaction_date' is '2026-03-08 02:45:00' (2026-03-08 02:45:00) does not exist in America/Chicago"), rejects[1])
        XCTAssertEqual(try t.rows("SELECT at FROM fuel_purchase ORDER BY at").map { $0[0] as Int64 }, [1_772_956_740_000, 1_772_957_400_000, 1_793_514_600_000])
    }

    func testSpreadsheetMidnightInTheDateColumnIsNotATimeOfDay() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            Transaction Date,Transaction Time,Transaction ID,Card Number,Unit,Gallons,Total
            2026-10-01 00:00:00,06:42,A1,XXXX1234,T-12,10.0,39.00
            2026-10-01 07:00:00,06:42,A2,XXXX1234,T-12,10.0,39.00
            2026-10-01,25:00,A3,XXXX1234,T-12,10.0,39.00

            """, to: "sheet-export.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual(outcome.format, "fuel-card")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        XCTAssertEqual(try t.rows("SELECT source_key, at FROM fuel_purchase").map { "\($0[0] as String) \($0[1] as Int64)" }, ["card:A1 1790836920000"])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }, [
            "line 3 bad_value 'transaction_date' is '2026-10-01 07:00:00' but 'transaction_time' is '06:42'; the two columns name different times — correct one of them",
            "line 4 bad_date 'transaction_time' is '25:00'; write the time of day as HH:MM or HH:MM:SS (24-hour, or with AM/PM), in the fleet time zone \(FleetZone.utc.identifier)",
        ])
    }

    func testLitresAndCommaDecimalsInASemicolonFile() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/litres-semicolon.csv"))
        XCTAssertEqual(outcome.format, "fuel-card")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 0])
        let rows = try t.rows("SELECT source_key, volume_ml, unit_price_minor_per_l, total_minor, currency, odometer_m, card_last4, merchant, needs_review FROM fuel_purchase ORDER BY at")
        XCTAssertEqual(rows.map { "\($0[0] as String) \($0[3] as Int64) \($0[4] as String) \($0[6] as String) \($0[7] as String) \($0[8] as Int)" }, [
            "card-row:2026-10-05T07:30:00Z|4321|LKW-07|73796 EUR 73796 EUR 4321 Aral Köln 0",
            "card-row:2026-10-06T18:10:00Z|4321|LKW-07|177378 EUR 177378 EUR 4321 Shell Dortmund 0",
        ])
        XCTAssertEqual(rows[0][1] as Double, 412_500, accuracy: 1e-6)       // 412,50 L
        XCTAssertEqual(rows[0][2] as Double, 178.9, accuracy: 1e-9)         // 1,789 EUR/L
        XCTAssertEqual(rows[0][5] as Double, 184_250_000, accuracy: 1e-6)   // 184.250 km: '.' groups thousands in a ';' file
        XCTAssertEqual(rows[1][1] as Double, 1_020_000, accuracy: 1e-6)     // "1.020,00"
        XCTAssertEqual(rows[1][2] as Double, 173.9, accuracy: 1e-9)
    }

    /// Merchant state and country, product code and the odometer as keyed are fields of their
    /// own, beside the merchant text (`v13-fuel`): read from fields.csv by eye.
    func testFieldsAreKeptAsFields() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/fields.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 0])
        let rows = try t.rows("SELECT merchant, merchant_state, merchant_country, product_code, fuel_grade, odometer_entered, odometer_entered_unit, odometer_m FROM fuel_purchase ORDER BY at")
        XCTAssertEqual(rows.map { r in (0..<7).map { (r[$0] as String?) ?? "nil" }.joined(separator: "|") }, [
            "Petro-Canada, Windsor, on|ON|CA|019|Diesel|184250|km",
            "Petro-Canada, Windsor, ON|ON|CA|nil|DEF|nil|nil",
        ])
        XCTAssertEqual(rows[0][7] as Double, 184_250_000, accuracy: 1e-6)
        // The WEX-style file: state from 'Merchant State', odometer keyed in miles.
        let good = try TestWarehouse()
        try good.importFile(fixture("fuel-card/good.csv"))
        XCTAssertEqual(try good.rows("SELECT merchant_state, odometer_entered, odometer_entered_unit FROM fuel_purchase WHERE source_key = 'card:WX-900001'")
            .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }, ["IL 120450 mi"])
    }

    func testQuantityWithAUnitColumn() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/quantity-unit.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        let rows = try t.rows("SELECT a.unit_number, f.volume_ml, f.unit_price_minor_per_l FROM fuel_purchase f JOIN asset a ON a.id = f.asset_id ORDER BY a.unit_number")
        XCTAssertEqual(rows.map { $0[0] as String }, ["T-12", "T-14"])
        XCTAssertEqual(rows[0][1] as Double, 40 * Self.gallon, accuracy: 1e-6)
        XCTAssertEqual(rows[0][2] as Double, 390 * 1000 / Self.gallon, accuracy: 1e-9)
        XCTAssertEqual(rows[1][1] as Double, 150_000, accuracy: 1e-6)
        XCTAssertEqual(rows[1][2] as Double, 110, accuracy: 1e-9)
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 4 bad_value 'volume_unit' is 'furlongs'; expected gal (US gallons), imp gal, L or ml"])
    }

    func testFullCardNumbersAreStoredNowhere() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/full-card-number.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 3])
        XCTAssertEqual(try t.rows("SELECT source_key, card_last4, merchant FROM fuel_purchase ORDER BY at").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["card:WX-910001 1111 Pilot #12", "card:WX-910002 0004 Shell card ************0004"])
        let rejects = try t.rows("SELECT location, reason, message, raw FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) [\($0[3] as String)]" }
        XCTAssertEqual(rejects, [
            "line 4 bad_date 'transaction_date' is '2026-13-07'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(FleetZone.utc.identifier)) [2026-13-07,10:00,WX-910003,************9424,T-22,Pilot #12,Diesel,10.000,3.900,39.00]",
            "line 5 bad_value 'card_number' is '**** ****** *0005 / spare'; expected a card number or its last 4 digits (masked forms such as XXXXXXXXXXXX1234 are fine) [2026-10-07,10:30,WX-910004,**** ****** *0005 / spare,T-23,Pilot #12,Diesel,10.000,3.900,39.00]",
            "line 6 bad_value 'unit_number' holds a card number, not a unit number; correct the vehicle prompt of this transaction [2026-10-07,11:00,WX-910005,************1881,************1881,Pilot #12,Diesel,10.000,3.900,39.00]",
        ])
        // Grep every column of every table, and the database files themselves.
        let numbers = ["4111111111111111", "4111 1111 1111 1111", "5500000000000004", "5500-0000-0000-0004", "6011000990139424",
                       "378282246310005", "3782 822463 10005", "4012888888881881"]
        let dump = try Self.dump(t)
        for n in numbers { XCTAssertFalse(dump.contains(n), "the warehouse holds card number \(n)") }
        XCTAssertTrue(dump.contains("************1881"))
        for file in try FileManager.default.contentsOfDirectory(at: t.directory, includingPropertiesForKeys: nil) where file.lastPathComponent.hasPrefix("fleet.sqlite") {
            let bytes = try Data(contentsOf: file)
            for n in numbers { XCTAssertNil(bytes.range(of: Data(n.utf8)), "\(file.lastPathComponent) holds card number \(n)") }
        }
    }

    /// Every value of every table as text.
    static func dump(_ t: TestWarehouse) throws -> String {
        let tables = try t.rows("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0[0] as String }
        var out = ""
        for table in tables {
            for row in try t.rows("SELECT * FROM \"\(table)\"") {
                out += table + ": " + row.databaseValues.map { $0.description }.joined(separator: "|") + "\n"
            }
        }
        return out
    }

    func testMaskCardNumbers() {
        XCTAssertEqual(FuelCardImporter.maskCardNumbers("4111111111111111"), "************1111")
        XCTAssertEqual(FuelCardImporter.maskCardNumbers("a,4111 1111 1111 1111,b"), "a,**** **** **** 1111,b")
        XCTAssertEqual(FuelCardImporter.maskCardNumbers("2026-10-07,09:00,195.00,120450"), "2026-10-07,09:00,195.00,120450")
        XCTAssertEqual(FuelCardImporter.maskCardNumbers("XXXXXXXXXXXX1234"), "XXXXXXXXXXXX1234")
        XCTAssertEqual(FuelCardImporter.maskCardNumbers("12345678901"), "12345678901")   // 11 digits: not a card number
    }

    func testPriceTimesVolumeIsCrossCheckedAgainstTheTotal() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/inconsistent-amounts.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [5, 1])
        // Beyond rounding: loaded as charged (the card is the bank record), flagged, and listed in the notes.
        XCTAssertEqual(try t.rows("SELECT source_key, total_minor, needs_review FROM fuel_purchase ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as Int)" }, [
            "card:WX-920001 19500 0",
            "card:WX-920002 15900 1",    // 50 gal × 3.900 = 195.00
            "card:WX-920004 -19500 0",   // a reversal: negative volume and total
            "card:WX-920005 58491 0",    // 150 gal × 3.899 = 584.85: 6 cents, within what 3-decimal price and volume can hide
            "card:WX-920006 58500 1",    // 15 cents off
        ])
        XCTAssertEqual(outcome.notes, ["2 transactions (lines 3, 7) had unit price × volume differing from the total beyond rounding; loaded as charged with needs_review = 1",
                                       "5 rows took the warehouse currency USD: no currency column (lines 2, 3, 5, 6, 7); if they are in another currency, add a currency column and import the file again"])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 4")
        XCTAssertEqual(r[1] as String, "inconsistent_amounts")
        XCTAssertEqual(r[2] as String, "the total -195.00 USD is a credit but unit price × volume (195.00 USD) is a charge; correct the sign of the total or of the volume")
    }

    func testDuplicateTransactionInOneFile() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/duplicate-transaction.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 3 duplicate_key transaction WX-930001 already appears on line 2 of this file; the first row was kept"])
    }

    func testBadTotals() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/bad-total.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 3])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }, [
            "line 2 bad_number 'total': '45.6.7' has thousands separators in the wrong places; write the amount with at most 2 decimals for USD (e.g. 1234.56), and set the currency column when the amount is in another currency",
            "line 3 bad_number 'total': '195.001' has more decimals than USD allows (2); write the amount with at most 2 decimals for USD (e.g. 1234.56), and set the currency column when the amount is in another currency",
            "line 4 missing_field 'total' is empty; a card transaction without the amount charged cannot be costed — re-export it with the amount",
        ])
        XCTAssertEqual(try t.count("asset"), 0)   // rejected rows leave nothing, not even an auto-created asset
    }

    func testOdometerWithoutAUnitIsNotGuessed() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-card/odometer-without-unit.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 2")
        XCTAssertEqual(r[1] as String, "missing_field")
        XCTAssertTrue((r[2] as String).hasPrefix("'odometer' is 120450"), r[2] as String)
        XCTAssertTrue((r[2] as String).contains("'odometer_unit'"), r[2] as String)
        XCTAssertEqual(try t.count("fuel_purchase"), 0)
    }

    func testAUnitColumnBesideQuantityWithoutAVehicleColumnIsTheVehicle() throws {
        let t = try TestWarehouse()
        let url = try t.write("Date,Card,Unit,Quantity,Total\n2026-10-09,XXXXXXXXXXXX1234,T-12,40,156.00\n", to: "fuel-card-x.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("the fuel-card header has a quantity column but no unit of measure for it ('Unit' is read as the vehicle's unit number here)"), outcome.error!)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testDetection() throws {
        for name in ["good.csv", "litres-semicolon.csv", "quantity-unit.csv", "full-card-number.csv"] {
            let head = try Data(contentsOf: fixture("fuel-card/\(name)"))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv").map { $0.format }, "fuel-card", name)
        }
        // An expense file with a card column and no volume, price or product is an expense file.
        let expense = Data("date,category,amount,vendor,card_number\n2026-10-03,Tolls,12.50,E-ZPass,XXXX1234\n".utf8)
        XCTAssertEqual(FuelCardImporter.sniff(expense, filename: "export.csv"), .no)
        XCTAssertEqual(ImporterRegistry.detect(expense, filename: "export.csv").map { $0.format }, "expenses")
    }
}
