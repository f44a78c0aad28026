/// What the importer read from one receipt image, kept for review (`receipt_read`,
/// `receipt_field`, migration v9-receipt-review).
///
/// Stored so that `fleetkit review` can show each doubtful value with the OCR line it came
/// from, and load the receipt again once a person has accepted or fixed it, without the image
/// (the nightly job moves images to its archive) and without reading it again by OCR.
public struct ReceiptReading: Sendable, Equatable {
    /// One field as canonical text (`2025-07-09`, `46.15`, `11.891 gal`), its confidence 0–1, and
    /// the OCR line it was read from (1-based; nil for a value a person entered).
    public struct FieldValue: Sendable, Equatable {
        public var field: String
        public var value: String
        public var confidence: Double
        public var line: Int?
        public var lineText: String?

        public init(field: String, value: String, confidence: Double, line: Int?, lineText: String?) {
            self.field = field
            self.value = value
            self.confidence = confidence
            self.line = line
            self.lineText = lineText
        }
    }

    public var contentSHA256: String
    public var imagePath: String
    public var isFuel: Bool
    public var category: String
    public var spendKind: String?
    /// The unit the import was given (`--asset` or the inbox folder), to attribute it the same way again.
    public var assetUnit: String?
    public var currencySource: String?
    public var totalCheck: String?
    public var maskedText: String
    public var needsReview: Bool
    public var fields: [FieldValue]

    public init(contentSHA256: String, imagePath: String, isFuel: Bool, category: String, spendKind: String?, assetUnit: String?,
                currencySource: String?, totalCheck: String?, maskedText: String, needsReview: Bool, fields: [FieldValue]) {
        self.contentSHA256 = contentSHA256
        self.imagePath = imagePath
        self.isFuel = isFuel
        self.category = category
        self.spendKind = spendKind
        self.assetUnit = assetUnit
        self.currencySource = currencySource
        self.totalCheck = totalCheck
        self.maskedText = maskedText
        self.needsReview = needsReview
        self.fields = fields
    }

    /// The field's stored value, if one was read.
    public subscript(field: String) -> FieldValue? { fields.first { $0.field == field } }
}

/// One accept or fix of a receipt field (`receipt_correction`), as the audit shows it.
public struct ReceiptCorrection: Sendable, Equatable, Codable {
    public var field: String
    public var action: String
    public var oldValue: String?
    public var newValue: String
    public var correctedBy: String
    /// UTC epoch milliseconds.
    public var correctedAt: Int64

    public init(field: String, action: String, oldValue: String?, newValue: String, correctedBy: String, correctedAt: Int64) {
        self.field = field
        self.action = action
        self.oldValue = oldValue
        self.newValue = newValue
        self.correctedBy = correctedBy
        self.correctedAt = correctedAt
    }
}
