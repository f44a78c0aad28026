import Foundation
import FleetCore
import FleetWarehouse

/// Fuel-card transactions (`fuel-card.csv`): WEX, Fleetcor, Voyager-style exports, one row per
/// transaction, loaded as `fuel_purchase` rows with `origin = 'card'`.
///
/// - **Card numbers.** Only the last four digits are kept (`card_last4`). The full number is
///   stored nowhere: every reject's raw text and message, and every note, passes through
///   `maskCardNumbers`, and free-text fields are masked the same way.
/// - **Volumes** come from `gallons` (US), `litres`, or `quantity` with its unit of measure, and
///   are stored in millilitres; the unit price is per that volume unit unless the column says
///   (`price_per_gallon`, `price_per_litre`), and is stored in minor units per litre.
/// - **Cross-check.** When unit price, volume and total are all present, unit price × volume
///   must match the total within the larger of 0.05 in the currency and what the rounding of the
///   printed price and volume can explain. The total is what the card was charged (the bank
///   record, docs/METRICS.md "Receipts and card transactions"), so a mismatch is loaded as charged with `needs_review = 1` and listed in
///   the file's notes. Only amounts that contradict each other outright, a credit against a
///   purchase (opposite signs), are a reject (`inconsistent_amounts`).
/// - **Key.** `card:<transaction id>`; without an id, `card-row:<time>|<last 4>|<unit or VIN>|<total> <currency>`.
/// - **Fields kept as fields.** Merchant state/province and country, the product code and the
///   odometer exactly as keyed (with its column's unit) are stored in their own columns beside
///   the merchant text and the odometer in metres (`v13-fuel`).
/// - **Vehicle.** Unit number or VIN (an unknown unit is auto-created, docs/FORMATS.md "Identity"); a row naming
///   neither stays unassigned, with any vehicle description kept in `unit_hint`.
public struct FuelCardImporter: Importer {
    public static let format = "fuel-card"
    public static let summary = "Fuel-card transactions (WEX, Fleetcor, Voyager-style CSV): volume, price, total, odometer; card numbers kept as last 4 digits"
    public static let example = "fuel-card-2026-10.csv"

    static let inconsistentAmounts: Issue.Reason = "inconsistent_amounts"

    static let columns: [String: [String]] = [
        "transaction_id": ["transaction_number", "transaction_no", "trans_id", "trans_number", "trans_no", "txn_id", "txn_number", "transaction_reference", "transaction_ref"],
        "transaction_date": ["date", "trans_date", "txn_date", "purchase_date", "transaction_day"],
        "transaction_time": ["time", "trans_time", "txn_time", "purchase_time", "transaction_datetime", "transaction_date_time", "date_time", "datetime", "timestamp"],
        "card_number": ["card", "card_no", "card_num", "card_id", "fuel_card", "fuel_card_number", "masked_card_number", "pan", "card_last_4", "card_last4", "card_last_four", "last_4", "last4"],
        "unit_number": ["unit", "unit_no", "unit #", "vehicle_number", "vehicle_no", "vehicle_id", "custom_vehicle_id", "asset_number", "asset_no", "fleet_number"],
        "vin": ["vehicle_identification_number", "vehicle_vin"],
        "vehicle_description": ["vehicle_desc", "vehicle_name", "vehicle", "vehicle_info"],
        "driver_name": ["driver", "driver_full_name", "employee_name"],
        "driver_id": ["employee_id", "employee_number", "driver_number", "emp_id", "driver_prompt_id"],
        "merchant": ["merchant_name", "site", "site_name", "station", "station_name", "vendor", "vendor_name", "location_name"],
        "merchant_city": ["city", "site_city", "station_city"],
        "merchant_state": ["state", "province", "state_province", "site_state", "station_state"],
        "merchant_country": ["country", "country_code", "site_country", "station_country", "merchant_country_code"],
        "product_code": ["product_cd", "prod_code", "product_number", "fuel_code", "fuel_product_code", "item_code"],
        "fuel_grade": ["product", "product_description", "product_name", "fuel_type", "fuel_product", "grade"],
        "gallons": ["gal", "us_gallons", "fuel_gallons", "gallons_purchased", "qty_gallons", "volume_gal", "volume_gallons"],
        "litres": ["liters", "litre", "liter", "ltr", "volume_l", "volume_litres", "volume_liters", "fuel_litres", "fuel_liters"],
        "quantity": ["qty", "volume", "units", "fuel_quantity", "fuel_volume"],
        "volume_unit": ["uom", "unit_of_measure", "unit_of_measurement", "quantity_unit", "qty_unit", "fuel_unit"],
        "unit_price": ["price", "price_per_unit", "ppu", "unit_cost"],
        "price_per_gallon": ["ppg", "price_gal", "price_per_gal", "unit_price_per_gallon"],
        "price_per_litre": ["price_per_liter", "ppl", "price_l", "unit_price_per_litre", "unit_price_per_liter"],
        "total": ["total_amount", "amount", "transaction_amount", "gross_amount", "total_cost", "fuel_cost", "purchase_amount", "total_price"],
        "currency": ["currency_code", "ccy", "curr"],
        "odometer_km": ["odometer_kilometres", "odometer_kilometers", "odometer_kms"],
        "odometer_mi": ["odometer_miles", "mileage_mi"],
        "odometer": ["odometer_reading", "odo", "current_odometer", "mileage"],
        "odometer_unit": ["odometer_uom", "distance_unit"],
    ]
    static let required = ["total"]
    static let volumeColumns = ["gallons", "litres", "quantity", "fuel_grade", "unit_price", "price_per_gallon", "price_per_litre"]

    public init() {}

    /// A card number, a time, a total, and something that makes it fuel (a volume, a product or
    /// a unit price): expense files with a card column are not claimed.
    public static func sniff(_ head: Data, filename: String) -> Confidence {
        let sets = ["transaction_date", "transaction_time"].flatMap { time in volumeColumns.map { ["card_number", time, "total", $0] } }
        return CSVSniffer.confidence(head, filename: filename, format: format, columns: columns, requiredAnyOf: sets)
    }

    /// `Quantity, Unit`: when the header has a quantity, no unit-of-measure column, and names
    /// the vehicle in another column (a unit number, VIN or vehicle column), its `Unit` column is
    /// the quantity's unit; otherwise `Unit` is the vehicle's unit number.
    static func columns(forHeader fields: [String]) -> [String: [String]] {
        let present = Set(fields.map(CSVHeader.normalise))
        func has(_ column: String) -> Bool {
            ([column] + (columns[column] ?? [])).contains { present.contains(CSVHeader.normalise($0)) }
        }
        let otherVehicleColumn = has("vin") || has("vehicle_description")
            || (["unit_number"] + columns["unit_number"]!).contains { CSVHeader.normalise($0) != "unit" && present.contains(CSVHeader.normalise($0)) }
        guard present.contains("unit"), has("quantity"), !has("volume_unit"), otherVehicleColumn else { return columns }
        var adjusted = columns
        adjusted["unit_number"] = columns["unit_number"]!.filter { CSVHeader.normalise($0) != "unit" }
        adjusted["volume_unit"] = columns["volume_unit"]! + ["unit"]
        return adjusted
    }

    public func read(_ input: InputFile, into sink: inout some RecordSink) throws {
        var masking = MaskingSink(base: sink)
        var rows = try CSVRows(input, format: Self.format, columns: Self.columns(forHeader: CSVReader.firstRecord(input.head) ?? []),
                               required: Self.required)
        let header = rows.header
        guard header.index("transaction_date") != nil || header.index("transaction_time") != nil else {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the fuel-card header has no transaction date or time column",
                                        hint: "Name the column transaction_date (or date) and, if the time is separate, transaction_time (or time).")
        }
        if header.index("quantity") != nil, header.index("volume_unit") == nil {
            throw FleetError.unreadable(file: input.path, location: "line 1", reason: "the fuel-card header has a quantity column but no unit of measure for it"
                                        + (header.index("unit_number") != nil ? " ('Unit' is read as the vehicle's unit number here)" : ""),
                                        hint: "Add a uom column (gal or L), or name the quantity column gallons or litres.")
        }
        var review: [Int] = []
        var reviewCount = 0
        var assumed = AssumedCurrency()
        rows.salvage = { row in
            let currency = (try? row.currencyCode()) ?? row.currency
            return RejectedRow(table: "fuel_purchase", key: row.text("transaction_id").map { "card:" + $0 },
                               amountMinor: try? row.money("total", currency: currency), currency: currency,
                               at: try? row.timestamp(date: "transaction_date", time: "transaction_time"))
        }
        try rows.forEach(into: &masking) { row, sink in
            guard let at = try row.timestamp(date: "transaction_date", time: "transaction_time") else {
                throw RowError(.missingField, "the transaction date is empty; every card transaction needs its date and time")
            }
            let transactionID = row.text("transaction_id")
            let last4 = try Self.last4(row)
            let currency = try row.currencyCode()
            guard let total = try RowHints.adding(RowHints.amount(currency), { try row.money("total", currency: currency) }) else {
                throw RowError(.missingField, "'total' is empty; a card transaction without the amount charged cannot be costed — re-export it with the amount")
            }
            let volume = try Self.volume(row)
            let price = try Self.unitPrice(row, volumeUnit: volume?.unit, currency: currency)
            let needsReview = try Self.needsReview(price: price, volume: volume, total: total, currency: currency)
            let odometer = try row.metres(km: "odometer_km", mi: "odometer_mi", value: "odometer", unit: "odometer_unit")
            let entered = Self.odometerEntered(row)

            let unit = row.text("unit_number")
            if let unit, Self.maskCardNumbers(unit) != unit {
                throw RowError(.badValue, "'unit_number' holds a card number, not a unit number; correct the vehicle prompt of this transaction")
            }
            let vin = try row.vin("vin")
            let key = Self.sourceKey(transactionID: transactionID, at: at, last4: last4, unit: unit, vin: vin, total: total, currency: currency)
            if let transactionID {
                try row.unique(key, "transaction \(transactionID)")
            } else {
                try RowHints.adding("if they really are two transactions, export the transaction id column so that they can be told apart") {
                    try row.unique(key, "a transaction with the same time, card, vehicle and total")
                }
            }
            let merchant = [row.text("merchant"), row.text("merchant_city"), row.text("merchant_state")].compactMap { $0 }.joined(separator: ", ")
            let assetID = unit != nil || vin != nil ? try sink.asset(AssetRef(vin: vin, unitNumber: unit)) : nil
            try sink.load(FuelPurchase(sourceKey: key, origin: "card", assetID: assetID, unitHint: row.text("vehicle_description").map(Self.maskCardNumbers),
                                       at: at, merchant: merchant.isEmpty ? nil : Self.maskCardNumbers(merchant), volumeMl: volume?.millilitres,
                                       unitPriceMinorPerL: price?.minorPerLitre, totalMinor: total, currency: currency, currencyAssumed: AssumedCurrency.isAssumed(row),
                                       fuelGrade: row.text("fuel_grade").map(Self.maskCardNumbers),
                                       productCode: row.text("product_code").map(Self.maskCardNumbers),
                                       merchantState: row.text("merchant_state").map { Self.maskCardNumbers($0).uppercased() },
                                       merchantCountry: row.text("merchant_country").map { Self.maskCardNumbers($0).uppercased() },
                                       odometerM: odometer == 0 ? nil : odometer,
                                       odometerEntered: entered?.text, odometerEnteredUnit: entered?.unit,
                                       cardLast4: last4, needsReview: needsReview, sourceFileID: sink.sourceFileID))
            assumed.count(row)
            if needsReview {
                reviewCount += 1
                if review.count < 10 { review.append(row.line) }
            }
        }
        if reviewCount > 0 {
            masking.note("\(reviewCount) transaction\(reviewCount == 1 ? "" : "s") (line\(review.count == 1 ? "" : "s") \(review.map(String.init).joined(separator: ", "))\(reviewCount > review.count ? ", …" : "")) "
                + "had unit price × volume differing from the total beyond rounding; loaded as charged with needs_review = 1")
        }
        assumed.note(into: &masking, base: input.currency)
        sink = masking.base
    }

    /// The natural key of a card transaction (`fuel_purchase.source_key`): `card:<id>`, else the
    /// row's time, card, vehicle and total. Every reader of card rows (this format, mapping
    /// profiles) keys them so, so one transaction read by both is one row, never two.
    static func sourceKey(transactionID: String?, at: Int64, last4: String?, unit: String?, vin: String?, total: Int64, currency: String) -> String {
        transactionID.map { "card:" + $0 }
            ?? ["card-row:" + Timestamp.iso(at), last4 ?? "", unit?.uppercased() ?? vin ?? "", "\(total) \(currency)"].joined(separator: "|")
    }

    /// Whether unit price × volume differs from the total beyond what rounding explains (the
    /// row loads as charged, flagged); a credit against a charge is a reject (`inconsistent_amounts`).
    static func needsReview(price: Price?, volume: Volume?, total: Int64, currency: String) throws -> Bool {
        guard let volume, let price else { return false }
        let computed = price.minorPerLitre * volume.millilitres / 1000
        if computed != 0, total != 0, (computed < 0) != (total < 0) {
            throw RowError(Self.inconsistentAmounts, "the total \(Money(minor: total, currency: currency)) is \(total < 0 ? "a credit" : "a charge") but unit price × volume (\(Self.describe(computed, currency))) is \(computed < 0 ? "a credit" : "a charge"); correct the sign of the total or of the volume")
        }
        // What rounding the printed price, volume and total can hide, in minor units.
        let rounding = price.roundingMinorPerLitre * abs(volume.millilitres) / 1000 + price.minorPerLitre * volume.roundingMl / 1000 + 0.5
        let tolerance = max(Self.baseTolerance(currency), rounding)
        return abs(computed - Double(total)) > tolerance
    }

    /// The odometer as the driver keyed it: the filled column's text and its unit (`km`, `mi`, or
    /// what `odometer_unit` says, folded to km or mi when it is one of their spellings).
    static func odometerEntered(_ row: Row) -> (text: String, unit: String?)? {
        if let t = row.text("odometer_km") { return (maskCardNumbers(t), "km") }
        if let t = row.text("odometer_mi") { return (maskCardNumbers(t), "mi") }
        guard let t = row.text("odometer") else { return nil }
        let unit = row.text("odometer_unit").map { u -> String in
            switch Units.metres(1, unit: u) {
            case Units.metresPerKilometre: return "km"
            case Units.metresPerMile: return "mi"
            default: return u
            }
        }
        return (maskCardNumbers(t), unit)
    }

    // MARK: - Card numbers

    /// The last four digits of the card column: full numbers, masked ones (`XXXX-XXXX-XXXX-1234`,
    /// `****1234`) and bare last-4 values all work. Nil when the column is empty.
    static func last4(_ row: Row) throws -> String? {
        try row.text("card_number").map { try last4(text: $0, column: "card_number") }
    }

    /// The last four digits of a card number as written in `column`.
    static func last4(text: String, column: String) throws -> String {
        let digits = text.filter { $0.isASCII && $0.isNumber }
        let allowed = text.allSatisfy { c in (c.isASCII && c.isNumber) || " -*xX•#.".contains(c) }
        guard allowed, digits.count >= 4 else {
            throw RowError(.badValue, "'\(column)' is '\(maskCardNumbers(text))'; expected a card number or its last 4 digits (masked forms such as XXXXXXXXXXXX1234 are fine)")
        }
        return String(digits.suffix(4))
    }

    /// Replaces every run of 12 to 19 digits (single spaces or dashes may separate them), the
    /// shape of a payment card number, by asterisks except its last four digits.
    public static func maskCardNumbers(_ text: String) -> String {
        var out = Array(text)
        var i = 0
        while i < out.count {
            guard out[i].isASCII, out[i].isNumber else { i += 1; continue }
            var digitIndices: [Int] = []
            var j = i
            while j < out.count {
                if out[j].isASCII, out[j].isNumber {
                    digitIndices.append(j)
                    j += 1
                } else if out[j] == " " || out[j] == "-", j + 1 < out.count, out[j + 1].isASCII, out[j + 1].isNumber {
                    j += 1
                } else {
                    break
                }
            }
            if (12...19).contains(digitIndices.count) {
                for k in digitIndices.dropLast(4) { out[k] = "*" }
            }
            i = j
        }
        return String(out)
    }

    // MARK: - Volume and price

    struct Volume {
        var amount: Double          // in `unit`
        var unit: String
        var millilitres: Double
        var roundingMl: Double      // half the last printed digit, in millilitres
    }

    /// The row's volume from whichever volume column it fills; two filled columns must agree.
    static func volume(_ row: Row) throws -> Volume? {
        var found: [(column: String, volume: Volume)] = []
        func read(_ column: String, unit: String) throws {
            guard let d = try row.decimal(column) else { return }
            guard let ml = Units.millilitres(d.double, unit: unit) else {
                throw RowError(.badValue, "'volume_unit' is '\(unit)'; expected gal (US gallons), imp gal, L or ml")
            }
            found.append((column, Volume(amount: d.double, unit: unit, millilitres: ml, roundingMl: ml == 0 ? 0 : half(d.scale) * ml / d.double)))
        }
        try read("gallons", unit: "gal")
        try read("litres", unit: "l")
        if row.text("quantity") != nil {
            guard let unit = row.text("volume_unit") else {
                throw RowError(.missingField, "'quantity' is filled but 'volume_unit' is empty; FleetKit does not guess between gallons and litres — fill it (gal or L)")
            }
            try read("quantity", unit: unit)
        }
        if found.count > 1 {
            let a = found[0], b = found[1]
            if abs(a.volume.millilitres - b.volume.millilitres) > 0.005 * max(abs(a.volume.millilitres), abs(b.volume.millilitres)) {
                throw RowError(.badValue, "'\(a.column)' and '\(b.column)' disagree (\(a.volume.amount) \(a.volume.unit) is not \(b.volume.amount) \(b.volume.unit)); keep one volume column")
            }
        }
        return found.first?.volume
    }

    struct Price {
        var minorPerLitre: Double
        var roundingMinorPerLitre: Double   // half the last printed digit
    }

    /// The unit price per litre in minor units. `unit_price` is per the row's volume unit, or per
    /// the only volume unit the header names when the row has no volume.
    static func unitPrice(_ row: Row, volumeUnit: String?, currency: String) throws -> Price? {
        var value: DecimalNumber? = nil, column = "", unit: String? = nil
        for (c, u) in [("price_per_litre", "l"), ("price_per_gallon", "gal"), ("unit_price", nil)] as [(String, String?)] {
            if let d = try row.decimal(c) {
                if value != nil {
                    throw RowError(.badValue, "'\(column)' and '\(c)' are both filled; keep one unit price column")
                }
                (value, column, unit) = (d, c, u)
            }
        }
        guard let value else { return nil }
        guard value.mantissa >= 0 else {
            throw RowError(.outOfRange, "'\(column)' is \(value), a negative price; a credit is a negative volume and total, the price stays positive")
        }
        if unit == nil {
            unit = volumeUnit ?? (row.header.index("gallons") != nil && row.header.index("litres") == nil ? "gal"
                : row.header.index("litres") != nil && row.header.index("gallons") == nil ? "l" : row.text("volume_unit"))
        }
        guard let unit, let mlPerUnit = Units.millilitres(1, unit: unit) else {
            throw RowError(.missingField, "'\(column)' is \(value) but the row has no volume to say per what; name the column price_per_gallon or price_per_litre")
        }
        let scale = pow(10, Double(Money.minorDigits(currency)))
        return Price(minorPerLitre: value.double * scale * 1000 / mlPerUnit, roundingMinorPerLitre: half(value.scale) * scale * 1000 / mlPerUnit)
    }

    /// Half a unit of the last digit: the most that rounding to `scale` decimals can hide.
    static func half(_ scale: Int) -> Double { 0.5 / pow(10, Double(scale)) }

    /// 0.05 in the currency, in minor units (at least one minor unit).
    static func baseTolerance(_ currency: String) -> Double { max(1, 5 * pow(10, Double(Money.minorDigits(currency) - 2))) }

    private static func describe(_ minor: Double, _ currency: String) -> String {
        guard let m = Checked.int64(minor) else { return "\(minor / pow(10, Double(Money.minorDigits(currency)))) \(currency)" }
        return Money(minor: m, currency: currency).description
    }



    // MARK: - Masking sink

    /// Passes everything to `base`, masking card numbers in what it keeps as text: the raw text
    /// and message of rejects (rows the loop could not even split included) and notes.
    struct MaskingSink<Base: RecordSink>: RecordSink {
        var base: Base

        var sourceFileID: Int64 { base.sourceFileID }
        var notes: [String] { base.notes }
        var counts: LoadCounts { base.counts }

        mutating func asset(_ ref: AssetRef) throws -> Int64 { try base.asset(ref) }
        func findAsset(_ ref: AssetRef) throws -> Int64? { try base.findAsset(ref) }
        mutating func defineAsset(_ ref: AssetRef, fields: Asset) throws -> LoadOutcome { try base.defineAsset(ref, fields: fields) }
        mutating func driver(_ ref: DriverRef) throws -> Int64 { try base.driver(ref) }
        mutating func defineDriver(_ ref: DriverRef, fields: Driver) throws -> LoadOutcome { try base.defineDriver(ref, fields: fields) }
        @discardableResult
        mutating func load<R: LoadableRecord>(_ record: R) throws -> LoadOutcome { try base.load(record) }
        func id<R: LoadableRecord>(of record: R) throws -> Int64? { try base.id(of: record) }

        mutating func atomically(_ body: (inout MaskingSink) throws -> Void) throws {
            try base.atomically { base in
                var wrapped = MaskingSink(base: base)
                defer { base = wrapped.base }
                try body(&wrapped)
            }
        }

        mutating func reject(_ issue: Issue) throws {
            var masked = issue
            masked.raw = FuelCardImporter.maskCardNumbers(issue.raw)
            masked.message = FuelCardImporter.maskCardNumbers(issue.message)
            try base.reject(masked)
        }

        mutating func note(_ message: String) { base.note(FuelCardImporter.maskCardNumbers(message)) }
        mutating func note(_ kind: String, example: String) {
            base.note(FuelCardImporter.maskCardNumbers(kind), example: FuelCardImporter.maskCardNumbers(example))
        }
        mutating func load<R: LoadableRecord>(contentsOf records: [R]) throws { try base.load(contentsOf: records) }
        func receiptCorrections(sha256: String) throws -> [String: String] { try base.receiptCorrections(sha256: sha256) }
        @discardableResult
        mutating func attachPendingDefects(dvirKey: String?, dvirID: Int64) throws -> Int {
            try base.attachPendingDefects(dvirKey: dvirKey, dvirID: dvirID)
        }
    }
}
