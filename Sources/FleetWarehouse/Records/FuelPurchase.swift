import GRDB

/// A fuel purchase from a card transaction, a receipt or manual entry.
public struct FuelPurchase: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "fuel_purchase"

    public var id: Int64?
    public var sourceKey: String
    public var origin: String
    public var assetID: Int64?
    public var unitHint: String?
    public var at: Int64
    public var merchant: String?
    public var volumeMl: Double?
    public var unitPriceMinorPerL: Double?
    public var totalMinor: Int64?
    public var currency: String
    /// True when the file gave no currency and the row took the warehouse's base currency
    /// (counted in the cost report's data quality).
    public var currencyAssumed: Bool
    public var fuelGrade: String?
    /// The card network's product code, as exported.
    public var productCode: String?
    /// The merchant's state or province and country, as fields (`merchant` keeps them as text too).
    public var merchantState: String?
    public var merchantCountry: String?
    public var odometerM: Double?
    /// The odometer as keyed or printed, and its unit (`km`, `mi`; nil when the file did not say).
    public var odometerEntered: String?
    public var odometerEnteredUnit: String?
    public var cardLast4: String?
    public var ocrConfidence: Double?
    public var needsReview: Bool
    public var linkedTo: Int64?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, origin: String, assetID: Int64? = nil, unitHint: String? = nil, at: Int64, merchant: String? = nil, volumeMl: Double? = nil, unitPriceMinorPerL: Double? = nil, totalMinor: Int64? = nil, currency: String, currencyAssumed: Bool = false, fuelGrade: String? = nil, productCode: String? = nil, merchantState: String? = nil, merchantCountry: String? = nil, odometerM: Double? = nil, odometerEntered: String? = nil, odometerEnteredUnit: String? = nil, cardLast4: String? = nil, ocrConfidence: Double? = nil, needsReview: Bool, linkedTo: Int64? = nil, sourceFileID: Int64) {
        self.id = id
        self.sourceKey = sourceKey
        self.origin = origin
        self.assetID = assetID
        self.unitHint = unitHint
        self.at = at
        self.merchant = merchant
        self.volumeMl = volumeMl
        self.unitPriceMinorPerL = unitPriceMinorPerL
        self.totalMinor = totalMinor
        self.currency = currency
        self.currencyAssumed = currencyAssumed
        self.fuelGrade = fuelGrade
        self.productCode = productCode
        self.merchantState = merchantState
        self.merchantCountry = merchantCountry
        self.odometerM = odometerM
        self.odometerEntered = odometerEntered
        self.odometerEnteredUnit = odometerEnteredUnit
        self.cardLast4 = cardLast4
        self.ocrConfidence = ocrConfidence
        self.needsReview = needsReview
        self.linkedTo = linkedTo
        self.sourceFileID = sourceFileID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case sourceKey = "source_key"
        case origin
        case assetID = "asset_id"
        case unitHint = "unit_hint"
        case at
        case merchant
        case volumeMl = "volume_ml"
        case unitPriceMinorPerL = "unit_price_minor_per_l"
        case totalMinor = "total_minor"
        case currency
        case currencyAssumed = "currency_assumed"
        case fuelGrade = "fuel_grade"
        case productCode = "product_code"
        case merchantState = "merchant_state"
        case merchantCountry = "merchant_country"
        case odometerM = "odometer_m"
        case odometerEntered = "odometer_entered"
        case odometerEnteredUnit = "odometer_entered_unit"
        case cardLast4 = "card_last4"
        case ocrConfidence = "ocr_confidence"
        case needsReview = "needs_review"
        case linkedTo = "linked_to"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FuelPurchase: TabulatedRecord {
    public static let columnTable = ColumnTable<FuelPurchase>("fuel_purchase", [
        .key("source_key") { $0.sourceKey },
        .value("origin") { $0.origin },
        .value("asset_id") { $0.assetID },
        .value("unit_hint") { $0.unitHint },
        .value("at") { $0.at },
        .value("merchant") { $0.merchant },
        .value("volume_ml") { $0.volumeMl },
        .value("unit_price_minor_per_l") { $0.unitPriceMinorPerL },
        .value("total_minor") { $0.totalMinor },
        .value("currency") { $0.currency },
        .value("currency_assumed") { $0.currencyAssumed },
        .value("fuel_grade") { $0.fuelGrade },
        .value("product_code") { $0.productCode },
        .value("merchant_state") { $0.merchantState },
        .value("merchant_country") { $0.merchantCountry },
        .value("odometer_m") { $0.odometerM },
        .value("odometer_entered") { $0.odometerEntered },
        .value("odometer_entered_unit") { $0.odometerEnteredUnit },
        .value("card_last4") { $0.cardLast4 },
        .value("ocr_confidence") { $0.ocrConfidence },
        .value("needs_review") { $0.needsReview },
        .value("linked_to") { $0.linkedTo },
        .provenance("source_file_id") { $0.sourceFileID },
    ], notWritten: ["id": "the rowid"])
}
