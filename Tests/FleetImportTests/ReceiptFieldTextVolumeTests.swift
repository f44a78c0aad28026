import XCTest
import FleetCore
import FleetOCR
@testable import FleetImport

/// A volume typed for `review fix` is read with its unit: litres, US gallons (`gal`) and imperial
/// gallons (`imp gal`), which differ by a fifth and must never be taken for each other.
final class ReceiptFieldTextVolumeTests: XCTestCase {
    func testEachUnitIsReadAsTyped() throws {
        XCTAssertEqual(try ReceiptFieldText.volume("35.10 L", field: "volume").unit, .litre)
        XCTAssertEqual(try ReceiptFieldText.volume("11.891 gal", field: "volume").unit, .usGallon)
        let imperial = try ReceiptFieldText.volume("100.00 imp gal", field: "volume")
        XCTAssertEqual(imperial.unit, .imperialGallon)
        XCTAssertEqual(imperial.amount.description, "100.00")
        XCTAssertEqual(imperial.millilitres, 454_609, accuracy: 0.001, "100 × 4,546.09 ml")
        XCTAssertEqual(ReceiptFieldText.volumeText(imperial), "100.00 imp gal", "stored as typed, read back the same")
        XCTAssertThrowsError(try ReceiptFieldText.volume("100", field: "volume"))
        XCTAssertThrowsError(try ReceiptFieldText.volume("500 imp gal", field: "volume"), "over 2,000 L")
    }
}
