/// What is kept of one receipt for review (`ReceiptReading`), as the rows of its two tables:
/// the importer loads them through the sink like any record, so the sink needs no receipt
/// requirement of its own.
///
/// They are the file's review state, not facts: not counted in its loaded/updated/unchanged
/// (`isFact`), as before they were records. A reading's fields only ever gain or change values
/// (`fleetkit review` fixes or accepts one; none is removed), so upserting each field on
/// (file, field) leaves the same rows as replacing them all.
public struct ReceiptRead: Sendable, Equatable {
    public var sourceFileID: Int64
    public var reading: ReceiptReading

    public init(sourceFileID: Int64, _ reading: ReceiptReading) {
        self.sourceFileID = sourceFileID
        self.reading = reading
    }

    /// The `receipt_read` row and one `receipt_field` row per field of `reading`.
    public static func rows(of reading: ReceiptReading, sourceFileID: Int64) -> (read: ReceiptRead, fields: [ReceiptField]) {
        (ReceiptRead(sourceFileID: sourceFileID, reading), reading.fields.map { ReceiptField(sourceFileID: sourceFileID, $0) })
    }
}

extension ReceiptRead: TabulatedRecord {
    public static let columnTable = ColumnTable<ReceiptRead>("receipt_read", [
        .key("source_file_id") { $0.sourceFileID },
        .value("content_sha256") { $0.reading.contentSHA256 },
        .value("image_path") { $0.reading.imagePath },
        .value("is_fuel") { $0.reading.isFuel },
        .value("category") { $0.reading.category },
        .value("spend_kind") { $0.reading.spendKind },
        .value("asset_unit") { $0.reading.assetUnit },
        .value("currency_source") { $0.reading.currencySource },
        .value("total_check") { $0.reading.totalCheck },
        .value("masked_text") { $0.reading.maskedText },
        .value("needs_review") { $0.reading.needsReview },
    ])
    public static var isFact: Bool { false }
}

/// One field of a receipt reading (`receipt_field`).
public struct ReceiptField: Sendable, Equatable {
    public var sourceFileID: Int64
    public var value: ReceiptReading.FieldValue

    public init(sourceFileID: Int64, _ value: ReceiptReading.FieldValue) {
        self.sourceFileID = sourceFileID
        self.value = value
    }
}

extension ReceiptField: TabulatedRecord {
    public static let columnTable = ColumnTable<ReceiptField>("receipt_field", [
        .key("source_file_id") { $0.sourceFileID },
        .key("field") { $0.value.field },
        .value("value") { $0.value.value },
        .value("confidence") { $0.value.confidence },
        .value("line") { $0.value.line },
        .value("line_text") { $0.value.lineText },
    ])
    public static var isFact: Bool { false }
}
