import Foundation
import FleetCore
import FleetWarehouse

/// What one row of a profiled file becomes: the warehouse records of its target, built with the
/// same keys and rules as the format that reads such rows natively (the fuel-card and expenses
/// formats' natural keys, card masking, the price × volume check), and the asset the row names.
/// The importer resolves the asset and loads the records; `profile test` shows them as they are.
enum ProfileRecord {
    case fuel(FuelPurchase, AssetRef?)
    case expense(Expense, AssetRef?)
    case meters([MeterReading], AssetRef)
    case position(Position, AssetRef)
    case totals([VendorTotal], AssetRef)

    /// The records of `row`. `fileAsset` is the asset of a file whose rows name none (`--asset`,
    /// its folder); `base` the warehouse currency.
    static func of(_ row: inout Row, values v: ProfileValues, fileAsset: AssetRef?, base: String) throws -> ProfileRecord {
        let p = v.profile
        // A totals row has a period of days, not an instant (`ProfilePeriodTotals`).
        let instant = try p.target == .periodTotals ? 0 : v.instant(row)
        guard let at = instant else {
            let c = p.column(for: "datetime") ?? p.column(for: "date")!
            throw RowError(.missingField, "'\(c.header)' is empty; every row needs its date and time")
        }
        let unit = v.text(row, "unit_number")
        let vin: String?
        if let c = p.column(for: "vin"), let t = row.text(c.header) {
            let n = VIN.normalise(t)
            if let problem = VIN.problem(n) { throw RowError(.badVIN, "'\(c.header)' is '\(QuotedText.cut(t))': \(problem); fix it or leave the cell empty") }
            vin = n
        } else { vin = nil }
        // A plate names the asset master data gave it (`AssetsImporter.plateIdentifier`).
        let plate = v.text(row, "license_plate").map(AssetsImporter.plateKey).flatMap { $0.isEmpty ? nil : $0 }
        let named = unit != nil || vin != nil || plate != nil
            ? AssetRef(identifiers: plate.map { [AssetsImporter.plateIdentifier($0)] } ?? [], vin: vin, unitNumber: unit) : nil
        // A row that names its vehicle only by plate keeps the plate in its natural key, so
        // two vehicles' rows of the same time and amount stay two rows.
        let keyUnit = unit ?? (vin == nil ? plate.map { "plate:" + $0 } : nil)
        switch p.target {
        case .fuelPurchases:
            return try fuel(&row, v, at: at, unit: unit, keyUnit: keyUnit, vin: vin, asset: named ?? fileAsset, base: base)
        case .expenses:
            let categoryColumn = p.column(for: "category")!.header
            let category = try RowHints.adding("use 'other' for a cost outside these categories") { try row.choice(categoryColumn, ExpensesImporter.categories) }
            guard let category else {
                throw RowError(.missingField, "'\(categoryColumn)' is empty; give one of \(ExpensesImporter.categories.keys.sorted().joined(separator: ", "))")
            }
            let (currency, assumed) = try v.currency(row, base: base)
            guard let amount = try v.money(row, "amount", currency: currency) else {
                throw RowError(.missingField, "'\(p.column(for: "amount")!.header)' is empty; an expense without an amount cannot be costed")
            }
            let vendor = v.text(row, "vendor")
            let key = try ExpensesImporter.uniqueKey(&row, expenseID: v.text(row, "expense_id"), invoice: v.text(row, "invoice_number"), vendor: vendor,
                                                     at: at, unit: keyUnit, vin: vin, category: category, amount: amount, currency: currency)
            return .expense(Expense(sourceKey: key, unitHint: v.text(row, "vehicle_name"), at: at, category: category, amountMinor: amount,
                                    currency: currency, currencyAssumed: assumed, vendor: vendor, description: v.text(row, "description"), sourceFileID: 0),
                            named ?? fileAsset)
        case .meterReadings:
            let asset = try needAsset(named ?? fileAsset, p)
            var readings: [MeterReading] = []
            for (field, meter, max) in [("odometer", "odometer", 1e10), ("engine_hours", "engine_hours", 1e9), ("fuel_used", "fuel_used", 1e12)] {
                if let m = try v.measure(row, field, min: 0, max: max) {
                    readings.append(MeterReading(assetID: 0, meter: meter, at: at, value: m.si, rawValue: m.raw.description, rawUnit: m.unit.text, sourceFileID: 0))
                }
            }
            guard !readings.isEmpty else {
                let names = p.columns.filter { ["odometer", "engine_hours", "fuel_used"].contains($0.field) }.map { "'\($0.header)'" }.joined(separator: ", ")
                throw RowError(.missingField, "\(names) \(names.contains(",") ? "are" : "is") empty; a meter row needs a reading")
            }
            try row.unique("meter|\(asset.unitNumber ?? asset.vin ?? asset.identifiers.first.map { "plate:" + $0.value } ?? "")|\(at)", "a reading of the same vehicle at the same time")
            return .meters(readings, asset)
        case .positions:
            let asset = try needAsset(named ?? fileAsset, p)
            guard let lat = try v.measure(row, "latitude", min: -90, max: 90)?.si, let lon = try v.measure(row, "longitude", min: -180, max: 180)?.si else {
                throw RowError(.missingField, "'\(p.column(for: "latitude")!.header)' or '\(p.column(for: "longitude")!.header)' is empty; a fix needs both")
            }
            try row.unique("position|\(asset.unitNumber ?? asset.vin ?? asset.identifiers.first.map { "plate:" + $0.value } ?? "")|\(at)", "a fix of the same vehicle at the same time")
            return .position(Position(assetID: 0, at: at, lat: lat, lon: lon, speedMps: try v.measure(row, "speed", min: 0, max: 150)?.si,
                                      headingDeg: try v.measure(row, "heading", min: 0, max: 360)?.si,
                                      altM: try v.measure(row, "altitude", min: -500, max: 10_000)?.si, sourceFileID: 0), asset)
        case .periodTotals:
            let asset = try needAsset(named ?? fileAsset, p)
            return .totals(try ProfilePeriodTotals.records(&row, v, asset: asset), asset)
        case .maintenanceRecords, .assets, .drivers, .dvirs:
            // Their rows are read by the native format (`ProfileNativeRows`), never here.
            throw RowError(.badValue, "\(p.target.rawValue) rows are read by the \(p.target.table) format, not as profile records")
        }
    }

    private static func needAsset(_ asset: AssetRef?, _ p: Profile) throws -> AssetRef {
        guard let asset else {
            throw RowError(.unknownAsset, "the row names no vehicle; map a unit_number, vin or license_plate column in the profile, or import the file with --asset UNIT (or from the asset's folder)")
        }
        return asset
    }

    private static func fuel(_ row: inout Row, _ v: ProfileValues, at: Int64, unit: String?, keyUnit: String?, vin: String?, asset: AssetRef?, base: String) throws -> ProfileRecord {
        let p = v.profile
        if let unit, FuelCardImporter.maskCardNumbers(unit) != unit {
            throw RowError(.badValue, "'\(p.column(for: "unit_number")!.header)' holds a card number, not a unit number; correct the vehicle prompt of this transaction")
        }
        let last4 = try p.column(for: "card_number").flatMap { c in try row.text(c.header).map { try FuelCardImporter.last4(text: $0, column: c.header) } }
        let (currency, assumed) = try v.currency(row, base: base)
        guard let total = try v.money(row, "total", currency: currency) else {
            throw RowError(.missingField, "'\(p.column(for: "total")!.header)' is empty; a card transaction without the amount charged cannot be costed — re-export it with the amount")
        }
        var volume: FuelCardImporter.Volume? = nil
        if let m = try v.measure(row, "volume") {
            volume = FuelCardImporter.Volume(amount: m.raw.double, unit: m.unit.text, millilitres: m.si,
                                             roundingMl: m.si == 0 ? 0 : FuelCardImporter.half(m.raw.scale) * m.unit.factor)
        }
        var price: FuelCardImporter.Price? = nil
        if let c = p.column(for: "unit_price"), let d = try v.decimal(row, "unit_price"), case let .price(priceCurrency, _, ml) = c.unit {
            guard d.mantissa >= 0 else { throw RowError(.outOfRange, "'\(c.header)' is \(d), a negative price; a credit is a negative volume and total, the price stays positive") }
            if let priceCurrency, priceCurrency != currency {
                throw RowError(.badValue, "'\(c.header)' is in \(priceCurrency) (the profile's unit) but the row's amount is in \(currency); correct the profile's unit or the currency")
            }
            let scale = pow(10, Double(Money.minorDigits(currency)))
            price = FuelCardImporter.Price(minorPerLitre: d.double * scale * 1000 / ml, roundingMinorPerLitre: FuelCardImporter.half(d.scale) * scale * 1000 / ml)
        }
        let needsReview = try FuelCardImporter.needsReview(price: price, volume: volume, total: total, currency: currency)
        let odometer = try v.measure(row, "odometer", min: 0)
        let transactionID = v.text(row, "transaction_id")
        let key = FuelCardImporter.sourceKey(transactionID: transactionID, at: at, last4: last4, unit: keyUnit, vin: vin, total: total, currency: currency)
        if let transactionID {
            try row.unique(key, "transaction \(transactionID)")
        } else {
            try RowHints.adding("if they really are two transactions, map the transaction id column so that they can be told apart") {
                try row.unique(key, "a transaction with the same time, card, vehicle and total")
            }
        }
        let mask = FuelCardImporter.maskCardNumbers
        let merchant = [v.text(row, "merchant"), v.text(row, "merchant_city"), v.text(row, "merchant_state")].compactMap { $0 }.joined(separator: ", ")
        let odometerUnit = odometer.map { u -> String in
            switch u.unit.factor { case Units.metresPerKilometre: return "km"; case Units.metresPerMile: return "mi"; default: return u.unit.text }
        }
        return .fuel(FuelPurchase(sourceKey: key, origin: "card", unitHint: v.text(row, "vehicle_description").map(mask), at: at,
                                  merchant: merchant.isEmpty ? nil : mask(merchant), volumeMl: volume?.millilitres,
                                  unitPriceMinorPerL: price?.minorPerLitre, totalMinor: total, currency: currency, currencyAssumed: assumed,
                                  fuelGrade: v.text(row, "fuel_grade").map(mask), productCode: v.text(row, "product_code").map(mask),
                                  merchantState: v.text(row, "merchant_state").map { mask($0).uppercased() },
                                  merchantCountry: v.text(row, "merchant_country").map { mask($0).uppercased() },
                                  odometerM: odometer.flatMap { $0.si == 0 ? nil : $0.si },
                                  odometerEntered: p.column(for: "odometer").flatMap { row.text($0.header) }.map(mask), odometerEnteredUnit: odometerUnit,
                                  cardLast4: last4, needsReview: needsReview, sourceFileID: 0), asset)
    }
}
