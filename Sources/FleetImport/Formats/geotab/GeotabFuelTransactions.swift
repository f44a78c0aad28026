import Foundation
import FleetCore
import FleetWarehouse

/// `FuelTransaction`: a fuel card provider's transaction as MyGeotab holds it, stored as a
/// `fuel_purchase` with `origin = 'card'`, the same fields the `fuel-card` format fills, so
/// receipts link to it and the cost report counts it like any card row.
///
/// Members (MyGeotab SDK reference, `FuelTransaction` and its base `FuelEvent`): `dateTime` (UTC),
/// `volume` (litres), `cost` and `currencyCode` (ISO 4217), `cardNumber` ("the masked or partial
/// purchasing card number"), `siteName` (the merchant), `productType` (`Regular`, `Diesel`…,
/// `Unknown` the default) and `providerProductDescription`, `odometer` (km, the driver's entry;
/// 0 the default), `device` (the vehicle MyGeotab matched), `vehicleIdentificationNumber`,
/// `licencePlate` and `description` (the card's vehicle prompts), `id`.
///
/// - Key `geotab:<id>`: a re-export updates the row in place.
/// - Only the last four digits of `cardNumber` are kept (`card_last4`); a card-number-shaped run
///   of digits anywhere in the merchant, product or vehicle text is masked to its last four.
/// - The vehicle is `device` when MyGeotab matched one, else the VIN prompt when it is a VIN;
///   otherwise no asset, with the licence plate or vehicle description kept as the unit hint.
/// - No `currencyCode`: the warehouse's base currency, marked assumed (`currency_assumed`).
/// - A `cost` with more decimals than its currency has is a reject: never rounded in silence.
extension GeotabReader {
    func fuelTransaction(_ f: JSONFields, _ sink: inout S) throws {
        guard let id = try f.id("id") else {
            throw JSONRowError(.missingField, "the FuelTransaction has no 'id', so a second export could not update it; save it with its id", at: f.at("id"))
        }
        let at = try f.requiredTime("dateTime")
        let currency: String
        let assumed: Bool
        if let code = try f.string("currencyCode")?.uppercased() {
            guard Money.isCurrencyCode(code) else {
                throw JSONRowError(.badValue, "'currencyCode' is '\(code)'; an ISO 4217 code such as USD or EUR was expected", at: f.at("currencyCode"))
            }
            (currency, assumed) = (code, false)
        } else {
            (currency, assumed) = (input.currency, true)
        }
        guard let cost = try f.number("cost") else {
            throw JSONRowError(.missingField, "'cost' is missing; a fuel transaction without its amount cannot be costed", at: f.at("cost"))
        }
        let total: Int64
        do { total = try Money.parse(cost.raw, currency: currency).minor } catch {
            throw JSONRowError(.badNumber, "'cost': \(error.description)", at: f.at("cost"))
        }
        let volume = try f.number("volume", in: -100_000...100_000, unit: "L")
        let odometer = try f.number("odometer", in: 0...20_000_000, unit: "km")
        var last4: String?
        if let card = try f.string("cardNumber") {
            let digits = card.filter { $0.isASCII && $0.isNumber }
            if digits.count >= 4 { last4 = String(digits.suffix(4)) } else { tally.count("fuel transactions whose cardNumber has fewer than 4 digits, stored without card_last4") }
        }
        var assetID: Int64?
        if let d = try f.object("device"), let device = try d.id("id"), !Self.reservedDeviceIDs.contains(device) {
            assetID = try deviceAsset(f, &sink)
        } else if let text = try f.string("vehicleIdentificationNumber"), VIN.problem(VIN.normalise(text)) == nil {
            assetID = try sink.asset(AssetRef(vin: VIN.normalise(text)))
        } else {
            tally.count("fuel transactions MyGeotab matched to no device and with no VIN, stored without an asset (the plate or description kept as the unit hint)")
        }
        let hint = try assetID == nil ? (f.string("licencePlate") ?? f.string("description")) : nil
        let product = try f.string("productType").flatMap { $0 == "Unknown" ? nil : $0 } ?? f.string("providerProductDescription")
        let mask = FuelCardImporter.maskCardNumbers
        span.saw(at)
        try sink.load(FuelPurchase(sourceKey: "geotab:" + id, origin: "card", assetID: assetID, unitHint: hint.map(mask), at: at,
                                   merchant: try f.string("siteName").map(mask), volumeMl: volume.map { $0.value * 1000 },
                                   totalMinor: total, currency: currency, currencyAssumed: assumed, fuelGrade: product.map(mask),
                                   odometerM: odometer.flatMap { $0.value > 0 ? $0.value * 1000 : nil }, cardLast4: last4,
                                   needsReview: false, sourceFileID: sink.sourceFileID))
    }
}
