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
    public var fuelGrade: String?
    public var odometerM: Double?
    public var cardLast4: String?
    public var ocrConfidence: Double?
    public var needsReview: Bool
    public var linkedTo: Int64?
    public var sourceFileID: Int64

    public init(id: Int64? = nil, sourceKey: String, origin: String, assetID: Int64? = nil, unitHint: String? = nil, at: Int64, merchant: String? = nil, volumeMl: Double? = nil, unitPriceMinorPerL: Double? = nil, totalMinor: Int64? = nil, currency: String, fuelGrade: String? = nil, odometerM: Double? = nil, cardLast4: String? = nil, ocrConfidence: Double? = nil, needsReview: Bool, linkedTo: Int64? = nil, sourceFileID: Int64) {
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
        self.fuelGrade = fuelGrade
        self.odometerM = odometerM
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
        case fuelGrade = "fuel_grade"
        case odometerM = "odometer_m"
        case cardLast4 = "card_last4"
        case ocrConfidence = "ocr_confidence"
        case needsReview = "needs_review"
        case linkedTo = "linked_to"
        case sourceFileID = "source_file_id"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FuelPurchase: LoadableRecord {
    public static let table = "fuel_purchase"
    public static let keyColumns = ["source_key"]
    public static let valueColumns = ["origin", "asset_id", "unit_hint", "at", "merchant", "volume_ml", "unit_price_minor_per_l", "total_minor", "currency", "fuel_grade", "odometer_m", "card_last4", "ocr_confidence", "needs_review", "linked_to", "source_file_id"]

    public func bind(into b: inout Binder) {
        b.bind(sourceKey)
        b.bind(origin)
        b.bind(assetID)
        b.bind(unitHint)
        b.bind(at)
        b.bind(merchant)
        b.bind(volumeMl)
        b.bind(unitPriceMinorPerL)
        b.bind(totalMinor)
        b.bind(currency)
        b.bind(fuelGrade)
        b.bind(odometerM)
        b.bind(cardLast4)
        b.bind(ocrConfidence)
        b.bind(needsReview)
        b.bind(linkedTo)
        b.bind(sourceFileID)
    }
}
