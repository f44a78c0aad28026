import XCTest
@testable import FleetCore

final class CSVHeaderTests: XCTestCase {
    let aliases = [
        "unit": ["unit #", "vehicle", "fleet number"],
        "date": ["transaction date"],
        "litres": ["liters", "volume (l)"],
        "cost": ["amount", "total cost (eur)"],
    ]

    func testNormalise() {
        for name in ["Unit Number", "unit_number", "UNIT-NUMBER", "\u{FEFF} Unit.Number ", "unit/number",
                     "(Unit) #Number", "Unit\tNumber\u{00A0}"] {
            XCTAssertEqual(CSVHeader.normalise(name), "unitnumber", name)
        }
        XCTAssertEqual(CSVHeader.normalise("Odometer (km)"), "odometerkm")
        XCTAssertEqual(CSVHeader.normalise("Kraftstoff-Menge"), "kraftstoffmenge")
        XCTAssertEqual(CSVHeader.normalise("ÉTAT"), "état")
        XCTAssertEqual(CSVHeader.normalise(" # "), "")
    }

    func testCanonicalNamesAndAliases() {
        let header = CSVHeader(["\u{FEFF}Unit #", "Transaction_Date", "LITERS", "Total Cost (EUR)", "Notes", "", " "],
                               aliases: aliases)
        XCTAssertEqual(header.index("unit"), 0)
        XCTAssertEqual(header.index("date"), 1)
        XCTAssertEqual(header.index("litres"), 2)
        XCTAssertEqual(header.index("cost"), 3)
        XCTAssertEqual(header.index("Unit"), 0)  // any spelling of the canonical name
        XCTAssertNil(header.index("odometer"))
        XCTAssertEqual(header.unknown, ["Notes"])
        XCTAssertEqual(header.duplicates, [])
    }

    func testMissingColumn() {
        let header = CSVHeader(["Vehicle", "Amount"], aliases: aliases)
        XCTAssertEqual(header.index("unit"), 0)
        XCTAssertEqual(header.index("cost"), 1)
        XCTAssertNil(header.index("date"))
        XCTAssertNil(header.index("Date"))
        XCTAssertEqual(header.unknown, [])
    }

    func testUnknownKeepsOriginalSpelling() {
        let header = CSVHeader(["Unit", "Driver Name", "#", "Comment (free text)"], aliases: aliases)
        XCTAssertEqual(header.unknown, ["Driver Name", "#", "Comment (free text)"])
    }

    func testDuplicates() {
        let header = CSVHeader(["Vehicle", "Unit", "Date", "Fleet Number", "Transaction Date"], aliases: aliases)
        XCTAssertEqual(header.duplicates, ["unit", "date"])
        XCTAssertEqual(header.index("unit"), 0)  // the first column wins
        XCTAssertEqual(header.index("date"), 2)
        XCTAssertEqual(header.unknown, [])
    }

    func testCanonicalNameBeatsAnotherColumnsAlias() {
        let header = CSVHeader(["Date"], aliases: ["day": ["date"], "date": []])
        XCTAssertEqual(header.index("date"), 0)
        XCTAssertNil(header.index("day"))
    }

    func testValueTrimsAndTreatsBlankAsMissing() {
        let header = CSVHeader(["unit", "date", "litres", "cost", "vehicle"], aliases: aliases)
        let record = CSVRecord(number: 2, line: 2, fields: ["  T-12 \t", "2024-05-01", " \r\n ", ""])
        XCTAssertEqual(header.value("unit", in: record), "T-12")
        XCTAssertEqual(header.value("date", in: record), "2024-05-01")
        XCTAssertNil(header.value("litres", in: record))  // blank after trimming
        XCTAssertNil(header.value("cost", in: record))  // empty
        XCTAssertNil(header.value("odometer", in: record))  // column absent
        let short = CSVRecord(fields: ["T-12"])
        XCTAssertEqual(header.value("unit", in: short), "T-12")
        XCTAssertNil(header.value("date", in: short))  // record too short
        XCTAssertEqual(header.duplicates, ["unit"])
    }

    func testWithReader() throws {
        var reader = try CSVReader(data: Data("Fleet Number;Volume (l)\r\nT1; 40,5 \r\n".utf8))
        let header = CSVHeader(try XCTUnwrap(reader.next()).fields, aliases: aliases)
        let row = try XCTUnwrap(reader.next())
        XCTAssertEqual(header.value("unit", in: row), "T1")
        XCTAssertEqual(header.value("litres", in: row), "40,5")
    }
}
