import XCTest
import FleetCore
@testable import FleetOCR

/// Volumes in the unit printed, stored in SI (docs/FORMATS.md, `receipt`, "volume and unit"): a
/// litre, a US gallon (`GAL`, `GALONES`, and a volume with no unit in the US and Colombia), an
/// imperial gallon only where printed so (`IMP GAL`). One text fixture per unit; the litres
/// worked out by hand (1 US gal = 3.785411784 L, 1 imp gal = 4.54609 L).
final class ReceiptVolumeUnitTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18

    func extract(_ text: String, fleet: String = "USD") -> ReceiptFields {
        ReceiptExtractor(defaultCurrency: fleet, now: Self.now).extract(text: text)
    }

    func litres(_ f: ReceiptFields) -> Double? { f.volume.map { ($0.value.millilitres).rounded() / 1000 } }

    func testImperialGallonsOnlyWherePrinted() {
        let f = extract("FARM FUELS LTD\nLONDON SW1A 1AA\n14/03/2025\nRED DIESEL 100.00 IMP GAL\nPRICE/IMP GAL £4.550\nTOTAL £455.00\nCARD £455.00", fleet: "GBP")
        XCTAssertEqual(f.volume?.value.unit, .imperialGallon)
        XCTAssertEqual(f.volume?.value.amount.description, "100.00")
        XCTAssertEqual(litres(f), 454.609, "100 imperial gallons")
        XCTAssertEqual(f.unitPrice?.value.description, "4.550")
        XCTAssertEqual(f.total?.value.description, "455.00")
        XCTAssertTrue(f.doubtful.isEmpty, f.doubtful.joined(separator: ", "))
        let us = extract("GAS STOP\nJOLIET IL 60435\n03/14/2025\nGALLONS 10.000\nPRICE/GAL $3.459\nTOTAL $34.59\nVISA $34.59")
        XCTAssertEqual(us.volume?.value.unit, .usGallon, "GAL alone is the US gallon")
        XCTAssertEqual(litres(us), 37.854)
        XCTAssertNil(FuelLines.unit(after: ReceiptNumber.all(in: "5.00 IMP TAX")[0], in: "5.00 IMP TAX"), "IMP before another word is no unit")
    }

    func testGalonesAndLitres() {
        let co = extract("EDS TERPEL LA 80\nMEDELLIN\n11/01/2025\nGALONES 6.000\nPRECIO/GAL $15.050\nTOTAL $90.300\nEFECTIVO $100.000")
        XCTAssertEqual(co.volume?.value.unit, .usGallon)
        XCTAssertEqual(litres(co), 22.712)
        let my = extract("PETRONAS KAJANG\nSELANGOR\n20/06/18 00:05\n22.73 litre Pump # 06\nFuelSave 95 RM 50.00\n2.200 RM / litre\nTotal RM 50.00")
        XCTAssertEqual(my.volume?.value.unit, .litre)
        XCTAssertEqual(litres(my), 22.73)
        XCTAssertEqual(my.date?.value.description, "2018-06-20")
    }
}
