import XCTest
import Foundation
import FleetCore
import FleetTestSupport
@testable import FleetImport

/// Hostile values through the real importers into a real warehouse: numbers that are not
/// amounts (1e309, NaN, Infinity, 20 digits), placeholder years, out-of-range coordinates,
/// gigantic lines and fields, invalid UTF-8 and lone UTF-16 surrogates. Each becomes a reject
/// with a reason, a location and the raw text (capped), and the good rows around it load.
///
/// Parser-level cases (entity bombs, external entities, JSON strictness) live beside each
/// parser's tests; docs/SECURITY.md lists them all.
final class HostileInputTests: XCTestCase {
    private func rejects(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String): \($0[2] as String)" }
    }

    func testNumbersAndYearsThatAreNotValuesAreRejectedWithReasons() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            expense_id,date,unit_number,vin,vehicle,category,amount,currency,vendor,description
            H-1,2026-10-03,T-12,,,Tolls,1e309,,V,huge
            H-2,2026-10-03,T-12,,,Tolls,NaN,,V,nan
            H-3,2026-10-03,T-12,,,Tolls,-0,,V,negative zero
            H-4,0000-01-01,T-12,,,Tolls,12.50,,V,year 0
            H-5,9999-12-31,T-12,,,Tolls,12.50,,V,year 9999
            H-6,2026-10-03,T-12,,,Tolls,-12.50,,V,a refund
            H-7,2026-10-03,T-12,,,Tolls,Infinity,,V,inf
            H-8,2026-10-03,T-12,,,Tolls,99999999999999999999,,V,20 digits
            H-9,2026-10-03T25:00:00,T-12,,,Tolls,1,,V,hour 25
            H-10,2026-10-03,T-12,,,Tolls,0x10,,V,hex

            """, to: "hostile-expenses.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 8])
        let r = try rejects(t)
        XCTAssertEqual(r.map { String($0.prefix { $0 != ":" }) }, [
            "line 2 bad_number", "line 3 bad_number", "line 5 bad_date", "line 6 out_of_range", "line 8 bad_number", "line 9 bad_number",
            "line 10 bad_date", "line 11 bad_number",
        ])
        XCTAssertTrue(r[0].contains("'amount': '1e309' is not a number"), r[0])
        XCTAssertTrue(r[3].contains("'date' is '9999-12-31', outside the years 1971–2200"), r[3])
        XCTAssertTrue(r[5].contains("'99999999999999999999' is too large"), r[5])
        // -0 is zero (never a negative zero in the warehouse); a negative amount is a refund, by design.
        XCTAssertEqual(try t.rows("SELECT source_key, amount_minor FROM expense ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64)" },
                       ["id:H-3 0", "id:H-6 -1250"])
        XCTAssertEqual(try t.rows("SELECT raw FROM reject WHERE location = 'line 2'").map { $0[0] as String }, ["H-1,2026-10-03,T-12,,,Tolls,1e309,,V,huge"])
    }

    /// A volume and a total of opposite signs is neither a sale nor a reversal.
    func testFuelVolumesThatAreNotVolumesAreRejected() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            Transaction Date,Transaction Time,Transaction ID,Card Number,Vehicle Number,Merchant Name,Product,Gallons,Price Per Gallon,Total Amount
            2026-10-01,06:42:10,HX-1,****1234,T-12,Pilot,Diesel,NaN,3.899,332.39
            2026-10-01,06:43:10,HX-2,****1234,T-12,Pilot,Diesel,1e309,3.899,332.39
            2026-10-01,06:44:10,HX-3,****1234,T-12,Pilot,Diesel,-85.250,3.899,332.39
            2026-10-01,06:45:10,HX-4,****1234,T-12,Pilot,Diesel,85.250,3.899,332.39
            9999-12-31,06:46:10,HX-5,****1234,T-12,Pilot,Diesel,85.250,3.899,332.39

            """, to: "hostile-fuel.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 4])
        let r = try rejects(t)
        XCTAssertEqual(r.map { String($0.prefix { $0 != ":" }) }, ["line 2 bad_number", "line 3 bad_number", "line 4 inconsistent_amounts", "line 6 out_of_range"], r.joined(separator: "\n"))
        XCTAssertEqual(try t.rows("SELECT source_key, volume_ml FROM fuel_purchase").map { "\($0[0] as String) \(Int(($0[1] as Double).rounded()))" }, ["card:HX-4 322706"])
    }

    func testCoordinatesNumbersAndYearsInGPXAreRejectedPerPoint() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="NaN" lon="10"><time>2026-10-01T08:00:00Z</time></trkpt>
            <trkpt lat="1e309" lon="10"><time>2026-10-01T08:00:01Z</time></trkpt>
            <trkpt lat="41.5" lon="-180.000001"><time>2026-10-01T08:00:02Z</time></trkpt>
            <trkpt lat="41.5" lon="-87.6"><time>0000-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="41.5" lon="-87.6"><time>9999-12-31T23:59:59Z</time></trkpt>
            <trkpt lat="-0" lon="-87.6"><ele>1e309</ele><time>2026-10-01T08:00:05Z</time></trkpt>
            <trkpt lat="-0" lon="-87.6"><time>2026-10-01T08:00:06Z</time></trkpt>
            </trkseg></trk></gpx>
            """, to: "hostile.gpx")
        let outcome = try t.importFile(url, options: ImportOptions(asset: "T-12"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 6])
        let r = try rejects(t)
        XCTAssertTrue(r[0].hasSuffix(#"lat="NaN" is not a decimal number"#), r[0])
        XCTAssertTrue(r[3].contains("is outside 1971–2200"), r[3])
        XCTAssertEqual(r.map { String($0.prefix { $0 != ":" }) }, [
            "trk[1]/trkseg[1]/trkpt[1], line 3 bad_number", "trk[1]/trkseg[1]/trkpt[2], line 4 bad_number", "trk[1]/trkseg[1]/trkpt[3], line 5 out_of_range",
            "trk[1]/trkseg[1]/trkpt[4], line 6 out_of_range", "trk[1]/trkseg[1]/trkpt[5], line 7 out_of_range", "trk[1]/trkseg[1]/trkpt[6], line 8 bad_number",
        ], r.joined(separator: "\n"))
        // -0 latitude is stored as 0, not as a negative zero.
        XCTAssertEqual(try t.rows("SELECT printf('%.1f', lat) FROM position").map { $0[0] as String }, ["0.0"])
    }

    /// A 3 MB line without a line break and a 1.2 MB quoted field spanning lines (the record
    /// limit is 1 MiB; the reader is checked with larger ones in CSVReaderTests) are each one
    /// `oversized_record` reject whose raw text is capped; the rows after them still load.
    func testGiganticLinesAndFieldsAreBoundedRejects() throws {
        let t = try TestWarehouse()
        var data = Data("expense_id,date,unit_number,vin,vehicle,category,amount,currency,vendor,description\nG-1,2026-10-03,T-12,,,Tolls,1.00,,V,ok\n".utf8)
        data.append(Data("G-2,2026-10-03,T-12,,,Tolls,2.00,,V,".utf8))
        data.append(Data(repeating: UInt8(ascii: "A"), count: 3 << 20))
        data.append(Data("\nG-3,2026-10-03,T-12,,,Tolls,3.00,,V,\"".utf8))
        data.append(Data(String(repeating: "line\n", count: 240_000).utf8))
        data.append(Data("\"\nG-4,2026-10-03,T-12,,,Tolls,4.00,,V,ok\n".utf8))
        let url = try t.write(data, to: "gigantic.csv")
        data = Data()
        let outcome = try t.importFile(url)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 2])
        let rows = try t.rows("SELECT location, reason, length(raw) FROM reject ORDER BY id")
        XCTAssertEqual(rows.map { "\($0[0] as String) \($0[1] as String)" }, ["line 3 oversized_record", "line 4 oversized_record"])
        for r in rows { XCTAssertLessThanOrEqual(r[2] as Int, Issue.rawLimit + 16) }
        XCTAssertEqual(try t.rows("SELECT source_key FROM expense ORDER BY source_key").map { $0[0] as String }, ["id:G-1", "id:G-4"])
    }

    /// Bytes that are not UTF-8, and a UTF-16 file with a lone surrogate: the row is an
    /// `invalid_text` reject (the raw text shows U+FFFD where the bad bytes were), never a
    /// silently altered vendor name.
    func testInvalidUTF8AndLoneSurrogatesAreRejectedRows() throws {
        let t = try TestWarehouse()
        var utf8 = Data("expense_id,date,unit_number,vin,vehicle,category,amount,currency,vendor,description\nU-1,2026-10-03,T-12,,,Tolls,1.00,,V,ok\n".utf8)
        utf8.append(Data("U-2,2026-10-03,T-12,,,Tolls,2.00,,Caf".utf8) + Data([0xE9, 0xFF]) + Data(",bad\n".utf8))
        let a = try t.importFile(try t.write(utf8, to: "latin.csv"))
        XCTAssertEqual([a.loaded, a.rejected], [1, 1])

        // UTF-16LE with a BOM; the second row's vendor holds a high surrogate with no low half.
        var units: [UInt16] = [0xFEFF]
        units += Array("expense_id,date,unit_number,vin,vehicle,category,amount,currency,vendor,description\r\nS-1,2026-10-03,T-12,,,Tolls,1.00,,V,ok\r\nS-2,2026-10-03,T-12,,,Tolls,2.00,,V".utf16)
        units.append(0xD83D)
        units += Array(",bad\r\n".utf16)
        let utf16 = units.withUnsafeBufferPointer { Data(buffer: $0) }
        let b = try t.importFile(try t.write(utf16, to: "excel-utf16.csv"))
        XCTAssertEqual([b.loaded, b.rejected], [1, 1])
        let r = try t.rows("SELECT location, reason, raw FROM reject ORDER BY id")
        XCTAssertEqual(r.map { "\($0[0] as String) \($0[1] as String)" }, ["line 3 invalid_text", "line 3 invalid_text"])
        XCTAssertTrue((r[0][2] as String).contains("Caf\u{FFFD}"), r[0][2] as String)
        XCTAssertTrue((r[1][2] as String).contains("V\u{FFFD},bad"), r[1][2] as String)
        XCTAssertEqual(try t.rows("SELECT vendor FROM expense WHERE vendor LIKE '%' || char(65533) || '%'").count, 0)
    }
}

/// Regression for a crash `make fuzz` found: libxml2 2.9 behind `XMLParser(stream:)`
/// dereferences NULL when an XML declaration switches it to EBCDIC, UTF-32 or UTF-7 (with
/// content after it), which killed `fleetkit import` and every nightly run after it. The
/// prolog guard now refuses encodings outside a list FleetKit reads, before libxml2 sees them.
final class XMLEncodingRegressionTests: XCTestCase {
    func testEncodingsLibxml2CannotSwitchToAreRefusedNotCrashed() throws {
        let t = try TestWarehouse()
        let body = "\n<Fleet snapshotTime=\"2026-10-03T06:00:00Z\">\n  <Equipment>\n    <EquipmentHeader>\n      <UnitInstallDateTime>0001<?xml version=\"1.0\"?>\n<Fleet version=\"1.2\">"
        for encoding in ["EBCDIC-US", "UTF-32", "UTF-7", "IBM037", "x-unknown"] {
            let url = try t.write("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>" + body, to: "enc-\(encoding).xml")
            let outcome = try t.importFile(url, options: ImportOptions(format: "iso15143"))
            XCTAssertEqual(outcome.status, .failed, encoding)
            XCTAssertTrue(outcome.error?.contains("the XML declares the encoding '\(encoding)', which FleetKit does not read") ?? false, outcome.error ?? "no error")
        }
        // The encodings feeds use still read.
        for encoding in ["UTF-8", "utf-8", "ISO-8859-1", "windows-1252", "Shift_JIS", "US-ASCII"] {
            let url = try t.write("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<Fleet snapshotTime=\"2026-10-03T06:00:00Z\"></Fleet>\n", to: "ok-\(encoding).xml")
            XCTAssertEqual(try t.importFile(url, options: ImportOptions(format: "iso15143")).status, .imported, encoding)
        }
        XCTAssertEqual(try t.count("source_file"), 6)
    }
}
