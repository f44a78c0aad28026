import XCTest
import FleetCore

/// Products from card and receipt lines, and the fuels each asset fuel type takes
/// (docs/METRICS.md, "Fuel products").
final class FuelProductTests: XCTestCase {
    func testTextNamesTheProduct() {
        let cases: [(String, FuelProduct)] = [
            ("Unleaded Regular", .gasolineRegular), ("UNL 87", .gasolineRegular), ("Regular", .gasolineRegular),
            ("Plus 89", .gasolineMidgrade), ("Midgrade", .gasolineMidgrade), ("Premium Unleaded", .gasolinePremium), ("SUPER 93", .gasolinePremium),
            ("Gasoline", .gasoline), ("E85 Flex Fuel", .e85), ("Diesel #2", .diesel), ("ULSD", .diesel), ("DIESEL #2", .diesel), ("B20 Biodiesel", .diesel),
            ("DEF", .def), ("AdBlue", .def), ("Diesel Exhaust Fluid", .def), ("Bulk DEF 2.5 gal", .def),
            ("Diesel anti-gel additive", .additive), ("Fuel treatment", .additive),
            ("Motor oil 5W-30", .nonFuel), ("Car wash", .nonFuel), ("Food & merchandise", .nonFuel),
            ("CNG", .cng), ("Propane", .lpg), ("", .unknown), ("Misc 42", .nonFuel), ("XYZ", .unknown),
        ]
        for (text, product) in cases { XCTAssertEqual(FuelProduct.classify(text: text, code: nil), product, text) }
    }

    func testProductCodeOnlyWhenTheTextSaysNothing() {
        XCTAssertEqual(FuelProduct.classify(text: nil, code: "001"), .gasolineRegular)
        XCTAssertEqual(FuelProduct.classify(text: nil, code: "2"), .gasolineMidgrade)
        XCTAssertEqual(FuelProduct.classify(text: nil, code: "003"), .gasolinePremium)
        XCTAssertEqual(FuelProduct.classify(text: nil, code: "019"), .unknown)   // network-specific: not guessed
        XCTAssertEqual(FuelProduct.classify(text: "Diesel #2", code: "001"), .diesel)   // the printed text wins
        XCTAssertEqual(FuelProduct.classify(text: "XYZ", code: "001"), .gasolineRegular)
    }

    func testFuelTypesTakeTheirFuels() {
        XCTAssertEqual(FuelProduct.accepted(byFuelType: "hybrid"), FuelProduct.accepted(byFuelType: "petrol"))
        XCTAssertTrue(FuelProduct.accepted(byFuelType: "hybrid")!.contains(.gasolinePremium))
        XCTAssertFalse(FuelProduct.accepted(byFuelType: "petrol")!.contains(.e85))
        XCTAssertTrue(FuelProduct.accepted(byFuelType: "flex")!.isSuperset(of: [.e85, .gasolineRegular]))
        XCTAssertTrue(FuelProduct.accepted(byFuelType: "bifuel")!.isSuperset(of: [.diesel, .gasoline, .cng, .lpg]))
        XCTAssertEqual(FuelProduct.accepted(byFuelType: "diesel"), [.diesel])
        XCTAssertEqual(FuelProduct.accepted(byFuelType: "electric"), [])
        XCTAssertNil(FuelProduct.accepted(byFuelType: "hydrogen"))
        // DEF, additives and non-fuel items are never motor fuel, so never a misfuel.
        for p in [FuelProduct.def, .additive, .nonFuel, .unknown] { XCTAssertFalse(p.isMotorFuel, p.rawValue) }
    }
}
